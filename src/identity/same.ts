/**
 * "Is this still the element the agent saw?" — decided in one place (guide:
 * refs.md section 3). What the agent saw of an element is what the last read
 * printed: its native id (when the platform has one), ref, role, label, the
 * row it sat in and its landmark path. An element of a fresh read is the same
 * one only when all of that still holds: frameworks reuse nodes (a list
 * re-rendered in place keeps its button nodes and changes the rows around
 * them), so a native id alone proves nothing. Pure.
 *
 * @module
 */

import type { Element, Role } from "../model/element.ts";
import type { StoredElement } from "./stored.ts";
import { keyLabel, rowKeyText } from "../refs/generate.ts";
import { indexedBase, lastSegment, refParent } from "./syntax.ts";

/** An element of a fresh read with where it sits. */
export interface Located {
  /** The element. */
  el: Element;
  /** Child-index path from the root (`0.2.5`; the root is `0`). */
  path: string;
  /**
   * The key of the row (or tree item) it sits in or is, when it is in one;
   * see {@link rowOf} for elements in row-like containers without a row role.
   */
  row?: string;
  /** The parent, located (absent for the root). */
  parent?: Located;
}

/** Rows: what "the row it sat in" means. */
const ROW_ROLES: ReadonlySet<Role> = new Set<Role>(["row", "treeitem", "listitem", "option"]);

/** Descendant roles whose label can key a row. */
const ROW_KEY_ROLES: ReadonlySet<Role> = new Set<Role>(["cell", "txt", "lnk", "heading"]);

/**
 * The key of a row: what its ref is keyed by ({@link rowKeyText}: its own
 * label, else its key column), computed for every row, also where generation
 * leaves the row out of the ref, so a reused node that moved to another row
 * is noticed either way. Never the values of its other cells: a row whose
 * status or figures change is the same row.
 *
 * @param row a row or tree item
 * @returns the row's key text
 * @example
 * ```ts
 * import { rowKey } from "./same.ts";
 * import assert from "node:assert/strict";
 * const row = { i: 1, r: "row" as const, c: [
 *   { i: 2, r: "cell" as const, t: "SO-1005" }, { i: 3, r: "cell" as const, t: "Open" },
 * ] };
 * assert.equal(rowKey(row), "SO-1005");
 * ```
 */
export function rowKey(row: Element): string {
  return rowKeyText(row);
}

