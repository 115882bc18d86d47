/**
 * GTK 2 and 3 list a grid's children in the order the app attached them, most
 * recent first (GtkGrid and GtkTable prepend), not in the order they are laid
 * out: eog's image properties come as `"Focal Length"`, `"s88"`, … `"1.7 kB"`,
 * `"PNG image"`, … `"Type"`, `"Size"`, keys apart from their values. A person
 * reads the screen row by row; so does the read. Orca's flat review orders
 * by position the same way.
 *
 * @module
 */

import type { AtspiRawNode } from "./raw.ts";
import { ATSPI_ROLE } from "./atspi_roles.ts";

/** AT-SPI's panel role: what GtkGrid and GtkTable report. */
const PANEL_ROLE: number = ATSPI_ROLE.PANEL;

/** Hidden objects' coordinate (INT32_MIN). */
const OFFSCREEN = -2147483648;

/** Most children a grid is reordered with (the overlap check is quadratic). */
const MAX_GRID_CHILDREN = 256;

/** A box on screen: x, y, width, height. */
export type Box = [number, number, number, number];

/**
 * Whether a box has a place and an area on screen. A line one pixel wide or
 * high (an empty label meld keeps in a corner of its grid) holds nothing to
 * read and is not placed: it would otherwise overlap its neighbour and keep
 * the whole grid in the toolkit's order.
 */
function isPlaced(b: Box): boolean {
  return b[0] !== OFFSCREEN && b[1] !== OFFSCREEN && b[2] > 1 && b[3] > 1;
}

/** A child's box when it is placed on screen, else undefined. */
function placed(node: AtspiRawNode): Box | undefined {
  return node.extents && isPlaced(node.extents) ? node.extents : undefined;
}

/** Whether two boxes share any area (an overlay over its content). */
function overlap(a: Box, b: Box): boolean {
  return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/**
 * Boxes in reading order: rows top to bottom, each row left to right. A box
 * is on the current row when it shares at least half the height of the
 * smaller of it and the row's shortest box (a label a few pixels lower than
 * the entry beside it; a tall box spanning two rows takes both).
 *
 * @param boxes the boxes, any order
 * @returns their indexes in reading order
 * @example
 * ```ts
 * import { readingOrder } from "./reading_order.ts";
 * // Two rows of key and value, listed value-first and bottom row first.
 * const boxes: [number, number, number, number][] = [
 *   [90, 20, 60, 17], [90, 0, 60, 17], [0, 20, 80, 17], [0, 0, 80, 17],
 * ];
 * console.log(readingOrder(boxes).join(",")); // 3,1,2,0
 * ```
 */
export function readingOrder(boxes: readonly Box[]): number[] {
  const byTop = boxes.map((_, i) => i).sort((a, b) => boxes[a][1] - boxes[b][1]);
  const rows: { top: number; bottom: number; minH: number; items: number[] }[] = [];
  for (const i of byTop) {
    const [, y, , h] = boxes[i];
    const row = rows.at(-1);
    const shared = row ? Math.min(row.bottom, y + h) - Math.max(row.top, y) : -1;
    if (row && shared >= Math.min(h, row.minH) / 2) {
      row.items.push(i);
      row.bottom = Math.max(row.bottom, y + h);
      row.minH = Math.min(row.minH, h);
    } else {
      rows.push({ top: y, bottom: y + h, minH: h, items: [i] });
    }
  }
  return rows.flatMap((row) =>
    row.items.sort((a, b) => boxes[a][0] - boxes[b][0] || boxes[a][1] - boxes[b][1])
  );
}

/**
 * Puts the children of every GTK grid (a panel whose placed children do not
 * overlap) in reading order, in place, through the whole tree. Children with
 * no place on screen keep their order, after the placed ones.
 *
 * @param root a GTK 2 or 3 app's raw tree, with extents
 */
export function gridsInReadingOrder(root: AtspiRawNode): void {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.role === PANEL_ROLE) reorderGrid(node);
    for (const c of node.children) stack.push(c);
  }
}

function reorderGrid(node: AtspiRawNode): void {
  const kids = node.children;
  if (kids.length > MAX_GRID_CHILDREN) return;
  const order = gridOrder(kids.map(placed));
  if (order) node.children = order.map((i) => kids[i]);
}

/**
 * The order a grid's children are read in: those placed on screen in reading
 * order, then the others in their own order. Undefined when they are not laid
 * out as a grid (fewer than two placed, or two that overlap: an overlay over
 * its content keeps the toolkit's order).
 *
 * @param boxes each child's box, undefined when it has no place on screen
 * @returns child indexes in reading order, or undefined
 * @example
 * ```ts
 * import { gridOrder } from "./reading_order.ts";
 * console.log(gridOrder([[0, 20, 80, 17], undefined, [0, 0, 80, 17]])?.join(",")); // 2,0,1
 * console.log(gridOrder([[0, 0, 100, 100], [10, 10, 20, 20]])); // undefined
 * ```
 */
export function gridOrder(boxes: ReadonlyArray<Box | undefined>): number[] | undefined {
  const onScreen = boxes.flatMap((b, i) => b && isPlaced(b) ? [i] : []);
  if (onScreen.length < 2) return undefined;
  const placedBoxes = onScreen.map((i) => boxes[i]!);
  for (let a = 0; a < placedBoxes.length; a++) {
    for (let b = a + 1; b < placedBoxes.length; b++) {
      if (overlap(placedBoxes[a], placedBoxes[b])) return undefined;
    }
  }
  const rest = boxes.flatMap((b, i) => b && isPlaced(b) ? [] : [i]);
  return [...readingOrder(placedBoxes).map((k) => onScreen[k]), ...rest];
}
