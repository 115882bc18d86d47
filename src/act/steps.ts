/**
 * Bringing a slider or spin button to a value with its keys, as a user does,
 * once for every backend: custom widgets (ARIA sliders and spin buttons)
 * move only on their keys and ignore a value set through the accessibility
 * API. End or Home reach an end of the range, Page Up/Down cover distance,
 * arrows the last steps; the value is read after every key, and the loop is
 * bounded (keys and deadline). A value in words (`valtext`, "March") is
 * found by walking from the start of the range. Pure: the backend passes the
 * primitives.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";

/** The most keys one set-value presses to bring a slider or spin button to a value. */
export const MAX_VALUE_KEYS = 200;

/**
 * How long a key's effect may take to reach the accessibility tree before
 * the key counts as ignored (ms): a page updates its tree after its own
 * handler runs, and a spin button that rewrites its text takes longer than a
 * slider.
 */
export const KEY_LANDING_MS = 800;

/** What a widget shows after a key: its number, and its value in words where it has one. */
export interface ValueReading {
  /** The number (NaN when it cannot be read). */
  value: number;
  /** The value in words (aria-valuetext), if any. */
  text?: string;
}

/** What {@link stepToValue} needs from the backend. */
export interface ValueStepping {
  /** The number wanted, or the value text wanted (matched case-insensitively). */
  want: number | string;
  /** The widget's range, where it reports one. */
  range?: { min: number; max: number };
  /** A slider (Left/Right) rather than a spin button (Up/Down). */
  slider: boolean;
  /** Reads the widget now. */
  read: () => ValueReading;
  /** Presses one key (`Home`, `End`, `Page_Up`, `Page_Down`, `Left`, `Right`, `Up`, `Down`) and lets it land. */
  press: (key: string) => void;
  /** The command's deadline (ms since the epoch). */
  deadline: number;
  /** At most this many keys (default {@link MAX_VALUE_KEYS}). */
  maxKeys?: number;
  /** Milliseconds now (tests pass a fake clock). */
  now?: () => number;
  /** Waits this many milliseconds between reads of a key not yet seen (tests pass a fake). */
  pause?: (ms: number) => void;
}

/** Blocks the thread for `ms` (the executor's primitives are synchronous). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads the widget after a key until it differs from `before` or the key's
 * landing time (or the deadline) has passed: the key's effect reaches the
 * accessibility tree some time after the key.
 */
function readAfterKey(o: ValueStepping, before: ValueReading): ValueReading {
  const now = o.now ?? Date.now;
  const pause = o.pause ?? sleep;
  const until = Math.min(now() + KEY_LANDING_MS, o.deadline);
  let reading = o.read();
  while (
    reading.value === before.value && reading.text === before.text ||
    Number.isNaN(reading.value) && !Number.isNaN(before.value)
  ) {
    if (now() >= until) break;
    pause(40);
    reading = o.read();
  }
  return reading;
}

/**
 * Presses keys until the widget shows the wanted value.
 *
 * @param o the wanted value and the backend's primitives
 * @returns how many keys were pressed
 * @throws DesktopError ACTION_FAILED when a key does not move the value, when
 *   its steps jump over the number (naming the values on each side), when
 *   the text is not among the values passed, or when the keys or the
 *   deadline run out
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepToValue } from "./steps.ts";
 * let v = 3;
 * const keys = stepToValue({
 *   want: 7, slider: true, deadline: Infinity, range: { min: 0, max: 10 },
 *   read: () => ({ value: v }),
 *   press: (k) => { v = k === "Right" ? v + 1 : k === "Left" ? v - 1 : v; },
 * });
 * assert.deepEqual([v, keys], [7, 4]);
 * ```
 */
export function stepToValue(o: ValueStepping): number {
  return typeof o.want === "string" ? stepToText(o, o.want) : stepToNumber(o, o.want);
}

function stepToNumber(o: ValueStepping, want: number): number {
  const now = o.now ?? Date.now;
  const max = o.maxKeys ?? MAX_VALUE_KEYS;
  const same = (a: number) => Math.abs(a - want) <= 1e-9 * Math.max(1, Math.abs(want));
  let reading = o.read();
  const press = (key: string) => {
    o.press(key);
    reading = readAfterKey(o, reading);
    return reading.value;
  };
  let value = reading.value;
  let presses = 0;
  const r = o.range;
  if (!same(value) && r && r.min < r.max && (same(r.min) || same(r.max))) {
    value = press(same(r.min) ? "Home" : "End");
    presses++;
  }
  let step = 0;
  let paging = true;
  while (!same(value)) {
    if (presses >= max || now() >= o.deadline) {
      throw new DesktopError(
        "ACTION_FAILED",
        `the value is ${value} after ${presses} keys, not ${want}`,
        {
          suggestion: "Read the element to see its range and steps; a far value may need " +
            "several calls or a longer --timeout",
          details: { value, wanted: want, presses },
        },
      );
    }
    const up = want > value;
    const page = paging && step > 0 && Math.abs(want - value) > 3 * step;
    const key = page
      ? (up ? "Page_Up" : "Page_Down")
      : o.slider
      ? (up ? "Right" : "Left")
      : (up ? "Up" : "Down");
    const before = value;
    value = press(key);
    presses++;
    if (value === before || Number.isNaN(value)) {
      if (page) {
        paging = false;
        continue;
      }
      throw new DesktopError("ACTION_FAILED", `the element's value did not move on ${key}`, {
        suggestion: "The element takes no keys for its value (or is at the end of its range): " +
          "read it, and click or drag it",
        details: { value: before, wanted: want },
      });
    }
    const past = up ? value > want : value < want;
    if (page) {
      // A page too far: arrows come back from there.
      if (past) paging = false;
      continue;
    }
    step = Math.abs(value - before);
    if (past) {
      throw new DesktopError(
        "ACTION_FAILED",
        `the element moves in steps of ${step}: ${want} lies between ${before} and ${value}`,
        {
          suggestion: `Pass a value it can take (${before} or ${value})`,
          details: { value, wanted: want, step },
        },
      );
    }
  }
  return presses;
}

function stepToText(o: ValueStepping, want: string): number {
  const now = o.now ?? Date.now;
  const max = o.maxKeys ?? MAX_VALUE_KEYS;
  const fold = (s: string | undefined) => (s ?? "").trim().toLowerCase();
  const target = fold(want);
  let reading = o.read();
  if (fold(reading.text) === target) return 0;
  const start = reading.value;
  o.press("Home");
  let presses = 1;
  reading = readAfterKey(o, reading);
  const seen: string[] = [];
  const up = o.slider ? "Right" : "Up";
  while (fold(reading.text) !== target) {
    if (reading.text && !seen.includes(reading.text)) seen.push(reading.text);
    if (presses >= max || now() >= o.deadline) break;
    const before = reading.value;
    o.press(up);
    presses++;
    reading = readAfterKey(o, reading);
    // The end of the range: every value was passed.
    if (reading.value === before) break;
  }
  if (fold(reading.text) === target) return presses;
  // Leave it as it was.
  if (Number.isFinite(start)) {
    try {
      stepToNumber({ ...o, maxKeys: max }, start);
    } catch {
      // The error below says what matters.
    }
  }
  throw new DesktopError("ACTION_FAILED", `no value of the element reads "${want}"`, {
    suggestion: seen.length
      ? `Pass one of: ${seen.slice(0, 20).join(", ")} (or a number)`
      : "Pass a number within its range",
    details: { values: seen.slice(0, 50), wanted: want },
  });
}
