/**
 * Ref-keyed tree diff: what was added, removed and changed between two reads.
 *
 * Elements are matched by native identity first (`nid`, when both reads carry
 * it), so a renamed element whose ref changed is one `changed` with its ref
 * `[old, new]`; then by ref, not by position, so inserting a row at the top
 * of a list is one `added` change, not a cascade. Without native identity,
 * refs with a `.N` duplicate index can move to another element when a
 * duplicate appears or goes; they are still matched by ref (a known, accepted
 * limit).
 *
 * An element added (or removed) inside another added (or removed) one names
 * that nearest one as `up`: a new dialog and its content are one event for a
 * reader that wants it so.
 *
 * A reorder is a change: an element that moved among the siblings it had (a
 * sorted table's rows) is `changed` with `at: [oldIndex, newIndex]` (0-based,
 * among its parent's children) and its parent's ref as `in`. Only the fewest
 * elements that explain the new order move (those off the longest run that
 * kept its order): a row inserted at the top moves nothing.
 *
 * What the app shows by itself for a moment is no change (see ./transient.ts):
 * a tooltip, a browser's link-preview or status bubble window.
 *
 * @module
 */

import {
  DIFF_FIELDS,
  type Element,
  type FlatElement,
  type Role,
  shownValue,
  shownValueText,
} from "../model/element.ts";
import { traceRefs } from "../refs/generate.ts";
import { indexedBase, stripIndex } from "../identity/syntax.ts";
import { transientParts } from "./transient.ts";
import { isSilentField } from "./silent.ts";
import { unprintedParts } from "../output/agent_line.ts";
import { closedMenuParts } from "../output/agent.ts";

/** One difference between two reads. */
export type Change =
  | { type: "added"; ref: string; el: FlatElement; p?: string; up?: string }
  | { type: "removed"; ref: string; i: number; r: string; t?: string; up?: string }
  | {
    type: "changed";
    ref: string;
    i: number;
    changes: Record<string, [unknown, unknown]>;
    /** With an `at` change (the element moved among its siblings): its parent's ref. */
    in?: string;
  };

/**
 * The refs each added (or removed) change sits inside, nearest first, by
 * following `up` through the changes of the same kind; none for a `changed`.
 *
 * @param changes the changes of one diff
 * @returns a function from a change to its enclosing refs
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { enclosingRefs, type Change } from "./diff.ts";
 * const changes: Change[] = [
 *   { type: "added", ref: "dialog", el: { i: 1, r: "dialog" } },
 *   { type: "added", ref: "dialog/form", el: { i: 2, r: "form" }, up: "dialog" },
 *   { type: "added", ref: "dialog/form/ok", el: { i: 3, r: "btn" }, up: "dialog/form" },
 * ];
 * assert.deepEqual(enclosingRefs(changes)(changes[2]), ["dialog/form", "dialog"]);
 * ```
 */
export function enclosingRefs(changes: readonly Change[]): (ch: Change) => string[] {
  const upOf = new Map<string, string>();
  for (const ch of changes) {
    if (ch.type !== "changed" && ch.up !== undefined) upOf.set(`${ch.type} ${ch.ref}`, ch.up);
  }
  return (ch) => {
    const out: string[] = [];
    if (ch.type === "changed") return out;
    for (let u = ch.up; u !== undefined; u = upOf.get(`${ch.type} ${u}`)) out.push(u);
    return out;
  };
}

/** Which fields to ignore when diffing. */
export interface DiffOptions {
  /** Ignore position and size changes. */
  ignoreBounds?: boolean;
  /** Ignore focus changes. */
  ignoreFocus?: boolean;
  /** Match elements by ref only, ignoring native identity (default: nid first). */
  refsOnly?: boolean;
}

/** Fields compared, in the order changes list them: derived from the element schema (`FIELDS`). */
export { DIFF_FIELDS };

/** Flags whose absence means false (e: absence means true). */
const FLAG_FIELDS: ReadonlySet<string> = new Set(["f", "s", "req", "inv", "ro", "sec"]);

