/**
 * Renders element trees and changes as text for agents and programs.
 *
 * - `agent`: compact lines, see {@link renderAgent}.
 * - `json`: one document `{"format":"desktop-snapshot","version":1, ...meta,
 *   "root": tree}` (or `"elements": [...]` when flat) that the replay backend
 *   loads back with `parseSnapshot`.
 * - `yaml`: the same data without the format header, bounds and actions in
 *   flow style.
 *
 * No format ever contains `nid` or a secure element's value.
 *
 * @module
 */

import { type Change, enclosingRefs } from "../diff/diff.ts";
import { isSilentField } from "../diff/noise.ts";
import type { Bounds, Element } from "../model/element.ts";
import { elementLine, quote, renderAgent } from "./agent.ts";
import {
  idText,
  informativeActions,
  isAnonymous,
  isPunctuation,
  READ_MAX_TEXT,
  shownChildren,
} from "./agent_line.ts";
import { stripIndex } from "../identity/syntax.ts";
import { slug } from "../refs/generate.ts";
import { elementData, flatData, treeData } from "./data.ts";
import { toYaml } from "./yaml.ts";
import { refShortener } from "./short_refs.ts";
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "./snapshot.ts";

/** Output formats of `read` and `find`. */
export type Format = "agent" | "yaml" | "json";

/** The formats {@link renderElements} accepts, for argument checking. */
export const FORMATS: readonly Format[] = ["agent", "yaml", "json"];

/** How to render. */
export interface RenderOptions {
  /** Output format. */
  format: Format;
  /** Flat list with landmark paths instead of a tree. */
  flat?: boolean;
  /** Extra top-level fields for yaml/json (app, window, truncated...). */
  meta?: Record<string, unknown>;
  /** Print bounds (default true); false leaves them out of every format. */
  bounds?: boolean;
  /**
   * Agent format: the window box around the printed subtree, when the subtree
   * starts below its window (a scoped read); boxes outside it are left out.
   */
  viewport?: Bounds;
  /** Agent format: longest label or value printed (default READ_MAX_TEXT; 0: no cap). */
  maxText?: number;
  /** JSON: indent with two spaces (default: one compact line). */
  pretty?: boolean;
  /**
   * Agent format: the whole tree that was read, when `tree` is a filtered
   * part of it. Printed refs are shortened to the shortest suffix that is
   * unique among this tree's refs (what `--ref` resolves against); default:
   * the printed tree itself.
   */
  refsFrom?: Element;
  /**
   * Agent format: print each ref as its shortest unique suffix (see
   * ./short_refs.ts; what `read` and the MCP read do). Default: full refs.
   */
  shortRefs?: boolean;
}

/** Keys of the JSON document that `meta` cannot override. */
const RESERVED = new Set(["format", "version", "root", "elements"]);

/** Meta without the reserved keys. */
function cleanMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta ?? {})) if (!RESERVED.has(k)) out[k] = v;
  return out;
}

/**
 * Renders a tree (with ids and refs assigned) in the chosen format.
 *
 * @param tree the tree
 * @param opts format, flat, meta and format options
 * @returns the text (agent and yaml end with a newline, json does not)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderElements } from "./render.ts";
 * const root = { i: 1, ref: "toolbar", r: "toolbar" as const, c: [
 *   { i: 2, ref: "toolbar/search", r: "input" as const, t: "Search", b: [200, 50, 800, 30] as [number, number, number, number] },
 * ] };
 * assert.equal(
 *   renderElements(root, { format: "agent" }),
 *   '[1|toolbar] toolbar\n  [2|toolbar/search] input "Search" (200,50,800,30)\n',
 * );
 * ```
 */
export function renderElements(tree: Element, opts: RenderOptions): string {
  const root = opts.bounds === false && opts.format !== "agent" ? withoutBounds(tree) : tree;
  switch (opts.format) {
    case "agent":
      return renderAgent(root, {
        bounds: opts.bounds,
        maxText: opts.maxText ?? READ_MAX_TEXT,
        tree: !opts.flat,
        // A tree shows static text as text; a flat list (a filtered read) keeps every ref.
        bareText: !opts.flat,
        ...(opts.viewport ? { viewport: opts.viewport } : {}),
        ...(opts.shortRefs ? { short: refShortener(refsOf(opts.refsFrom ?? root)) } : {}),
      });
    case "json": {
      const doc = {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        ...cleanMeta(opts.meta),
        ...(opts.flat ? { elements: flatData(root) } : { root: treeData(root) }),
      };
      return JSON.stringify(doc, null, opts.pretty ? 2 : undefined);
    }
    case "yaml": {
      const doc = {
        ...cleanMeta(opts.meta),
        ...(opts.flat ? { elements: flatData(root) } : { root: treeData(root) }),
      };
      return toYaml(doc);
    }
  }
}

