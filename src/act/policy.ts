/**
 * How each action is carried out, decided once for every backend: which of
 * an element's own accessible actions stand for a click or a right click,
 * how set-value arguments are read, and the order of the fallbacks. Backends
 * supply the primitives (do an action, set a value, focus, synthesize input)
 * and follow these decisions. Pure.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Element, Role } from "../model/element.ts";

/**
 * Action names that mean "press this", in order of preference, lowercased:
 * AT-SPI's (GTK, Qt, Chromium, Firefox, LibreOffice) and AX's.
 */
export const PRESS_ACTIONS: readonly string[] = [
  "click",
  "press",
  "activate",
  "toggle",
  "jump",
  "check",
  "uncheck",
  "open",
  "dodefault",
  "axpress",
  "axconfirm",
  "axpick",
  "axopen",
];

/** Action names that open the element's context menu (a right click), lowercased. */
export const MENU_ACTIONS: readonly string[] = [
  "axshowmenu",
  "showmenu",
  "show menu",
  "menu.popup",
  "popup",
  "menu",
  "contextmenu",
  "context menu",
];

/**
 * The index of the first of `wanted` that the element offers
 * (case-insensitive), or -1.
 *
 * @param names the element's action names, in its own order
 * @param wanted names in order of preference, lowercased
 * @returns index into `names`, or -1
 * @example
 * ```ts
 * import { pickAction, PRESS_ACTIONS } from "./policy.ts";
 * console.log(pickAction(["activate", "click"], PRESS_ACTIONS)); // 1
 * ```
 */
export function pickAction(names: readonly string[], wanted: readonly string[]): number {
  const lower = names.map((n) => n.trim().toLowerCase());
  for (const want of wanted) {
    const i = lower.indexOf(want);
    if (i >= 0) return i;
  }
  return -1;
}

/** How a click is carried out, in order: each route is tried until one applies. */
export type ClickRoute =
  /** The element's own accessible action from this list. */
  | { via: "action"; names: readonly string[] }
  /** Open the menus that hold the element, then click it with the pointer. */
  | { via: "menu-pointer" }
  /**
   * A synthesized click at the element's visible centre, only where the
   * element is on screen and a hit test there finds it (nothing covers it);
   * else the next route.
   */
  | { via: "clear-pointer" }
  /** A synthesized click at the visible centre (scrolled into view first). */
  | { via: "pointer" };

/** What the click policy needs to know about the element and the backend. */
export interface ClickFacts {
  /** The mouse button. */
  button: "left" | "right" | "middle";
  /** 1 for a click, 2 for a double click... */
  count: number;
  /** The element is a menu item. */
  menuItem: boolean;
  /**
   * The element is button-like (button, toggle, check box, radio, link): a
   * single click is what its press action does. A cell's or list item's
   * action activates it (a double click), so the pointer would do less.
   */
  buttonLike?: boolean;
  /**
   * The element is an item a single click selects, whose accessible action
   * is not a click: a GTK tree or list view's row or cell ("activate" opens
   * the file or folder, a double click's effect), a Qt item view's cell
   * ("Toggle" selects or unselects it, and Qt 5 applies it to another row in
   * a tree view: pcmanfm-qt's folder tree went to "/"). A click selects it
   * with the pointer.
   */
  itemActionIsNotAClick?: boolean;
  /**
   * The backend runs an accessible action inside the app's handling of the
   * request (AT-SPI with GTK 2 or 3, Qt 5 and 6): a handler that opens a modal dialog
   * then keeps the request on the app's stack until the dialog closes.
   */
  actionBlocksOnModal: boolean;
}

/**
 * The routes for a click, in order. A left click prefers the element's press
 * action; a right click its context-menu action; both fall back to the
 * pointer. Where an action would run its handler inside the app's
 * accessibility request (a modal dialog opened there freezes the app on the
 * next key event), menu items are clicked with the pointer, their menus
 * opened first, and button-like elements with the pointer where nothing
 * covers them. An item whose action is not a click (GTK's rows and cells
 * open, Qt's toggle their selection) is clicked with the pointer only: a
 * single click selects it.
 *
 * @param f the facts
 * @returns the routes to try, in order
 * @example
 * ```ts
 * import { clickRoutes } from "./policy.ts";
 * const r = clickRoutes({ button: "right", count: 1, menuItem: false, actionBlocksOnModal: true });
 * console.log(r.map((x) => x.via)); // ["action", "pointer"]
 * ```
 */
