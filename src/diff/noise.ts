/**
 * Changes that show nothing new to a reader: a label that differs only in
 * spacing, an icon-font glyph (a private-use character) or an invisible
 * format character, an empty text that became another empty text. A diff's
 * renderer prints no line for them.
 *
 * @module
 */

import type { Change } from "./diff.ts";

/** Fields whose values are text a reader sees. */
const TEXT_FIELDS: ReadonlySet<string> = new Set(["t", "v", "d", "ph"]);

/**
 * A text as a reader sees it: without private-use glyphs (icon fonts),
 * invisible format and control characters, with runs of spaces made one
 * and no spaces at either end; absent reads as empty.
 *
 * @param v a field's value
 * @returns the visible text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleText } from "./noise.ts";
 * assert.equal(visibleText("\uE0C8  Reports "), "Reports");
 * assert.equal(visibleText(null), "");
 * ```
 */
export function visibleText(v: unknown): string {
  if (v === null || v === undefined) return "";
  return String(v)
    .replace(/[\p{Co}\p{Cf}\p{Cc}]/gu, (c) => /\s/.test(c) ? " " : "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Whether one field's change shows nothing new: a text field whose visible
 * text is the same before and after.
 *
 * @param key the field
 * @param before its value before
 * @param after its value after
 * @returns true when a reader would see no difference
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSilentField } from "./noise.ts";
 * assert.equal(isSilentField("t", "", null), true);
 * assert.equal(isSilentField("t", "Save", "Saved"), false);
 * ```
 */
export function isSilentField(key: string, before: unknown, after: unknown): boolean {
  return TEXT_FIELDS.has(key) && visibleText(before) === visibleText(after);
}

/**
 * Whether a change shows nothing new: a `changed` whose every field (its ref
 * aside) is silent (see {@link isSilentField}) and whose ref stayed.
 *
 * @param ch the change
 * @returns true for a change a reader would not see
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSilentChange } from "./noise.ts";
 * assert.equal(isSilentChange({ type: "changed", ref: "txt.1", i: 3, changes: { t: ["", ""] } }), true);
 * ```
 */
export function isSilentChange(ch: Change): boolean {
  if (ch.type !== "changed") return false;
  return Object.entries(ch.changes).every(([k, [a, b]]) => isSilentField(k, a, b));
}
