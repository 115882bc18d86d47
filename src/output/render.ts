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
import type { Bounds, Element } from "../model/element.ts";
import { elementLine, quote, renderAgent } from "./agent.ts";
import {
  idText,
  informativeActions,
  isAnonymous,
  isPunctuation,
  READ_MAX_TEXT,
} from "./agent_line.ts";
import { stripIndex } from "../identity/syntax.ts";
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
 * import { renderElements } from "./render.ts";
 * const root = { i: 1, ref: "toolbar", r: "toolbar" as const, c: [
 *   { i: 2, ref: "toolbar/search", r: "input" as const, t: "Search", b: [200, 50, 800, 30] as [number, number, number, number] },
 * ] };
 * console.log(renderElements(root, { format: "agent" }));
 * // [1|toolbar] toolbar
 * //   [2|toolbar/search] input "Search" (200,50,800,30)
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
  if (Array.isArray(v)) return v.join(",");
  return String(v);
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
 * @param changes the changes, in order
 * @param format `agent` or `jsonl`
 * @returns the text, ending with a newline when not empty
 * @example
 * ```ts
 * import { renderChanges } from "./render.ts";
 * console.log(renderChanges([
 *   { type: "changed", ref: "form/email", i: 5, changes: { v: ["a", "b"] } },
 * ], "agent")); // ~ [5|form/email] v: "a" -> "b"
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
  // A menu that opened is what the next step picks from: listed whole.
  const menus = new Set(
    changes.filter((ch) => ch.type === "added" && ch.el.r === "menu").map((ch) => ch.ref),
  );
  const inFull = (ref: string) =>
    menus.has(ref) || (inside.get(`added ${ref}`) ?? 0) <= ADDED_INSIDE_LISTED;
  const held = (ch: Change) => {
    const n = count(ch);
    return inFull(ch.ref) ? "" : ` (and ${n} inside: read --scope-ref ${ch.ref})`;
  };
  const gone = (ch: Change) => {
    const n = count(ch);
    return n ? ` (and ${n} inside)` : "";
  };
  // What a read prints no line for (a separator, an unlabeled group) gets none here either,
  // unless it stands for what it held.
  const unprinted = (ch: Change, el: Element) =>
    count(ch) === 0 && (isAnonymous(el) || isPunctuation(el));
  const subtrees = addedSubtrees(changes);
  const changedByRef = new Map<string, Extract<Change, { type: "changed" }>>();
  for (const ch of changes) if (ch.type === "changed") changedByRef.set(ch.ref, ch);
  const lines: string[] = [];
  const renumbered: string[] = [];
  for (const ch of changes) {
    switch (ch.type) {
      case "added":
        // What sits inside a new element is printed with it, as a read prints it (a row and its
        // text on one line, a link's caption folded into it), with no box: the agent acts by
        // ref (JSONL keeps boxes).
        if (top(ch) !== undefined || unprinted(ch, ch.el)) break;
        if (inFull(ch.ref)) {
          for (const line of addedLines(subtrees.get(ch.ref)!)) lines.push(`+ ${line}`);
        } else {
          lines.push(`+ ${elementLine({ ...ch.el, ref: ch.ref }, { bounds: false })}${held(ch)}`);
        }
        break;
      case "removed": {
        const el = { i: ch.i, ref: ch.ref, r: ch.r as Element["r"], t: ch.t };
        if (ch.up === undefined && !unprinted(ch, el)) {
          lines.push(`- ${elementLine(el)}${gone(ch)}`);
        }
        break;
      }
      case "changed": {
        // A twin's index that moved (a twin came or went before it) is bookkeeping, not news.
        const keys = Object.keys(ch.changes);
        const [a, b] = ch.changes.ref ?? [];
        if (keys.length === 1 && isTwinShift(a, b)) {
          renumbered.push(`${a} -> ${b}`);
          break;
        }
        if (echoesParentChange(ch, changedByRef)) break;
        // Actions that say nothing (scrolling that came with a longer page) are no news either.
        const parts = Object.entries(ch.changes).filter(([k, [a, b]]) =>
          k !== "a" || informativeActionsOf(a).join() !== informativeActionsOf(b).join()
        ).map(([k, [a, b]]) => `${k}: ${changeValue(k, a)} -> ${changeValue(k, b)}`);
        if (parts.length) lines.push(`~ [${idText(ch)}|${ch.ref}] ${parts.join("; ")}`);
      }
    }
  }
  if (renumbered.length) {
    const shown = renumbered.slice(0, 3).join(", ");
    const more = renumbered.length > 3 ? `, … (${renumbered.length - 3} more)` : "";
    lines.push(
      `~ ${renumbered.length} twin refs renumbered (a twin came or went): ${shown}${more}`,
    );
  }
  return lines.join("\n") + "\n";
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
function addedLines(root: Element): string[] {
  if (root.c?.length && isAnonymous(root)) return root.c.flatMap(addedLines);
  return renderAgent(root, { bounds: false }).trimEnd().split("\n");
}

/** How many elements a new one may hold and still be listed in full in a diff. */
const ADDED_INSIDE_LISTED = 12;

/** Whether two refs are one twin base with another `.N` index (or none). */
function isTwinShift(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string" || a === b) return false;
  return stripIndex(a) === stripIndex(b);
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
