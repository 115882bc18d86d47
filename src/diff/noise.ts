/**
 * Changes that show nothing new to a reader: a label that differs only in
 * spacing, an icon-font glyph (a private-use character) or an invisible
 * format character, an empty text that became another empty text. A diff's
 * renderer prints no line for them.
 *
 * @module
 */

import { informativeActions } from "../output/agent_line.ts";
import type { Change } from "./diff.ts";

export { isSilentField, visibleText } from "./silent.ts";
import { isBareCaret, isSilentField } from "./silent.ts";

/**
 * Whether a change shows nothing new: a `changed` whose every field (its ref
 * aside) is silent (see {@link isSilentField}) and whose ref stayed.
 *
 * @param ch the change
 * @returns true for a change a reader would not see
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSilentChange } from "./noise.ts";
 * assert.equal(isSilentChange({ type: "changed", ref: "txt.1", i: 3, changes: { t: ["", ""] } }), true);
 * ```
 */
export function isSilentChange(ch: Change): boolean {
  if (ch.type !== "changed") return false;
  return Object.entries(ch.changes).every(([k, [a, b]]) => isSilentField(k, a, b));
}

/** What {@link trimChanges} keeps. */
export interface TrimOptions {
  /** Keep moves and resizes (`b`), in changes and in added elements (default: left out). */
  bounds?: boolean;
}

/** A ref without its twin index (`.N`). */
function twinBase(ref: string): string {
  return ref.replace(/\.\d+$/, "");
}

/** Whether a ref change only renumbered a twin (`remove.2` -> `remove.1`). */
function isTwinShift(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && a !== b && twinBase(a) === twinBase(b);
}

/**
 * Whether a ref change only follows the part it sits in: the element keeps
 * its own name (`table/deno/cpu.5` -> `table/sh/cpu.1`: a cell of a row that
 * a sort gave another process). The part's own change says it.
 */
function isContainerRename(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  const [ca, cb] = [a.lastIndexOf("/"), b.lastIndexOf("/")];
  if (ca < 0 || cb < 0 || a.slice(0, ca) === b.slice(0, cb)) return false;
  return twinBase(a.slice(ca + 1)) === twinBase(b.slice(cb + 1));
}

/** The actions of a list that say something (as a read prints them). */
function actionsSaid(v: unknown): string {
  return Array.isArray(v) ? informativeActions({ a: v as string[] }).join() : "";
}

/** A text named by its role (`…/txt`, `…/txt.2`): its ref says nothing of its own. */
const TEXT_SEGMENT = /\/txt(?:\.\d+)?$/;

/** Whether a change is a text repeating its parent's change (a link's caption renamed with it). */
function echoesParent(
  ch: Extract<Change, { type: "changed" }>,
  changedByRef: ReadonlyMap<string, Extract<Change, { type: "changed" }>>,
): boolean {
  if (!TEXT_SEGMENT.test(ch.ref) || Object.keys(ch.changes).join() !== "t") return false;
  const parent = changedByRef.get(ch.ref.replace(TEXT_SEGMENT, ""));
  return parent !== undefined && JSON.stringify(parent.changes.t) === JSON.stringify(ch.changes.t);
}

/**
 * An action's changes as a reader sees them, the one list its text and its
 * data both come from: no field change that shows nothing new (a silent text,
 * see {@link isSilentField}; a twin's renumbered `.N` index; a ref that only
 * follows the part the element sits in; actions that say nothing), no text that repeats its parent's change (a link's caption), no
 * box unless asked for, and no change left with no field.
 * Transient parts are already out of any diff (see ./transient.ts). A
 * trimmed list trims to itself.
 *
 * @param changes the changes of one diff
 * @param opts whether boxes stay
 * @returns the changes a reader is told of, in the same order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trimChanges } from "./noise.ts";
 * const out = trimChanges([
 *   { type: "changed", ref: "txt.1", i: 3, changes: { t: ["", ""] } },
 *   { type: "changed", ref: "list/a", i: 4, changes: { b: [[0, 0, 9, 9], [0, 9, 9, 9]] } },
 *   { type: "changed", ref: "form/email", i: 5, changes: { v: ["a", "b"] } },
 * ]);
 * assert.deepEqual(out.map((c) => c.ref), ["form/email"]);
 * ```
 */
export function trimChanges(changes: readonly Change[], opts: TrimOptions = {}): Change[] {
  const out: Change[] = [];
  const changedByRef = new Map<string, Extract<Change, { type: "changed" }>>();
  for (const ch of changes) if (ch.type === "changed") changedByRef.set(ch.ref, ch);
  const renamed = renamedPrefixes(changes);
  for (const ch of changes) {
    if (ch.type === "changed" && echoesParent(ch, changedByRef)) continue;
    if (ch.type === "added") {
      if (!opts.bounds && ch.el && "b" in ch.el) {
        const { b: _b, ...el } = ch.el;
        out.push({ ...ch, el });
      } else out.push(ch);
      continue;
    }
    if (ch.type !== "changed") {
      out.push(ch);
      continue;
    }
    const kept = Object.entries(ch.changes).filter(([k, [a, b]]) => {
      if (k === "b") return opts.bounds === true;
      if (k === "ref") {
        return !isTwinShift(a, b) && !followsRename(a, b, renamed) && !isContainerRename(a, b);
      }
      if (k === "a") return actionsSaid(a) !== actionsSaid(b);
      // A caret that moved with the text typed says nothing the new value does not.
      if (k === "sel" && "v" in ch.changes && isBareCaret(a) && isBareCaret(b)) return false;
      return !isSilentField(k, a, b);
    });
    if (kept.length === Object.keys(ch.changes).length) out.push(ch);
    else if (kept.length) out.push({ ...ch, changes: Object.fromEntries(kept) });
  }
  return out;
}

/**
 * The ref renames a change list shows for containers: a changed ref, or a
 * row removed and one added beside it (a row keyed by its text, renamed).
 * Their children's refs follow them and say nothing more.
 */
function renamedPrefixes(changes: readonly Change[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const parent = (ref: string) => ref.slice(0, Math.max(0, ref.lastIndexOf("/")));
  const removed = changes.filter((c) => c.type === "removed").map((c) => c.ref);
  const added = changes.filter((c) => c.type === "added").map((c) => c.ref);
  for (const c of changes) {
    if (c.type !== "changed" || !("ref" in c.changes)) continue;
    const [a, b] = c.changes.ref;
    if (typeof a === "string" && typeof b === "string") out.push([a, b]);
  }
  // One row out and one in under the same parent: the row was renamed.
  const byParent = new Map<string, { out: string[]; in: string[] }>();
  for (const r of removed) {
    const e = byParent.get(parent(r)) ?? { out: [], in: [] };
    e.out.push(r);
    byParent.set(parent(r), e);
  }
  for (const r of added) {
    const e = byParent.get(parent(r));
    if (e) e.in.push(r);
  }
  for (const e of byParent.values()) {
    if (e.out.length === 1 && e.in.length === 1) out.push([e.out[0], e.in[0]]);
  }
  return out;
}

/** Whether a child's ref change is its container's rename, the rest of the ref kept. */
function followsRename(a: unknown, b: unknown, renamed: ReadonlyArray<[string, string]>): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  return renamed.some(([from, to]) =>
    a !== from && a.startsWith(`${from}/`) && b === `${to}${a.slice(from.length)}`
  );
}