/** A value in a changed line: strings quoted, bounds as `(x,y,w,h)`, absent as `none`. */
function changeValue(key: string, v: unknown): string {
  if (v === null || v === undefined) return "none";
  if (typeof v === "string") return quote(v, 120);
  if (key === "b" && Array.isArray(v)) return `(${v.join(",")})`;
  if (key === "sel" && Array.isArray(v)) return `${v[0]}..${v[1]}`;
  if (Array.isArray(v)) return v.join(",");
  return String(v);
}

/** The longest text a changed line quotes of a value. */
const CHANGE_TEXT_CHARS = 120;

/** How much a long text's change shows before where it differs (chars). */
const CHANGE_CONTEXT_CHARS = 30;

/**
 * A changed value as `old -> new`. Two long texts that differ past the
 * length a line quotes are quoted from a little before where they differ
 * (`"…pub=true; dn=Ada"`), else the line would show the same text twice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changePair } from "./render.ts";
 * const head = "x".repeat(150);
 * assert.equal(changePair("t", `${head} pub=true`, `${head} pub=false`),
 *   `"…${"x".repeat(25)} pub=true"(159 chars) -> "…${"x".repeat(25)} pub=false"(160 chars)`);
 * assert.equal(changePair("v", "a", "b"), '"a" -> "b"');
 * ```
 */
export function changePair(key: string, a: unknown, b: unknown): string {
  const plain = `${changeValue(key, a)} -> ${changeValue(key, b)}`;
  if (typeof a !== "string" || typeof b !== "string") return plain;
  const x = Array.from(a), y = Array.from(b);
  let same = 0;
  while (same < x.length && same < y.length && x[same] === y[same]) same++;
  // The quoted parts show where they differ: nothing to do.
  if (same < CHANGE_TEXT_CHARS - 1) return plain;
  const from = same - CHANGE_CONTEXT_CHARS;
  const part = (chars: string[]) => {
    const text = quote(chars.slice(from).join(""), CHANGE_TEXT_CHARS).replace(/\(\d+ chars\)$/, "");
    return `"…${text.slice(1)}(${chars.length} chars)`;
  };
  return `${part(x)} -> ${part(y)}`;
}

/** A change with any secure value removed, as written in JSONL. */
function safeChange(ch: Change): Change {
  if (ch.type !== "added") return ch;
  const { el, ...rest } = ch;
  const data = elementData(el) as unknown as typeof el;
  if (el.p !== undefined) data.p = el.p;
  return { ...rest, el: data };
}

/**
 * Renders diff changes as agent text (one line each: `+` added, `-` removed,
 * `~` changed with `key: old -> new`) or JSONL (one JSON object per line).
 *
 * The agent text says only what a reader would see change: a new part is
 * printed whole when it fits {@link ADDED_LINES_LISTED} lines (a menu always),
 * else as its first element that says what it is with a count; an element
 * that moved among its siblings is `moved: 4 -> 1`, or one `reordered` line
 * for its container when more than {@link MOVES_LISTED} moved; a twin's new
 * `.N` index and a text that differs only in spacing or glyphs print nothing;
 * many elements of one kind added, removed, or changing only their values in
 * one place (a live table's figures) are one line with a few samples.
 * JSONL keeps every change.
 *
 * @param changes the changes, in order
 * @param format `agent` or `jsonl`
 * @returns the text, ending with a newline when not empty
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderChanges } from "./render.ts";
 * assert.equal(renderChanges([
 *   { type: "changed", ref: "form/email", i: 5, changes: { v: ["a", "b"] } },
 * ], "agent"), '~ [5|form/email] v: "a" -> "b"\n');
 * ```
 */
