/**
 * Rows out of view: a list, tree or table that creates only the rows it
 * shows (a virtual list on a page, GTK 4's list views, some Qt views) has
 * no element yet for a row scrolled away. A target that is not found may be
 * such a row; these rules say which containers may hold more rows than they
 * show, and which of them a target may lie in. Pure.
 *
 * @module
 */

import type { Element, Role } from "../model/element.ts";

/** Roles of containers that scroll rows. */
const ROW_HOLDERS: ReadonlySet<Role> = new Set<Role>(["list", "listbox", "tree", "table"]);

/** A container that holds more rows than it shows, and why that is known. */
export interface RowHolder {
  /** The container. */
  el: Element;
  /** `scrollbar` (its scroll bar is not at its end) or `clipped` (its last row goes past its box). */
  why: "scrollbar" | "clipped";
}

/** Whether a scroll bar (role `scroll` with a range) stands before its end. */
function scrollbarBeforeEnd(e: Element): boolean {
  if (e.r !== "scroll" || e.max === undefined || e.v === undefined) return false;
  const v = Number(e.v);
  if (!Number.isFinite(v)) return false;
  // A vertical bar is taller than wide; one without a box counts.
  if (e.b && e.b[2] > e.b[3]) return false;
  return v < e.max - 1e-9;
}

/** The scroll bars that belong to a container: inside it, or beside it in its scroll pane. */
function scrollbarsOf(holder: Element, parent: Element | undefined): Element[] {
  const inside = (holder.c ?? []).filter((c) => c.r === "scroll");
  const beside = parent && parent.r === "scroll"
    ? (parent.c ?? []).filter((c) => c !== holder && c.r === "scroll")
    : [];
  return [...inside, ...beside];
}

/** Whether the last child of a container ends below the container's own box. */
function lastRowClipped(holder: Element): boolean {
  const rows = (holder.c ?? []).filter((c) => c.r !== "scroll" && c.b && c.b[3] > 0);
  const last = rows.at(-1);
  if (!holder.b || !last?.b || holder.b[3] <= 0) return false;
  return last.b[1] + last.b[3] > holder.b[1] + holder.b[3] + 1;
}

/**
 * The containers of a tree that hold more rows than they show: a list,
 * list box, tree or table whose vertical scroll bar stands before its end,
 * or whose last row reaches past its box (a virtual list renders a few rows
 * beyond what shows). In document order.
 *
 * @param root the tree
 * @returns the containers
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Element } from "../model/element.ts";
 * import { rowHolders } from "./rows_out_of_view.ts";
 * const list: Element = {
 *   i: 2, r: "list", ref: "files", b: [0, 0, 100, 100], c: [
 *     { i: 3, r: "listitem", t: "a", b: [0, 0, 100, 50] },
 *     { i: 4, r: "listitem", t: "b", b: [0, 50, 100, 80] },
 *   ],
 * };
 * assert.deepEqual(rowHolders({ i: 1, r: "window", c: [list] }).map((h) => h.el.ref), ["files"]);
 * ```
 */
export function rowHolders(root: Element): RowHolder[] {
  const out: RowHolder[] = [];
  const visit = (e: Element, parent: Element | undefined, depth: number) => {
    if (depth > 256) return;
    if (ROW_HOLDERS.has(e.r)) {
      if (scrollbarsOf(e, parent).some(scrollbarBeforeEnd)) out.push({ el: e, why: "scrollbar" });
      else if (lastRowClipped(e)) out.push({ el: e, why: "clipped" });
    }
    for (const c of e.c ?? []) visit(c, e, depth + 1);
  };
  visit(root, undefined, 0);
  return out;
}

