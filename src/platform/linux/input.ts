/**
 * Input synthesis through the AT-SPI registry (XTest on X11): mouse clicks,
 * wheel steps, drags, typed strings and key combos at screen coordinates.
 * In a Wayland session with no X display every one of them goes to the
 * compositor's own input path instead (src/platform/linux/wayland/mod.ts),
 * or fails with the compositor's clear error.
 *
 * @module
 */

import { sleepSync } from "../sleep_sync.ts";
import { ATSPI_KEY } from "../../ffi/atspi.ts";
import { cstr } from "../../ffi/cstring.ts";
import type { Point } from "../../model/element.ts";
import type { MouseButton, ScrollDirection } from "../provider.ts";
import type { KeyCombo } from "./keys.ts";
import type { Native } from "./native.ts";
import { stateDir } from "../../state/ref_store.ts";
import { readInputSync } from "../../io/bounded_read.ts";
import { writePrivateFileSync } from "../../io/private_write.ts";

/** The last-click note: a few bytes of JSON, never a pipe or a device. */
const LAST_CLICK = {
  what: "last-click note",
  code: "INTERNAL",
  suggestion: "",
  maxBytes: 4096,
} as const;
import { repeatSteps } from "../../act/bounded.ts";
import { type WaylandInput, waylandInput, waylandSession } from "./wayland/mod.ts";
import type { Modifier } from "../../act/keys.ts";
import { MODIFIER_MASKS } from "./keys.ts";

let compositorInput: WaylandInput | undefined;

/**
 * The Wayland compositor's input when this process has no X display but a
 * Wayland one (opened once); null under X11.
 *
 * @throws DesktopError PLATFORM_NOT_SUPPORTED naming a compositor with no input path
 */
function onWayland(): WaylandInput | null {
  if (compositorInput) return compositorInput;
  const s = waylandSession();
  if (!s) return null;
  compositorInput = waylandInput(s);
  return compositorInput;
}

const BUTTON: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const WHEEL: Record<ScrollDirection, number> = { up: 4, down: 5, left: 6, right: 7 };
const EMPTY = cstr("");

/**
 * Sends one mouse event (`abs` motion, `b1p` press, `b1r` release, `b1c`
 * click, `b1d` double click) at a screen point.
 *
 * @param n the native session
 * @param p the point
 * @param name the AT-SPI mouse event name
 */
export function mouseEvent(n: Native, p: Point, name: string): void {
  const wl = onWayland();
  if (wl) return waylandMouseEvent(wl, p, name);
  n.sym.atspi_generate_mouse_event(
    BigInt(Math.round(p.x)),
    BigInt(Math.round(p.y)),
    cstr(name),
    n.err.buf,
  );
  n.check(`mouse ${name}`, "ACTION_FAILED");
}

/** An AT-SPI mouse event name carried out by a compositor's delegate. */
function waylandMouseEvent(wl: WaylandInput, p: Point, name: string): void {
  if (name === "abs") return wl.move(p);
  const m = /^b(\d)([cd])$/.exec(name);
  const button = m && ({ "1": "left", "2": "middle", "3": "right" } as const)[m[1] as "1"];
  if (button) return wl.click(p, button, m[2] === "d" ? 2 : 1);
  const wheel = m && ({ "4": "up", "5": "down", "6": "left", "7": "right" } as const)[m[1] as "4"];
  if (wheel) return wl.wheel(p, wheel, 1);
  // Presses and releases alone only come in drags (dragBetween): the delegate drags whole.
  wl.move(p);
}

/** Clicks `count` times, {@link MULTI_CLICK_SPACING_MS} apart, with a button at a point. */
export function clickAt(n: Native, p: Point, button: MouseButton = "left", count = 1): void {
  const wl = onWayland();
  if (wl) return wl.click(p, button, count);
  const b = BUTTON[button];
  // Two commands' single clicks on one spot in quick succession would be a double click
  // to the app (it opens what was only to be selected): the second waits the gap out.
  const last = lastClickFile();
  if (count === 1 && last) sleepSync(clickSpacingWait(readLastClick(last), p, Date.now()));
  mouseEvent(n, p, "abs");
  for (let i = 0; i < Math.max(1, count); i++) {
    if (i > 0) sleepSync(MULTI_CLICK_SPACING_MS);
    mouseEvent(n, p, `b${b}c`);
  }
  if (last) writeLastClick(last, p);
}

