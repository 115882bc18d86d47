/**
 * Actions on an AX element or a screen point. The accessibility route comes
 * first (AXPress, AXValue, AXFocused...); synthesized input is the fallback,
 * and the result says which one was used.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import {
  checkActionArgs,
  clickRoutes,
  noSettableValue,
  parseNumber,
  refuseDisabled,
  requireToggle,
  setValueRoute,
} from "../../act/policy.ts";
import { repeatSteps, typeInChunks } from "../../act/bounded.ts";
import { holdInput } from "../input_lock.ts";
import type { Bounds, Point } from "../../model/element.ts";
import { intersect } from "../geometry.ts";
import { AX_ERROR } from "../../ffi/macos/ax_error.ts";
import type { CFRef } from "../../ffi/macos/cf.ts";
import type { Action, ActionResult } from "../provider.ts";
import { friendlyAction, matchAction } from "./action_names.ts";
import { clickAt, dragBetween, pressKey, scrollAt, typeText } from "./input.ts";
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

function fail(t: ElementTarget, code: number, op: string): DesktopError {
  if (code === AX_ERROR.InvalidUIElement) {
    return new DesktopError("STALE_REF", `the element is gone from ${t.app} (${op})`, {
      suggestion: "Read the app again and act on a fresh ref",
      details: { axError: code },
    });
  }
  if (code === AX_ERROR.CannotComplete) return t.s.appError(code, t.pid, { op, app: t.app });
  return t.s.error(code, { op, acting: true, app: t.app });
}

/** Reads the role and enabled state, which also proves the element still exists. */
function probe(t: ElementTarget): { role: string; enabled: boolean } {
  const r = t.s.copyMany(t.ref, ["AXRole", "AXEnabled"], (slots) => {
    const [role, enabled] = slots.map((sl) => "ptr" in sl ? t.s.toJs(sl.ptr) : null);
    return { role: typeof role === "string" ? role : "", enabled: enabled !== false };
  });
  if (r.err !== 0 || !r.result) throw fail(t, r.err, "look up the element");
  return r.result;
}

/**
 * Types text in chunks within the deadline (src/act/bounded.ts): after each
 * chunk the element must still answer and, when it had the focus, keep it
 * (a Tab or newline typed may move it on purpose).
 */
function typeBounded(t: ElementTarget, text: string, deadline: number): void {
  const focused = () => t.s.read(t.ref, "AXFocused").value === true;
  const hadFocus = focused();
  let movesFocus = false;
  typeInChunks({
    text,
    deadline,
    send: (chunk) => typeText(t.s, chunk),
    check: (_typed, chunk, more) => {
      probe(t);
      movesFocus ||= /[\t\n\r]/.test(chunk);
      if (more && hadFocus && !movesFocus && !focused()) {
        throw new DesktopError(
          "ACTION_FAILED",
          "the element lost the keyboard focus while typing",
          {
            suggestion: "Something else took the focus (a dialog, another window): read the app, " +
              "then type the rest into the field by ref",
          },
        );
      }
    },
  });
}

/** The range of a numeric element (AXMinValue, AXMaxValue), when it reports one. */
function rangeOf(t: ElementTarget): { min: number; max: number } | undefined {
  const min = t.s.read(t.ref, "AXMinValue").value;
  const max = t.s.read(t.ref, "AXMaxValue").value;
  return typeof min === "number" && typeof max === "number" ? { min, max } : undefined;
}

function actions(t: ElementTarget): string[] {
  const { err, names } = t.s.actionNames(t.ref);
  if (err !== 0 && err !== AX_ERROR.AttributeUnsupported) throw fail(t, err, "read actions");
  return names;
}

/** An element's frame from fresh AXPosition/AXSize: `box` is null when it has none. */
function frameOf(t: ElementTarget, ref: CFRef): { err: number; box: Bounds | null } {
  const r = t.s.copyMany(ref, ["AXPosition", "AXSize"], (slots) => {
    const [pos, size] = slots.map((sl) => "ptr" in sl ? t.s.toJs(sl.ptr) : null);
    if (!pos || typeof pos !== "object" || !("type" in pos) || pos.type !== "point") return;
    if (!size || typeof size !== "object" || !("type" in size) || size.type !== "size") return;
    return [pos.x, pos.y, size.w, size.h] as Bounds;
  });
  return { err: r.err, box: r.result ?? null };
}

