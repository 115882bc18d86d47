/**
 * The xkb keymap a Wayland virtual keyboard uploads: one keycode per keysym
 * it will press (like wtype), so any character can be typed without knowing
 * the user's layout. Pure.
 *
 * @module
 */

import type { Modifier } from "../../../act/keys.ts";

/** Real modifier masks as a keymap built on xkb's "complete" types and compat lays them out. */
export const XKB_MODIFIER_MASKS: Readonly<Record<Exclude<Modifier, "fn">, number>> = {
  shift: 1 << 0,
  ctrl: 1 << 2,
  alt: 1 << 3,
  super: 1 << 6,
};

/** A keymap and the evdev keycode that presses each of its keysyms. */
export interface VirtualKeymap {
  /** The keymap in xkb's text format (NUL not included). */
  text: string;
  /** Keysym to evdev keycode (xkb keycode minus 8). */
  codes: ReadonlyMap<number, number>;
}

/**
 * The keysym of one typed character: Return and Tab for line breaks and
 * tabs, Latin-1 as its code point, anything else as 0x01000000 + code point.
 *
 * @param ch one character (one code point)
 * @returns its X keysym
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { typedKeysym } from "./wlroots_keymap.ts";
 * assert.equal(typedKeysym("a"), 0x61);
 * assert.equal(typedKeysym("\n"), 0xff0d);
 * assert.equal(typedKeysym("€"), 0x010020ac);
 * ```
 */
export function typedKeysym(ch: string): number {
  if (ch === "\n" || ch === "\r") return 0xff0d;
  if (ch === "\t") return 0xff09;
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) ? cp : 0x01000000 + cp;
}

/**
 * Builds a keymap with one key per keysym (in the order given, duplicates
 * once), each on a single level, so a key sends its keysym with no modifier.
 *
 * @param keysyms the keysyms to press
 * @returns the keymap text and each keysym's evdev keycode
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildKeymap } from "./wlroots_keymap.ts";
 * const km = buildKeymap([0x61, 0xff0d, 0x61]);
 * assert.deepEqual([...km.codes], [[0x61, 1], [0xff0d, 2]]);
 * assert.match(km.text, /key <K2> \{\[ 0xff0d \]\};/);
 * ```
 */
export function buildKeymap(keysyms: Iterable<number>): VirtualKeymap {
  const codes = new Map<number, number>();
  for (const k of keysyms) if (!codes.has(k)) codes.set(k, codes.size + 1);
  if (codes.size === 0) codes.set(0x20, 1);
  const keycodes: string[] = [];
  const symbols: string[] = [];
  for (const [sym, code] of codes) {
    keycodes.push(`<K${code}> = ${code + 8};`);
    symbols.push(`key <K${code}> {[ 0x${sym.toString(16)} ]};`);
  }
  const text = [
    "xkb_keymap {",
    `xkb_keycodes "(unnamed)" { minimum = 8; maximum = ${codes.size + 9}; ${keycodes.join(" ")} };`,
    'xkb_types "(unnamed)" { include "complete" };',
    'xkb_compatibility "(unnamed)" { include "complete" };',
    `xkb_symbols "(unnamed)" { ${symbols.join(" ")} };`,
    "};",
    "",
  ].join("\n");
  return { text, codes };
}
