/**
 * The one key-combo grammar both platforms read: `ctrl+a`, `shift+Tab`,
 * `Return`, `ctrl++`. Modifiers and named keys are case-insensitive and have
 * one meaning everywhere (`delete` deletes forward, `backspace` deletes
 * backward, `cmd`/`super`/`meta` are the same modifier). Each backend maps
 * the parsed chord to its own key codes. Pure.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";

/** Canonical modifier names. `super` is Command on macOS and the Super (Windows) key on Linux. */
export type Modifier = "ctrl" | "shift" | "alt" | "super" | "fn";

/** A parsed combo: modifiers to hold and one key. */
export interface KeyChord {
  /** Modifiers in canonical order (ctrl, shift, alt, super, fn), each once. */
  mods: Modifier[];
  /**
   * The key: a canonical named key (`return`, `tab`, `space`, `backspace`,
   * `delete`, `escape`, `insert`, `home`, `end`, `left`, `up`, `right`,
   * `down`, `pageup`, `pagedown`, `menu`, `print`, `pause`, `capslock`,
   * `f1`..`f35`, the keypad's `kpenter`, `kpadd`, `kpsubtract`,
   * `kpmultiply`, `kpdivide`, `kpdecimal`, `kpequal`, `kp0`..`kp9`), or one
   * character exactly as written (or by its keysym name: `asterisk` is `*`).
   */
  key: string;
}

const MODIFIERS: Readonly<Record<string, Modifier>> = {
  ctrl: "ctrl",
  control: "ctrl",
  shift: "shift",
  alt: "alt",
  option: "alt",
  opt: "alt",
  super: "super",
  cmd: "super",
  command: "super",
  meta: "super",
  win: "super",
  fn: "fn",
};

const MOD_ORDER: readonly Modifier[] = ["ctrl", "shift", "alt", "super", "fn"];

/** Named keys: alias (lowercased, `_`/`-` dropped) to canonical name. */
const NAMED: Readonly<Record<string, string>> = {
  return: "return",
  enter: "return",
  tab: "tab",
  space: "space",
  backspace: "backspace",
  delete: "delete",
  del: "delete",
  forwarddelete: "delete",
  escape: "escape",
  esc: "escape",
  insert: "insert",
  ins: "insert",
  home: "home",
  end: "end",
  left: "left",
  up: "up",
  right: "right",
  down: "down",
  pageup: "pageup",
  pgup: "pageup",
  prior: "pageup",
  pagedown: "pagedown",
  pgdn: "pagedown",
  next: "pagedown",
  menu: "menu",
  print: "print",
  pause: "pause",
  capslock: "capslock",
  // The keypad's own keys: apps may tell them from the main block's (a
  // calculator's KP_Enter, KP_Multiply). X keysym names, `_` optional.
  kpenter: "kpenter",
  kpadd: "kpadd",
  kpplus: "kpadd",
  kpsubtract: "kpsubtract",
  kpminus: "kpsubtract",
  kpmultiply: "kpmultiply",
  kpdivide: "kpdivide",
  kpdecimal: "kpdecimal",
  kpequal: "kpequal",
  ...Object.fromEntries([..."0123456789"].map((d) => [`kp${d}`, `kp${d}`])),
};

/**
 * Characters by their X keysym names (`asterisk` is `*`), so a key written as
 * xdotool or a keymap names it is the character it types.
 */
const CHARACTER_NAMES: Readonly<Record<string, string>> = {
  asterisk: "*",
  plus: "+",
  minus: "-",
  slash: "/",
  backslash: "\\",
  equal: "=",
  equals: "=",
  period: ".",
  comma: ",",
  semicolon: ";",
  colon: ":",
  apostrophe: "'",
  quotedbl: '"',
  grave: "`",
  bracketleft: "[",
  bracketright: "]",
  braceleft: "{",
  braceright: "}",
  parenleft: "(",
  parenright: ")",
  percent: "%",
  exclam: "!",
  at: "@",
  numbersign: "#",
  dollar: "$",
  ampersand: "&",
  underscore: "_",
  question: "?",
  less: "<",
  greater: ">",
  bar: "|",
  asciitilde: "~",
  asciicircum: "^",
};