export function clickRoutes(f: ClickFacts): ClickRoute[] {
  if (f.count !== 1 || f.button === "middle") return [{ via: "pointer" }];
  if (f.button === "right") return [{ via: "action", names: MENU_ACTIONS }, { via: "pointer" }];
  if (f.itemActionIsNotAClick) return [{ via: "clear-pointer" }, { via: "pointer" }];
  if (f.menuItem && f.actionBlocksOnModal) {
    return [{ via: "menu-pointer" }, { via: "action", names: PRESS_ACTIONS }, { via: "pointer" }];
  }
  // Any press may open a modal dialog (a button's handler running gtk_dialog_run): where the
  // action would run it inside the app's request, a user's click is the safe way in.
  if (f.actionBlocksOnModal && f.buttonLike) {
    return [{ via: "clear-pointer" }, { via: "action", names: PRESS_ACTIONS }, { via: "pointer" }];
  }
  return [{ via: "action", names: PRESS_ACTIONS }, { via: "pointer" }];
}

/** How set-value is carried out, decided by {@link setValueRoute}. */
export type SetValueRoute =
  /** Already in the asked state: nothing to do. */
  | "unchanged"
  /** Press the element (its action, else a click) to flip its checked state. */
  | "toggle"
  /** Set the number (the Value interface, AXValue of a slider or spin button). */
  | "number"
  /** Set the text (EditableText, AXValue of a text field). */
  | "text"
  /** Select all and type over it (a text field whose text cannot be set directly). */
  | "keys"
  /** Set the selected state (a row, tab or cell: `true`/`false`). */
  | "selected"
  /** Choose the option with that label (a combo box, a list). */
  | "select";

/** What {@link setValueRoute} needs to know about the element, each backend asking its own API. */
export interface SetValueFacts {
  /** A check box, switch, radio or toggle button. */
  toggle: boolean;
  /** Its checked (or pressed) state, for a toggle. */
  checked?: boolean;
  /** A radio button (it cannot be unchecked directly). */
  radio?: boolean;
  /** Its value is a settable number. */
  number: boolean;
  /** Its text can be set. */
  text: boolean;
  /** A text field whose text cannot be set directly, typed into instead. */
  keyboardText: boolean;
  /** Its selected state can be set. */
  selectable: boolean;
  /** It may hold options to choose from (the backend looks for them). */
  options: boolean;
}

/**
 * How set-value is carried out, the same on every backend: a toggle is
 * pressed to reach the asked state, then a number, a text, typing over a
 * field, a selected state, an option; the argument is checked against the
 * route (a toggle takes true/false, a number a number).
 *
 * @param f the facts
 * @param value the asked value
 * @returns the route
 * @throws DesktopError INVALID_ARGS for a value the element cannot take,
 *   ACTION_NOT_SUPPORTED when nothing of it can be set
 * @example
 * ```ts
 * import { setValueRoute } from "./policy.ts";
 * const field = { toggle: false, number: false, text: true, keyboardText: false, selectable: false, options: false };
 * console.log(setValueRoute(field, "ada@example.com")); // "text"
 * console.log(setValueRoute({ ...field, text: false, toggle: true, checked: true }, "on")); // "unchanged"
 * ```
 */
export function setValueRoute(f: SetValueFacts, value: string): SetValueRoute {
  if (f.toggle) {
    const want = requireToggle(value);
    if (f.checked === want) return "unchanged";
    if (f.radio && !want) {
      throw new DesktopError(
        "ACTION_NOT_SUPPORTED",
        "a radio button cannot be unchecked directly",
        {
          suggestion: "Select another radio button of the group instead",
        },
      );
    }
    return "toggle";
  }
  if (f.number) {
    parseNumber(value);
    return "number";
  }
  if (f.text) return "text";
  if (f.keyboardText) return "keys";
  if (f.selectable && parseToggle(value) !== undefined) return "selected";
  if (f.options) return "select";
  throw noSettableValue();
}

/** Roles where typed keys press or pick rather than enter text: a space or a letter acts. */
const PRESSED_BY_KEYS: ReadonlySet<Role> = new Set<Role>([
  "btn",
  "toggle",
  "chk",
  "radio",
  "menuitem",
  "lnk",
  "tab",
]);

