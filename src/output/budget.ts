/**
 * A token budget for agent-format text. Over budget, long texts are cut
 * first, longest first (a text area's value, a document's paragraph): each
 * keeps its first {@link LONG_TEXT} characters and says its length and how to
 * read it whole (`read --scope-ref <ref> --max-text 0`). Then the largest
 * repeated regions (many sibling lines under one parent: table rows, list
 * items, menu items; a region weighs the square of its number of children
 * times its median child, so a table's rows collapse before the page that
 * holds it) collapse: their first lines stay, and one summary line
 * says how many were left out and how to see them (`read --scope-ref
 * <parent>`). Nothing is dropped silently, and every ref still printed stays
 * valid.
 *
 * Pure: the caller supplies the token counter (o200k in the CLI and MCP).
 *
 * @module
 */

import { lineRef } from "./agent_parse.ts";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/** Characters a long text keeps over budget. */
export const LONG_TEXT = 200;

/** A quoted text of the agent format, with the length a cut one says after it. */
const QUOTED = /"((?:[^"\\]|\\.)*)"(?:\((\d+) chars\))?/g;

/** One quoted text of a line: where it is and how long it is in code points. */
interface Quoted {
  line: number;
  start: number;
  end: number;
  /** The escaped text between the quotes. */
  body: string;
  /** Its length as read (what a cut one says, else its own). */
  chars: number;
}

/** The unescaped units of an escaped text: an escape sequence counts as one character. */
function units(body: string): string[] {
  return body.match(/\\u[0-9a-f]{4}|\\.|[\s\S]/gu) ?? [];
}

/** The quoted texts of a line longer than {@link LONG_TEXT} characters. */
function longTexts(line: string, at: number): Quoted[] {
  const out: Quoted[] = [];
  for (const m of line.matchAll(QUOTED)) {
    const own = units(m[1]).length;
    if (own <= LONG_TEXT) continue;
    const chars = m[2] ? Number(m[2]) : own;
    out.push({ line: at, start: m.index!, end: m.index! + m[0].length, body: m[1], chars });
  }
  return out;
}

/** A long text cut to {@link LONG_TEXT} characters, saying its length and how to read it. */
function cutText(q: Quoted, ref: string | undefined): string {
  const head = units(q.body).slice(0, LONG_TEXT - 1).join("");
  const how = ref ? `: read --scope-ref ${ref} --max-text 0` : "";
  return `"${head}…"(${q.chars} chars${how})`;
}

/** Fewest lines a collapsed region keeps, so the agent sees what it holds. */
const KEEP = 3;

/** Fewest sibling blocks that make a region worth collapsing. */
const MIN_REGION = KEEP + 2;

/** The width of one level of indentation in the agent format. */
const INDENT = 2;

