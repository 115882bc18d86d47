/**
 * The macOS element delegate of the action executor (src/act/executor.ts):
 * what AX says of one element and does to it (AXPress and the other
 * actions, AXValue, AXSelected, AXFocused, AXScrollToVisible), and the
 * input delegate over CGEvent. The executor owns every sequence, fallback
 * and error, the same as on Linux.
 *
 * @module
 */

import { sleepSync } from "../sleep_sync.ts";
import { DesktopError } from "../../errors.ts";
import type { ElementDelegate, ElementFacts, InputDelegate } from "../../act/delegates.ts";
import { executeAtPoint, executeOnElement } from "../../act/executor.ts";
import type { Bounds, Point } from "../../model/element.ts";
import { isSecureAx, roleFromAx } from "../../model/roles.ts";
import { centreOf, intersect } from "../geometry.ts";
import { AX_ERROR } from "../../ffi/macos/ax_error.ts";
import type { CFRef } from "../../ffi/macos/cf.ts";
import type { Action, ActionResult } from "../provider.ts";
import { friendlyAction } from "./action_names.ts";
import { clickAt, dragBetween, moveTo, pressKey, scrollAt, typeText } from "./input.ts";
import { parseKeyCombo } from "./keys.ts";
import type { AxSession } from "./session.ts";

/** The element an action is aimed at. */
export interface ElementTarget {
  /** Session. */
  s: AxSession;
  /** The element (borrowed from the nid table). */
  ref: CFRef;
  /** Owning process. */
  pid: number;
  /** App name, for messages. */
  app: string;
}

/** Check-like roles: set-value presses them to reach the wanted state. */
const CHECK_ROLES = new Set(["AXCheckBox", "AXRadioButton", "AXSwitch", "AXToggle"]);

/** Roles a single click presses. */
const BUTTON_LIKE_ROLES = new Set([
  "AXButton",
  "AXCheckBox",
  "AXRadioButton",
  "AXSwitch",
  "AXToggle",
  "AXLink",
  "AXPopUpButton",
  "AXMenuButton",
]);

/** Roles whose value is a number. */
const NUMERIC_ROLES = new Set([
  "AXSlider",
  "AXIncrementor",
  "AXStepper",
  "AXProgressIndicator",
  "AXLevelIndicator",
  "AXScrollBar",
  "AXValueIndicator",
]);

/** Roles of text typed into. */
const TEXT_ROLES = new Set(["AXTextField", "AXTextArea", "AXSecureTextField", "AXComboBox"]);

/**
 * CGEvent input as the executor's input delegate.
 *
 * @param s the session
 * @returns the input delegate
 */
export function macosInput(s: AxSession): InputDelegate {
  return {
    name: "macos",
    primary: "super",
    click: (p, button, count) => clickAt(s, p, button, count),
    move: (p) => moveTo(s, p),
    wheel: (p, direction, steps) => scrollAt(s, p, direction, steps),
    drag: (from, to) => dragBetween(s, from, to),
    key: (chord, repeat) => {
      // The shared grammar spelled back (`cmd++` is Command and plus): this keyboard's codes.
      const combo = parseKeyCombo([...chord.mods, chord.key].join("+"));
      for (let i = 0; i < repeat; i++) pressKey(s, combo.code, combo.flags);
    },
    type: (text) => typeText(s, text),
  };
}

/**
 * Carries out an action on an element through the executor.
 *
 * @param t the element
 * @param action what to do
 * @param deadline the command's deadline (ms since the epoch)
 * @returns how it was done
 */
export function actOnElement(
  t: ElementTarget,
  action: Action,
  deadline: number = Date.now() + 10_000,
): ActionResult {
  return executeOnElement(new AxElement(t), () => macosInput(t.s), action, { deadline });
}

/**
 * Carries out an action at a screen point (input only).
 *
 * @param s the session
 * @param p the point
 * @param action what to do
 * @param deadline the command's deadline (ms since the epoch)
 * @returns how it was done
 */
export function actOnPoint(
  s: AxSession,
  p: Point,
  action: Action,
  deadline: number = Date.now() + 10_000,
): ActionResult {
  return executeAtPoint(macosInput(s), p, action, { deadline });
}

/** One AX element as the executor's element delegate. */
export class AxElement implements ElementDelegate {
  #t: ElementTarget;

  /** @param t the element and its session */
  constructor(t: ElementTarget) {
    this.#t = t;
  }

