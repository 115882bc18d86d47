/**
 * The one ref syntax (guide: refs.md sections 1 and 2): segments joined by
 * `/`, the last one optionally carrying a twin index `.N` (N >= 1). Every
 * rule about how a ref is written — parsing, formatting, the twin index,
 * suffix matching on a segment boundary, case folding — lives here, so
 * generation, resolution and the identity checks cannot disagree. Pure.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import { fold } from "../model/text.ts";

/** Longest ref accepted, in characters (generation shortens deeper ones). */
export const MAX_REF_LENGTH = 500;

/** A segment: a base without `.`, `/` or whitespace, then an optional `.N` index (N >= 1). */
const SEGMENT = /^[^\s./]+(\.[1-9][0-9]*)?$/u;

/**
 * Where the twin index at the end of a ref starts (its `.`), or -1: the
 * `.` of a final `.` followed by digits only. A scan, not a pattern: every
 * ref of a read is taken apart a few times (store, short refs, rows).
 */
function indexAt(ref: string): number {
  let k = ref.length;
  while (k > 0) {
    const c = ref.charCodeAt(k - 1);
    if (c < 48 || c > 57) break; // not 0-9
    k--;
  }
  return k < ref.length && k > 0 && ref.charCodeAt(k - 1) === 46 ? k - 1 : -1; // 46: "."
}

/** A ref taken apart. */
export interface ParsedRef {
  /** The ref without its twin index (`dialog/ok` for `dialog/ok.2`). */
  base: string;
  /** The twin index, when the ref has one. */
  index?: number;
  /** The base's segments (`["dialog", "ok"]`). */
  segments: string[];
}

/**
 * Takes a ref apart (no validation: see {@link validateRef}).
 *
 * @param ref a ref
 * @returns base, twin index and segments
 * @example
 * ```ts
 * import { parseRef } from "./syntax.ts";
 * const p = parseRef("dialog/ok.2");
 * if (p.base !== "dialog/ok" || p.index !== 2 || p.segments.length !== 2) throw new Error();
 * ```
 */
export function parseRef(ref: string): ParsedRef {
  const at = indexAt(ref);
  if (at < 0) return { base: ref, segments: ref.split("/") };
  const base = ref.slice(0, at);
  return { base, index: Number(ref.slice(at + 1)), segments: base.split("/") };
}

/**
 * Writes a ref from its base and twin index.
 *
 * @param base the ref without index
 * @param index the twin index (1-based), or undefined for none
 * @returns the ref
 * @example
 * ```ts
 * import { formatRef } from "./syntax.ts";
 * if (formatRef("dialog/ok", 2) !== "dialog/ok.2" || formatRef("form/email") !== "form/email") {
 *   throw new Error();
 * }
 * ```
 */
export function formatRef(base: string, index?: number): string {
  return index === undefined ? base : `${base}.${index}`;
}

/**
 * The ref of an element below a row, from the row's ref and what follows it:
 * `list/a/delete` for row `list/a`. Twin rows carry their index on their
 * parts' refs, since a twin index always ends a ref: the Delete button of
 * row `list/a.2` is `list/a/delete.2`.
 *
 * @param rowRef the row's ref
 * @param suffix the part's ref below the row (`delete`)
 * @returns the part's ref
 * @example
 * ```ts
 * import { rowPartRef } from "./syntax.ts";
 * if (rowPartRef("list/a", "delete") !== "list/a/delete") throw new Error();
 * if (rowPartRef("list/a.2", "delete") !== "list/a/delete.2") throw new Error();
 * ```
 */
export function rowPartRef(rowRef: string, suffix: string): string {
  const at = indexAt(rowRef);
  if (at < 0) return `${rowRef}/${suffix}`;
  return formatRef(`${rowRef.slice(0, at)}/${suffix}`, Number(rowRef.slice(at + 1)));
}

/**
 * What follows a row's ref in the ref of an element below it (the inverse of
 * {@link rowPartRef}), or null when the element is not below the row that way.
 *
 * @param ref the element's ref
 * @param rowRef the row's ref
 * @returns the suffix, or null
 * @example
 * ```ts
 * import { rowPartSuffix } from "./syntax.ts";
 * if (rowPartSuffix("list/a/delete.2", "list/a.2") !== "delete") throw new Error();
 * if (rowPartSuffix("list/b/delete", "list/a") !== null) throw new Error();
 * ```
 */
export function rowPartSuffix(ref: string | undefined, rowRef: string): string | null {
  if (ref === undefined) return null;
  // Compared as written: the same index (digits as they stand) on both, and the part's base
  // below the row's.
  const rowAt = indexAt(rowRef);
  const partAt = indexAt(ref);
  const rowBase = rowAt < 0 ? rowRef : rowRef.slice(0, rowAt);
  const partEnd = partAt < 0 ? ref.length : partAt;
  if (rowAt < 0 ? partAt >= 0 : partAt < 0 || !sameIndex(rowRef, rowAt, ref, partAt)) return null;
  if (
    partEnd <= rowBase.length || ref.charCodeAt(rowBase.length) !== 47 || // 47: "/"
    !ref.startsWith(rowBase)
  ) return null;
  return ref.slice(rowBase.length + 1, partEnd);
}