/** A field's value with absence made explicit: false for flags, true for `e`, else null. */
function fieldValue(el: Element, k: keyof Element): unknown {
  const v = el[k];
  if (k === "e") return v === false ? false : true;
  if (FLAG_FIELDS.has(k)) return v === true;
  return v === undefined ? null : v;
}

/** Deep equality for the field values (scalars and arrays of scalars). */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, k) => x === b[k]);
  }
  return a === b;
}

/** A flat element safe to report: no children, no native id, no secure value. */
function reportable(el: Element): FlatElement {
  const { c: _c, nid: _nid, v: _v, vt: _vt, ...rest } = el;
  const v = shownValue(el);
  const vt = shownValueText(el);
  return { ...rest, ...(v !== undefined ? { v } : {}), ...(vt !== undefined ? { vt } : {}) };
}

/** Every element of a tree in document order (iterative), noting each one's parent. */
function preorder(root: Element, parents?: Map<Element, Element>): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    out.push(el);
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) {
      parents?.set(kids[k], el);
      stack.push(kids[k]);
    }
  }
  return out;
}

/** Roles that show a web page's title again: its window, its tab in the browser's tab strip. */
const TITLE_ECHO_ROLES: ReadonlySet<Role> = new Set(["window", "tab"]);

/**
 * The changes that only repeat a web page's new title: a window or a tab whose
 * label alone changed (its ref following it), from one holding the page's old
 * title to one holding its new one ("Inbox (3) - Chromium"). The page's own
 * change says it once.
 */
function titleEchoes(
  changedOf: ReadonlyMap<Element, Extract<Change, { type: "changed" }>>,
): Set<Change> {
  const titles: Array<[string, string]> = [];
  for (const [el, ch] of changedOf) {
    const t = ch.changes.t;
    if (el.r === "web" && t && typeof t[1] === "string" && t[1]) {
      titles.push([String(t[0] ?? ""), t[1]]);
    }
  }
  const out = new Set<Change>();
  if (!titles.length) return out;
  for (const [el, ch] of changedOf) {
    if (!TITLE_ECHO_ROLES.has(el.r)) continue;
    if (!Object.keys(ch.changes).every((k) => k === "t" || k === "ref")) continue;
    const t = ch.changes.t;
    if (!t) continue;
    const [was, now] = [String(t[0] ?? ""), String(t[1] ?? "")];
    if (titles.some(([a, b]) => now.includes(b) && was.includes(a))) out.add(ch);
  }
  return out;
}

/**
 * Diffs two trees with refs assigned, matching elements by ref. Changes come
 * in the order of the new tree (added and changed), then removed elements in
 * the order of the old one. A secure element's value never appears in a
 * change, and `nid` never does. An added element carries its landmark path
 * `p` (the same as `flatten` gives).
 *
 * @param before the earlier tree
 * @param after the later tree
 * @param opts fields to ignore
 * @returns the changes; empty when nothing changed
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diffTrees } from "./diff.ts";
 * const a = { i: 1, ref: "form", r: "form" as const, c: [{ i: 2, ref: "form/email", r: "input" as const, t: "Email" }] };
 * const b = { i: 1, ref: "form", r: "form" as const, c: [{ i: 2, ref: "form/email", r: "input" as const, t: "Email", v: "x" }] };
 * assert.deepEqual(diffTrees(a, b)[0].type, "changed");
 * ```
 */
