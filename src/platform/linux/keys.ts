/**
 * Key combos (`ctrl+a`, `Return`, `shift+Tab`) to X keysyms and modifier
 * masks, for input synthesis. Pure.
 *
 * @module
 */

import { badCombo, keyName, type Modifier, parseKeyChord } from "../../act/keys.ts";

/** X modifier masks of the shared grammar's modifiers (fn has none on X). */
export const MODIFIER_MASKS: Readonly<Record<Exclude<Modifier, "fn">, number>> = {
  shift: 1,
  ctrl: 4,
  alt: 8,
  super: 64,
};

/** Canonical named keys (src/act/keys.ts) to X keysyms. */
const NAMED: Readonly<Record<string, number>> = {
  return: 0xff0d,
  tab: 0xff09,
  escape: 0xff1b,
  backspace: 0xff08,
  delete: 0xffff,
  insert: 0xff63,
  home: 0xff50,
  end: 0xff57,
  left: 0xff51,
  up: 0xff52,
  right: 0xff53,
  down: 0xff54,
  pageup: 0xff55,
  pagedown: 0xff56,
  space: 0x20,
  menu: 0xff67,
  print: 0xff61,
  pause: 0xff13,
  capslock: 0xffe5,
  kpenter: 0xff8d,
  kpadd: 0xffab,
  kpsubtract: 0xffad,
  kpmultiply: 0xffaa,
  kpdivide: 0xffaf,
  kpdecimal: 0xffae,
  kpequal: 0xffbd,
  ...Object.fromEntries([..."0123456789"].map((d) => [`kp${d}`, 0xffb0 + Number(d)])),
};

/** A parsed key combo. */
export interface KeyCombo {
  /** OR of X modifier masks to hold. */
  mask: number;
  /** The keysym to press. */
  keysym: number;
}

/**
 * Maps a single key name to its X keysym: named keys, F1-F35, and any one
 * character (Latin-1 keysyms equal the code point; others are 0x1000000 + it).
 *
 * @param name key name, case-insensitive for named keys
 * @returns the keysym, or undefined when unknown
 */
export function keysymFor(name: string): number | undefined {
  const key = keyName(name);
  if (key === undefined) return undefined;
  const named = NAMED[key];
  if (named !== undefined) return named;
  const f = /^f(\d+)$/.exec(key);
  if (f && key.length > 1) return 0xffbe + Number(f[1]) - 1;
  const cp = key.codePointAt(0)!;
  return cp <= 0xff ? cp : 0x1000000 + cp;
}

/**
 * Parses a combo in the shared grammar (src/act/keys.ts) into an X modifier
 * mask and keysym. Throws INVALID_ARGS for unknown keys and for `fn`.
 *
 * @param combo the combo text
 * @returns modifier mask and keysym
 * @example
 * ```ts
 * import { parseCombo } from "./keys.ts";
 * console.log(parseCombo("ctrl+a")); // { mask: 4, keysym: 97 }
 * ```
 */
export function parseCombo(combo: string): KeyCombo {
  const chord = parseKeyChord(combo);
  let mask = 0;
  for (const m of chord.mods) {
    if (m === "fn") throw badCombo(combo, "fn is a macOS modifier with no X equivalent");
    mask |= MODIFIER_MASKS[m];
  }
  return { mask, keysym: keysymFor(chord.key)! };
}
