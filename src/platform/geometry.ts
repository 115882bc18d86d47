/**
 * Screen-box arithmetic shared by the backends: where synthesized input may
 * land on an element without hitting something else.
 *
 * @module
 */

import type { Bounds, Point } from "../model/element.ts";

/**
 * The overlap of two boxes.
 *
 * @param a a box
 * @param b another box
 * @returns the overlap, or null when they do not overlap
 * @example
 * ```ts
 * import { intersect } from "./geometry.ts";
 * console.log(intersect([0, 0, 100, 100], [50, 80, 100, 100])); // [50, 80, 50, 20]
 * ```
 */
export function intersect(a: Bounds, b: Bounds): Bounds | null {
  const x = Math.max(a[0], b[0]);
  const y = Math.max(a[1], b[1]);
  const right = Math.min(a[0] + a[2], b[0] + b[2]);
  const bottom = Math.min(a[1] + a[3], b[1] + b[3]);
  return right > x && bottom > y ? [x, y, right - x, bottom - y] : null;
}

/**
 * The centre of a box, in whole pixels.
 *
 * @param r the box
 * @returns its centre
 */
export function centreOf(r: Bounds): Point {
  return { x: r[0] + Math.floor(r[2] / 2), y: r[1] + Math.floor(r[3] / 2) };
}