  /** The error for an AX call that failed: STALE_REF for a destroyed element. */
  #fail(code: number, op: string): DesktopError {
    const t = this.#t;
    if (code === AX_ERROR.InvalidUIElement) {
      return new DesktopError("STALE_REF", `the element is gone from ${t.app} (${op})`, {
        suggestion: "Read the app again and act on a fresh ref",
        details: { axError: code },
      });
    }
    if (code === AX_ERROR.CannotComplete) return t.s.appError(code, t.pid, { op, app: t.app });
    return t.s.error(code, { op, acting: true, app: t.app });
  }

  /** The role and enabled state, which also proves the element still exists. */
  #probe(): { role: string; enabled: boolean } {
    const t = this.#t;
    const r = t.s.copyMany(t.ref, ["AXRole", "AXEnabled"], (slots) => {
      const [role, enabled] = slots.map((sl) => "ptr" in sl ? t.s.toJs(sl.ptr) : null);
      return { role: typeof role === "string" ? role : "", enabled: enabled !== false };
    });
    if (r.err !== 0 || !r.result) throw this.#fail(r.err, "look up the element");
    return r.result;
  }

  #actions(): string[] {
    const { err, names } = this.#t.s.actionNames(this.#t.ref);
    if (err !== 0 && err !== AX_ERROR.AttributeUnsupported) throw this.#fail(err, "read actions");
    return names;
  }

  #settable(attr: string): boolean {
    const r = this.#t.s.settable(this.#t.ref, attr);
    if (r.err === AX_ERROR.InvalidUIElement) throw this.#fail(r.err, `check ${attr}`);
    return r.err === 0 && r.settable;
  }

  facts(): ElementFacts {
    const s = this.#t.s;
    const { role, enabled } = this.#probe();
    const title = s.read(this.#t.ref, "AXTitle").value;
    const toggle = CHECK_ROLES.has(role);
    const cur = toggle ? s.read(this.#t.ref, "AXValue").value : null;
    const valueSettable = !toggle && this.#settable("AXValue");
    const numeric = valueSettable && NUMERIC_ROLES.has(role);
    const min = numeric ? s.read(this.#t.ref, "AXMinValue").value : undefined;
    const max = numeric ? s.read(this.#t.ref, "AXMaxValue").value : undefined;
    const actions = this.#actions();
    return {
      role: roleFromAx(role),
      name: typeof title === "string" ? title : "",
      enabled,
      focused: s.read(this.#t.ref, "AXFocused").value === true,
      actions,
      actionLabels: actions.map(friendlyAction),
      topLevel: role === "AXWindow" || role === "AXApplication",
      menuItem: role === "AXMenuItem",
      buttonLike: BUTTON_LIKE_ROLES.has(role),
      toggle,
      checked: typeof cur === "number" ? cur === 1 : cur === true,
      radio: role === "AXRadioButton",
      editableText: valueSettable && !NUMERIC_ROLES.has(role),
      keyboardText: !valueSettable && TEXT_ROLES.has(role),
      ...(numeric
        ? {
          number: typeof min === "number" && typeof max === "number" ? { min, max } : {},
        }
        : {}),
      ...(role === "AXSlider" ? { ranged: "slider" as const } : {}),
      ...(role === "AXIncrementor" || role === "AXStepper" ? { ranged: "spin" as const } : {}),
      selectable: !toggle && !valueSettable && this.#settable("AXSelected"),
      options: false,
      combo: role === "AXComboBox" || role === "AXPopUpButton",
      habits: {},
    };
  }

  doAction(index: number): void {
    const name = this.#actions()[index];
    if (name === undefined) throw new DesktopError("ACTION_NOT_SUPPORTED", "no such action");
    const err = this.#t.s.perform(this.#t.ref, name);
    if (err !== 0) throw this.#fail(err, `perform ${name}`);
  }

  setText(text: string): void {
    using str = this.#t.s.cf.string(text);
    const err = this.#t.s.set(this.#t.ref, "AXValue", str.ptr);
    if (err !== 0) throw this.#fail(err, "set AXValue");
  }

  setNumber(n: number): void {
    using num = this.#t.s.cf.number(n);
    const err = this.#t.s.set(this.#t.ref, "AXValue", num.ptr);
    if (err !== 0) throw this.#fail(err, "set AXValue");
  }

  setSelected(selected: boolean): void {
    const err = this.#t.s.set(this.#t.ref, "AXSelected", this.#t.s.cf.boolean(selected));
    if (err !== 0) throw this.#fail(err, "set AXSelected");
  }

  valueNow(): { value: number; text?: string } {
    const v = this.#t.s.read(this.#t.ref, "AXValue").value;
    const text = this.#t.s.read(this.#t.ref, "AXValueDescription").value;
    const value = typeof v === "number" ? v : NaN;
    return typeof text === "string" && text ? { value, text } : { value };
  }

  /** AXNumberOfCharacters; AXValue's length only where the field is not secure (never read). */
  textLength(): number {
    const s = this.#t.s;
    const count = s.read(this.#t.ref, "AXNumberOfCharacters").value;
    if (typeof count === "number") return count;
    const role = s.read(this.#t.ref, "AXRole").value;
    const subrole = s.read(this.#t.ref, "AXSubrole").value;
    if (isSecureAx(String(role), typeof subrole === "string" ? subrole : undefined)) return -1;
    const v = s.read(this.#t.ref, "AXValue").value;
    return typeof v === "string" ? [...v].length : -1;
  }

  textNow(): string | null {
    const s = this.#t.s;
    const role = s.read(this.#t.ref, "AXRole").value;
    const subrole = s.read(this.#t.ref, "AXSubrole").value;
    if (isSecureAx(String(role), typeof subrole === "string" ? subrole : undefined)) return null;
    const v = s.read(this.#t.ref, "AXValue").value;
    return typeof v === "string" ? v : null;
  }

  grabFocus(): void {
    if (!this.#settable("AXFocused")) {
      throw new DesktopError("ACTION_NOT_SUPPORTED", "the element cannot take focus", {
        suggestion: "Click it instead",
      });
    }
    const err = this.#t.s.set(this.#t.ref, "AXFocused", this.#t.s.cf.boolean(true));
    if (err !== 0) throw this.#fail(err, "set AXFocused");
  }

  scrollIntoView(): boolean {
    if (!this.#actions().includes("AXScrollToVisible")) return false;
    const err = this.#t.s.perform(this.#t.ref, "AXScrollToVisible");
    if (err !== 0) throw this.#fail(err, "perform AXScrollToVisible");
    return true;
  }

  /** A frame from fresh AXPosition/AXSize: null when the element has none. */
  #frame(ref: CFRef): Bounds | null {
    const s = this.#t.s;
    const r = s.copyMany(ref, ["AXPosition", "AXSize"], (slots) => {
      const [pos, size] = slots.map((sl) => "ptr" in sl ? s.toJs(sl.ptr) : null);
      if (!pos || typeof pos !== "object" || !("type" in pos) || pos.type !== "point") return;
      if (!size || typeof size !== "object" || !("type" in size) || size.type !== "size") return;
      return [pos.x, pos.y, size.w, size.h] as Bounds;
    });
    if (r.err !== 0 && r.err !== AX_ERROR.AttributeUnsupported) {
      throw this.#fail(r.err, "read bounds");
    }
    return r.result ?? null;
  }

  visiblePoint(): Point | null {
    const box = this.#frame(this.#t.ref);
    if (!box || box[2] <= 0 || box[3] <= 0) return null;
    const w = this.#t.s.copy(this.#t.ref, "AXWindow");
    if (w.err !== 0 || w.value === null) return centreOf(box);
    using win = w.value;
    const frame = this.#frame(win.ptr);
    const part = frame ? intersect(box, frame) : box;
    return part ? centreOf(part) : null;
  }

  /** AX's element-at-position is not used: nothing is taken to cover the element. */
  hitTest(_p: Point): boolean {
    return true;
  }

  /** AX's element-at-position is not used: no other item is taken to be there. */
  anotherItemAt(_p: Point, _label: string): boolean {
    return false;
  }

  /** Not used where {@link anotherItemAt} cannot tell. */
  itemLabel(): string {
    return "";
  }

  /** Activates the app, raises the element's window and makes it main. Best effort. */
  raise(): void {
    const t = this.#t;
    using app = t.s.appElement(t.pid);
    t.s.set(app.ptr, "AXFrontmost", t.s.cf.boolean(true));
    let window: CFRef = t.ref;
    using stack = new DisposableStack();
    const role = t.s.read(t.ref, "AXRole").value;
    if (role !== "AXWindow") {
      const w = t.s.copy(t.ref, "AXWindow");
      if (w.err !== 0 || w.value === null) return;
      window = stack.use(w.value).ptr;
    }
    t.s.perform(window, "AXRaise");
    t.s.set(window, "AXMain", t.s.cf.boolean(true));
  }

  settle(): void {
    sleepSync(30);
  }

  showing(): boolean {
    return this.visiblePoint() !== null;
  }

  /** A sheet is part of its window in AX: no separate modal window blocks keys. */
  blockingModal(): string | null {
    return null;
  }

  /** AXPress works on a closed menu's items: no menus are opened first. */
  menusAbove(): ElementDelegate[] {
    return [];
  }

  menuOpen(): boolean {
    return false;
  }

  chooseOption(_name: string): ActionResult | null {
    return null;
  }

  controlled(): ElementDelegate | null {
    return null;
  }

  optionNames(): string[] {
    return [];
  }

  option(_index: number): ElementDelegate | null {
    return null;
  }

  entry(): ElementDelegate | null {
    return null;
  }
}
