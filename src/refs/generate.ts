/**
 * Ref generation (guide: refs.md section 1). Pure and deterministic: the same
 * tree always gets the same refs.
 *
 * @module
 */

import type { Element } from "../model/element.ts";

/** Turns a label into a ref segment: lowercase, Unicode letters and digits kept, at most 40 chars. */
export function slug(label: string): string {
  throw new Error(`not implemented ${label}`);
}

/** The label a ref is built from: title, else description, else placeholder. Never the value. */
export function bestLabel(el: Element): string {
  throw new Error(`not implemented ${el.r}`);
}

/** Sets `ref` on every element of the tree (duplicates get `.1`, `.2`... in document order). */
export function assignRefs(root: Element): void {
  throw new Error(`not implemented ${root.r}`);
}
