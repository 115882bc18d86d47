/**
 * What an app shows by itself for a moment, which a diff does not report:
 * a tooltip, and a window that holds nothing to act on (Chromium's
 * link-preview and status bubbles are windows of their own, with a label and
 * no control). The tree's root is never one: a read scoped to a window that
 * holds only text still reports its changes.
 *
 * @module
 */

import type { Element } from "../model/element.ts";
import { INTERACTIVE_ROLES } from "../model/roles.ts";

/**
 * Every element of a tree that lies inside a transient part (the part itself
 * included): a tooltip, or a window below the root with no control, nothing
 * focused and no action inside it.
 *
 * @param root the tree
 * @returns the elements a diff leaves out
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { transientParts } from "./transient.ts";
 * const bubble = { i: 3, ref: "window.4", r: "window" as const, c: [
 *   { i: 4, ref: "window.4/txt", r: "txt" as const, t: "example.com/next" },
 * ] };
 * const root = { i: 1, ref: "app", r: "app" as const, c: [bubble] };
 * assert.equal(transientParts(root).size, 2);
 * ```
 */
export function transientParts(root: Element): Set<Element> {
  const out = new Set<Element>();
  const stack: Element[] = [...(root.c ?? [])];
  while (stack.length) {
    const el = stack.pop()!;
    if (isTransient(el)) {
      addAll(el, out);
      continue;
    }
    for (const kid of el.c ?? []) stack.push(kid);
  }
  return out;
}

/**
 * Whether an element (not a tree's root) is shown by the app for a moment:
 * a tooltip, or a window with nothing in it to act on.
 *
 * @param el the element
 * @returns true for a tooltip or an inert window
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTransient } from "./transient.ts";
 * assert.equal(isTransient({ i: 1, r: "tooltip", t: "Save" }), true);
 * assert.equal(isTransient({ i: 1, r: "window", c: [{ i: 2, r: "btn", t: "OK" }] }), false);
 * ```
 */
export function isTransient(el: Element): boolean {
  if (el.r === "tooltip") return true;
  if (el.r !== "window") return false;
  const stack: Element[] = [el];
  while (stack.length) {
    const e = stack.pop()!;
    if (e !== el && (INTERACTIVE_ROLES.has(e.r) || e.f || e.a?.length)) return false;
    if (e === el && e.f) return false;
    for (const kid of e.c ?? []) stack.push(kid);
  }
  return true;
}

function addAll(el: Element, out: Set<Element>): void {
  const stack = [el];
  while (stack.length) {
    const e = stack.pop()!;
    out.add(e);
    for (const kid of e.c ?? []) stack.push(kid);
  }
}
