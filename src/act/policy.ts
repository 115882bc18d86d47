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
import type { Action } from "../platform/provider.ts";

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
  | { via: "pointer" }
  /** The app's focus moved onto the element: what a click on a spreadsheet's cell does. */
  | { via: "focus" };

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
  /**
   * A cell with no accessible action that takes the keyboard focus (a
   * spreadsheet's): a click moves the app's cursor onto it, which focusing it
   * does without aiming the pointer by the boxes the app reports (LibreOffice
   * Calc's lagged its sheet's layout by a row after start).
   */
  cellFocusIsItsClick?: boolean;
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
 * single click selects it. A spreadsheet's cell is focused.
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
  if (f.cellFocusIsItsClick) {
    return [{ via: "focus" }, { via: "clear-pointer" }, { via: "pointer" }];
  }
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
  /** The range a number must lie in, where the element reports one (min below max). */
  range?: { min: number; max: number };
}

/**
 * How set-value is carried out, the same on every backend: a toggle is
 * pressed to reach the asked state, then a number, a text, typing over a
 * field, a selected state, an option; the argument is checked against the
 * route (a toggle takes true/false, a number a number within the element's
 * range: a slider would clamp 100000 to its maximum and say nothing).
 *
 * @param f the facts
 * @param value the asked value
 * @returns the route
 * @throws DesktopError INVALID_ARGS for a value the element cannot take (a
 *   number outside its range names the range), ACTION_NOT_SUPPORTED when
 *   nothing of it can be set
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
    checkInRange(parseNumber(value), f.range);
    return "number";
  }
  if (f.text) return "text";
  if (f.keyboardText) return "keys";
  if (f.selectable && parseToggle(value) !== undefined) return "selected";
  if (f.options) return "select";
  throw noSettableValue();
}

/**
 * Checks a number against an element's range: INVALID_ARGS naming the range
 * when it lies outside (a range the element does not report, or reports
 * empty or inverted, checks nothing).
 *
 * @param num the asked number
 * @param range the element's range, if known
 * @throws DesktopError INVALID_ARGS outside the range
 * @example
 * ```ts
 * import { checkInRange } from "./policy.ts";
 * checkInRange(42, { min: 1, max: 100 }); // fine
 * try {
 *   checkInRange(100000, { min: 1, max: 100 });
 * } catch (e) {
 *   console.log((e as { suggestion: string }).suggestion); // "Pass a number from 1 to 100"
 * }
 * ```
 */
export function checkInRange(num: number, range?: { min: number; max: number }): void {
  if (!range || !(range.min < range.max)) return;
  // A spreadsheet cell's ±DBL_MAX means any number.
  if (!(Math.abs(range.min) < 1e300 && Math.abs(range.max) < 1e300)) return;
  // Values the app reports in floating point (0.1 steps) may miss a bound by a rounding error.
  const slack = (range.max - range.min) * 1e-9;
  if (num >= range.min - slack && num <= range.max + slack) return;
  throw new DesktopError(
    "INVALID_ARGS",
    `${num} is outside the element's range ${fmt(range.min)}..${fmt(range.max)}`,
    {
      suggestion: `Pass a number from ${fmt(range.min)} to ${fmt(range.max)}`,
      details: { min: range.min, max: range.max, value: num },
    },
  );
}

