/**
 * The fast path of observe: when every notification since the last read
 * said that only its source's own state changed (a value, a text, checked,
 * focused...), read just those elements again and patch them into the last
 * view, instead of reading the whole tree. Anything else (a name, a role, a
 * child, an element the view does not know) asks for a full read.
 *
 * @module
 */

import { type Change, diffTrees } from "../diff/diff.ts";
import type { Element } from "../model/element.ts";

/** The keys a state-only notification can change; refs never depend on them. */
export const LOCAL_KEYS = ["v", "b", "f", "e", "s", "chk", "exp", "req", "inv", "ro"] as const;

/** The last view as the fast path needs it. */
export interface PatchTarget {
  /** Elements of the view by native id (the ones an observer is told about). */
  byNid: Map<string, Element>;
  /** Native ids of every element of the last full read, shown or filtered out. */
  known: Set<string>;
}

/** Options of {@link patchElements}. */
export interface PatchOptions {
  /** Do not report position and size changes. */
  ignoreBounds?: boolean;
  /** Do not report focus changes. */
  ignoreFocus?: boolean;
}

/**
 * Patches freshly read elements into the view and returns what changed, or
 * null when a full read is needed (an element is gone, unknown, or changed
 * role, label or description, which can move refs).
 *
 * @param view the last view (its elements are updated in place)
 * @param nids the elements read again
 * @param fresh what reading them gave, in the same order (null: gone)
 * @param opts what not to report
 * @returns the changes, one per element that changed, or null
 * @example
 * ```ts
 * import { patchElements } from "./patch.ts";
 * const el = { i: 3, ref: "form/name", r: "input" as const, t: "Name", v: "A", nid: "n3" };
 * const view = { byNid: new Map([["n3", el]]), known: new Set(["n3"]) };
 * const changes = patchElements(view, ["n3"], [{ ...el, v: "Ada" }], {});
 * console.log(changes?.[0].type, el.v); // changed Ada
 * ```
 */
export function patchElements(
  view: PatchTarget,
  nids: readonly string[],
  fresh: ReadonlyArray<Element | null>,
  opts: PatchOptions,
): Change[] | null {
  const pairs: Array<{ old: Element; now: Element }> = [];
  for (let k = 0; k < nids.length; k++) {
    const now = fresh[k];
    if (!now || !view.known.has(nids[k])) return null;
    const old = view.byNid.get(nids[k]);
    if (!old) continue; // filtered out of the view: nothing to report
    // Refs hang on roles and labels (a description stands in for a missing name).
    if (now.r !== old.r || (now.t ?? "") !== (old.t ?? "") || (now.d ?? "") !== (old.d ?? "")) {
      return null;
    }
    pairs.push({ old, now });
  }
  const changes: Change[] = [];
  for (const { old, now } of pairs) {
    const base = { i: old.i, ref: old.ref, r: old.r, ...(old.t !== undefined ? { t: old.t } : {}) };
    changes.push(...diffTrees({ ...base, ...local(old) }, { ...base, ...local(now) }, opts));
    const target = old as unknown as Record<string, unknown>;
    const source = now as unknown as Record<string, unknown>;
    for (const key of LOCAL_KEYS) {
      if (source[key] === undefined) delete target[key];
      else target[key] = source[key];
    }
  }
  return changes;
}

/** The state-only keys of an element. */
function local(el: Element): Partial<Element> {
  const out: Record<string, unknown> = {};
  const src = el as unknown as Record<string, unknown>;
  for (const key of LOCAL_KEYS) if (src[key] !== undefined) out[key] = src[key];
  return out as Partial<Element>;
}