export function renderChanges(changes: Change[], format: "agent" | "jsonl"): string {
  if (changes.length === 0) return "";
  if (format === "jsonl") {
    return changes.map((ch) => JSON.stringify(safeChange(ch))).join("\n") + "\n";
  }
  // What a removed element held goes with it: one line and a count. So does what a new
  // element holds, when it is more than a glance (a page of search results).
  const enclosing = enclosingRefs(changes);
  const top = (ch: Change): string | undefined => enclosing(ch).at(-1);
  const inside = new Map<string, number>();
  for (const ch of changes) {
    const t = top(ch);
    if (t !== undefined) inside.set(`${ch.type} ${t}`, (inside.get(`${ch.type} ${t}`) ?? 0) + 1);
  }
  const count = (ch: Change) => inside.get(`${ch.type} ${ch.ref}`) ?? 0;
  const subtrees = addedSubtrees(changes);
  // A menu that opened is what the next step picks from: listed whole. So is any new part
  // that fits a glance (a dialog with its fields); a larger one is named, with where to read it.
  const menus = new Set(
    changes.filter((ch) => ch.type === "added" && ch.el.r === "menu").map((ch) => ch.ref),
  );
  // What shows again once a dialog closed (a page a modal dialog had taken out of the tree) is
  // what the agent read before it: named, not listed again.
  const dialogClosed = changes.some((ch) =>
    ch.type === "removed" && ch.up === undefined && CLOSING_ROLES.has(ch.r)
  );
  const listed = new Map<string, AddedLine[] | null>();
  const linesOf = (ref: string): AddedLine[] | null => {
    if (!listed.has(ref)) {
      const lines = addedLines(subtrees.get(ref)!);
      const fits = lines.length <= ADDED_LINES_LISTED &&
        lines.reduce((n, l) => n + l.line.length, 0) <= ADDED_CHARS_LISTED &&
        !(dialogClosed && lines.length > 1 && !CLOSING_ROLES.has(subtrees.get(ref)!.r));
      listed.set(ref, menus.has(ref) || fits ? lines : null);
    }
    return listed.get(ref)!;
  };
  const gone = (ch: Change) => {
    const n = count(ch);
    return n ? ` (and ${n} inside)` : "";
  };
  // What a read prints no line for (a separator, an unlabeled group) gets none here either,
  // unless it stands for what it held.
  const unprinted = (ch: Change, el: Element) =>
    count(ch) === 0 && (isAnonymous(el) || isPunctuation(el));
  /** The removed elements inside the removed `ref` that a read printed a line for. */
  const printedInside = (ref: string): Element[] =>
    changes.flatMap((c) =>
      c.type === "removed" && c.ref !== ref && top(c) === ref &&
        !isAnonymous(removedElement(c)) && !isPunctuation(removedElement(c))
        ? [removedElement(c)]
        : []
    );
  const changedByRef = new Map<string, Extract<Change, { type: "changed" }>>();
  for (const ch of changes) if (ch.type === "changed") changedByRef.set(ch.ref, ch);
  // Rows that moved: each one's line when a few did, one line for their container when many.
  const movedIn = new Map<string, Array<Extract<Change, { type: "changed" }>>>();
  for (const ch of changes) {
    if (ch.type === "changed" && ch.changes.at && ch.in !== undefined) {
      movedIn.set(ch.in, [...movedIn.get(ch.in) ?? [], ch]);
    }
  }
  const lines: string[] = [];
  /** For each line of a lone element added or removed: its kind, and what to sample of it. */
  const lone = new Map<number, LoneLine>();
  const loneLine = (sign: string, ref: string, role: string, text: string, t?: string) => {
    const place = containerOf(ref);
    lone.set(lines.length, {
      kind: `${sign} ${role}\u0000${place}`,
      // Without a label, its ref in that place (a row's key).
      sample: t
        ? JSON.stringify(t.length > SAMPLE_CHARS ? `${t.slice(0, SAMPLE_CHARS)}…` : t)
        : place
        ? ref.slice(place.length + 1)
        : ref,
    });
    lines.push(text);
  };
  const reordered = new Set<string>();
  for (const ch of changes) {
    switch (ch.type) {
      case "added": {
        // What sits inside a new element is printed with it, as a read prints it (a row and its
        // text on one line, a link's caption folded into it), with no box: the agent acts by
        // ref (JSONL keeps boxes).
        if (top(ch) !== undefined || unprinted(ch, ch.el)) break;
        const whole = linesOf(ch.ref);
        if (whole?.length === 1 && !whole[0].leaf) {
          // A part a read prints on one line (a row and its cells): many of one place (a
          // filter cleared, a list scrolled) are one line.
          loneLine("+", ch.ref, ch.el.r, `+ ${whole[0].line}`, ch.el.t);
        } else if (whole) {
          for (const { line, leaf } of whole) {
            if (leaf?.ref) loneLine("+", leaf.ref, leaf.r, `+ ${line}`, leaf.t);
            else lines.push(`+ ${line}`);
          }
        } else {
          const shown = namedPart(subtrees.get(ch.ref)!);
          lines.push(
            `+ ${elementLine(shown, { bounds: false })} (and ${count(ch)} inside: ` +
              `read --scope-ref ${shown.ref})`,
          );
        }
        break;
      }
      case "removed": {
        const el = removedElement(ch);
        if (ch.up !== undefined || unprinted(ch, el)) break;
        if (count(ch) === 0) {
          loneLine("-", ch.ref, ch.r, `- ${elementLine(el)}`, ch.t);
          break;
        }
        // An unlabeled group a read never printed is named by what it held, as the read showed
        // it: a few lines, or the first of many.
        const held = isAnonymous(el) ? printedInside(ch.ref) : [];
        if (held.length && held.length <= REMOVED_LISTED) {
          for (const m of held) loneLine("-", m.ref ?? "", m.r, `- ${elementLine(m)}`, m.t);
        } else if (held.length) {
          const first = `, first ${heldSample(held[0])}`;
          lines.push(`- ${elementLine(el)}${gone(ch).replace(/\)$/, `${first})`)}`);
        } else {
          // Many rows of one place (a filter took them away) are one line.
          loneLine("-", ch.ref, ch.r, `- ${elementLine(el)}${gone(ch)}`, ch.t);
        }
        break;
      }
      case "changed": {
        if (echoesParentChange(ch, changedByRef)) break;
        const moves = ch.in !== undefined ? movedIn.get(ch.in) : undefined;
        const grouped = moves !== undefined && moves.length > MOVES_LISTED;
        if (grouped && !reordered.has(ch.in!)) {
          reordered.add(ch.in!);
          lines.push(reorderLine(ch.in!, moves));
        }
        const parts = Object.entries(ch.changes).filter(([k, [a, b]]) => {
          // A twin's index that moved (a twin came or went before it) is bookkeeping, not
          // news: the line names the element by its new ref.
          if (k === "ref") return !isTwinShift(a, b) && !refFollowsLabel(b, ch.changes.t?.[1]);
          if (k === "at") return !grouped;
          // Actions that say nothing (scrolling that came with a longer page) are no news.
          if (k === "a") return informativeActionsOf(a).join() !== informativeActionsOf(b).join();
          return !isSilentField(k, a, b);
        }).map(([k, [a, b]]) =>
          k === "at"
            ? `moved: ${Number(a) + 1} -> ${Number(b) + 1}`
            : `${k}: ${changePair(k, a, b)}`
        );
        if (!parts.length) break;
        const line = `~ [${idText(ch)}|${ch.ref}] ${parts.join("; ")}`;
        const valuesOnly = Object.keys(ch.changes).every((k) => k === "t" || k === "v");
        if (valuesOnly) {
          // The figures of many rows (a process monitor's columns, updated as it runs): one
          // line for them all.
          const [up, base] = [containerOf(containerOf(ch.ref)), lastSegment(ch.ref)];
          lone.set(lines.length, {
            kind: `~\u0000${up}`,
            sample: `${ch.ref.slice(up ? up.length + 1 : 0)} ${parts.join("; ")}`,
            base,
          });
        }
        lines.push(line);
      }
    }
  }
  if (lines.length === 0) return "";
  return manyAsOne(lines, lone).join("\n") + "\n";
}

