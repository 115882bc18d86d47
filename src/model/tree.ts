/**
 * Tree helpers: numbering, walking, flattening.
 *
 * @module
 */

import type { Element, FlatElement } from "./element.ts";

/** Numbers every element depth-first from 1 (the `i` key). */
export function assignIds(root: Element): void {
  throw new Error(`not implemented ${root.r}`);
}

/**
 * Visits every element depth-first with its ancestors (root first). Return
 * `false` from the visitor to skip an element's children.
 */
export function walk(
  root: Element,
  visit: (el: Element, ancestors: readonly Element[]) => void | false,
): void {
  throw new Error(`not implemented ${root.r} ${visit}`);
}

/** Flattens a tree to document order; each element carries its landmark path `p`. */
export function flatten(root: Element): FlatElement[] {
  throw new Error(`not implemented ${root.r}`);
}
