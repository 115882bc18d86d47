/**
 * Key combos (`ctrl+a`, `Return`, `shift+Tab`) to X keysyms and modifier
 * masks, for input synthesis. Pure.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";

/** X modifier masks (what `atspi_generate_keyboard_event` locks and unlocks). */
export const MODIFIER_MASKS: Readonly<Record<string, number>> = {
  shift: 1,
  ctrl: 4,
  control: 4,
  alt: 8,
  option: 8,
  super: 64,
  meta: 64,
  win: 64,
  cmd: 64,
};

/** Named keys (lowercased) to X keysyms. */
const NAMED: Readonly<Record<string, number>> = {
  return: 0xff0d,
  enter: 0xff0d,
  tab: 0xff09,
  escape: 0xff1b,
  esc: 0xff1b,
  backspace: 0xff08,
  delete: 0xffff,
  del: 0xffff,
  insert: 0xff63,
  home: 0xff50,
  end: 0xff57,
  left: 0xff51,
  up: 0xff52,
  right: 0xff53,
  down: 0xff54,
  page_up: 0xff55,
  pageup: 0xff55,
  pgup: 0xff55,
  page_down: 0xff56,
  pagedown: 0xff56,
  pgdn: 0xff56,
  space: 0x20,
  menu: 0xff67,
  print: 0xff61,
  pause: 0xff13,
  caps_lock: 0xffe5,
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
  const named = NAMED[name.toLowerCase()];
  if (named !== undefined) return named;
  const f = /^f([1-9]|[1-2][0-9]|3[0-5])$/i.exec(name);
  if (f) return 0xffbe + Number(f[1]) - 1;
  const chars = [...name];
  if (chars.length !== 1) return undefined;
  const cp = chars[0].codePointAt(0)!;
  if (cp < 0x20 || cp === 0x7f) return undefined;
  return cp <= 0xff ? cp : 0x1000000 + cp;
}

/**
 * Parses `ctrl+shift+a`-style combos. `+` itself is written as the last
 * segment after a `+` (`ctrl++`). Throws INVALID_ARGS for unknown keys.
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
  const text = combo.trim();
  const bad = (why: string) =>
    new DesktopError("INVALID_ARGS", `bad key combo "${combo}": ${why}`, {
      suggestion:
        "Write combos like ctrl+a, Return, shift+Tab, alt+F4 (modifiers: ctrl shift alt super)",
    });
  if (!text) throw bad("empty");
  let parts = text.split("+");
  if (text.endsWith("++")) parts = [...text.slice(0, -2).split("+"), "+"];
  else if (text === "+") parts = ["+"];
  if (parts.some((p) => p === "")) throw bad("empty key between '+'");
  const key = parts[parts.length - 1];
  let mask = 0;
  for (const m of parts.slice(0, -1)) {
    const bit = MODIFIER_MASKS[m.toLowerCase()];
    if (bit === undefined) throw bad(`unknown modifier "${m}"`);
    mask |= bit;
  }
  const keysym = keysymFor(key);
  if (keysym === undefined) throw bad(`unknown key "${key}"`);
  return { mask, keysym };
}
