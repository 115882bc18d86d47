/**
 * Reads the agent format back: which elements a text makes addressable, with
 * their ids and refs, rows of uniform runs included (their `[40]` cells get
 * the row's ref plus the header's suffix). Tests and benchmarks use it to
 * check that every element is reachable by ref; an agent-side program can use
 * it to turn a printed tree into targets.
 *
 * @module
 */

import { rowPartRef } from "../identity/syntax.ts";
import { slug } from "../refs/generate.ts";
import { namesRow, ROW_PLACEHOLDER, RUN_HEADER } from "./agent_rows.ts";

/** An element an agent-format text addresses. */
export interface AgentTarget {
  /** Its id in the read (absent when printed as `-`: not in the last read). */
  i?: number;
  /** Its ref. */
  ref: string;
}

const ID_REF = /^(\d+|-)\|(.*)$/;
const ID_ONLY = /^(\d+|-)$/;
/**
 * A handle that is its id alone, its ref being its label's slug
 * (`[15] chk "Subscribe to the newsletter"`; such a label is printed
 * unescaped), or, with no label, its role (`[21] banner`): a line's own, or
 * a cell's on a row folded onto one line.
 */
const LABEL_REF = /^\[(\d+)\](?: ([a-z]+))?(?: "([^"\\]*)"|$| |:)/;
/** A quoted text right after a handle: `[94] "Select SO-1001"` (unescaped where it makes a ref). */
const QUOTED_AFTER = /^ "([^"\\]*)"/;

/** A `[...]` token of a line: where it starts and ends (after its `]`), and what it holds. */
interface Token {
  start: number;
  end: number;
  body: string;
}

/** The `[...]` tokens of a line, skipping quoted strings (labels may hold brackets). */
function bracketTokens(line: string): Token[] {
  const out: Token[] = [];
  for (let k = 0; k < line.length; k++) {
    const ch = line[k];
    if (ch === '"') {
      for (k++; k < line.length && line[k] !== '"'; k++) if (line[k] === "\\") k++;
    } else if (ch === "[") {
      const end = line.indexOf("]", k);
      if (end < 0) break;
      out.push({ start: k, end: end + 1, body: line.slice(k + 1, end) });
      k = end;
    }
  }
  return out;
}

/**
 * The first quoted text of a line from `from` on that is not a field's value
 * (`val="…"`) and can name a row (`namesRow`: not "1.", not a bullet): what a
 * row with its id alone is keyed by. Undefined when
 * there is none, or it holds an escape (such a text never stands for a ref).
 */
function firstFreeText(line: string, from: number): string | undefined {
  for (let k = from; k < line.length; k++) {
    if (line[k] !== '"') continue;
    let end = k + 1;
    let escaped = false;
    for (; end < line.length && line[end] !== '"'; end++) {
      if (line[end] === "\\") {
        escaped = true;
        end++;
      }
    }
    const text = line.slice(k + 1, end);
    // Skipped as the writer skips them: values, ordinals ("1."), texts without a slug.
    if (line[k - 1] !== "=" && namesRow(text)) return escaped ? undefined : text;
    k = end;
  }
  return undefined;
}

/**
 * Whether a line has a row's `: ` after its head: outside quoted texts and
 * parentheses (`…"(1854 chars: read …)` is not one).
 */
function rowColon(line: string, from: number): boolean {
  let depth = 0;
  for (let k = from; k < line.length; k++) {
    const ch = line[k];
    if (ch === '"') {
      for (k++; k < line.length && line[k] !== '"'; k++) if (line[k] === "\\") k++;
    } else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === ":" && depth === 0 && line[k + 1] === " ") return true;
    else if (ch === "[") return false;
  }
  return false;
}

/** One element handle of a text: where, its id and ref, and whether the ref was left out. */
interface Handle extends AgentTarget {
  /** Line number. */
  line: number;
  /** Where its `[...]` token starts and ends in the line (indentation included). */
  start: number;
  end: number;
  /** The ref is not printed: it stands for the text beside it (a slug) or the role. */
  implied: boolean;
}

function idOf(text: string): number | undefined {
  return text === "-" ? undefined : Number(text);
}

function target(id: string, ref: string): AgentTarget {
  const i = idOf(id);
  return i === undefined ? { ref } : { i, ref };
}

/**
 * Every element handle of an agent-format text, in order: each line's own,
 * the rows of uniform runs and their cells (`[40]`: the row's ref plus the
 * header's suffix), and the `[id|ref]` tokens elsewhere on a line.
 */
