/**
 * Field changes that show nothing new to a reader: a text that differs only
 * in spacing or icon glyphs, a selection that comes or goes with the focus.
 * The diff itself and the trimming of its changes (./noise.ts) share these
 * rules; this module imports nothing of the diff's.
 *
 * @module
 */

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
 * import { visibleText } from "./silent.ts";
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
 * import { isSilentField } from "./silent.ts";
 * assert.equal(isSilentField("t", "", null), true);
 * assert.equal(isSilentField("t", "Save", "Saved"), false);
 * assert.equal(isSilentField("sel", null, [4, 4]), true); // the caret came with the focus
 * assert.equal(isSilentField("sel", [0, 13], null), true); // the selection left with it
 * assert.equal(isSilentField("sel", [4, 4], [0, 4]), false);
 * ```
 */
export function isSilentField(key: string, before: unknown, after: unknown): boolean {
  // A field's selection is read while it has the focus (a document's always): one that comes
  // or goes with the focus says nothing the focus change does not (one that moved does).
  if (key === "sel") return before == null || after == null;
  return TEXT_FIELDS.has(key) && visibleText(before) === visibleText(after);
}

/**
 * Whether a selection is an empty range: a caret alone.
 *
 * @param v a `sel` value
 * @returns true for `[n, n]`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBareCaret } from "./silent.ts";
 * assert.equal(isBareCaret([4, 4]), true);
 * assert.equal(isBareCaret([0, 4]), false);
 * ```
 */
export function isBareCaret(v: unknown): boolean {
  return Array.isArray(v) && v.length === 2 && v[0] === v[1];
}