/**
 * Checks that `type` would enter text into the element: typed into a button,
 * check box, link, menu item or tab, a space presses it and a letter may run
 * a mnemonic (a tip-of-the-day dialog's focused OK took "Hello" and closed).
 *
 * @param el the element the keys would go to
 * @param focused whether it was chosen as the focused element (no target given)
 * @throws DesktopError ACTION_NOT_SUPPORTED for an element keys press
 * @example
 * ```ts
 * import { checkTypeTarget } from "./policy.ts";
 * checkTypeTarget({ i: 1, r: "input" }, true); // fine
 * try {
 *   checkTypeTarget({ i: 2, r: "btn", t: "OK" }, true);
 * } catch (e) {
 *   console.log((e as { code: string }).code); // ACTION_NOT_SUPPORTED
 * }
 * ```
 */
export function checkTypeTarget(el: Element, focused: boolean): void {
  if (!PRESSED_BY_KEYS.has(el.r)) return;
  const what = `${el.r}${el.t ? ` "${el.t}"` : ""}`;
  throw new DesktopError(
    "ACTION_NOT_SUPPORTED",
    focused
      ? `the focused element is a ${what}: typed keys would press it, not enter text`
      : `type enters text; keys typed into a ${what} would press it`,
    {
      suggestion: focused
        ? "A dialog may have taken the focus: read the app, then type into a field with --ref " +
          "(or close the dialog first); use key for key presses"
        : "Type into a text field (--ref); use click or key to press it",
      details: { ref: el.ref, role: el.r },
    },
  );
}

/**
 * The error for keys aimed at a window that a modal dialog of the same app
 * blocks: the keys would reach the dialog (its search field, or a focused
 * button a space presses), so none is sent.
 *
 * @param dialog the modal window's title
 * @returns ACTION_FAILED saying which dialog is in the way
 * @example
 * ```ts
 * import { blockedByModal } from "./policy.ts";
 * console.log(blockedByModal("Select File").code); // ACTION_FAILED
 * ```
 */
export function blockedByModal(dialog: string): DesktopError {
  const name = dialog ? `"${dialog}"` : "(untitled)";
  return new DesktopError(
    "ACTION_FAILED",
    `a modal dialog ${name} is open: keys would go to it, not to the element`,
    {
      suggestion: `Act in the dialog first (read --window ${
        dialog ? JSON.stringify(dialog) : "<its title>"
      }) or close it, then retry`,
      details: { dialog },
    },
  );
}

/**
 * The error for an element none of whose value can be set.
 *
 * @returns ACTION_NOT_SUPPORTED with what set-value works on
 */
export function noSettableValue(): DesktopError {
  return new DesktopError("ACTION_NOT_SUPPORTED", "the element has no settable value", {
    suggestion:
      "set-value works on text fields, sliders, spin buttons, toggles, lists and combos; " +
      "use type to enter text, or click/action for other controls",
  });
}

/**
 * Reads a set-value argument for a toggle (check box, switch, radio,
 * check menu item).
 *
 * @param value `true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0`, `checked`/`unchecked`
 * @returns the state, or undefined when it is not one
 * @example
 * ```ts
 * import { parseToggle } from "./policy.ts";
 * console.log(parseToggle(" On "), parseToggle("maybe")); // true undefined
 * ```
 */
export function parseToggle(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (["true", "on", "yes", "1", "checked", "check"].includes(v)) return true;
  if (["false", "off", "no", "0", "unchecked", "uncheck"].includes(v)) return false;
  return undefined;
}

/**
 * Reads a set-value argument for a toggle; INVALID_ARGS when it is not a state.
 *
 * @param value the argument
 * @returns the state
 */
export function requireToggle(value: string): boolean {
  const want = parseToggle(value);
  if (want !== undefined) return want;
  throw new DesktopError("INVALID_ARGS", `"${value}" is not a checked state`, {
    suggestion: "Check boxes, switches and radios take true or false (also on/off, 1/0)",
  });
}

/**
 * Reads a set-value argument for a slider, spin button or other range.
 *
 * @param value the argument
 * @returns the number
 * @throws DesktopError INVALID_ARGS when it is not a finite number
 * @example
 * ```ts
 * import { parseNumber } from "./policy.ts";
 * console.log(parseNumber(" 42.5 ")); // 42.5
 * ```
 */
export function parseNumber(value: string): number {
  const t = value.trim();
  const num = t === "" ? Number.NaN : Number(t);
  if (!Number.isFinite(num)) {
    throw new DesktopError("INVALID_ARGS", `"${value}" is not a number`, {
      suggestion: "Sliders and spin buttons take a number within their range, e.g. set-value 42",
    });
  }
  return num;
}