/** More lone elements of one kind in one place than this are one line (a page's line numbers). */
const LONE_LISTED = 8;
/** Samples that line quotes. */
const SAMPLES = 3;
/** New controls of one kind in one place listed one by one, up to this many (a popover menu). */
const CONTROLS_LISTED = 30;
/** The roles {@link CONTROLS_LISTED} counts: what one clicks in a menu or popover. */
const CONTROLS: ReadonlySet<string> = new Set([
  "btn",
  "menuitem",
  "chk",
  "radio",
  "toggle",
  "combo",
  "input",
  "spin",
  "slider",
]);
/** Longest sample text. */
const SAMPLE_CHARS = 30;

/** The last part of a ref, without its twin index (`table/proc-1/cpu.2` → `cpu`). */
function lastSegment(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1).replace(/\.\d+$/, "");
}

/** The ref of the part holding `ref` ("" at the top). */
function containerOf(ref: string): string {
  const at = ref.lastIndexOf("/");
  return at === -1 ? "" : ref.slice(0, at);
}

/** A line that may be told with others of its kind in one place (see {@link manyAsOne}). */
interface LoneLine {
  /** Its kind and place: lines of one kind are one line when many. */
  kind: string;
  /** What the one line quotes of it. */
  sample: string;
  /** For a changed value, what the value is (`cpu`, its ref's last segment). */
  base?: string;
}