export function diffTrees(before: Element, after: Element, opts: DiffOptions = {}): Change[] {
  const old = new Map<string, Element>();
  const oldByNid = new Map<string, Element>();
  const oldParents = new Map<Element, Element>();
  const newParents = new Map<Element, Element>();
  for (const el of preorder(before, oldParents)) {
    if (el.ref === undefined || old.has(el.ref)) continue;
    old.set(el.ref, el);
    if (el.nid !== undefined && !opts.refsOnly && !oldByNid.has(el.nid)) oldByNid.set(el.nid, el);
  }
  const newNids = new Set<string>();
  if (oldByNid.size) { for (const el of preorder(after)) if (el.nid) newNids.add(el.nid); }
  // Twins drawn anew in another order follow what they show, not their index.
  const twins = opts.refsOnly ? new Map<Element, Element>() : twinsByContent(before, after);
  const fields = DIFF_FIELDS.filter((k) =>
    !(k === "b" && opts.ignoreBounds) && !(k === "f" && opts.ignoreFocus)
  );
  const seen = new Set<string>();
  const matched = new Set<Element>();
  const out: Change[] = [];
  const added: Array<{ at: number; el: Element }> = [];
  const addedEls = new Set<Element>();
  const pairs = new Map<Element, Element>();
  const changedOf = new Map<Element, Extract<Change, { type: "changed" }>>();
  const newOrder = preorder(after, newParents);
  const quietNew = transientParts(after);
  const quietOld = transientParts(before);
  // What a read gives no line (a caption its button's label says): its owner's change says it.
  const unprintedNew = unprintedParts(after);
  const unprintedOld = unprintedParts(before);
  // A closed menu's items: a read shows them when the menu opens (added then), not before.
  const inClosedMenuNew = closedMenuParts(after);
  const inClosedMenuOld = closedMenuParts(before);
  for (const el of newOrder) {
    if (el.ref === undefined || seen.has(el.ref)) continue;
    seen.add(el.ref);
    const prev = matchOf(el);
    if (prev) {
      matched.add(prev);
      pairs.set(el, prev);
    }
    // A bubble the app shows for a moment: not news while it lasts, nor when it goes.
    if (quietNew.has(el) && (!prev || quietOld.has(prev))) continue;
    if (unprintedNew.has(el) && (!prev || unprintedOld.has(prev))) continue;
    if (inClosedMenuNew.has(el)) continue;
    if (!prev || inClosedMenuOld.has(prev)) {
      addedEls.add(el);
      added.push({ at: out.length, el });
      out.push({ type: "added", ref: el.ref, el: reportable(el) });
      continue;
    }
    let changes: Record<string, [unknown, unknown]> | null = null;
    if (prev.ref !== el.ref) (changes ??= {}).ref = [prev.ref, el.ref];
    for (const k of fields) {
      // A secure value is never compared or reported, before or after.
      if (k === "v" && (prev.sec || el.sec)) continue;
      const a = fieldValue(prev, k);
      const b = fieldValue(el, k);
      // A caret read because its field has the focus comes and goes with it: no change.
      if (!same(a, b) && !(k === "sel" && isSilentField(k, a, b))) (changes ??= {})[k] = [a, b];
    }
    if (changes) {
      const ch = { type: "changed" as const, ref: el.ref, i: el.i, changes };
      changedOf.set(el, ch);
      out.push(ch);
    }
  }
  for (const move of movesOf(after, pairs, oldParents)) {
    if (unprintedNew.has(move.el)) continue;
    const ch = changedOf.get(move.el);
    if (ch) {
      ch.changes.at = move.at;
      ch.in = move.in;
    } else {
      out.push({
        type: "changed",
        ref: move.el.ref!,
        i: move.el.i,
        changes: { at: move.at },
        in: move.in,
      });
    }
  }
  if (added.length) {
    // Landmark paths only when something was added: they need a ref trace of the new tree.
    const paths = new Map<Element, string>();
    for (const t of traceRefs(after)) if (t.anc) paths.set(t.el, t.anc.roles);
    for (const { at, el } of added) {
      const ch = out[at] as Extract<Change, { type: "added" }>;
      const p = paths.get(el);
      if (p) ch.p = p;
      const up = nearest(el, newParents, (a) => addedEls.has(a));
      if (up) ch.up = up;
    }
  }
  const echoes = titleEchoes(changedOf);
  if (echoes.size) {
    for (let k = out.length - 1; k >= 0; k--) if (echoes.has(out[k])) out.splice(k, 1);
  }
  const removedEls = new Set([...old.values()].filter((el) => !matched.has(el)));
  for (const [ref, el] of old) {
    if (matched.has(el) || quietOld.has(el) || unprintedOld.has(el)) continue;
    if (inClosedMenuOld.has(el)) continue;
    const up = nearest(el, oldParents, (a) => removedEls.has(a));
    out.push({
      type: "removed",
      ref,
      i: el.i,
      r: el.r,
      ...(el.t ? { t: el.t } : {}),
      ...(up ? { up } : {}),
    });
  }
  return out;

  /** The nearest ancestor that has a ref, if any. */
  function nearestWithRef(el: Element, parents: Map<Element, Element>): Element | undefined {
    for (let a = parents.get(el); a; a = parents.get(a)) if (a.ref !== undefined) return a;
    return undefined;
  }

  /** The ref of the nearest ancestor that passes `test`, if any. */
  function nearest(
    el: Element,
    parents: Map<Element, Element>,
    test: (a: Element) => boolean,
  ): string | undefined {
    for (let a = parents.get(el); a; a = parents.get(a)) {
      if (a.ref !== undefined && test(a)) return a.ref;
    }
    return undefined;
  }

  /**
   * The old element a new one continues: the same native object, else the
   * same ref unless that old element lives on elsewhere under its own nid.
   */
  function matchOf(el: Element): Element | undefined {
    const byNid = el.nid !== undefined ? oldByNid.get(el.nid) : undefined;
    if (byNid && !matched.has(byNid)) return byNid;
    const twin = twins.get(el);
    if (twin && !matched.has(twin)) return twin;
    const byRef = old.get(el.ref!);
    if (!byRef || matched.has(byRef)) return undefined;
    if (byRef.nid !== undefined && byRef.nid !== el.nid && newNids.has(byRef.nid)) return undefined;
    // Another node of another role under the same ref is another element: the dialog a menu
    // item "Save As…" opened, not that item turned into a dialog.
    if (byRef.r !== el.r && byRef.nid !== el.nid) return undefined;
    // Inside a container that is new (a page navigated to), a ref met before is another element.
    const up = nearestWithRef(el, newParents);
    if (up && addedEls.has(up)) return undefined;
    return byRef;
  }
}

