/**
 * Synthesized input through CGEvent: mouse clicks, drags, scroll wheel, key
 * combos and Unicode text. Every event is created, posted to the HID tap and
 * released. Coordinates are global, top-left origin (negative on displays
 * left of or above the main one).
 *
 * @module
 */

import type { Point } from "../../model/element.ts";
import type { MouseButton, ScrollDirection } from "../provider.ts";
import {
  CG_EVENT,
  CG_FIELD_MOUSE_CLICK_STATE,
  CG_HID_EVENT_TAP,
  CG_MOUSE_BUTTON,
  CG_SCROLL_UNIT,
} from "../../ffi/macos/core_graphics.ts";
import type { AxSession } from "./session.ts";

/** UTF-16 units per keyboard event (the most CGEventKeyboardSetUnicodeString reliably takes). */
export const TEXT_CHUNK = 20;

/** Virtual key codes for characters sent as keys rather than text. */
const RETURN = 36;
const TAB = 48;

/** Steps of a synthesized drag. */
const DRAG_STEPS = 12;

function pointBytes(p: Point): Uint8Array<ArrayBuffer> {
  const buf = new Uint8Array(16);
  const v = new DataView(buf.buffer);
  v.setFloat64(0, p.x, true);
  v.setFloat64(8, p.y, true);
  return buf;
}

function post(s: AxSession, ev: Deno.PointerValue, setup?: (ev: Deno.PointerObject) => void): void {
  using e = s.cf.own(ev, "CGEvent");
  setup?.(e.ptr);
  s.libs.cg.CGEventPost(CG_HID_EVENT_TAP, e.ptr);
}

function mouse(s: AxSession, type: number, p: Point, button: number, clicks = 1): void {
  post(s, s.libs.cg.CGEventCreateMouseEvent(null, type, pointBytes(p), button), (e) => {
    if (clicks > 1) {
      s.libs.cg.CGEventSetIntegerValueField(e, CG_FIELD_MOUSE_CLICK_STATE, BigInt(clicks));
    }
  });
}

const BUTTONS: Record<MouseButton, { down: number; up: number; drag: number; button: number }> = {
  left: {
    down: CG_EVENT.LeftMouseDown,
    up: CG_EVENT.LeftMouseUp,
    drag: CG_EVENT.LeftMouseDragged,
    button: CG_MOUSE_BUTTON.Left,
  },
  right: {
    down: CG_EVENT.RightMouseDown,
    up: CG_EVENT.RightMouseUp,
    drag: CG_EVENT.RightMouseDragged,
    button: CG_MOUSE_BUTTON.Right,
  },
  middle: {
    down: CG_EVENT.OtherMouseDown,
    up: CG_EVENT.OtherMouseUp,
    drag: CG_EVENT.OtherMouseDragged,
    button: CG_MOUSE_BUTTON.Center,
  },
};

/** Moves the pointer to `p`. */
export function moveTo(s: AxSession, p: Point): void {
  mouse(s, CG_EVENT.MouseMoved, p, CG_MOUSE_BUTTON.Left);
}

/** Clicks `count` times at `p` (click state 1, 2, 3... so apps see a double click). */
export function clickAt(s: AxSession, p: Point, button: MouseButton = "left", count = 1): void {
  const b = BUTTONS[button];
  moveTo(s, p);
  for (let i = 1; i <= count; i++) {
    mouse(s, b.down, p, b.button, i);
    mouse(s, b.up, p, b.button, i);
  }
}

/** Presses at `from`, drags in steps, releases at `to`. */
export function dragBetween(s: AxSession, from: Point, to: Point): void {
  const b = BUTTONS.left;
  moveTo(s, from);
  mouse(s, b.down, from, b.button);
  for (let i = 1; i <= DRAG_STEPS; i++) {
    const t = i / DRAG_STEPS;
    mouse(
      s,
      b.drag,
      { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t },
      b.button,
    );
  }
  mouse(s, b.up, to, b.button);
}

/** Scrolls by `amount` lines at `p` (wheel 1 vertical, positive up; wheel 2 horizontal). */
export function scrollAt(s: AxSession, p: Point, direction: ScrollDirection, amount: number): void {
  moveTo(s, p);
  const dy = direction === "up" ? amount : direction === "down" ? -amount : 0;
  const dx = direction === "left" ? amount : direction === "right" ? -amount : 0;
  post(s, s.libs.cg.CGEventCreateScrollWheelEvent2(null, CG_SCROLL_UNIT.Line, 2, dy, dx, 0));
}

/** Presses and releases one key with modifier flags. */
export function pressKey(s: AxSession, code: number, flags: number): void {
  for (const down of [true, false]) {
    post(s, s.libs.cg.CGEventCreateKeyboardEvent(null, code, down), (e) => {
      s.libs.cg.CGEventSetFlags(e, BigInt(flags));
    });
  }
}

function postText(s: AxSession, units: Uint16Array): void {
  const bytes = new Uint8Array(units.buffer, units.byteOffset, units.byteLength);
  for (const down of [true, false]) {
    post(s, s.libs.cg.CGEventCreateKeyboardEvent(null, 0, down), (e) => {
      s.libs.cg.CGEventKeyboardSetUnicodeString(e, BigInt(units.length), bytes);
    });
  }
}

/**
 * Types text as Unicode keyboard events, {@link TEXT_CHUNK} UTF-16 units per
 * event (never splitting a surrogate pair); newlines and tabs are sent as the
 * Return and Tab keys.
 */
export function typeText(s: AxSession, text: string): void {
  const parts = text.split(/(\r\n|\n|\t)/);
  for (const part of parts) {
    if (part === "\n" || part === "\r\n") {
      pressKey(s, RETURN, 0);
      continue;
    }
    if (part === "\t") {
      pressKey(s, TAB, 0);
      continue;
    }
    let i = 0;
    while (i < part.length) {
      let end = Math.min(part.length, i + TEXT_CHUNK);
      const last = part.charCodeAt(end - 1);
      if (end < part.length && last >= 0xd800 && last < 0xdc00) end--;
      const units = new Uint16Array(end - i);
      for (let k = i; k < end; k++) units[k - i] = part.charCodeAt(k);
      postText(s, units);
      i = end;
    }
  }
}
