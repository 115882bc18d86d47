/**
 * What a scrolled container shows: the first and the last of its labelled
 * elements that lie inside it on screen. A scroll changes only boxes, which
 * an action's changes leave out, so the action says this instead: an agent
 * that scrolls to find something sees where the view went without reading.
 *
 * @module
 */

import type { Bounds, Element } from "../model/element.ts";
import { windowBoundsOf } from "../model/tree.ts";
import { intersect } from "../platform/geometry.ts";

/** The first and the last labelled elements in view, as their labels. */
export interface InView {
  /** The first one's label (cut to {@link IN_VIEW_LABEL_CHARS}). */
  first: string;
  /** The last one's label; the same as `first` when one element shows. */
  last: string;
}

/** The longest label an {@link InView} keeps: enough to tell rows apart, short for a line. */
export const IN_VIEW_LABEL_CHARS = 40;

/**
 * The first and last labelled elements inside `container` that show whole
 * along the scroll's axis within what shows of it (its box, within its
 * window's), and in part across it (a row's cell may run past a narrow
 * view's edge). A labelled element that shows counts as one (its inside is
 * not looked at); any other is looked into. Null when the container has no
 * box or nothing labelled shows.
 *
 * @param root the tree the container is in (for its window's box)
 * @param container the scrolled element
 * @param axis the scroll's axis
 * @returns its labels in view, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inViewOf } from "./in_view.ts";
 * const row = (n: number, y: number) => ({ i: n, r: "txt" as const, t: `Message ${n}`,
 *   b: [0, y, 100, 20] as [number, number, number, number] });
 * const list = { i: 1, r: "list" as const, b: [0, 0, 100, 50] as [number, number, number, number],
 *   c: [row(2, -20), row(3, 0), { i: 6, r: "txt" as const, t: "•", b: [0, 20, 5, 5] as [number, number, number, number] },
 *     row(4, 20), row(5, 40)] };
 * assert.deepEqual(inViewOf(list, list), { first: "Message 3", last: "Message 4" });
 * ```
 */
export function inViewOf(
  root: Element,
  container: Element,
  axis: "vertical" | "horizontal" = "vertical",
): InView | null {
  if (!container.b) return null;
  const window = windowBoundsOf(root, container.i);
  const view = window ? intersect(container.b, window) : container.b;
  if (!view) return null;
  const shown: string[] = [];
  const visit = (el: Element) => {
    for (const kid of el.c ?? []) {
      // A column's header stays where it is: it says nothing of where the view went.
      if (kid.r === "colheader") continue;
      const label = labelOf(kid);
      if (label && kid.b && shows(kid.b, view, axis === "vertical" ? 1 : 0)) shown.push(label);
      else visit(kid);
    }
  };
  visit(container);
  if (!shown.length) return null;
  return { first: cut(shown[0]), last: cut(shown[shown.length - 1]) };
}

/**
 * The words an action's line says about a view that scrolled: where it
 * shows now, and where it showed before when that differs.
 *
 * @param now what shows after the scroll
 * @param was what showed before it
 * @returns `in view: "A" to "B"`, or "" when nothing is known
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inViewWords } from "./in_view.ts";
 * assert.equal(
 *   inViewWords({ first: "C", last: "D" }, { first: "A", last: "B" }),
 *   'in view: "C" to "D" (was "A" to "B")',
 * );
 * assert.equal(inViewWords({ first: "C", last: "C" }, null), 'in view: "C"');
 * ```
 */
export function inViewWords(now: InView | null, was: InView | null): string {
  if (!now) return "";
  const span = (v: InView) =>
    v.first === v.last
      ? JSON.stringify(v.first)
      : `${JSON.stringify(v.first)} to ${JSON.stringify(v.last)}`;
  const before = was && span(was) !== span(now) ? ` (was ${span(was)})` : "";
  return `in view: ${span(now)}${before}`;
}

/** What names an element: its label; "" for one with no word (a bullet, an icon). */
function labelOf(el: Element): string {
  // Not a value: a scroll bar's or a field's says nothing of where the view is.
  const label = (el.t ?? "").replace(/\s+/g, " ").trim();
  return /[\p{L}\p{N}]/u.test(label) ? label : "";
}

function cut(label: string): string {
  return label.length > IN_VIEW_LABEL_CHARS
    ? `${label.slice(0, IN_VIEW_LABEL_CHARS - 1).trimEnd()}…`
    : label;
}

/**
 * Whether `box` lies inside `view` along `along` (0: x, 1: y; a pixel of
 * slack for rounding) and overlaps it across.
 */
function shows(box: Bounds, view: Bounds, along: 0 | 1): boolean {
  if (box[2] <= 0 || box[3] <= 0) return false;
  const across = along === 1 ? 0 : 1;
  const inside = box[along] >= view[along] - 1 &&
    box[along] + box[along + 2] <= view[along] + view[along + 2] + 1;
  const overlaps = box[across] < view[across] + view[across + 2] &&
    box[across] + box[across + 2] > view[across];
  return inside && overlaps;
}
