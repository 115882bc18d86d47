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
 * Refs (and the unindexed forms of indexed refs) that end with one suffix:
 * how many, and, when there are several, who they are, to be told apart by
 * the segment in front (`sub`, made when first needed). A suffix's count is
 * its group's size: most refs are alone in their last segment's group and
 * are never looked at again, so no ref's every suffix is built and counted.
 */
interface SuffixGroup {
  /** How many refs end with the suffix. */
  n: number;
  /** The first of them. */
  ref: string;
  /** Where, in `ref`, the `/` in front of the suffix is (-1: the suffix is all of it). */
  cut: number;
  /** All of them with their cuts, once there are two. */
  more?: { refs: string[]; cuts: number[] };
  /** The groups one segment longer, by that segment. */
  sub?: Map<string, SuffixGroup>;
}

/**
 * Adds `ref` to the group of its segment that ends at `end` (its last
 * segment for `end` = its length).
 */
function addToGroup(groups: Map<string, SuffixGroup>, ref: string, end: number): void {
  const cut = end === 0 ? -1 : ref.lastIndexOf("/", end - 1);
  const seg = ref.slice(cut + 1, end);
  const g = groups.get(seg);
  if (g === undefined) groups.set(seg, { n: 1, ref, cut });
  else {
    g.n++;
    if (g.more) {
      g.more.refs.push(ref);
      g.more.cuts.push(cut);
    } else g.more = { refs: [g.ref, ref], cuts: [g.cut, cut] };
  }
}

/** The groups one segment longer than `g`'s suffix (its refs that have one more). */
function subGroups(g: SuffixGroup): Map<string, SuffixGroup> {
  const sub = new Map<string, SuffixGroup>();
  const refs = g.more?.refs ?? [g.ref];
  const cuts = g.more?.cuts ?? [g.cut];
  for (let k = 0; k < refs.length; k++) if (cuts[k] >= 0) addToGroup(sub, refs[k], cuts[k]);
  return sub;
}

/** Whether `ref` is `suffix` or ends with it on a segment boundary. */
function endsWithSuffix(ref: string, suffix: string): boolean {
  if (!ref.endsWith(suffix)) return false;
  return ref.length === suffix.length || ref.charCodeAt(ref.length - suffix.length - 1) === 47; // "/"
}

/** How many of the grouped refs are `suffix` or end with it on a segment boundary. */
function suffixCount(groups: Map<string, SuffixGroup>, suffix: string): number {
  let end = suffix.length;
  for (;;) {
    const cut = end === 0 ? -1 : suffix.lastIndexOf("/", end - 1);
    const g = groups.get(suffix.slice(cut + 1, end));
    if (g === undefined) return 0;
    if (cut < 0) return g.n;
    if (g.n === 1) return endsWithSuffix(g.ref, suffix) ? 1 : 0;
    groups = g.sub ??= subGroups(g);
    end = cut;
  }
}

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
  const groups = new Map<string, SuffixGroup>();
  const full = new Set<string>();
  for (const ref of refs) {
    full.add(ref);
    addToGroup(groups, ref, ref.length);
    const bare = stripIndex(ref);
    if (bare !== ref) addToGroup(groups, bare, bare.length);
  }
  const unique = (s: string, ref: string) => s === ref || suffixCount(groups, s) === 1;
  return {
    short(ref) {
      // A lookup or two in the groups: cheaper than remembering each answer.
      let out = ref;
      if (full.has(ref)) {
        // Its suffixes, shortest first: the first one no other ref ends with.
        let level = groups;
        let end = ref.length;
        for (;;) {
          const cut = end === 0 ? -1 : ref.lastIndexOf("/", end - 1);
          if (cut < 0) break; // the ref itself
          const g = level.get(ref.slice(cut + 1, end))!; // every suffix of a ref has its group
          if (g.n === 1) {
            out = ref.slice(cut + 1);
            break;
          }
          level = g.sub ??= subGroups(g);
          end = cut;
        }
      }
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