/**
 * Twins (elements whose refs differ only by their index) that the app drew
 * anew, no node in common with the earlier tree, and in another order: each
 * new twin with the earlier one that shows exactly what it shows (its
 * subtree's roles, labels, values and states), with everything inside them
 * node by node. Paired by index, two to-dos "Pay rent" swapped would read as
 * their check boxes flipping; paired by content, they moved. Only a complete
 * pairing that differs from the index's is returned.
 */
function twinsByContent(before: Element, after: Element): Map<Element, Element> {
  const out = new Map<Element, Element>();
  const oldNids = new Set<string>();
  const groups = (root: Element, nids?: Set<string>) => {
    const by = new Map<string, Element[]>();
    for (const el of preorder(root)) {
      if (el.nid !== undefined) nids?.add(el.nid);
      if (el.ref === undefined || indexedBase(el.ref) === undefined) continue;
      const base = stripIndex(el.ref);
      const list = by.get(base);
      if (list) list.push(el);
      else by.set(base, [el]);
    }
    return by;
  };
  // One walk of the earlier tree gives its twins and its native ids.
  const olds = groups(before, oldNids);
  if (olds.size === 0) return out;
  for (const [base, news] of groups(after)) {
    const was = olds.get(base);
    if (!was || was.length !== news.length || news.some((n) => out.has(n))) continue;
    // Nodes the app kept are followed by their native ids.
    if (news.some((n) => n.nid !== undefined && oldNids.has(n.nid))) continue;
    // Each signature's earlier twins, in order: equal ones keep their order.
    const bySig = new Map<string, number[]>();
    was.forEach((w, j) => {
      const sig = signature(w);
      const list = bySig.get(sig);
      if (list) list.push(j);
      else bySig.set(sig, [j]);
    });
    const order: number[] = [];
    for (const n of news) {
      const k = bySig.get(signature(n))?.shift();
      if (k === undefined) break;
      order.push(k);
    }
    if (order.length !== news.length || order.every((k, j) => k === j)) continue;
    news.forEach((n, j) => {
      const a = preorder(n), b = preorder(was[order[j]]);
      a.forEach((x, m) => out.set(x, b[m]));
    });
  }
  return out;
}

