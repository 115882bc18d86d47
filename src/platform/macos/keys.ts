/**
 * Key combos (`cmd+shift+a`, `Return`, `ctrl+Tab`) to macOS virtual key codes
 * (kVK_* from HIToolbox/Events.h, ANSI layout) and CGEventFlags. Pure.
 *
 * @module
 */

import { badCombo, type Modifier, parseKeyChord } from "../../act/keys.ts";
import { CG_FLAG } from "../../ffi/macos/core_graphics.ts";

/** A parsed combo: one key plus modifier flags. */
export interface KeyCombo {
  /** Virtual key code. */
  code: number;
  /** CGEventFlags of the modifiers. */
  flags: number;
}

/** CGEventFlags of the shared grammar's modifiers. */
const MODIFIERS: Readonly<Record<Modifier, number>> = {
  super: CG_FLAG.Command,
  ctrl: CG_FLAG.Control,
  alt: CG_FLAG.Alternate,
  shift: CG_FLAG.Shift,
  fn: CG_FLAG.SecondaryFn,
};

/** Canonical named keys (src/act/keys.ts) to virtual key codes. */
const NAMED: Readonly<Record<string, number>> = {
  return: 36,
  tab: 48,
  space: 49,
  backspace: 51,
  delete: 117,
  escape: 53,
  home: 115,
  end: 119,
  pageup: 116,
  pagedown: 121,
  left: 123,
  right: 124,
  down: 125,
  up: 126,
  f1: 122,
  f2: 120,
  f3: 99,
  f4: 118,
  f5: 96,
  f6: 97,
  f7: 98,
  f8: 100,
  f9: 101,
  f10: 109,
  f11: 103,
  f12: 111,
  kpenter: 76,
  kpadd: 69,
  kpsubtract: 78,
  kpmultiply: 67,
  kpdivide: 75,
  kpdecimal: 65,
  kpequal: 81,
  kp0: 82,
  kp1: 83,
  kp2: 84,
  kp3: 85,
  kp4: 86,
  kp5: 87,
  kp6: 88,
  kp7: 89,
  kp8: 91,
  kp9: 92,
};

const CHARS: Readonly<Record<string, number>> = {
  a: 0,
  s: 1,
  d: 2,
  f: 3,
  h: 4,
  g: 5,
  z: 6,
  x: 7,
  c: 8,
  v: 9,
  b: 11,
  q: 12,
  w: 13,
  e: 14,
  r: 15,
  y: 16,
  t: 17,
  "1": 18,
  "2": 19,
  "3": 20,
  "4": 21,
  "6": 22,
  "5": 23,
  "=": 24,
  "9": 25,
  "7": 26,
  "-": 27,
  "8": 28,
  "0": 29,
  "]": 30,
  o: 31,
  u: 32,
  "[": 33,
  i: 34,
  p: 35,
  l: 37,
  j: 38,
  "'": 39,
  k: 40,
  ";": 41,
  "\\": 42,
  ",": 43,
  "/": 44,
  n: 45,
  m: 46,
  ".": 47,
  "`": 50,
};

/**
 * Parses a combo in the shared grammar (src/act/keys.ts) into a virtual key
 * code and flags. `delete` is forward delete, `backspace` deletes backward,
 * as on Linux.
 *
 * @param combo e.g. `cmd+a`, `shift+Tab`, `Return`
 * @returns the key code and flags
 * @throws DesktopError INVALID_ARGS for an empty combo, an unknown key or a combo of only modifiers
 * @example
 * ```ts
 * import { parseKeyCombo } from "./keys.ts";
 * console.log(parseKeyCombo("cmd+a")); // { code: 0, flags: 1048576 }
 * ```
 */
export function parseKeyCombo(combo: string): KeyCombo {
  const chord = parseKeyChord(combo);
  let flags = 0;
  for (const m of chord.mods) flags |= MODIFIERS[m];
  const code = NAMED[chord.key] ?? CHARS[chord.key.toLowerCase()];
  if (code === undefined) throw badCombo(combo, `no "${chord.key}" key on a Mac keyboard`);
  return { code, flags };
}
