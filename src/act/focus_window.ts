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

/** Whether an element is an open menu: a menu on screen with items on screen. */
function isOpenMenu(e: Element): boolean {
  return e.r === "menu" && e.b !== undefined &&
    (e.c ?? []).some((k) => k.b !== undefined && (k.r === "menuitem" || k.r === "menu"));
}

/**
 * The open menu that would take the keys meant for `el`: the menu that holds
 * the app's keyboard focus, or (where the app leaves the focus on the field
 * while its menu holds the keyboard, as Qt does) the innermost open menu,
 * when `el` lies outside it. Undefined when no menu is open or `el` is in it.
 *
 * @param root the app's tree
 * @param el the element keys are meant for
 * @returns the open menu (or its focused item), or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { menuHoldingKeys } from "./focus_window.ts";
 * import type { Element } from "../model/element.ts";
 * const editor: Element = { i: 3, r: "input", f: true };
 * const undo: Element = { i: 6, r: "menuitem", t: "Undo", b: [10, 30, 80, 20] };
 * const menu: Element = { i: 5, r: "menu", b: [10, 30, 80, 100], c: [undo] };
 * const root: Element = {
 *   i: 1, r: "window", c: [editor, { i: 4, r: "menubar", c: [{ i: 7, r: "menuitem", t: "Edit", c: [menu] }] }],
 * };
 * assert.equal(menuHoldingKeys(root, editor), menu);
 * assert.equal(menuHoldingKeys(root, undo), undefined);
 * ```
 */
export function menuHoldingKeys(root: Element, el: Element): Element | undefined {
  const same = (a: Element, b: Element) => a === b || (b.nid !== undefined && a.nid === b.nid);
  let focused: { el: Element; menu: Element | undefined } | undefined;
  let open: Element | undefined;
  const visit = (e: Element, menu: Element | undefined, depth: number) => {
    if (depth > 512) return;
    const inMenu = e.r === "menu" ? e : menu;
    if (e.f) focused = { el: e, menu: inMenu };
    if (isOpenMenu(e)) open = e;
    for (const c of e.c ?? []) visit(c, inMenu, depth + 1);
  };
  visit(root, undefined, 0);
  const menu = focused && (focused.el.r === "menu" || focused.el.r === "menuitem")
    ? focused.menu
    : open;
  if (!menu) return undefined;
  const within = (e: Element, depth: number): boolean =>
    same(e, el) || (depth < 512 && (e.c ?? []).some((c) => within(c, depth + 1)));
  return within(menu, 0) ? undefined : menu;
}