/**
 * Of the containers that hold more rows, the ones a target may lie in: for
 * a ref, those whose ref is a leading part of it (`files/report-pdf` lies in
 * `files`), nearest first; otherwise (a ref whose path names no container:
 * rows of a plain list are keyed by their own text; or a text target) the
 * only container, when there is one.
 *
 * @param holders the containers ({@link rowHolders})
 * @param target the target that was not found
 * @returns the containers to scroll, nearest first
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdersFor } from "./rows_out_of_view.ts";
 * const files = { el: { i: 2, r: "list" as const, ref: "files" }, why: "scrollbar" as const };
 * const mail = { el: { i: 3, r: "list" as const, ref: "mail" }, why: "scrollbar" as const };
 * assert.equal(holdersFor([files, mail], { ref: "files/report-pdf" })[0].el.ref, "files");
 * assert.equal(holdersFor([files, mail], { ref: "report-pdf" }).length, 0);
 * assert.equal(holdersFor([files], { ref: "report-pdf" }).length, 1);
 * ```
 */
export function holdersFor(
  holders: readonly RowHolder[],
  target: { ref?: string; text?: string },
): RowHolder[] {
  const ref = target.ref;
  if (ref !== undefined) {
    const along = holders
      .filter((h) => h.el.ref !== undefined && ref.startsWith(`${h.el.ref}/`))
      .sort((a, b) => (b.el.ref?.length ?? 0) - (a.el.ref?.length ?? 0));
    if (along.length) return along;
  }
  return holders.length === 1 ? [...holders] : [];
}

/**
 * The words an ELEMENT_NOT_FOUND error adds about containers that hold more
 * rows: their names and refs, and how to reach their rows.
 *
 * @param holders the containers ({@link rowHolders})
 * @returns the sentence, or "" when there are none
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moreRowsHint } from "./rows_out_of_view.ts";
 * const hint = moreRowsHint([{ el: { i: 2, r: "tree", t: "Settings", ref: "settings" }, why: "scrollbar" }]);
 * assert.match(hint, /tree "Settings" \[settings\] holds more rows than it shows/);
 * ```
 */
export function moreRowsHint(holders: readonly RowHolder[]): string {
  if (holders.length === 0) return "";
  const named = holders.slice(0, 3).map((h) =>
    `${h.el.r}${h.el.t ? ` ${JSON.stringify(h.el.t)}` : ""}${h.el.ref ? ` [${h.el.ref}]` : ""}`
  );
  const first = holders[0].el.ref ?? "<its ref>";
  return `${named.join(", ")} ${holders.length > 1 ? "hold" : "holds"} more rows than ${
    holders.length > 1 ? "they show" : "it shows"
  }: the target may be one of them. Scroll it (scroll --ref ${first} --direction down ` +
    "--amount 5), then read again";
}

/** Wheel notches for the first page, before the container's notch is measured. */
export const FIRST_PAGE_NOTCHES = 3;

/**
 * How many wheel notches make about four fifths of a container's height:
 * the pixels one notch moved its rows are measured on a row shown before
 * and after the last page, so pages overlap and no row is skipped (a
 * browser's notch is 50 to 120 px and grows with a fast wheel).
 *
 * @param before the container before the last page
 * @param after the container after it
 * @param used the notches the last page used
 * @returns notches for the next page, at least 1
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Element } from "../model/element.ts";
 * import { pageNotches } from "./rows_out_of_view.ts";
 * const row = (t: string, y: number): Element => ({ i: 0, r: "listitem", t, b: [0, y, 100, 32] });
 * const before: Element = { i: 1, r: "list", b: [0, 0, 100, 320], c: [row("a", 0), row("b", 300)] };
 * const after: Element = { i: 1, r: "list", b: [0, 0, 100, 320], c: [row("b", 0)] };
 * assert.equal(pageNotches(before, after, 3), 2); // 100 px a notch: 256 px is 2 notches
 * ```
 */
export function pageNotches(before: Element, after: Element, used: number): number {
  const height = after.b?.[3] ?? before.b?.[3];
  const was = new Map((before.c ?? []).filter((c) => c.t && c.b).map((c) => [c.t, c.b![1]]));
  const shared = (after.c ?? []).find((c) => c.t && c.b && was.has(c.t));
  if (!height || !shared || used <= 0) return Math.max(1, used);
  const perNotch = Math.abs(was.get(shared.t)! - shared.b![1]) / used;
  if (perNotch < 1) return Math.max(1, used);
  return Math.max(1, Math.floor((height * 0.8) / perNotch));
}