/** One parent's children: each child is a block (its line and its descendants' lines). */
interface Region {
  /** Index of the parent line (-1: the top level). */
  parent: number;
  /** Start index of each child block, in order, and the end of the last one. */
  blocks: number[];
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Every parent with at least {@link MIN_REGION} children, from the lines' indentation. */
function regions(lines: readonly string[]): Region[] {
  const out: Region[] = [];
  const open: Array<{ parent: number; indent: number; blocks: number[] }> = [
    { parent: -1, indent: 0, blocks: [] },
  ];
  const close = (upTo: number, at: number) => {
    while (open.length > upTo) {
      const r = open.pop()!;
      if (r.blocks.length >= MIN_REGION) out.push({ parent: r.parent, blocks: [...r.blocks, at] });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const ind = indentOf(lines[i]);
    // Close the parents this line is not inside.
    let depth = open.length;
    while (depth > 1 && open[depth - 1].indent > ind) depth--;
    close(depth, i);
    const top = open[open.length - 1];
    if (top.indent === ind) top.blocks.push(i);
    open.push({ parent: i, indent: ind + INDENT, blocks: [] });
  }
  close(0, lines.length);
  return out;
}

/**
 * A region's weight as repetition: the square of its number of blocks times
 * the median block's cost (many like blocks outweigh a few unlike ones).
 */
function repeatedSize(r: Region, live: (from: number, to: number) => number): number {
  const sizes: number[] = [];
  for (let k = 0; k + 1 < r.blocks.length; k++) sizes.push(live(r.blocks[k], r.blocks[k + 1]));
  sizes.sort((a, b) => a - b);
  return sizes.length * sizes.length * (sizes[Math.floor(sizes.length / 2)] ?? 0);
}

/**
 * Fits agent text into a token budget by collapsing its largest repeated
 * regions (see the module doc).
 *
 * @param text agent-format text
 * @param budget most tokens wanted
 * @param count the token counter
 * @returns the text, collapsed where needed (unchanged when within budget)
 * @example
 * ```ts
 * import { fitBudget } from "./budget.ts";
 * const rows = Array.from({ length: 50 }, (_, k) => `  [${k + 2}|r${k}] row "Row ${k}"`);
 * const text = ["[1|list] list", ...rows].join("\n") + "\n";
 * const out = fitBudget(text, 60, (s) => s.length / 4);
 * console.log(out.split("\n").length < 10); // true: a summary line stands for the rest
 * ```
 * @example A table's rows collapse, not the page around the table
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitBudget } from "./budget.ts";
 * const rows = Array.from({ length: 100 }, (_, k) => `      [${k + 9}|r${k}] row: "Order ${k}" | "Paid"`);
 * const text = [
 *   "[1|page] web \"Orders\"",
 *   "  [2|main] main",
 *   "    [3|h] heading \"Orders\"",
 *   "    [4|q] input \"Search\"",
 *   "    [5|go] btn \"Go\"",
 *   "    [6|orders] table \"Orders\"",
 *   ...rows,
 *   "    [7|prev] btn \"Previous\"",
 *   "    [8|next] btn \"Next\"",
 * ].join("\n") + "\n";
 * const count = (s: string) => Math.ceil(s.length / 4);
 * const out = fitBudget(text, 600, count);
 * assert.ok(out.includes("Order 20"), "rows that fit the budget stay");
 * assert.ok(out.includes('btn "Next"'), "the page around the table stays");
 * assert.match(out, /more of these 100 lines left out .*read --scope-ref orders/);
 * ```
 */
export function fitBudget(text: string, budget: number, count: TokenCounter): string {
  const lines = text.replace(/\n$/, "").split("\n");
  const cost = lines.map((l) => count(l) + 1);
  let total = cost.reduce((a, b) => a + b, 0);
  if (total <= budget) return text;
  // Long texts first, longest first: one value must not take the budget of the whole read.
  const long = lines.flatMap(longTexts).sort((a, b) => b.body.length - a.body.length);
  const original = [...lines];
  const cuts = new Map<number, Quoted[]>();
  for (const q of long) {
    if (total <= budget) break;
    const mine = [...cuts.get(q.line) ?? [], q].sort((a, b) => a.start - b.start);
    cuts.set(q.line, mine);
    const before = cost[q.line];
    const line = original[q.line];
    const ref = lineRef(line);
    let cut = "";
    let at = 0;
    for (const c of mine) {
      cut += line.slice(at, c.start) + cutText(c, ref);
      at = c.end;
    }
    lines[q.line] = cut + line.slice(at);
    cost[q.line] = count(lines[q.line]) + 1;
    total += cost[q.line] - before;
  }
  const dropped = new Uint8Array(lines.length);
  /** Summary lines, by the index of the first line they stand for. */
  const notes = new Map<number, string[]>();
  const live = (from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) if (!dropped[i]) sum += cost[i];
    return sum;
  };
  // Most repeated regions first: collapse each just enough, until the text fits. A region
  // weighs the square of its number of blocks times its median block, so a table of 200 rows, or
  // a toolbar of 30 buttons, goes before the few unlike children of the window that holds it
  // (weighed by its size, the window would drop whole toolbars or the whole table from its end,
  // rows that fit the budget included).
  const all = regions(lines).map((r) => ({ r, size: repeatedSize(r, live) }))
    .sort((a, b) => b.size - a.size);
  for (const { r } of all) {
    if (total <= budget) break;
    const n = r.blocks.length - 1;
    if (dropped[r.blocks[0]]) continue; // inside a region already collapsed
    // Drop blocks from the end until within budget, keeping the first few.
    let keep = n;
    let freed = 0;
    const note = 40; // room for the summary line
    while (keep > KEEP && total - freed + note > budget) {
      keep--;
      freed += live(r.blocks[keep], r.blocks[keep + 1]);
    }
    if (keep === n) continue;
    for (let i = r.blocks[keep]; i < r.blocks[n]; i++) dropped[i] = 1;
    const parentRef = r.parent >= 0 ? lineRef(lines[r.parent]) : undefined;
    const indent = " ".repeat(indentOf(lines[r.blocks[0]]));
    const how = parentRef
      ? `read --scope-ref ${parentRef} to see them`
      : "narrow the read with --scope-ref, --roles or --text to see them";
    const summary = `${indent}… ${n - keep} more of these ${n} lines left out ` +
      `(over the ${budget}-token budget): ${how}, or raise --budget`;
    notes.set(r.blocks[keep], [...notes.get(r.blocks[keep]) ?? [], summary]);
    total = total - freed + count(summary) + 1;
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    out.push(...notes.get(i) ?? []);
    if (!dropped[i]) out.push(lines[i]);
  }
  return out.join("\n") + "\n";
}

/** The o200k counter, loaded once (its tables are large). */
let o200k: Promise<TokenCounter> | undefined;

/**
 * The o200k_base token counter (npm js-tiktoken), loaded on first use.
 *
 * @returns a function counting the o200k tokens of a text
 */
export function o200kCounter(): Promise<TokenCounter> {
  o200k ??= import("js-tiktoken").then(({ getEncoding }) => {
    const enc = getEncoding("o200k_base");
    return remembering((text: string) => enc.encode(text).length);
  });
  return o200k;
}

/** Most texts whose counts a counter keeps (a few MB of lines). */
const COUNTED_MAX = 50_000;

/**
 * A counter that keeps the counts of the texts it counted: a long-lived
 * process reads the same app again and again, and a read again is mostly the
 * lines of the last one (counting them costs ~30 ms a page of 350 lines).
 * Bounded: past {@link COUNTED_MAX} texts it starts afresh.
 *
 * @param count the counter
 * @returns the same counts, each text counted once
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { remembering } from "./budget.ts";
 * let calls = 0;
 * const count = remembering((s) => (calls++, s.length));
 * assert.equal(count("abc") + count("abc") + count("de"), 8);
 * assert.equal(calls, 2);
 * ```
 */
export function remembering(count: TokenCounter): TokenCounter {
  const known = new Map<string, number>();
  return (text) => {
    let n = known.get(text);
    if (n === undefined) {
      n = count(text);
      if (known.size >= COUNTED_MAX) known.clear();
      known.set(text, n);
    }
    return n;
  };
}

/** The budget of an MCP read when the client gives none: under one tool result's 25,000. */
export const DEFAULT_MCP_BUDGET = 20_000;
