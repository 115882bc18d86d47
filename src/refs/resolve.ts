/**
 * Ref, id and text resolution (guide: refs.md section 2). Never guesses:
 * a missing or ambiguous target is an error with candidates.
 *
 * Candidate order ("nearest first") for a ref that matched nothing: agents
 * usually get the last segment (the element's own label) nearly right and the
 * landmark path wrong or incomplete, or the label changed slightly. So
 * candidates are ranked by (1) edit distance between the query's last segment
 * and the candidate's last segment, indexes ignored; (2) how many of the
 * query's segments the candidate's ref contains; (3) edit distance of the
 * whole refs; (4) document order.
 *
 * @module
 */

import { type Candidate, DesktopError } from "../errors.ts";
import { type Element, type Role, shownValue } from "../model/element.ts";
import { bestLabel } from "./generate.ts";
import { fold, stripIndex, suffixMatch, validateRef } from "../identity/syntax.ts";

// The ref syntax lives in one module; these are re-exported for the library's users.
export { fold, validateRef };

/** Most candidates an error lists. */
export const MAX_CANDIDATES = 10;

/**
 * The candidate shape of an element, for errors.
 *
 * @param el an element with ref and id assigned
 * @returns `{ref, i, r, t, b}` with empty keys omitted
 */
export function toCandidate(el: Element): Candidate {
  const c: Candidate = { r: el.r };
  if (el.ref !== undefined) c.ref = el.ref;
  c.i = el.i;
  const t = bestLabel(el);
  if (t) c.t = t;
  if (el.b) c.b = el.b;
  return c;
}

/** Every element in document order (iterative: deep trees do not overflow). */
function allElements(root: Element): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    out.push(el);
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out;
}

/**
 * Finds the element a ref names in a tree with refs assigned: exact match,
 * else a unique suffix match on a segment boundary (`submit` matches
 * `form/submit`, never `form/resubmit`). A ref whose element has duplicates
 * (`dialog/ok` when `dialog/ok.1` and `dialog/ok.2` exist) is ambiguous.
 * Throws INVALID_ARGS (malformed), ELEMENT_NOT_FOUND or AMBIGUOUS_TARGET with
 * up to 10 candidates, nearest first.
 *
 * @param root the tree, refs assigned
 * @param ref the ref to resolve (case-insensitive)
 * @returns the one element it names
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assignRefs } from "./generate.ts";
 * import { resolveRef } from "./resolve.ts";
 * const root = { i: 1, r: "form" as const, c: [{ i: 2, r: "btn" as const, t: "Submit" }] };
 * assignRefs(root);
 * assert.deepEqual(resolveRef(root, "submit").i, 2);
 * ```
 */
export function resolveRef(root: Element, ref: string): Element {
  validateRef(ref);
  const query = fold(ref);
  const els = allElements(root);
  const exact = els.filter((e) => e.ref === query);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) throw ambiguous(ref, exact, "elements share this ref");

  const suffix = els.filter((e) => e.ref !== undefined && suffixMatch(e.ref, query));
  // `dialog/ok` when `dialog/ok.1` and `dialog/ok.2` exist: those compete too, so a
  // duplicated label never silently resolves to another element ending the same way.
  const indexed = els.filter((e) =>
    e.ref !== undefined && e.ref !== stripIndex(e.ref) && !suffixMatch(e.ref, query) &&
    suffixMatch(stripIndex(e.ref), query)
  );
  if (suffix.length === 1 && indexed.length === 0) return suffix[0];
  if (suffix.length + indexed.length > 1) {
    const why = indexed.length
      ? "the label is duplicated; pick one by its index"
      : "it is a suffix of several refs";
    throw ambiguous(ref, [...sortByLength(suffix), ...sortByLength(indexed)], why);
  }

  // `dialog/ok.2` after the other OK went away: the survivor is plain `dialog/ok`. It may
  // or may not be the element meant, so it is only suggested.
  const unindexed = query !== stripIndex(query) &&
    els.find((e) => e.ref === stripIndex(query));
  throw new DesktopError("ELEMENT_NOT_FOUND", `no element matches ref "${ref}"`, {
    suggestion: unindexed
      ? `The label is no longer duplicated: one element is now ${unindexed.ref}; check it is the one you meant`
      : indexed.length
      ? `Did you mean ${indexed[0].ref}? Use the full ref`
      : "Use one of the candidates' refs, or run read again if the UI changed",
    candidates: nearest(query, els).map(toCandidate),
  });
}

