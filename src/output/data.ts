/**
 * Plain-data shapes of elements for the `json` and `yaml` formats and for
 * snapshot files: compact keys in a stable order, `nid` left out, and a
 * secure element's value dropped.
 *
 * @module
 */

import {
  type Element,
  type FlatElement,
  PRINTED_KEYS,
  shownValue,
  shownValueText,
} from "../model/element.ts";
import { traceRefs } from "../refs/generate.ts";

/** Element keys in the order they are written: the one field table, {@link PRINTED_KEYS}. */
export const ELEMENT_KEYS: readonly string[] = PRINTED_KEYS;

/** An element as written: compact keys, optional children. */
export type ElementData = Record<string, unknown>;

/**
 * One element's own keys as plain data (no children, no `nid`; no `v` when
 * secure).
 *
 * @param el the element
 * @returns a new object with keys in {@link ELEMENT_KEYS} order
 */
export function elementData(el: Element | FlatElement): ElementData {
  const out: ElementData = {};
  const src = el as unknown as Record<string, unknown>;
  for (const k of ELEMENT_KEYS) {
    const v = k === "v" ? shownValue(el) : k === "vt" ? shownValueText(el) : src[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * A tree as plain data, children under `c`.
 *
 * @param root the tree
 * @returns nested plain objects
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { treeData } from "./data.ts";
 * const d = treeData({ i: 1, r: "input", t: "PIN", v: "1234", sec: true, nid: "x" });
 * assert.equal(JSON.stringify(d), JSON.stringify({"i":1,"r":"input","t":"PIN","sec":true}));
 * ```
 */
export function treeData(root: Element): ElementData {
  const top = elementData(root);
  const stack: Array<{ el: Element; out: ElementData }> = [{ el: root, out: top }];
  while (stack.length) {
    const { el, out } = stack.pop()!;
    if (!el.c?.length) continue;
    const kids = el.c.map((kid) => {
      const d = elementData(kid);
      stack.push({ el: kid, out: d });
      return d;
    });
    out.c = kids;
  }
  return top;
}

/**
 * A tree as a flat list in document order: each element with its landmark
 * path `p` and its parent's id `pi` (absent on the root), so the tree can be
 * rebuilt from the list.
 *
 * @param root the tree
 * @returns flat plain objects
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flatData } from "./data.ts";
 * const flat = flatData({ i: 1, r: "form", c: [{ i: 2, r: "btn", t: "Send" }] });
 * assert.equal(JSON.stringify(flat[1]), JSON.stringify({"i":2,"r":"btn","t":"Send","p":"form","pi":1}));
 * ```
 */
export function flatData(root: Element): ElementData[] {
  const parents = new Map<Element, Element>();
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    for (const kid of el.c ?? []) {
      parents.set(kid, el);
      stack.push(kid);
    }
  }
  return traceRefs(root).map(({ el, anc }) => {
    const d = elementData(el);
    if (anc) d.p = anc.roles;
    const parent = parents.get(el);
    if (parent) d.pi = parent.i;
    return d;
  });
}