/** The first key text in these subtrees (but `skip`'s), depth-first, or "". */
function firstKeyText(els: readonly Element[], skip?: Element): string {
  const stack = [...els].reverse();
  while (stack.length) {
    const el = stack.pop()!;
    // By id too: the element may be a copy of the tree's node (a filtered or
    // folded view), and its own texts must never count as its neighbours'.
    if (el === skip || (skip !== undefined && skip.i !== undefined && el.i === skip.i)) continue;
    if (ROW_KEY_ROLES.has(el.r)) {
      const t = keyLabel(el); // never the value: values change
      if (t) return t;
    }
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return "";
}

/**
 * Rows of a table that exposes its cells without row elements (GTK's
 * TreeView): cells sharing a vertical band of the screen are one row, keyed
 * by its first cell with a text (the key column, as its refs are). Cells
 * without bounds get no row.
 */
function bandRows(kids: readonly Element[]): Map<Element, string> | undefined {
  // Counted before anything is allocated: most containers hold no cells.
  let boxed = 0;
  for (const k of kids) if (k.r === "cell" && k.b !== undefined) boxed++;
  if (boxed < 2) return undefined;
  const cells = kids.filter((k) => k.r === "cell" && k.b !== undefined);
  const bands = new Map<string, Element[]>();
  for (const c of cells) {
    const band = `${c.b![1]}:${c.b![3]}`;
    const list = bands.get(band);
    if (list) list.push(c);
    else bands.set(band, [c]);
  }
  const out = new Map<Element, string>();
  for (const list of bands.values()) {
    const key = firstKeyText(list);
    for (const c of list) out.set(c, key);
  }
  return out;
}

/**
 * Lists every element of a tree depth-first with its child-index path and
 * the key of the row around it (iterative: deep trees do not overflow).
 *
 * @param root the tree
 * @returns elements in document order
 * @example
 * ```ts
 * import { locateAll } from "./same.ts";
 * const all = locateAll({ i: 1, r: "list", c: [{ i: 2, r: "row", t: "A", c: [{ i: 3, r: "btn" }] }] });
 * if (all[2].path !== "0.0.0" || all[2].row !== "A") throw new Error();
 * ```
 */
export function locateAll(root: Element): Located[] {
  const out: Located[] = [];
  // Parallel stacks, not an object per pending element: every read locates all its elements.
  const els: Element[] = [root];
  const paths: string[] = ["0"];
  const rows: Array<string | undefined> = [undefined];
  const parents: Array<Located | undefined> = [undefined];
  while (els.length) {
    const el = els.pop()!;
    const path = paths.pop()!;
    const outer = rows.pop();
    const parent = parents.pop();
    const row = ROW_ROLES.has(el.r) ? rowKey(el) : outer;
    // Keys in one order (el, path, row, parent), set only when present.
    const x = { el, path } as Located;
    if (row !== undefined) x.row = row;
    if (parent) x.parent = parent;
    out.push(x);
    const kids = el.c;
    if (!kids?.length) continue;
    const bands = row === undefined ? bandRows(kids) : undefined;
    for (let k = kids.length - 1; k >= 0; k--) {
      els.push(kids[k]);
      paths.push(`${path}.${k}`);
      rows.push(bands?.get(kids[k]) ?? row);
      parents.push(x);
    }
  }
  return out;
}

/** Containers a row context never reaches past: landmarks and the implied roots. */
const CONTEXT_STOP: ReadonlySet<Role> = new Set<Role>([
  "app",
  "window",
  "web",
  "scroll",
  "toolbar",
  "menubar",
  "menu",
  "dialog",
  "tablist",
  "tab",
  "list",
  "listbox",
  "table",
  "tree",
  "form",
  "landmark",
]);

/** How many ancestors up a row context is looked for. */
const CONTEXT_LEVELS = 3;

const contexts = new WeakMap<Located, string | undefined>();

/**
 * The row an element sits in: its row's (or tree item's, or screen band's)
 * key, else — for rows a toolkit exposes as plain groups (a layout table in
 * Chromium) — the first text next to it: that of the nearest of its three
 * closest ancestors that has a text besides the element's own, without
 * crossing a landmark. Undefined when it sits in no row.
 *
 * The second kind (a context, not a row) only tells twins apart: the store
 * keeps it for an element whose ref carries a twin index ({@link toStored}),
 * since a unique ref already names its element, and the texts around a
 * unique control (a carousel's slide beside its Stop button) are content.
 *
 * @param x a located element
 * @returns the row key, or undefined
 * @example
 * ```ts
 * import { locateAll, rowOf } from "./same.ts";
 * import assert from "node:assert/strict";
 * const all = locateAll({ i: 1, r: "group", c: [
 *   { i: 2, r: "group", c: [{ i: 3, r: "btn", t: "Open" }] }, { i: 4, r: "txt", t: "Row 2" },
 * ] });
 * assert.equal(rowOf(all[2]), "Row 2");
 * ```
 */
export function rowOf(x: Located): string | undefined {
  if (x.row !== undefined) return x.row;
  if (contexts.has(x)) return contexts.get(x);
  let found: string | undefined;
  let a = x.parent;
  for (let level = 0; a && level < CONTEXT_LEVELS && !CONTEXT_STOP.has(a.el.r); level++) {
    const text = firstKeyText(a.el.c ?? [], x.el);
    if (text) {
      found = text;
      break;
    }
    a = a.parent;
  }
  contexts.set(x, found);
  return found;
}

/**
 * What the store keeps of an element: what the agent saw.
 *
 * @param x a printed element, located in the full read
 * @param twins for an indexed ref (`ok.2`), how many elements share its base ref
 * @returns the stored form
 */
export function toStored(x: Located, twins?: number): StoredElement {
  const el = x.el;
  // Keys in the order the store file has always had them; each set only when present.
  const out = { i: el.i } as StoredElement;
  if (el.ref !== undefined) out.ref = el.ref;
  out.r = el.r;
  if (el.t !== undefined) out.t = el.t;
  if (el.nid !== undefined) out.nid = el.nid;
  if (el.b !== undefined) out.b = el.b;
  out.path = x.path;
  const row = storedRow(x, twins);
  if (row !== undefined) out.row = row;
  if (twins !== undefined) out.n = twins;
  return out;
}

/**
 * The row the store keeps for an element: the row it sits in, else, for a
 * twin only, the text next to it (see {@link rowOf}).
 */
function storedRow(x: Located, twins: number | undefined): string | undefined {
  if (x.row !== undefined) return x.row;
  return twins !== undefined ? rowOf(x) : undefined;
}

/**
 * The row to compare with the one the store kept: the row it sits in; where
 * it sits in none, the text next to it when the store kept one (a twin's).
 */
function rowToCompare(was: StoredElement, now: Located): string | undefined {
  if (now.row !== undefined || was.row === undefined) return now.row;
  return rowOf(now);
}

/**
 * Counts the elements sharing each indexed ref's base (`dialog/ok.1` and
 * `dialog/ok.2` both count for `dialog/ok`).
 *
 * @param all every element of a read
 * @returns base ref → number of twins
 */
export function twinCounts(all: Located[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { el } of all) {
    const base = indexedBase(el.ref);
    if (base !== undefined) counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  return counts;
}

/** How an element differs from the one the agent saw. */
export interface Change {
  /** The kind: `role changed`, `renamed`, `moved to another row`, `moved to another landmark`. */
  change: string;
  /** The same in words, for the error message. */
  says: string;
  /**
   * Only the label changed, and only by a state word (`Pause updates` ->
   * `Start updates`): the same element in another state when its native
   * node is the one the agent saw, not evidence enough without it.
   */
  stateFlip?: true;
}

/**
 * Words that say a control's state or the action it offers now, which a
 * toggle swaps in its label when it flips (`Pause`/`Play`, `Show`/`Hide`,
 * `Mute`/`Unmute`, `Expand`/`Collapse`...).
 */
const STATE_WORDS: ReadonlySet<string> = new Set([
  "play",
  "pause",
  "stop",
  "start",
  "resume",
  "show",
  "hide",
  "mute",
  "unmute",
  "expand",
  "collapse",
  "open",
  "close",
  "on",
  "off",
  "enable",
  "disable",
  "lock",
  "unlock",
  "follow",
  "unfollow",
  "following",
  "subscribe",
  "unsubscribe",
  "subscribed",
  "like",
  "unlike",
  "liked",
  "pin",
  "unpin",
  "star",
  "unstar",
  "connect",
  "disconnect",
  "maximize",
  "maximise",
  "minimize",
  "minimise",
  "restore",
  "select",
  "deselect",
  "unselect",
  "check",
  "uncheck",
  "more",
  "less",
  "activate",
  "deactivate",
  "watch",
  "unwatch",
  "edit",
  "done",
]);

/**
 * Whether two labels differ only by state words (`Pause updates` and `Start
 * updates`; `Play` and `Pause`): a toggle that flipped, not another element.
 *
 * @param a one label
 * @param b the other
 * @returns true when both have a state word and the rest is the same
 * @example
 * ```ts
 * import { isStateFlip } from "./same.ts";
 * import assert from "node:assert/strict";
 * assert.ok(isStateFlip("Stop automatic slide show", "Start automatic slide show"));
 * assert.ok(!isStateFlip("Delete Alice", "Delete Bob"));
 * assert.ok(!isStateFlip("Pause updates", "Pause downloads"));
 * ```
 */
export function isStateFlip(a: string, b: string): boolean {
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const wa = words(a), wb = words(b);
  const rest = (w: string[]) => w.filter((x) => !STATE_WORDS.has(x)).join(" ");
  return wa.some((w) => STATE_WORDS.has(w)) && wb.some((w) => STATE_WORDS.has(w)) &&
    rest(wa) === rest(wb) && wa.join(" ") !== wb.join(" ");
}

/**
 * Whether an element was renamed as far as its identity goes: the name its
 * ref gives it (the ref's last segment) changed. A cell keyed by its column
 * header, a text named by its role, a count left out of the ref: their label
 * is content, and its change does not make them other elements. Without refs,
 * the labels themselves are compared, and so they are for twins named by
 * their role, which nothing else tells apart.
 */
function renamed(was: StoredElement, el: Element): boolean {
  if ((el.t ?? "") === (was.t ?? "")) return false;
  if (was.ref === undefined || el.ref === undefined) return true;
  const segment = lastSegment(was.ref);
  if (segment !== lastSegment(el.ref)) return true;
  // Twins named by their role (a spreadsheet's cells "B2", "C2" in a row: cell.2, cell.3):
  // their label is all that tells them apart.
  return segment === was.r && indexedBase(was.ref) !== undefined;
}

/**
 * Decides whether an element of a fresh read still is the one the agent saw:
 * same role, same label (where its ref is made of it), same row (when it sat
 * in one) and same landmark path. The ref's twin index may differ (a twin
 * came or went): the caller that matched by ref rather than by native id
 * checks the place separately.
 *
 * @param was what the last read printed
 * @param now the candidate, located in the fresh read
 * @param opts `sameNode`: the candidate is the native node the agent saw (its landmark
 *   path may then have changed around it)
 * @returns undefined when it is the same element, else what changed
 * @example
 * ```ts
 * import { compareSeen } from "./same.ts";
 * import assert from "node:assert/strict";
 * const was = { i: 35, r: "btn", t: "Delete", ref: "items/item-1/delete", row: "Item 1", path: "0" };
 * const now = { el: { i: 9, r: "btn" as const, t: "Delete", ref: "items/new/delete" }, path: "0", row: "New" };
 * assert.equal(compareSeen(was, now)?.change, "moved to another row");
 * const cell = { i: 3, r: "cell", t: "Open", ref: "orders/so-1005/status", row: "SO-1005", path: "0" };
 * const refunded = { el: { i: 3, r: "cell" as const, t: "Refunded", ref: "orders/so-1005/status" }, path: "0", row: "SO-1005" };
 * assert.equal(compareSeen(cell, refunded), undefined);
 * ```
 */
export function compareSeen(
  was: StoredElement,
  now: Located,
  opts: { sameNode?: boolean } = {},
): Change | undefined {
  const el = now.el;
  if (el.r !== was.r) {
    return { change: "role changed", says: `it is now a ${el.r}, was a ${was.r}` };
  }
  const row = rowToCompare(was, now);
  if ((was.row ?? "") !== (row ?? "")) {
    return {
      change: "moved to another row",
      says: row === undefined
        ? `it is no longer in a row (was in row "${was.row}")`
        : `the element now belongs to row "${row}"` +
          (was.row !== undefined ? ` (was in row "${was.row}")` : ""),
    };
  }
  // The very node the agent saw, with its role, row and label, is that element wherever its
  // landmark path went: a section around it took a name (GTK 4 names a stack's page late), or
  // the node itself moved (a card dragged to another column).
  if (
    !opts.sameNode && was.ref !== undefined && el.ref !== undefined &&
    refParent(was.ref) !== refParent(el.ref)
  ) {
    return {
      change: "moved to another landmark",
      says: `it now sits in ${refParent(el.ref) || "the top level"}, was in ${
        refParent(was.ref) || "the top level"
      }`,
    };
  }
  if (renamed(was, el)) {
    return {
      change: "renamed",
      says: `it is now labelled "${el.t ?? ""}", was "${was.t ?? ""}"`,
      ...(isStateFlip(el.t ?? "", was.t ?? "") ? { stateFlip: true as const } : {}),
    };
  }
  return undefined;
}

/**
 * Describes an element for messages: `btn "Delete" [items/item-1/delete]`.
 *
 * @param el an element or stored element
 * @returns the description
 */
export function describe(el: { r: string; t?: string; ref?: string }): string {
  return `${el.r}${el.t ? ` "${el.t}"` : ""}${el.ref ? ` [${el.ref}]` : ""}`;
}