/**
 * The lines with each kind of lone element added or removed in one place
 * that came more than {@link LONE_LISTED} times said once, where the first
 * was: how many, a few of them, and where to read them. So are the value
 * changes in many rows of one place (a live table's figures, of one column
 * or several).
 */
function manyAsOne(
  lines: readonly string[],
  lone: ReadonlyMap<number, LoneLine>,
): string[] {
  const byKind = new Map<string, number[]>();
  for (const [at, { kind }] of lone) byKind.set(kind, [...byKind.get(kind) ?? [], at]);
  const dropped = new Set<number>();
  const summary = new Map<number, string>();
  for (const [kind, ats] of byKind) {
    if (ats.length <= LONE_LISTED) continue;
    const [head, where] = kind.split("\u0000");
    // New controls (a popover's buttons, opened) are what the next step picks from: listed with
    // their refs, unless there are more than a menu holds.
    if (head.startsWith("+ ") && CONTROLS.has(head.slice(2)) && ats.length <= CONTROLS_LISTED) {
      continue;
    }
    const bases = new Set(ats.map((at) => lone.get(at)!.base));
    const base = bases.size === 1 ? [...bases][0] : "values";
    const samples = ats.slice(0, SAMPLES).map((at) => lone.get(at)!.sample).join(", ");
    const place = where ? ` in ${where}` : "";
    const read = head.startsWith("+") && where ? `: read --scope-ref ${where} to see them` : "";
    summary.set(
      ats[0],
      head.startsWith("~")
        ? `~ ${ats.length} ${base}${place} changed (${samples}, …)`
        : `${head.replace(/ /, ` ${ats.length} `)}${place} (${samples}, …)${read}`,
    );
    for (const at of ats.slice(1)) dropped.add(at);
  }
  return lines.flatMap((line, at) => dropped.has(at) ? [] : [summary.get(at) ?? line]);
}

/** A text named by its role (`…/txt`, `…/txt.2`): its ref says nothing of its own. */
const TEXT_SEGMENT = /\/txt(?:\.\d+)?$/;

/**
 * Whether a change is a text repeating its parent's change: a link's caption
 * whose label changed with the link's. A read prints no line for that text;
 * a diff neither.
 */
function echoesParentChange(
  ch: Extract<Change, { type: "changed" }>,
  changedByRef: ReadonlyMap<string, Extract<Change, { type: "changed" }>>,
): boolean {
  if (!TEXT_SEGMENT.test(ch.ref) || Object.keys(ch.changes).join() !== "t") return false;
  const parent = changedByRef.get(ch.ref.replace(TEXT_SEGMENT, ""));
  return parent !== undefined && JSON.stringify(parent.changes.t) === JSON.stringify(ch.changes.t);
}

/** The informative actions of an action list as a diff holds it. */
function informativeActionsOf(list: unknown): string[] {
  return Array.isArray(list) ? informativeActions({ a: list as string[] }) : [];
}

/** Each added element as a tree of the added elements inside it (by their `up`), by ref. */
function addedSubtrees(changes: readonly Change[]): Map<string, Element> {
  const nodes = new Map<string, Element>();
  for (const ch of changes) {
    if (ch.type === "added") nodes.set(ch.ref, { ...ch.el, ref: ch.ref } as Element);
  }
  for (const ch of changes) {
    if (ch.type !== "added" || ch.up === undefined) continue;
    const parent = nodes.get(ch.up);
    if (parent) (parent.c ??= []).push(nodes.get(ch.ref)!);
  }
  return nodes;
}

