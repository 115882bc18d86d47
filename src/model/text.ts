/**
 * The one comparison key of texts: labels, values, refs, queries. Every
 * "is this the same text" check (resolution, the agent line's repeats, label
 * folding, conversion) compares folded texts, so they all agree.
 *
 * @module
 */

/**
 * A text folded for comparison: NFKC (compatibility forms and ligatures as
 * their plain letters), trimmed, lower case. Absent text folds to "".
 *
 * @param s the text
 * @returns the folded text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fold } from "./text.ts";
 * assert.equal(fold("  Form/Email "), "form/email");
 * assert.equal(fold("ﬁle"), "file");
 * assert.equal(fold(undefined), "");
 * ```
 */
export function fold(s: string | undefined): string {
  return (s ?? "").normalize("NFKC").trim().toLowerCase();
}