function handles(text: string): Handle[] {
  const out: Handle[] = [];
  const add = (line: number, indent: number, t: Token, id: string, ref: string, implied: boolean) =>
    out.push({ ...target(id, ref), line, start: indent + t.start, end: indent + t.end, implied });
  // A run's header: per element cell, the suffix below the row's ref, or null for a cell
  // printed with its own ref (`[id|ref]`, or `[id]` and a label that is the ref's slug).
  let run: { indent: number; suffixes: Array<string | null> } | null = null;
  const placeholder = `id|${ROW_PLACEHOLDER}/`;
  for (const [n, raw] of text.split("\n").entries()) {
    const body = raw.trimStart();
    const indent = raw.length - body.length;
    const tokens = bracketTokens(body);
    if (body.startsWith(RUN_HEADER + " ")) {
      const suffixes = tokens.map((t) => t.body)
        .filter((t) => t.startsWith(placeholder) || t === "id|ref")
        .map((t) => t === "id|ref" ? null : t.slice(placeholder.length));
      run = { indent, suffixes };
      continue;
    }
    const [first, ...cells] = tokens;
    // A row prints `[id|ref]`, or `[id]` when its ref is its first text's slug, then its
    // label, box and flags, then `: ` and its cells.
    const head = first?.start !== 0
      ? null
      : ID_REF.exec(first.body) ?? (rowColon(body, first.end) ? ID_ONLY.exec(first.body) : null);
    const r = run;
    if (
      r && indent === r.indent && head && cells.length <= r.suffixes.length &&
      cells.every((t, k) =>
        r.suffixes[k] !== null ? ID_ONLY.test(t.body) : ID_REF.test(t.body) ||
          (ID_ONLY.test(t.body) && QUOTED_AFTER.test(body.slice(t.end)))
      )
    ) {
      const rowRef = head[2] ?? slug(firstFreeText(body, first.end) ?? "");
      add(n, indent, first, head[1], rowRef, head[2] === undefined);
      cells.forEach((t, k) => {
        const suffix = r.suffixes[k];
        const written = ID_REF.exec(t.body);
        if (suffix !== null) add(n, indent, t, t.body, rowPartRef(rowRef, suffix), false);
        else if (written) add(n, indent, t, written[1], written[2], false);
        else add(n, indent, t, t.body, slug(QUOTED_AFTER.exec(body.slice(t.end))![1]), true);
      });
      continue;
    }
    if (run && indent <= run.indent) run = null;
    // The line's own handle, and those of the cells of a row folded onto it.
    for (const t of tokens) {
      const m = ID_REF.exec(t.body);
      if (m) {
        add(n, indent, t, m[1], m[2], false);
        continue;
      }
      const own = LABEL_REF.exec(body.slice(t.start));
      // A row folded onto its line without a label of its own: named by its first text.
      const rowText = t === first && own && own[3] === undefined && rowColon(body, t.end)
        ? firstFreeText(body, t.end)
        : undefined;
      if (own?.[3] !== undefined) add(n, indent, t, own[1], slug(own[3]), true);
      else if (rowText !== undefined) add(n, indent, t, own![1], slug(rowText), true);
      else if (own?.[2] !== undefined) add(n, indent, t, own[1], own[2], true);
    }
  }
  return out;
}

/**
 * Every element an agent-format text addresses, in order.
 *
 * @param text output of `read --format agent` (tree or flat)
 * @returns ids and refs
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentTargets } from "./agent_parse.ts";
 * const text = [
 *   '[7] btn "Save As…"',
 *   '[8] toolbar',
 *   '  rows: "…" | [id|<row>/delete] btn "Delete"',
 *   '  [38|list/item-1]: "Item 1" | [40]',
 *   '  [41]: "Item 2" | [43]',
 * ].join("\n");
 * assert.deepEqual(agentTargets(text), [
 *   { i: 7, ref: "save-as" },
 *   { i: 8, ref: "toolbar" },
 *   { i: 38, ref: "list/item-1" },
 *   { i: 40, ref: "list/item-1/delete" },
 *   { i: 41, ref: "item-2" },
 *   { i: 43, ref: "item-2/delete" },
 * ]);
 * ```
 */
export function agentTargets(text: string): AgentTarget[] {
  return handles(text).map(({ i, ref }) => i === undefined ? { ref } : { i, ref });
}

/**
 * The agent-format text with every ref written out: a handle that is an id
 * alone, its ref standing for the text beside it or the role, gets that ref
 * (`[15]` becomes `[15|remember-me]`), so that a program can find a line by
 * its ref. A run's cells derived from their row (`[40]`) stay as printed.
 *
 * @param text output of `read --format agent`
 * @returns the same lines with those refs written out
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeRefsOut } from "./agent_parse.ts";
 * assert.equal(writeRefsOut('  [15] chk "Remember me" checked\n  [3] toolbar'),
 *   '  [15|remember-me] chk "Remember me" checked\n  [3|toolbar] toolbar');
 * ```
 */
export function writeRefsOut(text: string): string {
  const lines = text.split("\n");
  const all = handles(text).filter((h) => h.implied);
  // From the end of each line, so earlier positions stay valid.
  for (let k = all.length - 1; k >= 0; k--) {
    const h = all[k];
    const line = lines[h.line];
    lines[h.line] = `${line.slice(0, h.start)}[${h.i}|${h.ref}]${line.slice(h.end)}`;
  }
  return lines.join("\n");
}

/**
 * The ref of the element a line starts with: written out (`[12|form/email]`)
 * or stood for by its id alone (`[15] chk "Remember me"`: `remember-me`).
 *
 * @param line one line of the agent format, indented or not
 * @returns the ref, or undefined when the line starts with no element handle
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineRef } from "./agent_parse.ts";
 * assert.equal(lineRef('  [12|form/email] input "Email"'), "form/email");
 * assert.equal(lineRef('  [15] chk "Remember me"'), "remember-me");
 * assert.equal(lineRef('  "static text"'), undefined);
 * ```
 */
export function lineRef(line: string): string | undefined {
  const body = line.trimStart();
  if (!body.startsWith("[")) return undefined;
  const first = handles(body)[0];
  return first?.start === 0 ? first.ref : undefined;
}