/** A new subtree's lines as a read prints them; an unlabeled container stands aside. */
function addedLines(root: Element): AddedLine[] {
  // An unprinted wrapper shows what a read shows of it: no punctuation, no echo of a label.
  if (root.c?.length && isAnonymous(root)) return shownChildren(root, "").flatMap(addedLines);
  const lines = renderAgent(root, { bounds: false }).trimEnd().split("\n");
  if (lines.length === 1 && !root.c?.length) return [{ line: lines[0], leaf: root }];
  return lines.map((line) => ({ line }));
}

/** A line of a new subtree, with its element when that stands alone (no children). */
interface AddedLine {
  /** The line, as a read prints it. */
  line: string;
  /** The element, when the line is a lone element's. */
  leaf?: Element;
}

/**
 * How many lines (and characters) a new part may take and still be listed in
 * full in a diff: a dialog with a few fields, a menu (always listed), not a
 * page of results.
 */
const ADDED_LINES_LISTED = 16;
/** See {@link ADDED_LINES_LISTED}. */
const ADDED_CHARS_LISTED = 900;

/** Roles whose closing brings back what they covered (a modal dialog over a page). */
const CLOSING_ROLES: ReadonlySet<string> = new Set(["dialog", "alert"]);

/** How many lines a removed unlabeled group is told by: more are one line naming the first. */
const REMOVED_LISTED = 6;

/** A removed element as a line prints it. */
function removedElement(ch: Extract<Change, { type: "removed" }>): Element {
  return { i: ch.i, ref: ch.ref, r: ch.r as Element["r"], ...(ch.t ? { t: ch.t } : {}) };
}

/** One removed element named briefly: its role and label (`heading "Sections"`). */
function heldSample(el: Element): string {
  const t = el.t ?? "";
  return t
    ? `${el.r} ${JSON.stringify(t.length > SAMPLE_CHARS ? `${t.slice(0, SAMPLE_CHARS)}…` : t)}`
    : el.r;
}

/** How many moved siblings are listed one line each; more make one line for their container. */
const MOVES_LISTED = 3;

/** How many of the moved elements a container's reorder line names, in their new order. */
const MOVES_NAMED = 3;

/** One line for a container whose children moved: how many, and the new order's first ones. */
function reorderLine(
  container: string,
  moves: ReadonlyArray<Extract<Change, { type: "changed" }>>,
): string {
  const at = (m: Extract<Change, { type: "changed" }>) => Number(m.changes.at[1]);
  const order = [...moves].sort((x, y) => at(x) - at(y));
  const names = order.slice(0, MOVES_NAMED).map((m) => m.ref.slice(m.ref.lastIndexOf("/") + 1));
  const more = order.length > MOVES_NAMED ? ", …" : "";
  return `~ [-|${container}] reordered: ${moves.length} moved (now ${names.join(", ")}${more})`;
}

/**
 * The part of a new subtree to name when it is too large to list: below
 * unlabeled wrappers that hold one element each (a dialog inside its
 * backdrop group), the first element that says what it is.
 */
function namedPart(root: Element): Element {
  let el = root;
  while (isAnonymous(el) && el.c?.length === 1) el = el.c[0];
  return el;
}

/** Whether two refs are one twin base with another `.N` index (or none). */
function isTwinShift(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string" || a === b) return false;
  return stripIndex(a) === stripIndex(b);
}

/**
 * Whether a new ref is made of the new label beside it (a window retitled:
 * its ref follows its title): the label's change says it, and the line's
 * handle shows the new ref.
 */
function refFollowsLabel(ref: unknown, label: unknown): boolean {
  if (typeof ref !== "string" || typeof label !== "string") return false;
  const own = stripIndex(ref).slice(ref.lastIndexOf("/") + 1);
  const full = slug(label);
  return own !== "" && full.startsWith(own);
}

/** Every ref of a tree, document order. */
function refsOf(root: Element): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.ref !== undefined) out.push(el.ref);
    for (const kid of el.c ?? []) stack.push(kid);
  }
  return out;
}

/** A copy of a tree with no `b` keys. */
function withoutBounds(el: Element): Element {
  const { b: _b, c, ...rest } = el;
  return c ? { ...rest, c: c.map(withoutBounds) } : rest;
}