/** Matches sorted by ref length (the closest to the query first), then document order. */
function sortByLength(els: Element[]): Element[] {
  return els.map((el, k) => ({ el, k }))
    .sort((a, b) => a.el.ref!.length - b.el.ref!.length || a.k - b.k)
    .map((x) => x.el);
}

/** The AMBIGUOUS_TARGET error for several matches. */
function ambiguous(target: string, matches: Element[], why: string): DesktopError {
  return new DesktopError(
    "AMBIGUOUS_TARGET",
    `"${target}" matches ${matches.length} elements (${why})`,
    {
      suggestion: "Retry with the full ref of the one you mean (one of the candidates)",
      candidates: matches.slice(0, MAX_CANDIDATES).map(toCandidate),
    },
  );
}

/**
 * The up-to-10 elements whose refs are nearest to a query (see the module doc).
 *
 * @param query a folded ref
 * @param els the elements to rank
 * @returns the nearest first
 */
export function nearest(query: string, els: Element[]): Element[] {
  const qSegs = query.split("/").map(stripIndex);
  const qLast = qSegs[qSegs.length - 1];
  const scored: Array<{ el: Element; k: number; last: number; shared: number; whole: number }> = [];
  els.forEach((el, k) => {
    if (el.ref === undefined) return;
    const segs = el.ref.split("/").map(stripIndex);
    const last = editDistance(qLast, segs[segs.length - 1]);
    const shared = qSegs.filter((s) => segs.includes(s)).length;
    scored.push({ el, k, last, shared, whole: 0 });
  });
  scored.sort((a, b) => a.last - b.last || b.shared - a.shared || a.k - b.k);
  // Full-ref distance only refines the best few dozen: it is the costly part.
  const head = scored.slice(0, MAX_CANDIDATES * 3);
  for (const s of head) s.whole = editDistance(query, s.el.ref!);
  head.sort((a, b) => a.last - b.last || b.shared - a.shared || a.whole - b.whole || a.k - b.k);
  return head.slice(0, MAX_CANDIDATES).map((s) => s.el);
}

/**
 * Levenshtein distance between two strings (code units), two-row version.
 *
 * @param a first string
 * @param b second string
 * @returns the number of single-character edits from a to b
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editDistance } from "./resolve.ts";
 * assert.deepEqual(editDistance("submit", "sumbit"), 2);
 * ```
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Options of text targeting and `find`. */
export interface TextQuery {
  /** Text to match against label, value and description. */
  text?: string;
  /** Require an exact (case-insensitive) label match instead of a substring. */
  exact?: boolean;
  /** Restrict to these roles. */
  roles?: ReadonlySet<Role>;
}

/** The texts an element can be found by: label, description, placeholder, value (never a secure value). */
function searchableTexts(el: Element): string[] {
  const out: string[] = [];
  for (const s of [el.t, el.d, el.ph]) if (s) out.push(s);
  const v = shownValue(el);
  if (v) out.push(v);
  return out;
}

/** The labels an exact query compares against (label, description, placeholder; never the value). */
function labels(el: Element): string[] {
  return [el.t, el.d, el.ph].filter((s): s is string => !!s).map((s) => s.trim());
}

/**
 * Every element matching a query, in document order. Without `text` every
 * element of the roles matches; without `roles` every role does. A secure
 * field's value is never searched.
 *
 * @param root the tree
 * @param query text (substring, or full label with `exact`) and roles
 * @returns the matches, document order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findElements } from "./resolve.ts";
 * const root = { i: 1, r: "form" as const, c: [{ i: 2, r: "btn" as const, t: "Save as…" }] };
 * assert.deepEqual(findElements(root, { text: "save" }).length, 1);
 * ```
 */