/** The frame of the window that holds the element, or null when it has none (a menu). */
function windowFrame(t: ElementTarget): Bounds | null {
  const w = t.s.copy(t.ref, "AXWindow");
  if (w.err !== 0 || w.value === null) return null;
  using win = w.value;
  return frameOf(t, win.ptr).box;
}

/**
 * Where synthesized input may hit the element: the centre of its part inside
 * its window. An element scrolled out of view is scrolled in (AXScrollToVisible)
 * first; one that stays outside fails, since input at its coordinates would
 * land on whatever is shown there.
 */
function centre(t: ElementTarget, what: string): Point {
  const visible = (): Bounds | null => {
    const { err, box } = frameOf(t, t.ref);
    if (err !== 0) throw fail(t, err, "read bounds");
    if (!box) {
      throw new DesktopError("ACTION_NOT_SUPPORTED", `cannot ${what}: the element has no bounds`, {
        suggestion: "Use an accessibility action instead (desktop action), or a point (--x/--y)",
      });
    }
    const win = windowFrame(t);
    return win ? intersect(box, win) : box;
  };
  let shown = visible();
  if (!shown && actions(t).includes("AXScrollToVisible")) {
    if (t.s.perform(t.ref, "AXScrollToVisible") === 0) {
      // Apps scroll on their next frame: give them a few before judging.
      for (let tries = 0; tries < 8 && !shown; tries++) {
        if (tries > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        shown = visible();
      }
    }
  }
  if (!shown) {
    throw new DesktopError("ACTION_FAILED", `cannot ${what}: the element is not on screen`, {
      suggestion: "Scroll its container (scroll --ref ... --direction down) or raise its window, " +
        "then read again and retry",
    });
  }
  return { x: shown[0] + shown[2] / 2, y: shown[1] + shown[3] / 2 };
}

/** Activates the app, raises the element's window and makes it main. Best effort. */
function raise(t: ElementTarget, role: string): void {
  using app = t.s.appElement(t.pid);
  t.s.set(app.ptr, "AXFrontmost", t.s.cf.boolean(true));
  let window: CFRef = t.ref;
  using stack = new DisposableStack();
  if (role !== "AXWindow") {
    const w = t.s.copy(t.ref, "AXWindow");
    if (w.err !== 0 || w.value === null) return;
    window = stack.use(w.value).ptr;
  }
  t.s.perform(window, "AXRaise");
  t.s.set(window, "AXMain", t.s.cf.boolean(true));
}

/** Gives the element keyboard focus: AXFocused where settable, else a click at its centre. */
function focus(t: ElementTarget, role: string): ActionResult {
  raise(t, role);
  if (role === "AXWindow") return { via: "accessible", detail: "AXRaise" };
  const { err, settable } = t.s.settable(t.ref, "AXFocused");
  if (err === 0 && settable) {
    const e = t.s.set(t.ref, "AXFocused", t.s.cf.boolean(true));
    if (e !== 0) throw fail(t, e, "set AXFocused");
    return { via: "accessible", detail: "AXFocused" };
  }
  if (err !== 0 && err !== AX_ERROR.AttributeUnsupported) throw fail(t, err, "check AXFocused");
  clickAt(t.s, centre(t, "focus"));
  return { via: "input", detail: "click to focus" };
}

function setValue(t: ElementTarget, role: string, value: string): ActionResult {
  const s = t.s;
  const toggle = CHECK_ROLES.has(role);
  const cur = toggle ? s.read(t.ref, "AXValue").value : null;
  const valueSettable = toggle ? { err: 0, settable: false } : s.settable(t.ref, "AXValue");
  if (valueSettable.err === AX_ERROR.InvalidUIElement) {
    throw fail(t, valueSettable.err, "set value");
  }
  const selectable = !toggle && !valueSettable.settable &&
    s.settable(t.ref, "AXSelected").settable;
  if (
    !toggle && !valueSettable.settable && !selectable && valueSettable.err !== 0 &&
    valueSettable.err !== AX_ERROR.AttributeUnsupported
  ) {
    throw fail(t, valueSettable.err, "check AXValue");
  }
  const route = setValueRoute({
    toggle,
    checked: typeof cur === "number" ? cur === 1 : cur === true,
    radio: role === "AXRadioButton",
    number: valueSettable.settable && NUMERIC_ROLES.has(role),
    text: valueSettable.settable && !NUMERIC_ROLES.has(role),
    keyboardText: false,
    selectable,
    options: false,
    ...(valueSettable.settable && NUMERIC_ROLES.has(role) ? { range: rangeOf(t) } : {}),
  }, value);
  let err: number;
  switch (route) {
    case "unchanged":
      return { via: "accessible", detail: "already in that state" };
    case "toggle":
      err = s.perform(t.ref, "AXPress");
      if (err !== 0) throw fail(t, err, "perform AXPress");
      return { via: "accessible", detail: "AXPress" };
    case "selected":
      err = s.set(t.ref, "AXSelected", s.cf.boolean(requireToggle(value)));
      if (err !== 0) throw fail(t, err, "set AXSelected");
      return { via: "accessible", detail: "AXSelected" };
    case "number": {
      using num = s.cf.number(parseNumber(value));
      err = s.set(t.ref, "AXValue", num.ptr);
      break;
    }
    case "text": {
      using str = s.cf.string(value);
      err = s.set(t.ref, "AXValue", str.ptr);
      break;
    }
    default:
      // keys and select are not routes here (keyboardText and options are false).
      throw noSettableValue();
  }
  if (err !== 0) throw fail(t, err, "set AXValue");
  return { via: "accessible", detail: "AXValue" };
}

/**
 * Carries out an action on an element: its arguments checked and a disabled
 * element refused before anything is sent (src/act/policy.ts), then carried
 * out holding the display's input for the whole key and pointer sequence.
 *
 * @param t the element
 * @param action what to do
 * @param deadline the command's deadline (ms since the epoch): typing stops there
 * @returns how it was done
 */
export function actOnElement(
  t: ElementTarget,
  action: Action,
  deadline: number = Date.now() + 10_000,
): ActionResult {
  checkActionArgs(action);
  const { role, enabled } = probe(t);
  if (!enabled) {
    const title = t.s.read(t.ref, "AXTitle").value;
    refuseDisabled(action, true, {
      r: role.replace(/^AX/, "").toLowerCase(),
      ...(typeof title === "string" && title ? { t: title } : {}),
    });
  }
  using _input = holdInput(action.kind, deadline);
  switch (action.kind) {
    case "click": {
      const button = action.button ?? "left";
      const count = action.count ?? 1;
      const names = actions(t);
      // The shared policy (src/act/policy.ts): the element's own action, else the pointer.
      // Menu items keep AXPress here: the modal-loop detour is for AT-SPI bridges.
      const routes = action.pointer
        ? []
        : clickRoutes({ button, count, menuItem: false, actionBlocksOnModal: false });
      for (const route of routes) {
        if (route.via !== "action") break;
        for (const wanted of route.names) {
          const name = names.find((n) => n.toLowerCase() === wanted);
          if (name === undefined) continue;
          const err = t.s.perform(t.ref, name);
          if (err === 0) return { via: "accessible", detail: name };
          if (err !== AX_ERROR.ActionUnsupported) throw fail(t, err, `perform ${name}`);
        }
      }
      const p = centre(t, "click");
      raise(t, role);
      clickAt(t.s, p, button, count);
      return { via: "input", detail: `${button} click at ${Math.round(p.x)},${Math.round(p.y)}` };
    }
    case "type": {
      focus(t, role);
      if (action.replace) {
        // Clear the field as a user does: select all, delete.
        for (const k of ["cmd+a", "backspace"]) {
          const c = parseKeyCombo(k);
          pressKey(t.s, c.code, c.flags);
        }
      }
      typeBounded(t, action.text, deadline);
      return { via: "input", detail: `typed ${[...action.text].length} characters` };
    }
    case "key": {
      const combo = parseKeyCombo(action.combo);
      focus(t, role);
      const repeat = action.repeat ?? 1;
      repeatSteps({
        count: repeat,
        deadline,
        what: `presses of ${action.combo}`,
        step: () => pressKey(t.s, combo.code, combo.flags),
      });
      return { via: "input", detail: repeat > 1 ? `${action.combo} x${repeat}` : action.combo };
    }
    case "action": {
      const names = actions(t);
      const ax = matchAction(action.name, names);
      if (!ax) {
        const available = names.map(friendlyAction);
        throw new DesktopError(
          "ACTION_NOT_SUPPORTED",
          `this ${role} has no action "${action.name}"; it supports: ${
            available.join(", ") || "none"
          }`,
          {
            suggestion: available.length
              ? `Use one of: ${available.join(", ")}`
              : "Use click, type or set-value instead",
            details: { available },
          },
        );
      }
      const err = t.s.perform(t.ref, ax);
      if (err !== 0) throw fail(t, err, `perform ${ax}`);
      return { via: "accessible", detail: ax };
    }
    case "set-value":
      return setValue(t, role, action.value);
    case "scroll": {
      if (action.amount === undefined) {
        const names = actions(t);
        if (!names.includes("AXScrollToVisible")) {
          throw new DesktopError(
            "ACTION_NOT_SUPPORTED",
            `this ${role} cannot be scrolled into view through accessibility`,
            { suggestion: "Pass --direction and --amount to scroll the view under it instead" },
          );
        }
        const err = t.s.perform(t.ref, "AXScrollToVisible");
        if (err !== 0) throw fail(t, err, "perform AXScrollToVisible");
        return { via: "accessible", detail: "AXScrollToVisible" };
      }
      const amount = action.amount;
      const p = centre(t, "scroll");
      scrollAt(t.s, p, action.direction ?? "down", amount);
      return { via: "input", detail: `scroll ${action.direction ?? "down"} ${amount}` };
    }
    case "drag": {
      checkPoint(action.to);
      const from = centre(t, "drag");
      raise(t, role);
      dragBetween(t.s, from, action.to);
      return { via: "input", detail: `drag to ${action.to.x},${action.to.y}` };
    }
    case "focus":
      return focus(t, role);
  }
}

function checkPoint(p: Point): void {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new DesktopError("INVALID_ARGS", `not a screen point: ${p.x},${p.y}`, {
      suggestion: "Pass numeric --x and --y in global screen pixels",
    });
  }
}

