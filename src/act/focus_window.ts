/**
 * Which window took keys sent with no target: the one that holds the focused
 * element. A key aimed at "whatever has the focus" may land in a dialog that
 * opened by itself (a restart prompt, a save question); the ok line names
 * that window so an agent sees where its keys went. Pure.
 *
 * @module
 */

import type { Element } from "../model/element.ts";

/** The window that holds an element: its role (`window` or `dialog`) and title. */
export interface HoldingWindow {
  /** `dialog` for dialogs and alerts, `window` for other top-level windows. */
  r: "window" | "dialog";
  /** Its title ("" when it has none). */
  t: string;
}

/**
 * The innermost window or dialog that holds `el` (the element itself when it
 * is one), found by identity, else by native id; undefined when none does.
 *
 * @param root the tree the element was found in
 * @param el the element
 * @returns the window, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { windowHolding } from "./focus_window.ts";
 * import type { Element } from "../model/element.ts";
 * const ok: Element = { i: 4, r: "btn", t: "Restart Now", f: true };
 * const root: Element = {
 *   i: 1, r: "app", c: [
 *     { i: 2, r: "window", t: "Document" },
 *     { i: 3, r: "dialog", t: "Restart LibreOffice", c: [ok] },
 *   ],
 * };
 * assert.deepEqual(windowHolding(root, ok), { r: "dialog", t: "Restart LibreOffice" });
 * ```
 */
export function windowHolding(root: Element, el: Element): HoldingWindow | undefined {
  const same = (e: Element) => e === el || (el.nid !== undefined && e.nid === el.nid);
  const visit = (
    e: Element,
    holder: HoldingWindow | undefined,
    depth: number,
  ): HoldingWindow | null | undefined => {
    const here: HoldingWindow | undefined = e.r === "window" || e.r === "dialog"
      ? { r: e.r, t: e.t ?? "" }
      : holder;
    if (same(e)) return here ?? null;
    if (depth > 512) return undefined;
    for (const c of e.c ?? []) {
      const found = visit(c, here, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(root, undefined, 0) ?? undefined;
}
