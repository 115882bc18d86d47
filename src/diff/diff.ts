/**
 * Ref-keyed tree diff: what was added, removed and changed between two reads.
 *
 * @module
 */

import type { Element, FlatElement } from "../model/element.ts";

/** One difference between two reads. */
export type Change =
  | { type: "added"; ref: string; el: FlatElement; p?: string }
  | { type: "removed"; ref: string; i: number; r: string; t?: string }
  | { type: "changed"; ref: string; i: number; changes: Record<string, [unknown, unknown]> };

/** Which fields to ignore when diffing. */
export interface DiffOptions {
  /** Ignore position and size changes. */
  ignoreBounds?: boolean;
  /** Ignore focus changes. */
  ignoreFocus?: boolean;
}

/**
 * Diffs two trees with refs assigned, matching elements by ref. Secure
 * fields' values never appear in a change.
 */
export function diffTrees(before: Element, after: Element, opts: DiffOptions = {}): Change[] {
  throw new Error(`not implemented ${before.r} ${after.r} ${opts}`);
}
