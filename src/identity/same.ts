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
import type { StoredElement } from "../state/ref_store.ts";
import { indexedBase, refParent } from "./syntax.ts";

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
const ROW_ROLES: ReadonlySet<Role> = new Set<Role>(["row", "treeitem"]);

/** Descendant roles whose label can key a row. */
const ROW_KEY_ROLES: ReadonlySet<Role> = new Set<Role>(["cell", "txt", "lnk", "heading"]);

/** Most texts a row's key is made of. */
const ROW_KEY_TEXTS = 4;

/**
 * The key of a row: its own label, else the labels of its cells, links,
 * texts and headings (depth-first, at most four, joined with ` | `), else "".
 * All of them, not only the first: a row whose first cell is a button
 * ("Open") is told from its neighbours by the texts after it. Unlike the
 * ref's row segment, it is computed for every row, also where generation
 * leaves the row out of the ref (a table without a key column), so a reused
 * node that moved to another row is noticed either way. Never values.
 *
 * @param row a row or tree item
 * @returns the row's key text
 * @example
 * ```ts
 * import { rowKey } from "./same.ts";
 * const row = { i: 1, r: "row" as const, c: [
 *   { i: 2, r: "cell" as const, t: "Open" }, { i: 3, r: "cell" as const, t: "Item 1" },
 * ] };
 * if (rowKey(row) !== "Open | Item 1") throw new Error();
 * ```
 */
export function rowKey(row: Element): string {
  const own = row.t?.trim();
  if (own) return own;
  return keyTexts(row.c ?? []);
}

/** The labels of key roles in these subtrees (but `skip`'s), depth-first, joined. */
function keyTexts(els: readonly Element[], skip?: Element): string {
  const texts: string[] = [];
  const stack = [...els].reverse();
  while (stack.length && texts.length < ROW_KEY_TEXTS) {
    const el = stack.pop()!;
    // By id too: the element may be a copy of the tree's node (a filtered or
    // folded view), and its own texts must never count as its neighbours'.
    if (el === skip || (skip !== undefined && skip.i !== undefined && el.i === skip.i)) continue;
    if (ROW_KEY_ROLES.has(el.r)) {
      const t = (el.t ?? el.d ?? "").trim(); // never the value: values change
      if (t) texts.push(t);
    }
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return texts.join(" | ");
}

/**
 * Rows of a table that exposes its cells without row elements (GTK's
 * TreeView): cells sharing a vertical band of the screen are one row, keyed
 * by their texts. Cells without bounds get no row.
 */
function bandRows(kids: readonly Element[]): Map<Element, string> | undefined {
  const cells = kids.filter((k) => k.r === "cell" && k.b !== undefined);
  if (cells.length < 2) return undefined;
  const bands = new Map<string, Element[]>();
  for (const c of cells) {
    const band = `${c.b![1]}:${c.b![3]}`;
    const list = bands.get(band);
    if (list) list.push(c);
    else bands.set(band, [c]);
  }
  const out = new Map<Element, string>();
  for (const list of bands.values()) {
    const key = keyTexts(list);
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
  const stack: Array<{ el: Element; path: string; row?: string; parent?: Located }> = [
    { el: root, path: "0" },
  ];
  while (stack.length) {
    const { el, path, row: outer, parent } = stack.pop()!;
    const row = ROW_ROLES.has(el.r) ? rowKey(el) : outer;
    const x: Located = {
      el,
      path,
      ...(row !== undefined ? { row } : {}),
      ...(parent ? { parent } : {}),
    };
    out.push(x);
    const kids = el.c ?? [];
    const bands = row === undefined ? bandRows(kids) : undefined;
    for (let k = kids.length - 1; k >= 0; k--) {
      const kidRow = bands?.get(kids[k]) ?? row;
      stack.push({
        el: kids[k],
        path: `${path}.${k}`,
        ...(kidRow !== undefined ? { row: kidRow } : {}),
        parent: x,
      });
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
 * Chromium) — the texts next to it: those of the nearest of its three
 * closest ancestors that has texts besides the element's own, without
 * crossing a landmark. Undefined when it sits in no row.
 *
 * @param x a located element
 * @returns the row key, or undefined
 * @example
 * ```ts
 * import { locateAll, rowOf } from "./same.ts";
 * const all = locateAll({ i: 1, r: "group", c: [
 *   { i: 2, r: "group", c: [{ i: 3, r: "btn", t: "Open" }] }, { i: 4, r: "txt", t: "Row 2" },
 * ] });
 * if (rowOf(all[2]) !== "Row 2") throw new Error();
 * ```
 */
export function rowOf(x: Located): string | undefined {
  if (x.row !== undefined) return x.row;
  if (contexts.has(x)) return contexts.get(x);
  let found: string | undefined;
  let a = x.parent;
  for (let level = 0; a && level < CONTEXT_LEVELS && !CONTEXT_STOP.has(a.el.r); level++) {
    const texts = keyTexts(a.el.c ?? [], x.el);
    if (texts) {
      found = texts;
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
  return {
    i: el.i,
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    r: el.r,
    ...(el.t !== undefined ? { t: el.t } : {}),
    ...(el.nid !== undefined ? { nid: el.nid } : {}),
    ...(el.b !== undefined ? { b: el.b } : {}),
    path: x.path,
    ...(rowOf(x) !== undefined ? { row: rowOf(x) } : {}),
    ...(twins !== undefined ? { n: twins } : {}),
  };
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
}

/**
 * Decides whether an element of a fresh read still is the one the agent saw:
 * same role, same label, same row (when it sat in one) and same landmark
 * path. The ref's twin index may differ (a twin came or went): the caller
 * that matched by ref rather than by native id checks the place separately.
 *
 * @param was what the last read printed
 * @param now the candidate, located in the fresh read
 * @returns undefined when it is the same element, else what changed
 * @example
 * ```ts
 * import { compareSeen } from "./same.ts";
 * const was = { i: 35, r: "btn", t: "Delete", ref: "items/item-1/delete", row: "Item 1", path: "0" };
 * const now = { el: { i: 9, r: "btn" as const, t: "Delete", ref: "items/new/delete" }, path: "0", row: "New" };
 * if (compareSeen(was, now)?.change !== "moved to another row") throw new Error();
 * ```
 */
export function compareSeen(was: StoredElement, now: Located): Change | undefined {
  const el = now.el;
  if (el.r !== was.r) {
    return { change: "role changed", says: `it is now a ${el.r}, was a ${was.r}` };
  }
  if ((el.t ?? "") !== (was.t ?? "")) {
    return { change: "renamed", says: `it is now labelled "${el.t ?? ""}", was "${was.t ?? ""}"` };
  }
  const row = rowOf(now);
  if ((was.row ?? "") !== (row ?? "")) {
    return {
      change: "moved to another row",
      says: row === undefined
        ? `it is no longer in a row (was in row "${was.row}")`
        : `the element now belongs to row "${row}"` +
          (was.row !== undefined ? ` (was in row "${was.row}")` : ""),
    };
  }
  if (was.ref !== undefined && el.ref !== undefined && refParent(was.ref) !== refParent(el.ref)) {
    return {
      change: "moved to another landmark",
      says: `it now sits in ${refParent(el.ref) || "the top level"}, was in ${
        refParent(was.ref) || "the top level"
      }`,
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
