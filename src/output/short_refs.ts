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

/**
 * How many refs end with each suffix, kept as a trie of segments read from
 * the end: the node of `b/c` is the child `b` of the node `c`. Equal suffix
 * strings have equal segments, so a node counts what a map keyed by suffix
 * would; but no suffix string is ever built, and keys are short segments.
 */
interface SuffixNode {
  /** How many refs end with this suffix. */
  n: number;
  /** Longer suffixes, by the segment in front. */
  kids?: Map<string, SuffixNode>;
}

/** Counts every suffix of `ref` on a segment boundary (the ref itself included). */
function addSuffixes(root: SuffixNode, ref: string): void {
  let node = root;
  let end = ref.length;
  for (;;) {
    const cut = end === 0 ? -1 : ref.lastIndexOf("/", end - 1);
    const seg = ref.slice(cut + 1, end);
    const kids = node.kids ??= new Map();
    let next = kids.get(seg);
    if (next === undefined) kids.set(seg, next = { n: 0 });
    next.n++;
    if (cut < 0) return;
    node = next;
    end = cut;
  }
}

/** How many refs end with `suffix` (0 when none). */
function suffixCount(root: SuffixNode, suffix: string): number {
  let node: SuffixNode | undefined = root;
  let end = suffix.length;
  for (;;) {
    const cut = end === 0 ? -1 : suffix.lastIndexOf("/", end - 1);
    node = node.kids?.get(suffix.slice(cut + 1, end));
    if (node === undefined) return 0;
    if (cut < 0) return node.n;
    end = cut;
  }
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
  const root: SuffixNode = { n: 0 };
  const full = new Set<string>();
  for (const ref of refs) {
    full.add(ref);
    addSuffixes(root, ref);
    const bare = stripIndex(ref);
    if (bare !== ref) addSuffixes(root, bare);
  }
  const unique = (s: string, ref: string) => s === ref || suffixCount(root, s) === 1;
  const memo = new Map<string, string>();
  return {
    short(ref) {
      let out = memo.get(ref);
      if (out !== undefined) return out;
      out = ref;
      if (full.has(ref)) {
        // The shortest suffix first: walked down the trie from the last segment.
        // Every suffix of a ref of the tree has its node.
        let node = root;
        let end = ref.length;
        for (;;) {
          const cut = end === 0 ? -1 : ref.lastIndexOf("/", end - 1);
          node = node.kids!.get(ref.slice(cut + 1, end))!;
          if (cut < 0) break; // the ref itself
          if (node.n === 1) {
            out = ref.slice(cut + 1);
            break;
          }
          end = cut;
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

/** The suffixes of a ref on segment boundaries, longest (the ref itself) first. */
function suffixes(ref: string): string[] {
  const out = [ref];
  for (let k = ref.indexOf("/"); k >= 0; k = ref.indexOf("/", k + 1)) out.push(ref.slice(k + 1));
  return out;
}