/** Every canonical named key (F-keys aside). */
export const NAMED_KEYS: readonly string[] = [...new Set(Object.values(NAMED))];

/**
 * Parses a combo. The last `+`-separated part is the key, the others are
 * modifiers; `+` itself is written as the last part after a `+` (`ctrl++`).
 *
 * @param combo e.g. `ctrl+shift+z`, `Return`, `cmd+a`
 * @returns the chord
 * @throws DesktopError INVALID_ARGS for an empty part, an unknown modifier or key, or no key
 * @example
 * ```ts
 * import { parseKeyChord } from "./keys.ts";
 * console.log(parseKeyChord("Ctrl+Shift+Delete")); // { mods: ["ctrl", "shift"], key: "delete" }
 * console.log(parseKeyChord("ctrl++").key); // "+"
 * console.log(parseKeyChord("asterisk").key); // "*"
 * console.log(parseKeyChord("KP_Enter").key); // "kpenter"
 * ```
 */
export function parseKeyChord(combo: string): KeyChord {
  const text = combo.trim();
  if (!text) throw badCombo(combo, "it is empty");
  let parts = text.split("+").map((p) => p.trim());
  if (text === "+") parts = ["+"];
  else if (text.endsWith("++")) parts = [...text.slice(0, -2).split("+").map((p) => p.trim()), "+"];
  if (parts.some((p) => p === "")) throw badCombo(combo, "it has an empty part");
  const mods = new Set<Modifier>();
  for (const part of parts.slice(0, -1)) {
    const m = MODIFIERS[part.toLowerCase()];
    if (m === undefined) throw badCombo(combo, `"${part}" is not a modifier`);
    mods.add(m);
  }
  const last = parts[parts.length - 1];
  const key = keyName(last);
  if (key === undefined) {
    throw badCombo(
      combo,
      MODIFIERS[last.toLowerCase()] !== undefined
        ? "it has no key after the modifiers"
        : `unknown key "${last}"`,
    );
  }
  return { mods: MOD_ORDER.filter((m) => mods.has(m)), key };
}

/**
 * The canonical name of one key, or undefined when it is none.
 *
 * @param name a key as written (`Page_Down`, `esc`, `F5`, `a`, `é`)
 * @returns the canonical name, or the single character as written
 */
export function keyName(name: string): string | undefined {
  const folded = name.toLowerCase().replace(/[_-]/g, "");
  const named = NAMED[folded];
  if (named !== undefined) return named;
  const character = CHARACTER_NAMES[folded];
  if (character !== undefined) return character;
  if (/^f([1-9]|[1-2][0-9]|3[0-5])$/.test(folded)) return folded;
  const chars = [...name];
  if (chars.length !== 1) return undefined;
  const cp = chars[0].codePointAt(0)!;
  if (cp < 0x20 || cp === 0x7f) return undefined;
  return name;
}

/**
 * The INVALID_ARGS error for a combo a platform cannot press.
 *
 * @param combo the combo as given
 * @param why what is wrong with it
 * @returns the error, with the grammar as its suggestion
 */
export function badCombo(combo: string, why: string): DesktopError {
  return new DesktopError("INVALID_ARGS", `cannot press "${combo}": ${why}`, {
    suggestion: "Write modifiers (ctrl shift alt super/cmd, fn on macOS) joined with + and one " +
      "key: a character, Return, Tab, Escape, Backspace, Delete (forward), arrows " +
      "(Left/Right/Up/Down), Home/End, PageUp/PageDown, F1-F12, the keypad's KP_Enter, KP_Add, " +
      "KP_0-KP_9..., a character's keysym name (asterisk, plus); e.g. ctrl+a, shift+Tab, ctrl++",
  });
}