/**
 * The time between the clicks of a double (or triple) click: a hand's pace,
 * well inside toolkits' double-click time. Clicks sent back to back (AT-SPI's
 * `b1d`) reach a busy GTK 4 app as one click: it took the first and lost the
 * second.
 */
export const MULTI_CLICK_SPACING_MS = 60;

/** Longer than toolkits' double-click time (GTK and Qt default to 400 ms). */
export const DOUBLE_CLICK_GAP_MS = 500;

/** How far apart two clicks may be and still make a double click (toolkits allow a few px). */
const DOUBLE_CLICK_DISTANCE = 8;

/** A click that was sent: where, on which display, when (ms since epoch). */
export interface SentClick {
  display: string;
  x: number;
  y: number;
  t: number;
}

/**
 * How long a single click at `p` must wait so that the app does not take it
 * and the last click for one double click: the rest of the gap when the last
 * one was on this display, near this point, less than the gap ago.
 *
 * @param last the last click sent, if known
 * @param p where this click goes
 * @param now the time now (ms since epoch)
 * @param display this display
 * @returns milliseconds to wait (0 for none)
 * @example
 * ```ts
 * import { clickSpacingWait } from "./input.ts";
 * const last = { display: ":1", x: 10, y: 10, t: 1000 };
 * console.log(clickSpacingWait(last, { x: 12, y: 10 }, 1100, ":1"), clickSpacingWait(last, { x: 300, y: 10 }, 1100, ":1")); // 400 0
 * ```
 */
export function clickSpacingWait(
  last: SentClick | null,
  p: Point,
  now: number,
  display = Deno.env.get("DISPLAY") ?? "",
): number {
  if (!last || last.display !== display) return 0;
  if (Math.abs(last.x - p.x) > DOUBLE_CLICK_DISTANCE) return 0;
  if (Math.abs(last.y - p.y) > DOUBLE_CLICK_DISTANCE) return 0;
  const since = now - last.t;
  return since >= 0 && since < DOUBLE_CLICK_GAP_MS ? DOUBLE_CLICK_GAP_MS - since : 0;
}

/** Where the last click is noted, shared by every command on this machine (none: no note). */
function lastClickFile(): string | null {
  try {
    const dir = stateDir();
    return dir ? `${dir}/last-click.json` : null;
  } catch {
    return null; // no permission to read the environment: no spacing
  }
}

function readLastClick(file: string): SentClick | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(readInputSync(file, LAST_CLICK)));
    return typeof v?.t === "number" && typeof v?.x === "number" && typeof v?.y === "number"
      ? { display: String(v.display ?? ""), x: v.x, y: v.y, t: v.t }
      : null;
  } catch {
    return null; // none yet, or unreadable: no spacing
  }
}

function writeLastClick(file: string, p: Point): void {
  try {
    Deno.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    const click: SentClick = {
      display: Deno.env.get("DISPLAY") ?? "",
      x: p.x,
      y: p.y,
      t: Date.now(),
    };
    writePrivateFileSync(file, JSON.stringify(click), "the last-click note");
  } catch {
    // A read-only home: clicks are simply not spaced.
  }
}

/**
 * Scrolls with the wheel `amount` steps at a point, one by one until the
 * deadline (src/act/bounded.ts): TIMEOUT says how many were sent.
 */
export function wheelAt(
  n: Native,
  p: Point,
  direction: ScrollDirection,
  amount: number,
  deadline = Infinity,
): void {
  const wl = onWayland();
  if (wl) return wl.wheel(p, direction, amount);
  mouseEvent(n, p, "abs");
  repeatSteps({
    count: amount,
    deadline,
    what: "wheel steps",
    step: () => mouseEvent(n, p, `b${WHEEL[direction]}c`),
  });
}

/** Presses button 1 at `from`, moves to `to` in a few steps, releases. */
export function dragBetween(n: Native, from: Point, to: Point): void {
  const wl = onWayland();
  if (wl) return wl.drag(from, to);
  mouseEvent(n, from, "abs");
  mouseEvent(n, from, "b1p");
  const steps = 5;
  for (let i = 1; i <= steps; i++) {
    mouseEvent(n, {
      x: from.x + ((to.x - from.x) * i) / steps,
      y: from.y + ((to.y - from.y) * i) / steps,
    }, "abs");
  }
  mouseEvent(n, to, "b1r");
}