/** A bound as the agent would write it (no float noise: 0.1 + 0.2 shows 0.3). */
function fmt(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/**
 * The most characters one `type` sends. Keys go one by one (a few hundred
 * to a thousand a second, slower as a field grows): longer text is for
 * set-value, which sets it in one call.
 */
export const MAX_TYPED_CHARS = 10_000;

/** The most times one `key` presses its combo (`--repeat`). */
export const MAX_KEY_REPEAT = 100;

/**
 * Whether a click carried out by the element's accessible action should be
 * made again as a real pointer click: a plain left click, on an element of
 * web content, whose action had no visible effect (nothing changed, or only
 * the keyboard focus moved). A browser carries out an accessible press as
 * DOM events with no pointer movement, so widgets that act on the pointer
 * (row actions shown on hover, a list that picks the option under the
 * pointer) ignore it; a native toolkit's press runs the click's own handler,
 * and pressing it again could do the action twice.
 *
 * @param action the click
 * @param via how the click was carried out
 * @param unverified why its effect could not be confirmed, if it could not
 * @param inWebContent the element lies inside a web document (role `web`)
 * @returns true to click again with the pointer
 * @example
 * ```ts
 * import { clickAgainWithPointer } from "./policy.ts";
 * console.log(clickAgainWithPointer({ kind: "click" }, "accessible", "nothing changed within 1500 ms", true)); // true
 * console.log(clickAgainWithPointer({ kind: "click" }, "accessible", "nothing changed within 1500 ms", false)); // false
 * ```
 */
export function clickAgainWithPointer(
  action: Action,
  via: string,
  unverified: string | undefined,
  inWebContent: boolean,
): boolean {
  if (action.kind !== "click" || action.pointer || !inWebContent) return false;
  if ((action.button ?? "left") !== "left" || (action.count ?? 1) !== 1) return false;
  if (via !== "accessible" || unverified === undefined) return false;
  return NO_EFFECT_SEEN.test(unverified);
}

/** The verdicts (src/act/effect.ts) that say an action's route showed no effect at all. */
const NO_EFFECT_SEEN = /^nothing (visible )?changed|^only the keyboard focus moved/;

/**
 * How long an action whose first route showed nothing is watched once more
 * before its second route is taken (ms): a press may show its effect late,
 * and a second press would do the action twice.
 */
export const SECOND_ROUTE_LOOK_MS = 1000;

/**
 * The second route of an action whose first had no visible effect, and why:
 * a click carried out by the element's accessible action is made again with
 * the pointer (see {@link clickAgainWithPointer}); a wheel that moved
 * nothing (an app that took the notches elsewhere, or not at all) turns the
 * view's scroll bar as far. Null when there is none.
 *
 * @param action what was done
 * @param via how it was carried out
 * @param unverified why its effect could not be confirmed, if it could not
 * @param inWebContent the element lies inside a web document (role `web`)
 * @param detail how it was carried out, in more words (the accessible action's name)
 * @returns the action to make again, why, and what to say when it fails; or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { secondRoute } from "./policy.ts";
 * const wheel = { kind: "scroll" as const, direction: "down" as const, amount: 3 };
 * assert.deepEqual(secondRoute(wheel, "input", "nothing changed within 1500 ms", false), {
 *   action: { ...wheel, bar: true },
 *   why: "the wheel moved nothing",
 *   untaken: "no scroll bar was turned",
 * });
 * assert.equal(secondRoute(wheel, "input", undefined, false), null);
 * ```
 */
export function secondRoute(
  action: Action,
  via: string,
  unverified: string | undefined,
  inWebContent: boolean,
  detail?: string,
): { action: Action; why: string; untaken: string } | null {
  if (clickAgainWithPointer(action, via, unverified, inWebContent)) {
    return {
      action: { ...action, pointer: true } as Action,
      why: `the accessible ${detail ?? "press"} had no visible effect`,
      untaken: "no pointer click was made",
    };
  }
  if (
    action.kind === "scroll" && action.direction && action.amount !== undefined && !action.bar &&
    via === "input" && unverified !== undefined &&
    NO_EFFECT_SEEN.test(unverified)
  ) {
    return {
      action: { ...action, bar: true },
      why: "the wheel moved nothing",
      untaken: "no scroll bar was turned",
    };
  }
  return null;
}

/**
 * Whether an element lies inside web content: one of its ancestors in the
 * tree is a web document (role `web`). The element is found by its native
 * id, else by its ref and role.
 *
 * @param root the tree the element was resolved in
 * @param el the element
 * @returns true inside a web document
 * @example
 * ```ts
 * import { insideWebContent } from "./policy.ts";
 * const btn = { i: 3, ref: "go", r: "btn" as const };
 * const root = { i: 1, r: "window" as const, c: [{ i: 2, r: "web" as const, c: [btn] }] };
 * console.log(insideWebContent(root, btn)); // true
 * ```
 */
export function insideWebContent(root: Element, el: Element): boolean {
  const same = (e: Element) =>
    e === el || (el.nid !== undefined ? e.nid === el.nid : e.ref === el.ref && e.r === el.r);
  const visit = (e: Element, inWeb: boolean, depth: number): boolean | undefined => {
    if (same(e)) return inWeb;
    if (depth > 512) return undefined;
    for (const c of e.c ?? []) {
      const found = visit(c, inWeb || e.r === "web", depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(root, false, 0) ?? false;
}

/** The most wheel steps one `scroll` sends. */
export const MAX_SCROLL_STEPS = 1000;

/**
 * Checks an action's own arguments before anything is read or sent: text to
 * type within {@link MAX_TYPED_CHARS}, a scroll amount a whole number from 1
 * to {@link MAX_SCROLL_STEPS}, a click count from 1 to 3.
 *
 * @param action the action
 * @throws DesktopError INVALID_ARGS
 * @example
 * ```ts
 * import { checkActionArgs } from "./policy.ts";
 * checkActionArgs({ kind: "scroll", direction: "down", amount: 5 }); // fine
 * try {
 *   checkActionArgs({ kind: "scroll", direction: "down", amount: 1_000_000 });
 * } catch (e) {
 *   console.log((e as { code: string }).code); // INVALID_ARGS
 * }
 * ```
 */
export function checkActionArgs(action: Action): void {
  if (action.kind === "type") {
    const length = [...action.text].length;
    if (length > MAX_TYPED_CHARS) {
      throw new DesktopError(
        "INVALID_ARGS",
        `type sends at most ${MAX_TYPED_CHARS} characters, got ${length}`,
        {
          suggestion: "Set long text in one call with set-value (a text field takes it whole), " +
            `or type it in parts of up to ${MAX_TYPED_CHARS} characters`,
          details: { length, max: MAX_TYPED_CHARS },
        },
      );
    }
  } else if (action.kind === "scroll" && action.amount !== undefined) {
    const a = action.amount;
    if (!Number.isSafeInteger(a) || a < 1 || a > MAX_SCROLL_STEPS) {
      throw new DesktopError(
        "INVALID_ARGS",
        `scroll amount must be a whole number from 1 to ${MAX_SCROLL_STEPS}, got ${a}`,
        {
          suggestion: `Pass --amount ${MAX_SCROLL_STEPS} or less; to bring an element into ` +
            "view, scroll --ref it without --direction",
        },
      );
    }
  } else if (action.kind === "key" && action.repeat !== undefined) {
    const r = action.repeat;
    if (!Number.isSafeInteger(r) || r < 1 || r > MAX_KEY_REPEAT) {
      throw new DesktopError(
        "INVALID_ARGS",
        `key repeat must be a whole number from 1 to ${MAX_KEY_REPEAT}, got ${r}`,
        {
          suggestion: `Pass --repeat ${MAX_KEY_REPEAT} or less, and send the rest in another call`,
          details: { repeat: r, max: MAX_KEY_REPEAT },
        },
      );
    }
  } else if (action.kind === "click" && action.count !== undefined) {
    const c = action.count;
    if (!Number.isSafeInteger(c) || c < 1 || c > 3) {
      throw new DesktopError("INVALID_ARGS", `click count must be 1, 2 or 3, not ${c}`, {
        suggestion: "Click once, or double-click (--double)",
      });
    }
  }
}

/**
 * Refuses an action on a disabled element before anything is sent: the app
 * ignores a click on it, and would ignore keys, yet an accessible call can
 * still write into it (GTK's EditableText sets a disabled field's text).
 * Bringing it into view (scroll without an amount) changes nothing of it and
 * is allowed.
 *
 * @param action the action
 * @param disabled whether the element is disabled (as `read` shows it: `disabled`)
 * @param el the element's role and label, for the message
 * @throws DesktopError ACTION_NOT_SUPPORTED for a disabled element
 * @example
 * ```ts
 * import { refuseDisabled } from "./policy.ts";
 * refuseDisabled({ kind: "click" }, false, { r: "btn", t: "OK" }); // fine
 * try {
 *   refuseDisabled({ kind: "set-value", value: "hi" }, true, { r: "input", t: "Name" });
 * } catch (e) {
 *   console.log((e as { message: string }).message); // set-value on a disabled input "Name": ...
 * }
 * ```
 */
export function refuseDisabled(
  action: Action,
  disabled: boolean,
  el: { r?: string; t?: string } = {},
): void {
  if (!disabled) return;
  if (action.kind === "scroll" && action.amount === undefined) return;
  const what = `${el.r ?? "element"}${el.t ? ` "${el.t}"` : ""}`;
  throw new DesktopError(
    "ACTION_NOT_SUPPORTED",
    `${action.kind} on a disabled ${what}: the app takes no input there, so nothing was sent`,
    {
      suggestion: "Do what enables it first (read shows it as 'disabled' until then; desktop " +
        "wait can wait for a change), or act on another element",
      details: { action: action.kind, disabled: true },
    },
  );
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