export function findElements(root: Element, query: TextQuery): Element[] {
  const needle = query.text === undefined ? undefined : fold(query.text.trim());
  return allElements(root).filter((el) => {
    if (query.roles && query.roles.size && !query.roles.has(el.r)) return false;
    if (needle === undefined || needle === "") return true;
    if (query.exact) return labels(el).some((l) => fold(l) === needle);
    return searchableTexts(el).some((s) => fold(s).includes(needle));
  });
}

/**
 * The one element matching a text query. Never picks "the first":
 * - a text element that only repeats the label of an ancestor that also
 *   matched (a button's caption) is folded into that ancestor;
 * - when exactly one remaining match has the text as its full label, that
 *   one is meant (`Save` with buttons `Save` and `Save As…`);
 * - otherwise one match resolves, several are AMBIGUOUS_TARGET and none is
 *   ELEMENT_NOT_FOUND, both with candidates.
 *
 * @param root the tree, ids and refs assigned
 * @param query the text query (text required)
 * @returns the one element meant
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveText } from "./resolve.ts";
 * const root = { i: 1, r: "form" as const, c: [
 *   { i: 2, r: "btn" as const, t: "Save" }, { i: 3, r: "btn" as const, t: "Save As…" },
 * ] };
 * assert.deepEqual(resolveText(root, { text: "Save" }).i, 2);
 * ```
 */
export function resolveText(root: Element, query: TextQuery): Element {
  const text = query.text?.trim() ?? "";
  if (text === "") {
    throw new DesktopError("INVALID_ARGS", "--text is empty", {
      suggestion: "Give the label (or part of it) of the element to target",
    });
  }
  const matches = dropEchoes(root, new Set(findElements(root, query)));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    const how = query.exact ? "has exactly the label" : "contains the text";
    const loose = query.exact ? findElements(root, { ...query, exact: false }) : [];
    const anyRole = query.roles?.size
      ? findElements(root, { text: query.text, exact: query.exact })
      : [];
    throw new DesktopError("ELEMENT_NOT_FOUND", `no element ${how} "${text}"`, {
      suggestion: loose.length
        ? "Some elements contain the text; drop --exact or use one of the candidates' refs"
        : anyRole.length
        ? "Elements of other roles match; widen --roles or use a candidate's ref"
        : "Run read to see the current labels",
      candidates: [...loose, ...anyRole].slice(0, MAX_CANDIDATES).map(toCandidate),
    });
  }
  const needle = fold(text);
  const full = matches.filter((el) => labels(el).some((l) => fold(l) === needle));
  if (!query.exact && full.length === 1) return full[0];
  const pool = full.length > 1 ? full : matches;
  throw new DesktopError(
    "AMBIGUOUS_TARGET",
    `"${text}" matches ${pool.length} elements`,
    {
      suggestion: "Retry with --ref and one of the candidates' refs (or narrow with --roles)",
      candidates: pool.slice(0, MAX_CANDIDATES).map(toCandidate),
    },
  );
}

/** Removes matches whose nearest matching ancestor has the same label (caption echoes). */
function dropEchoes(root: Element, matches: Set<Element>): Element[] {
  const out: Element[] = [];
  const stack: Array<{ el: Element; owner: Element | null }> = [{ el: root, owner: null }];
  while (stack.length) {
    const { el, owner } = stack.pop()!;
    let nextOwner = owner;
    if (matches.has(el)) {
      const echo = owner !== null && fold(bestLabel(owner)) === fold(bestLabel(el)) &&
        !el.c?.length;
      if (!echo) out.push(el);
      nextOwner = el;
    }
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ el: kids[k], owner: nextOwner });
  }
  return out;
}

/**
 * Looks an element up by numeric id in a tree (no staleness check: see the
 * ref store).
 *
 * @param root the tree, ids assigned
 * @param id the `i` to find
 * @returns the element, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findById } from "./resolve.ts";
 * assert.deepEqual(findById({ i: 1, r: "app", c: [{ i: 2, r: "btn" }] }, 2)?.r, "btn");
 * ```
 */
export function findById(root: Element, id: number): Element | undefined {
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.i === id) return el;
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return undefined;
}
