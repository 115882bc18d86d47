/**
 * Tree helpers: numbering, walking, flattening.
 *
 * @module
 */

import { traceRefs } from "../refs/generate.ts";
import type { Bounds, Element, FlatElement } from "./element.ts";

/**
 * Numbers every element depth-first (pre-order) from 1: the `i` key.
 *
 * @param root the tree (mutated)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assignIds } from "./tree.ts";
 * const root = { i: 0, r: "app" as const, c: [{ i: 0, r: "btn" as const }] };
 * assignIds(root);
 * assert.deepEqual(root.i, 1);
 * assert.deepEqual(root.c[0].i, 2);
 * ```
 */
export function assignIds(root: Element): void {
  let next = 1;
  // Pre-order with a plain stack: no ancestors are needed, and none are kept.
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    el.i = next++;
    const kids = el.c;
    if (kids) { for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]); }
  }
}

/**
 * Visits every element depth-first (pre-order) with its ancestors (root
 * first). Return `false` from the visitor to skip an element's children.
 * Iterative, so very deep trees do not overflow the stack. The ancestors
 * array is only valid during the call: copy it to keep it.
 *
 * @param root the tree
 * @param visit called once per element
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { walk } from "./tree.ts";
 * const names: string[] = [];
 * walk({ i: 1, r: "app", c: [{ i: 2, r: "btn", t: "OK" }] }, (el, anc) => {
 *   names.push(`${anc.length}:${el.r}`);
 * });
 * assert.deepEqual(names, ["0:app", "1:btn"]);
 * ```
 */
export function walk(
  root: Element,
  visit: (el: Element, ancestors: readonly Element[]) => void | false,
): void {
  const ancestors: Element[] = [];
  // Each frame is an element and the index of its next child to visit.
  const frames: Array<{ el: Element; next: number }> = [];
  if (visit(root, ancestors) === false) return;
  frames.push({ el: root, next: 0 });
  ancestors.push(root);
  while (frames.length) {
    const top = frames[frames.length - 1];
    const kids = top.el.c ?? [];
    if (top.next >= kids.length) {
      frames.pop();
      ancestors.pop();
      continue;
    }
    const child = kids[top.next++];
    if (visit(child, ancestors) === false) continue;
    frames.push({ el: child, next: 0 });
    ancestors.push(child);
  }
}

/**
 * Copies an element without its children (and without `c`).
 *
 * @param el the element
 * @returns a shallow copy without `c`
 */
export function withoutChildren(el: Element): FlatElement {
  const { c: _c, ...rest } = el;
  return rest;
}

/**
 * The landmark path of an element's ancestors as `flatten` prints it: the
 * roles of the ancestors that contribute to refs, joined with ` > `.
 *
 * @param landmarks contributing ancestors, outermost first
 * @returns e.g. `dialog > form`, or "" when there are none
 */
export function landmarkPath(landmarks: readonly Element[]): string {
  return landmarks.map((el) => el.r).join(" > ");
}

/**
 * Flattens a tree to document order. Each element is a copy without `c`; it
 * carries its landmark path `p` (the roles of the ancestors that contribute
 * to its ref, the same rules as refs) when it has one.
 *
 * @param root the tree
 * @returns the elements, document order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flatten } from "./tree.ts";
 * const flat = flatten({ i: 1, r: "app", c: [{ i: 2, r: "form", c: [{ i: 3, r: "input", t: "Email" }] }] });
 * assert.deepEqual(flat[2].p, "form");
 * ```
 */
export function flatten(root: Element): FlatElement[] {
  return traceRefs(root).map(({ el, anc }) => {
    const flat = withoutChildren(el);
    if (anc) flat.p = anc.roles;
    return flat;
  });
}

/**
 * The box of the window that holds element `id` (or that is it): the part of
 * the screen where that element's subtree can be seen. A read scoped below
 * the window uses it to tell on-screen elements from scrolled-out ones.
 *
 * @param root the full tree
 * @param id the element's id
 * @returns the nearest window's bounds, or undefined (no such element or window box)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { windowBoundsOf } from "./tree.ts";
 * const root = { i: 1, r: "app" as const, c: [
 *   { i: 2, r: "window" as const, b: [0, 0, 800, 600] as [number, number, number, number],
 *     c: [{ i: 3, r: "btn" as const }] },
 * ] };
 * assert.deepEqual(windowBoundsOf(root, 3), [0, 0, 800, 600]);
 * ```
 */
export function windowBoundsOf(root: Element, id: number): Bounds | undefined {
  const stack: Array<{ el: Element; box: Bounds | undefined }> = [{ el: root, box: undefined }];
  while (stack.length) {
    const { el, box } = stack.pop()!;
    const here = el.r === "window" && el.b ? el.b : box;
    if (el.i === id) return here;
    for (const kid of el.c ?? []) stack.push({ el: kid, box: here });
  }
  return undefined;
}