/** Types a string as key events to whatever has keyboard focus. */
export function typeString(n: Native, text: string): void {
  const wl = onWayland();
  if (wl) return wl.type(text);
  for (const run of keyRuns(text)) {
    if (typeof run === "string") {
      n.sym.atspi_generate_keyboard_event(0n, cstr(run), ATSPI_KEY.STRING, n.err.buf);
    } else {
      n.sym.atspi_generate_keyboard_event(BigInt(run), EMPTY, ATSPI_KEY.SYM, n.err.buf);
    }
    n.check("type text", "ACTION_FAILED");
    // A character outside the keyboard map is typed through one spare keycode that the
    // synthesizer remaps for each such character: the app must read the mapping before the
    // next remap, or every one of them arrives as the last (αβγδ typed as αδδδ).
    if (typeof run !== "string") {
      n.pump();
      sleepSync(REMAP_PAUSE_MS);
    }
  }
}

/**
 * Presses and releases Shift alone, typing nothing: for an app that sets up
 * its keyboard state on the first key event it sees (see missesFirstShift).
 */
export function pressShiftAlone(n: Native): void {
  if (onWayland()) return; // an X habit of Qt: a compositor's keyboard has no first-Shift miss
  n.sym.atspi_generate_keyboard_event(BigInt(SHIFT_L), EMPTY, ATSPI_KEY.SYM, n.err.buf);
  n.check("press Shift", "ACTION_FAILED");
  n.pump();
  sleepSync(SHIFT_PAUSE_MS);
}

/** X keysym of the left Shift key. */
const SHIFT_L = 0xffe1;
/** Pause after a lone Shift, for the app to read it (ms). */
const SHIFT_PAUSE_MS = 30;

/** Pause after a character typed through a remapped keycode (ms). */
const REMAP_PAUSE_MS = 40;

/** Characters every keyboard map has (printable ASCII, newline, tab): typed as one string. */
const IN_KEYMAP = /^[\x20-\x7e\n\t]$/;

/**
 * Splits text into runs the synthesizer can type safely: strings of
 * characters on the keyboard map, and the X keysym of each other character
 * (Latin-1 keysyms are the code point; others are 0x01000000 + code point).
 *
 * @param text the text to type
 * @returns strings and keysyms, in order
 * @example
 * ```ts
 * import { keyRuns } from "./input.ts";
 * console.log(keyRuns("aé€b")); // ["a", 233, 16785580, "b"]
 * ```
 */
export function keyRuns(text: string): Array<string | number> {
  const out: Array<string | number> = [];
  let run = "";
  for (const ch of text) {
    if (IN_KEYMAP.test(ch)) {
      run += ch;
      continue;
    }
    if (run) out.push(run);
    run = "";
    const cp = ch.codePointAt(0)!;
    out.push(cp >= 0xa0 && cp <= 0xff ? cp : 0x01000000 + cp);
  }
  if (run) out.push(run);
  return out;
}

export { sleepSync };

/** Presses a combo: lock its modifiers, press and release the key, unlock. */
export function pressCombo(n: Native, combo: KeyCombo): void {
  const wl = onWayland();
  if (wl) return wl.pressKeysym(modifiersOf(combo.mask), combo.keysym);
  if (combo.mask) {
    n.sym.atspi_generate_keyboard_event(
      BigInt(combo.mask),
      EMPTY,
      ATSPI_KEY.LOCKMODIFIERS,
      n.err.buf,
    );
    n.check("press modifiers", "ACTION_FAILED");
  }
  try {
    n.sym.atspi_generate_keyboard_event(BigInt(combo.keysym), EMPTY, ATSPI_KEY.SYM, n.err.buf);
    n.check("press key", "ACTION_FAILED");
  } finally {
    if (combo.mask) {
      n.sym.atspi_generate_keyboard_event(
        BigInt(combo.mask),
        EMPTY,
        ATSPI_KEY.UNLOCKMODIFIERS,
        n.err.buf,
      );
      n.err.take();
    }
  }
}

/**
 * The modifiers an X modifier mask holds.
 *
 * @param mask OR of X modifier masks
 * @returns the modifiers, shift ctrl alt super order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modifiersOf } from "./input.ts";
 * assert.deepEqual(modifiersOf(4 | 1), ["shift", "ctrl"]);
 * ```
 */
export function modifiersOf(mask: number): Modifier[] {
  return (Object.entries(MODIFIER_MASKS) as Array<[Exclude<Modifier, "fn">, number]>)
    .filter(([, bit]) => (mask & bit) !== 0)
    .map(([m]) => m);
}