/** What an element and everything inside it show, without refs, ids or boxes. */
function signature(root: Element): string {
  return JSON.stringify(
    preorder(root).map((e) => [e.r, e.t, shownValue(e), e.chk, e.s, e.exp, e.e, e.c?.length ?? 0]),
  );
}

/** One element that moved among its siblings. */
interface Move {
  el: Element;
  at: [number, number];
  in: string;
}

/**
 * The elements that moved among the siblings they had: for each parent
 * matched across the reads, its children matched to children of the old
 * parent, minus the longest run of them that kept its old order.
 */
function movesOf(
  after: Element,
  pairs: ReadonlyMap<Element, Element>,
  oldParents: ReadonlyMap<Element, Element>,
): Move[] {
  const out: Move[] = [];
  for (const parent of preorder(after)) {
    const kids = parent.c;
    const was = pairs.get(parent);
    if (!kids || kids.length < 2 || !was?.c || parent.ref === undefined) continue;
    const oldIndex = new Map<Element, number>();
    was.c.forEach((k, n) => oldIndex.set(k, n));
    const stayed: Array<{ el: Element; from: number; to: number }> = [];
    kids.forEach((k, n) => {
      const prev = pairs.get(k);
      if (prev && oldParents.get(prev) === was) {
        stayed.push({ el: k, from: oldIndex.get(prev)!, to: n });
      }
    });
    if (stayed.length < 2) continue;
    // Of the runs that kept their order, one holding the rows whose place did not change: a
    // row left out of it moved relative to the others even at its old index (A,B,C,D sorted to
    // D,B,A,C: D and A moved, B stayed), and is said to, so the lines give the new order.
    const kept = stayed.length <= WEIGHED_MOVES
      ? longestIncreasingKeeping(stayed.map((s) => s.from), stayed.map((s) => s.from === s.to))
      : longestIncreasing(stayed.map((s) => s.from));
    stayed.forEach((s, n) => {
      // One that kept its place while others moved around it did not move ("3 -> 3").
      if (!kept.has(n) && s.from !== s.to) {
        out.push({ el: s.el, at: [s.from, s.to], in: parent.ref! });
      }
    });
  }
  return out;
}

/** Most siblings whose moves are weighed to keep unmoved rows in place (quadratic). */
const WEIGHED_MOVES = 1500;

/**
 * The positions of a longest strictly increasing subsequence that, among the
 * longest, holds the most positions marked `stay` (quadratic).
 */
function longestIncreasingKeeping(xs: readonly number[], stay: readonly boolean[]): Set<number> {
  const len: number[] = new Array(xs.length).fill(1);
  const kept: number[] = xs.map((_, n) => (stay[n] ? 1 : 0));
  const back: number[] = new Array(xs.length).fill(-1);
  for (let n = 0; n < xs.length; n++) {
    for (let m = 0; m < n; m++) {
      if (xs[m] >= xs[n]) continue;
      const l = len[m] + 1, k = kept[m] + (stay[n] ? 1 : 0);
      if (l > len[n] || (l === len[n] && k > kept[n])) {
        len[n] = l;
        kept[n] = k;
        back[n] = m;
      }
    }
  }
  // Ties go to the run that ends last, as patience sorting's does (the row moved up is said).
  let best = -1;
  for (let n = 0; n < xs.length; n++) {
    if (best < 0 || len[n] > len[best] || (len[n] === len[best] && kept[n] >= kept[best])) best = n;
  }
  const out = new Set<number>();
  for (let n = best; n >= 0; n = back[n]) out.add(n);
  return out;
}

/** The positions of one longest strictly increasing subsequence (patience sorting, n log n). */
function longestIncreasing(xs: readonly number[]): Set<number> {
  const tails: number[] = []; // position in xs of the smallest tail of each length
  const back: number[] = new Array(xs.length).fill(-1);
  for (let n = 0; n < xs.length; n++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]] < xs[n]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) back[n] = tails[lo - 1];
    tails[lo] = n;
  }
  const out = new Set<number>();
  for (let n = tails.length ? tails[tails.length - 1] : -1; n >= 0; n = back[n]) out.add(n);
  return out;
}