/**
 * Carries out an action at a screen point (synthesized input only).
 *
 * @param s the session
 * @param p the point
 * @param action what to do
 * @param deadline the command's deadline (ms since the epoch): typing stops there
 * @returns how it was done
 */
export function actOnPoint(
  s: AxSession,
  p: Point,
  action: Action,
  deadline: number = Date.now() + 10_000,
): ActionResult {
  checkPoint(p);
  checkActionArgs(action);
  using _input = holdInput(action.kind, deadline);
  switch (action.kind) {
    case "click":
      clickAt(s, p, action.button ?? "left", action.count ?? 1);
      return { via: "input", detail: `click at ${p.x},${p.y}` };
    case "type":
      clickAt(s, p);
      typeInChunks({ text: action.text, deadline, send: (chunk) => typeText(s, chunk) });
      return { via: "input", detail: `typed ${[...action.text].length} characters` };
    case "key": {
      const combo = parseKeyCombo(action.combo);
      const repeat = action.repeat ?? 1;
      repeatSteps({
        count: repeat,
        deadline,
        what: `presses of ${action.combo}`,
        step: () => pressKey(s, combo.code, combo.flags),
      });
      return { via: "input", detail: repeat > 1 ? `${action.combo} x${repeat}` : action.combo };
    }
    case "scroll": {
      if (action.amount === undefined) {
        throw new DesktopError("INVALID_ARGS", "scrolling at a point needs an amount", {
          suggestion: "Pass --amount (and --direction), or target an element to bring it into view",
        });
      }
      scrollAt(s, p, action.direction ?? "down", action.amount);
      return { via: "input", detail: `scroll ${action.direction ?? "down"} ${action.amount}` };
    }
    case "drag":
      checkPoint(action.to);
      dragBetween(s, p, action.to);
      return { via: "input", detail: `drag to ${action.to.x},${action.to.y}` };
    default:
      throw new DesktopError("INVALID_ARGS", `${action.kind} needs an element, not a point`, {
        suggestion: "Target the element with --ref, --id or --text",
      });
  }
}
