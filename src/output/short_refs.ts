/**
 * Short refs for the agent format: each ref printed as the shortest suffix on
 * a segment boundary that resolves to it alone in the tree it was read from
 * (resolution, refs.md section 2: exact match, else a unique suffix). JSON and
 * YAML always carry the full ref.
 *
 * A suffix competes with every ref that ends with it, and with every indexed
 * twin whose unindexed ref ends with it (`ok` is ambiguous while `dialog/ok.1`
 * exists), exactly as resolution counts them.
 *
 * @module
 */

import { rowPartRef, stripIndex } from "../identity/syntax.ts";

/** The suffixes of a ref on segment boundaries, longest (the ref itself) first. */
function suffixes(ref: string): string[] {
  const out = [ref];
  for (let k = ref.indexOf("/"); k >= 0; k = ref.indexOf("/", k + 1)) out.push(ref.slice(k + 1));
  return out;
}

/** Shortens refs against the refs of one tree. */
export interface RefShortener {
  /**
   * The shortest form of `ref` that resolves to it alone.
   *
   * @param ref a full ref of the tree
   * @returns a suffix of it, or the ref itself
   */
  short(ref: string): string;
  /**
   * The shortest form of a row's ref such that it and the row's ref followed
   * by each of `below` (`delete` for `<row>/delete`) all resolve alone: what a
   * uniform run prints, from which the cells' refs are derived.
   *
   * @param ref the row's full ref
   * @param below the suffixes of the row's cells
   * @returns a suffix of the row's ref
   */
  shortRow(ref: string, below: readonly string[]): string;
}

/**
 * Builds a shortener for the refs of one tree.
 *
 * @param refs every ref of the tree read (not only those printed)
 * @returns the shortener
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refShortener } from "./short_refs.ts";
 * const s = refShortener(["form/email", "form/submit", "toolbar/search", "list/a/delete"]);
 * assert.deepEqual(s.short("form/email"), "email");
 * assert.deepEqual(s.short("list/a/delete"), "delete");
 * ```
 */
export function refShortener(refs: Iterable<string>): RefShortener {
  const count = new Map<string, number>();
  const add = (s: string) => count.set(s, (count.get(s) ?? 0) + 1);
  const full = new Set<string>();
  for (const ref of refs) {
    full.add(ref);
    const own = suffixes(ref);
    for (const s of own) add(s);
    const bare = stripIndex(ref);
    if (bare !== ref) { for (const s of suffixes(bare)) add(s); }
  }
  const unique = (s: string, ref: string) => s === ref || count.get(s) === 1;
  const memo = new Map<string, string>();
  return {
    short(ref) {
      let out = memo.get(ref);
      if (out !== undefined) return out;
      out = ref;
      if (full.has(ref)) {
        const all = suffixes(ref);
        for (let k = all.length - 1; k >= 0; k--) {
          if (unique(all[k], ref)) {
            out = all[k];
            break;
          }
        }
      }
      memo.set(ref, out);
      return out;
    },
    shortRow(ref, below) {
      if (!full.has(ref)) return ref;
      const all = suffixes(ref);
      for (let k = all.length - 1; k >= 0; k--) {
        const s = all[k];
        if (!unique(s, ref)) continue;
        if (below.every((b) => unique(rowPartRef(s, b), rowPartRef(ref, b)))) return s;
      }
      return ref;
    },
  };
}