/** Whether two refs' twin indexes (from their `.` at `a` and `b`) are the same number. */
function sameIndex(x: string, a: number, y: string, b: number): boolean {
  const xs = x.slice(a + 1), ys = y.slice(b + 1);
  return xs === ys || Number(xs) === Number(ys);
}

/**
 * The base of an indexed ref (`dialog/ok` for `dialog/ok.2`), or undefined
 * for a ref without a twin index.
 *
 * @param ref a ref, or undefined
 * @returns the base, or undefined
 * @example
 * ```ts
 * import { indexedBase } from "./syntax.ts";
 * if (indexedBase("dialog/ok.2") !== "dialog/ok" || indexedBase("form/email") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function indexedBase(ref: string | undefined): string | undefined {
  if (ref === undefined) return undefined;
  const at = indexAt(ref);
  return at < 0 ? undefined : ref.slice(0, at);
}

/**
 * A ref without its twin index.
 *
 * @param ref a ref
 * @returns the ref itself when it has no index
 */
export function stripIndex(ref: string): string {
  return indexedBase(ref) ?? ref;
}

/**
 * The landmark path of a ref: its base without the last segment (`list/item-5`
 * for `list/item-5/delete.2`), "" at the top.
 *
 * @param ref a ref
 * @returns the path of the element's contributing ancestors
 * @example
 * ```ts
 * import { refParent } from "./syntax.ts";
 * if (refParent("list/item-5/delete.2") !== "list/item-5" || refParent("ok") !== "") {
 *   throw new Error();
 * }
 * ```
 */
export function refParent(ref: string): string {
  const base = stripIndex(ref);
  const cut = base.lastIndexOf("/");
  return cut < 0 ? "" : base.slice(0, cut);
}

/**
 * The last segment of a ref, index stripped (`delete` for `list/item-5/delete.2`).
 *
 * @param ref a ref
 * @returns the element's own segment
 */
export function lastSegment(ref: string): string {
  const base = stripIndex(ref);
  return base.slice(base.lastIndexOf("/") + 1);
}

/** The comparison key of refs and labels: the model's one {@link fold}. */
export { fold };

/**
 * Whether `ref` equals `query` or ends with `/query` (a suffix on a segment
 * boundary: `submit` matches `form/submit`, never `form/resubmit`). Both
 * folded already.
 *
 * @param ref a full ref
 * @param query what the agent gave
 * @returns true on a match
 * @example
 * ```ts
 * import { suffixMatch } from "./syntax.ts";
 * if (!suffixMatch("form/submit", "submit") || suffixMatch("form/resubmit", "submit")) {
 *   throw new Error();
 * }
 * ```
 */
export function suffixMatch(ref: string, query: string): boolean {
  return ref === query || ref.endsWith(`/${query}`);
}

/**
 * Checks a ref's syntax, throwing INVALID_ARGS for malformed refs: empty,
 * longer than {@link MAX_REF_LENGTH} characters, a leading, trailing or
 * doubled `/`, a segment with whitespace, or a `.N` index that is not a
 * positive integer.
 *
 * @param ref the ref an agent gave
 * @example
 * ```ts
 * import { validateRef } from "./syntax.ts";
 * validateRef("dialog/ok.2"); // fine
 * let failed = false;
 * try { validateRef("dialog//ok"); } catch { failed = true; }
 * if (!failed) throw new Error();
 * ```
 */
export function validateRef(ref: string): void {
  const bad = (why: string): never => {
    throw new DesktopError("INVALID_ARGS", `malformed ref "${ref.slice(0, 80)}": ${why}`, {
      suggestion:
        "Refs look like form/email or dialog/ok.2 (lowercase segments joined by '/'); copy one from read. " +
        'A line that prints an id alone ([15] chk "Remember me") has its label\'s slug as its ref (remember-me)',
    });
  };
  if (ref.trim() === "") bad("it is empty");
  if (ref.length > MAX_REF_LENGTH) bad(`longer than ${MAX_REF_LENGTH} characters`);
  if (ref.startsWith("/") || ref.endsWith("/")) bad("it starts or ends with '/'");
  for (const seg of ref.split("/")) {
    if (seg === "") bad("it has an empty segment ('//')");
    if (seg.trim() === "") bad("it has a blank segment");
    if (/\s/u.test(seg)) bad(`segment "${seg}" contains whitespace`);
    if (!SEGMENT.test(seg)) bad(`segment "${seg}" has a bad index (use .1, .2, ...)`);
  }
}
