/**
 * Target resolution, once for the CLI, the MCP server and the library
 * (guide: refs.md sections 2 and 3): a target (ref, id, text or point) and
 * the agent's last read, as the ref store remembers it, name one element of a
 * fresh read, or the answer is an error with a code and candidates. The rule
 * everything here follows: when the element the agent saw cannot be found
 * exactly, fail; never act on whatever sits at that id, index or suffix now.
 *
 * - `--id N` is element N of the last read, re-found by native id or ref and
 *   verified by {@link compareSeen} (role, label, row, landmark path).
 * - A ref keeps the meaning it had in the last read: when it named one
 *   element there (exactly, or as a unique suffix), that element is re-found
 *   and verified like an id, wherever a newcomer with a matching ref appeared.
 *   A ref the last read did not show resolves in the fresh tree alone.
 * - A point must fall inside a window of the scoped app.
 *
 * Pure: the caller reads the tree and loads the stored read.
 *
 * @module
 */

import type { Change } from "../diff/diff.ts";
import { type Candidate, DesktopError } from "../errors.ts";
import type { AppInfo, Element, Point, Role, Snapshot } from "../model/element.ts";
import { walk } from "../model/tree.ts";
import { nearest, resolveRef, resolveText, toCandidate } from "../refs/resolve.ts";
import { cutLongSegments, wholeSlugsOf } from "../refs/generate.ts";
import type { StoredElement, StoredRead } from "./stored.ts";
import {
  compareSeen,
  describe,
  locateAll,
  type Located,
  rowOf,
  toStored,
  twinCounts,
} from "./same.ts";
import { fold, indexedBase, lastSegment, stripIndex, suffixMatch, validateRef } from "./syntax.ts";
import { twinByCells } from "./twin_rows.ts";

/** How an action names its element. At most one of ref, id, text; or a point. */
export interface Target {
  /** Stable ref (`form/email`), exact or unique suffix. */
  ref?: string;
  /** Numeric id of the last read (checked against the ref store). */
  id?: number;
  /** Text to match (label, value, description). */
  text?: string;
  /** Roles to restrict text matching to. */
  roles?: ReadonlySet<Role>;
  /** Exact label match for text. */
  exact?: boolean;
  /** A screen point instead of an element. */
  point?: Point;
}

/** Largest screen coordinate accepted (either sign), as the CLI's `--x/--y` take it. */
export const MAX_COORDINATE = 1_000_000_000;

/**
 * Checks a screen point's numbers: whole, finite, within {@link MAX_COORDINATE}.
 *
 * @param p the point
 * @param what how the caller names it, for the message
 * @throws DesktopError INVALID_ARGS otherwise
 * @example
 * ```ts
 * import { validatePoint } from "./resolve.ts";
 * validatePoint({ x: 45, y: 367 });
 * let failed = false;
 * try { validatePoint({ x: 1e308, y: 0 }); } catch { failed = true; }
 * if (!failed) throw new Error();
 * ```
 */
export function validatePoint(p: Point, what = "x/y"): void {
  for (const v of [p.x, p.y]) {
    if (!Number.isSafeInteger(v) || Math.abs(v) > MAX_COORDINATE) {
      throw new DesktopError(
        "INVALID_ARGS",
        `${what} must be whole numbers between -${MAX_COORDINATE} and ${MAX_COORDINATE}, got ${v}`,
        { suggestion: "Pass screen coordinates in pixels, e.g. from an element's bounds in read" },
      );
    }
  }
}

/**
 * How many ways a target names its element (ref, id, text, point): exactly
 * one is a target, none is "the focused element" where a verb allows it,
 * more is refused. The one count every face and run file checks.
 *
 * @param t the target
 * @returns 0 to 4
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetsNamed } from "./resolve.ts";
 * assert.equal(targetsNamed({ ref: "form/ok" }), 1);
 * assert.equal(targetsNamed({ ref: "form/ok", id: 3 }), 2);
 * assert.equal(targetsNamed({}), 0);
 * ```
 */
export function targetsNamed(t: Pick<Target, "ref" | "id" | "text" | "point">): number {
  return [t.ref, t.id, t.text, t.point].filter((x) => x !== undefined).length;
}

/**
 * Checks that a target names exactly one of ref, id, text, point, and that
 * the ref and point are well formed.
 *
 * @param t the target
 * @throws DesktopError INVALID_ARGS otherwise
 */
export function checkTarget(t: Target): void {
  const given = targetsNamed(t);
  if (given !== 1) {
    throw new DesktopError(
      "INVALID_ARGS",
      given === 0 ? "no target given" : "give only one of --ref, --id, --text, --x/--y",
      { suggestion: "Target an element with exactly one of --ref, --id, --text or --x/--y" },
    );
  }
  if (t.ref !== undefined) validateRef(t.ref);
  if (t.point !== undefined) validatePoint(t.point);
}

/**
 * Whether the stored read belongs to the same run of the same app.
 *
 * @param stored the stored read
 * @param app the app of the fresh read
 * @returns true when pid, name and (when both known) start time agree
 */
export function sameAppRun(stored: StoredRead, app: AppInfo): boolean {
  if (stored.app.pid !== app.pid || stored.app.name !== app.name) return false;
  if (stored.app.started !== undefined && app.started !== undefined) {
    return stored.app.started === app.started;
  }
  return true;
}

/**
 * Resolves a target to one element of a fresh read.
 *
 * @param snapshot the fresh read (ids and refs assigned)
 * @param target what the agent named
 * @param stored the last read of this app as the store keeps it (this pid,
 *   else the latest of the same app name: an earlier run), or null
 * @returns the element, numbered with the id the last read gave it (0: none)
 * @throws DesktopError INVALID_ARGS, ELEMENT_NOT_FOUND, AMBIGUOUS_TARGET,
 *   STALE_REF, WINDOW_NOT_FOUND; candidates carry the last read's ids
 * @example
 * ```ts
 * import { resolveTarget } from "./resolve.ts";
 * import { assignRefs } from "../refs/generate.ts";
 * const root = { i: 1, r: "form" as const, c: [{ i: 2, r: "btn" as const, t: "Submit" }] };
 * assignRefs(root);
 * const snap = { app: { name: "A", pid: 1 }, readAt: "", root };
 * if (resolveTarget(snap, { ref: "submit" }, null).t !== "Submit") throw new Error();
 * ```
 */
export function resolveTarget(
  snapshot: Snapshot,
  target: Target,
  stored: StoredRead | null,
): Element {
  checkTarget(target);
  const run = stored && sameAppRun(stored, snapshot.app) ? stored : null;
  try {
    return resolveIn(snapshot, target, stored, run);
  } catch (e) {
    if (!(e instanceof DesktopError) || !e.candidates?.length) throw e;
    throw withLastReadIds(onlyWorkingCandidates(e, snapshot, stored, run), run);
  }
}

/**
 * The error without the candidates that would fail when used: a candidate
 * whose ref means, in the last read, an element that cannot be re-found
 * either (a list re-rendered in place reuses every row's nodes) would send
 * the agent round in a circle. When none is left, the suggestion says to
 * read again.
 */
function onlyWorkingCandidates(
  e: DesktopError,
  snapshot: Snapshot,
  stored: StoredRead | null,
  run: StoredRead | null,
): DesktopError {
  const all = e.candidates as Candidate[];
  if (!all.every((c) => "r" in c)) return e; // apps, not elements
  const works = (c: Candidate) => {
    if (c.ref === undefined) return true;
    try {
      resolveIn(snapshot, { ref: c.ref }, stored, run);
      return true;
    } catch {
      return false;
    }
  };
  const candidates = all.filter(works);
  if (candidates.length === all.length) return e;
  return new DesktopError(e.code, e.message, {
    suggestion: candidates.length
      ? e.suggestion
      : "Run read again: the elements around it changed too, and a new read gives refs that resolve",
    candidates,
    details: e.details,
    cause: e,
  });
}

function resolveIn(
  snapshot: Snapshot,
  target: Target,
  stored: StoredRead | null,
  run: StoredRead | null,
): Element {
  const root = snapshot.root;
  if (target.id !== undefined) {
    const app = snapshot.app;
    if (!stored) {
      throw new DesktopError("STALE_REF", `no read of ${app.name} (pid ${app.pid}) is recorded`, {
        suggestion: `Run \`desktop read --app "${app.name}"\` first, then use an id it printed`,
      });
    }
    if (!run) throw restarted(stored, app);
    const was = run.elements.find((e) => e.i === target.id);
    if (!was) {
      const why = run.truncated ? " (the stored read was cut to fit the store's size cap)" : "";
      throw new DesktopError(
        "STALE_REF",
        `id ${target.id} was not printed by the last read of ${app.name}${why}`,
        { suggestion: "Use an id the last read printed, or run read again" },
      );
    }
    return refound(refind(locateAll(root), was, `id ${target.id}`, run), was.i);
  }
  if (target.ref !== undefined) {
    // A segment written as a long label's whole slug: the ref printed for it is cut.
    const written = cutLongSegments(target.ref);
    if (written.whole.length === 0) return resolveRefIn(root, target.ref, stored, run);
    let el: Element;
    try {
      el = resolveRefIn(root, written.ref, stored, run);
    } catch (e) {
      if (!(e instanceof DesktopError)) throw e;
      // Twins by their cut slug (`report-for-the-board.1`, `.2`): the whole one tells them apart.
      const one = e.code === "AMBIGUOUS_TARGET" ? onlyOneNamed(root, written) : undefined;
      if (one) return resolveRefIn(root, one, stored, run);
      // Named as written, with the form it was looked for as.
      throw new DesktopError(e.code, `${e.message} (written as "${target.ref}"; ${CUT_NOTE})`, {
        ...(e.suggestion ? { suggestion: e.suggestion } : {}),
        ...(e.candidates ? { candidates: e.candidates } : {}),
        ...(e.details ? { details: e.details } : {}),
        cause: e,
      });
    }
    checkWholeSegments(root, el, written.whole, target.ref, written.ref);
    return el;
  }
  if (target.text !== undefined) {
    const found = resolveText(root, {
      text: target.text,
      exact: target.exact,
      roles: target.roles,
    });
    return numberedAsLastRead(found, run);
  }
  checkPointInScope(snapshot, target.point!);
  return numberedAsLastRead(elementAtPoint(locateAll(root), target.point!), run);
}

/** Why a written ref is looked for in another form. */
const CUT_NOTE = "a ref keeps the first 40 characters of a long label's slug, cut at a word's end";

/** A ref's element: as the last read meant it, else as the ref reads now. */
function resolveRefIn(
  root: Element,
  ref: string,
  stored: StoredRead | null,
  run: StoredRead | null,
): Element {
  // What an action printed since the read is the latest the agent saw under that ref; when the
  // read showed another element under it, which one is meant is not known.
  const printed = run ? meaningInPrinted(run, ref) : undefined;
  const read = run ? meaningInLastRead(run, ref) : undefined;
  if (printed && read && !sameStored(printed, read)) {
    throw twoMeanings(root, ref, read, printed, run!);
  }
  const meant = printed ?? read;
  if (meant) {
    return refound(refind(locateAll(root), meant, `ref ${ref}`, run ?? undefined), meant.i);
  }
  // The app restarted since the last read: what the ref meant there is re-found by what it
  // is (ref, role, label, row, place); its native node and its id belonged to the old run.
  const before = !run && stored ? meaningInLastRead(stored, ref) : undefined;
  if (before) {
    const { nid: _old, ...was } = before;
    return refound(refind(locateAll(root), was, `ref ${ref}`, stored ?? undefined), 0);
  }
  return numberedAsLastRead(resolveRef(root, ref), run);
}

/** Whether two stored elements are one: the same native node, else the same ref. */
function sameStored(a: StoredElement, b: StoredElement): boolean {
  return a.nid !== undefined && b.nid !== undefined ? a.nid === b.nid : a.ref === b.ref;
}

/**
 * The AMBIGUOUS_TARGET of a ref that named one element in the last read and
 * another in what an action printed since (a tab `permissions`, then a panel
 * whose whole ref is `permissions`): both are candidates, those still there.
 */
function twoMeanings(
  root: Element,
  ref: string,
  read: StoredElement,
  printed: StoredElement,
  run: StoredRead,
): DesktopError {
  const fresh = locateAll(root);
  const live: Element[] = [];
  for (const [was, i] of [[read, read.i], [printed, 0]] as const) {
    try {
      live.push(refound(refind(fresh, was, `ref ${ref}`, run), i));
    } catch { /* gone since: not a candidate */ }
  }
  const idHint = read.i ? ` (--id ${read.i} is the ${read.r} of the last read)` : "";
  return new DesktopError(
    "AMBIGUOUS_TARGET",
    `ref ${ref} named ${describe(read)} in the last read and ${describe(printed)} in what an ` +
      `action printed since`,
    {
      suggestion: `Use the full ref of the one you mean${idHint}; a new read gives each a ref ` +
        `of its own`,
      candidates: live.map(toCandidate),
    },
  );
}

/**
 * A ref whose long segments were cut found `el`: each whole segment as
 * written must be the whole slug of its label, or of its row's key, or of an
 * ancestor's, else the cut only shares its first 40 characters with another
 * label and the element is not the one meant (ELEMENT_NOT_FOUND).
 */
function checkWholeSegments(
  root: Element,
  el: Element,
  whole: readonly string[],
  written: string,
  cut: string,
): void {
  const names = wholeSlugsOf(chainOf(root, el));
  const missing = whole.find((w) => !names.has(w));
  if (missing === undefined) return;
  throw new DesktopError(
    "ELEMENT_NOT_FOUND",
    `no element matches ref "${written}": its cut form ${cut} names ${el.r}` +
      `${el.t ? ` ${JSON.stringify(el.t)}` : ""}, whose label does not make "${missing}"`,
    {
      suggestion: "Use the id or the ref a read prints for the element you mean",
      candidates: [toCandidate(el)],
    },
  );
}

/**
 * The ref of the one element that a cut ref matches (twins included) and
 * whose label, row key or ancestors make every whole segment written, or
 * undefined when none or several do.
 */
function onlyOneNamed(root: Element, written: { ref: string; whole: string[] }) {
  const query = fold(stripIndex(written.ref));
  const named: string[] = [];
  walk(root, (el, ancestors) => {
    if (el.ref === undefined || !suffixMatch(stripIndex(el.ref), query)) return;
    const names = wholeSlugsOf([el, ...ancestors.toReversed()]);
    if (written.whole.every((w) => names.has(w))) named.push(el.ref);
  });
  return named.length === 1 ? named[0] : undefined;
}

/** An element (found by its ref: resolving may number a copy) and its ancestors, its own first. */
function chainOf(root: Element, el: Element): Element[] {
  let chain: Element[] | undefined;
  walk(root, (at, ancestors) => {
    if (chain) return false;
    if (at !== el && (at.ref === undefined || at.ref !== el.ref)) return;
    chain = [at, ...ancestors.toReversed()];
    return false;
  });
  return chain ?? [el];
}

/** Elements resolved under a label the last read did not show: the label it showed. */
const renamedFrom = new WeakMap<Element, string>();

function markRenamed(el: Element, was: string): Element {
  renamedFrom.set(el, was);
  return el;
}

/** A re-found element under the last read's id, keeping its rename mark. */
function refound(el: Element, i: number): Element {
  const out = { ...el, i };
  const was = renamedFrom.get(el);
  return was === undefined ? out : markRenamed(out, was);
}

/**
 * The label the last read showed for an element that {@link resolveTarget}
 * found under another one: a toggle whose label flipped since (`Pause
 * updates`, now `Start updates`), found by its native node. Undefined when
 * the element kept its label.
 *
 * @param el an element {@link resolveTarget} returned
 * @returns the label of the last read, or undefined
 * @example
 * ```ts
 * import { renamedSince } from "./resolve.ts";
 * import assert from "node:assert/strict";
 * assert.equal(renamedSince({ i: 1, r: "btn", t: "OK" }), undefined);
 * ```
 */
export function renamedSince(el: Element): string | undefined {
  return renamedFrom.get(el);
}

/**
 * The element a ref named in what actions printed since the last read
 * ({@link StoredRead.printed}), found as {@link meaningInLastRead} finds it.
 *
 * @param run the last read of this app run
 * @param query the ref the agent gave
 * @returns the stored element meant, or undefined
 */
export function meaningInPrinted(run: StoredRead, query: string): StoredElement | undefined {
  return run.printed?.length
    ? meaningInLastRead({ ...run, elements: run.printed }, query)
    : undefined;
}

/**
 * What actions printed since the last read, with the elements `changes`
 * printed added (newest last, replacing older ones under the same refs):
 * those their lines name, and the insides of added ones. At most
 * {@link MAX_PRINTED} are kept. Changes not shown to the agent keep only
 * the elements their `~` lines name (what the read showed, on its new node or
 * under its new label).
 *
 * @param run the last read of this app run
 * @param changes an action's changes
 * @param after the tree the changes were read from
 * @param shown whether whoever acts next sees the changes
 * @returns the elements to keep as printed
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { printedSince } from "./resolve.ts";
 * const input = { i: 0, ref: "find/input", r: "input" as const, nid: "n2" };
 * const after = { i: 1, r: "window" as const, c: [{ i: 2, ref: "find", r: "combo" as const, t: "Find:", nid: "n1", c: [input] }] };
 * const run = { app: { name: "kwrite", pid: 7 }, readAt: "", elements: [] };
 * const kept = printedSince(run, [{ type: "added", ref: "find", el: after.c[0] }], after);
 * assert.deepEqual(kept.map((e) => [e.ref, e.nid, e.i]), [["find", "n1", 0], ["find/input", "n2", 0]]);
 * ```
 */
export function printedSince(
  run: StoredRead,
  changes: Change[],
  after: Element,
  shown = true,
): StoredElement[] {
  const refs = new Set<string>();
  // A removal shown says its ref names nothing now: it means again what the last read showed.
  const gone = new Set<string>();
  for (const ch of changes) {
    if (ch.type === "removed") {
      if (shown) gone.add(ch.ref);
      continue;
    }
    // Unshown, only an element the read showed is followed (to its new node or label):
    // a newcomer never takes a ref the agent knows for another element.
    if (ch.type === "added" && !shown) continue;
    refs.add(ch.ref);
    if (ch.type === "added") walk(ch.el, (el) => void (el.ref !== undefined && refs.add(el.ref)));
  }
  if (!refs.size && !gone.size) return run.printed ?? [];
  const all = locateAll(after);
  const twins = twinCounts(all);
  const now = all.filter((x) => x.el.ref !== undefined && refs.has(x.el.ref)).map((x) => {
    const base = indexedBase(x.el.ref);
    return { ...toStored(x, base ? twins.get(base) : undefined), i: 0 };
  });
  const kept = (run.printed ?? []).filter((e) =>
    e.ref === undefined || (!refs.has(e.ref) && !gone.has(e.ref))
  );
  return [...kept, ...now].slice(-MAX_PRINTED);
}

/** The most elements {@link printedSince} keeps (the store's file stays bounded). */
export const MAX_PRINTED = 2000;

/**
 * The element a ref named in the last read: the one whose ref it is, else
 * the one it was a unique suffix of (no twin competing). Undefined when it
 * named none or several (then it is resolved in the fresh tree alone).
 *
 * @param run the last read of this app run
 * @param query the ref the agent gave
 * @returns the stored element meant, or undefined
 */
export function meaningInLastRead(run: StoredRead, query: string): StoredElement | undefined {
  const q = fold(query);
  const withRef = run.elements.filter((e) => e.ref !== undefined);
  const exact = withRef.filter((e) => fold(e.ref!) === q);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) return undefined;
  const suffix = withRef.filter((e) => suffixMatch(fold(e.ref!), q));
  const twins = withRef.filter((e) =>
    indexedBase(e.ref) !== undefined && !suffixMatch(fold(e.ref!), q) &&
    suffixMatch(fold(stripIndex(e.ref!)), q)
  );
  return suffix.length === 1 && twins.length === 0 ? suffix[0] : undefined;
}

/**
 * Re-finds an element the last read printed in a fresh read, or throws.
 *
 * Native identity first; the node found must still be the one the agent saw
 * ({@link compareSeen}): a reused node in another row is STALE_REF. Without
 * the node (or a native id), the element with the same ref and the same
 * role, label, row and landmark path is it; for an indexed twin ref it must
 * also keep its place (same bounds, or same tree position with as many twins
 * as before), because the index shifts when a twin comes or goes.
 *
 * @param fresh every element of the fresh read ({@link locateAll})
 * @param was the stored element
 * @param what how the agent named it, for messages (`id 35`, `ref submit`)
 * @param read the stored read `was` belongs to: its other rows tell which cells of twin rows
 *   keep their text ({@link twinByCells})
 * @returns the element
 * @throws DesktopError STALE_REF saying what changed, or AMBIGUOUS_TARGET when
 *   twins appeared and nothing tells which one it was
 */
export function refind(
  fresh: Located[],
  was: StoredElement,
  what: string,
  read?: StoredRead,
): Element {
  if (was.nid !== undefined) {
    const byNid = fresh.find((x) => x.el.nid === was.nid);
    if (byNid) {
      // The node the agent saw: it is the element, or (reused elsewhere) no element at all.
      const change = compareSeen(was, byNid, { sameNode: true });
      if (!change) return byNid.el;
      // A toggle that flipped its label (Pause -> Start) on the very node the agent saw.
      if (change.stateFlip) return markRenamed({ ...byNid.el }, was.t ?? "");
      throw changed(what, was, byNid, change.change, change.says, fresh);
    }
  }
  // The node is gone (or the platform has no native id): the element with the same
  // ref (any twin index), role, label, row and landmark path is it, if only one is.
  const base = was.ref === undefined ? undefined : stripIndex(was.ref);
  const same = base === undefined
    ? []
    : fresh.filter((x) =>
      x.el.ref !== undefined && stripIndex(x.el.ref) === base && !compareSeen(was, x)
    );
  const byRef = was.ref === undefined ? undefined : fresh.find((x) => x.el.ref === was.ref);
  if (was.row === undefined && byRef && !compareSeen(was, byRef)) {
    // Nothing but the index tells twins apart: it must also keep its place.
    if (indexedBase(was.ref) === undefined || samePlace(byRef, was, fresh)) return byRef.el;
    throw moved(what, was, fresh);
  }
  // A row tells twins apart, whatever index they have now: unless its twins sat in rows of the
  // same key (two to-dos "Pay rent"), when the one left may be either.
  if (was.row !== undefined && same.length === 1 && rowTellsApart(was, read)) return same[0].el;
  // Twin rows: the one whose cells that keep their text (a process id) still read as before.
  const byCells = read && same.length > 1 ? twinByCells(fresh, was, read, same) : undefined;
  if (byCells) return byCells.el;
  if (same.length > 1) {
    throw new DesktopError(
      "AMBIGUOUS_TARGET",
      `${what} (${describe(was)}) now has ${same.length} twins: ${
        same.map((x) => x.el.ref).join(", ")
      }`,
      {
        suggestion: "Retry with the indexed ref of the one you mean (one of the candidates)",
        candidates: same.slice(0, 10).map((x) => toCandidate(x.el)),
      },
    );
  }
  const change = byRef && compareSeen(was, byRef);
  if (byRef && change) throw changed(what, was, byRef, change.change, change.says, fresh);
  throw new DesktopError(
    "STALE_REF",
    `${what} (${describe(was)}) is gone since the last read`,
    {
      suggestion: same.length
        ? `Its twin left; one element is now ${same[0].el.ref}: check it is the one you meant`
        : "Run read again, or use one of the candidates' refs",
      candidates: goneCandidates(fresh, was),
      details: { change: "removed", was: describe(was) },
    },
  );
}

/**
 * Whether its row (with its role and label) told an element from its twins
 * in the last read: no other element of its base ref had the same role and
 * label in a row of the same key (two to-dos "Pay rent" did). Without the
 * read, only an element that had no twin.
 */
function rowTellsApart(was: StoredElement, read: StoredRead | undefined): boolean {
  if (was.ref === undefined || indexedBase(was.ref) === undefined) return true;
  if (!read) return (was.n ?? 1) <= 1;
  const base = stripIndex(was.ref);
  return !read.elements.some((e) =>
    e.i !== was.i && e.ref !== undefined && e.row === was.row && e.r === was.r &&
    e.t === was.t && stripIndex(e.ref) === base
  );
}

/** Candidates for an element that is gone: the closest ones, else the nearest refs. */
function goneCandidates(fresh: Located[], was: StoredElement): Candidate[] {
  const close = closestCandidates(fresh, was);
  if (close.length || was.ref === undefined) return close;
  return nearest(fold(was.ref), fresh.map((x) => x.el)).map(toCandidate);
}

/**
 * Whether an indexed twin is still the one the agent saw (without a native
 * id to tell). Same bounds: yes. Else the same tree position with as many
 * twins as before: yes (the UI scrolled or moved, no twin came or went).
 * Otherwise a twin may have taken its index: no.
 */
function samePlace(now: Located, was: StoredElement, fresh: Located[]): boolean {
  const a = now.el.b, b = was.b;
  if (a !== undefined && b !== undefined && a.every((v, k) => v === b[k])) return true;
  if (now.path !== was.path || was.n === undefined) return false;
  const base = indexedBase(was.ref);
  return base !== undefined && twinCounts(fresh).get(base) === was.n;
}

function restarted(stored: StoredRead, app: AppInfo): DesktopError {
  return new DesktopError(
    "STALE_REF",
    `${app.name} restarted or changed since the last read (was ${stored.app.name} pid ${stored.app.pid}, now pid ${app.pid})`,
    {
      suggestion: "Run read again: ids of the last read no longer apply",
      details: { change: "app restarted", was: stored.app, now: { name: app.name, pid: app.pid } },
    },
  );
}

function changed(
  what: string,
  was: StoredElement,
  now: Located,
  change: string,
  says: string,
  fresh: Located[],
): DesktopError {
  return new DesktopError(
    "STALE_REF",
    `${what} changed since the last read (${change}): ${says}; was ${describe(was)}, now ${
      describe(now.el)
    }`,
    {
      suggestion: "Run read again, or use one of the candidates' refs",
      candidates: closestCandidates(fresh, was),
      details: {
        change,
        was: describe(was),
        now: describe(now.el),
        ...(rowOf(now) !== undefined ? { row: rowOf(now) } : {}),
      },
    },
  );
}

function moved(what: string, was: StoredElement, fresh: Located[]): DesktopError {
  return new DesktopError(
    "STALE_REF",
    `${what}: ${was.ref} now names a different ${was.r} "${was.t ?? ""}" than the last read showed`,
    {
      suggestion: "Duplicates changed: run read again and use the new indexed ref",
      candidates: closestCandidates(fresh, was),
      details: { change: "index shifted", was: describe(was) },
    },
  );
}

/**
 * The current elements most like a stored one, nearest first (at most 5):
 * first those that still match it in every respect (the same content in
 * another node), then by role, label, last segment and position.
 *
 * @param fresh every element of the fresh read
 * @param was the stored element
 * @returns candidates for an error
 */
export function closestCandidates(fresh: Located[], was: StoredElement): Candidate[] {
  const label = (was.t ?? "").toLowerCase();
  const scored = fresh.map((x) => {
    const el = x.el;
    let score = 0;
    const t = (el.t ?? "").toLowerCase();
    if (el.r === was.r) score += 2;
    if (label && t === label) score += 3;
    else if (label && t && (t.includes(label) || label.includes(t))) score += 1;
    if (was.ref && el.ref && lastSegment(el.ref) === lastSegment(was.ref)) score += 2;
    if (el.b && was.b && Math.abs(el.b[0] - was.b[0]) + Math.abs(el.b[1] - was.b[1]) < 50) {
      score += 1;
    }
    if (!compareSeen(was, x)) score += 10;
    return { el, score };
  }).filter((x) => x.score >= 3);
  scored.sort((a, b) => b.score - a.score || a.el.i - b.el.i);
  return scored.slice(0, 5).map(({ el }) => ({
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    i: el.i,
    r: el.r,
    ...(el.t !== undefined ? { t: el.t } : {}),
    ...(el.b !== undefined ? { b: el.b } : {}),
  }));
}

/**
 * The element under the id the last read gave it, so that an id printed by
 * find, an action or wait means what `--id` means. The fresh read's own
 * numbering must not leak out: after the UI shifted, its N can be another
 * element than the last read's N. An element that read did not show gets 0
 * (no id yet; printers omit it).
 *
 * @param el an element of a fresh read
 * @param run the last read of the same app run, or null
 * @returns the element, renumbered
 */
export function numberedAsLastRead(el: Element, run: StoredRead | null): Element {
  const i = lastReadId(el, run) ?? 0;
  return i === el.i ? el : { ...el, i };
}

/**
 * An action's changes with the ids the last read gave their elements (0, printed
 * `-`, for an element that read did not show), so that an id in a change means
 * what `--id` means. The reads an action makes number their elements afresh:
 * their N can be another element of the last read.
 *
 * @param changes the changes, with the fresh reads' ids
 * @param before the fresh read before the action (its elements' labels and native ids)
 * @param run the last read of the same app run, or null
 * @returns the changes, renumbered
 */
export function changesAsLastRead(
  changes: Change[],
  before: Element,
  run: StoredRead | null,
): Change[] {
  let byRef: Map<string, Element> | null = null;
  const beforeEl = (ref: string) => {
    if (!byRef) {
      const index = new Map<string, Element>();
      walk(before, (el) => void (el.ref !== undefined && index.set(el.ref, el)));
      byRef = index;
    }
    return byRef.get(ref);
  };
  // Each id of the last read names one element: elements the differ followed (changed,
  // removed) claim theirs first, so a newcomer that took an old twin ref (group.6 after the
  // old group.6 became group.11) never shows the old element's id.
  const taken = new Set<number>();
  const claim = (i: number | undefined) => {
    if (i === undefined || taken.has(i)) return 0;
    taken.add(i);
    return i;
  };
  // A twin's `.N` names the element the last read gave it only while as many twins are there:
  // one that came or went before it shifted the index (a process monitor's rows of one name).
  let counts: Map<string, number> | null = null;
  const twinsHeld = (ref: string, nid?: string) => {
    const base = indexedBase(ref);
    if (base === undefined || !run) return true;
    // The very object the last read gave this ref is that element, however many twins came.
    if (nid !== undefined && storedByRef(run).get(ref)?.some((s) => s.nid === nid)) return true;
    counts ??= twinCounts(locateAll(before));
    const stored = storedByRef(run).get(ref)?.[0]?.n;
    return stored === undefined || stored === counts.get(base);
  };
  const ids = new Map<Change, number>();
  for (const ch of changes) {
    if (ch.type === "removed") {
      const was = { ...beforeEl(ch.ref), ...ch };
      ids.set(ch, twinsHeld(ch.ref, was.nid) ? claim(lastReadId(was, run)) : 0);
    } else if (ch.type === "changed") {
      // A renamed element had its old ref before the action.
      const ref = ch.changes.ref?.[0];
      const old = typeof ref === "string" ? ref : ch.ref;
      const was = beforeEl(old);
      ids.set(ch, claim(was && twinsHeld(old, was.nid) ? lastReadId(was, run) : undefined));
    }
  }
  return changes.map((ch): Change =>
    ch.type === "added"
      ? {
        ...ch,
        el: { ...ch.el, i: indexedBase(ch.ref) === undefined ? claim(lastReadId(ch.el, run)) : 0 },
      }
      : { ...ch, i: ids.get(ch) ?? 0 }
  );
}

/**
 * The id the last read gave an element with this ref and role, and with its label (and native
 * id, when both know it), or with the very same native object under a label that changed since
 * (a cell an earlier action edited, with no read in between).
 */
function lastReadId(
  el: { ref?: string; r: string; t?: string; nid?: string },
  run: StoredRead | null,
): number | undefined {
  if (!run) return undefined;
  return storedByRef(run).get(el.ref)?.find((s) =>
    s.r === el.r &&
    (s.t === el.t
      ? s.nid === undefined || el.nid === undefined || s.nid === el.nid
      : s.nid !== undefined && s.nid === el.nid)
  )?.i;
}

/** Each stored read's elements by ref, in their order: an action's many changes look up each. */
const runIndexes = new WeakMap<StoredRead, Map<string | undefined, StoredRead["elements"]>>();

/** A stored read's elements by ref (made once per read). */
function storedByRef(run: StoredRead): Map<string | undefined, StoredRead["elements"]> {
  let index = runIndexes.get(run);
  if (!index) {
    index = new Map();
    for (const s of run.elements) {
      const same = index.get(s.ref);
      if (same) same.push(s);
      else index.set(s.ref, [s]);
    }
    runIndexes.set(run, index);
  }
  return index;
}

/** The same error with its candidates' ids taken from the last read (none when it lacked them). */
function withLastReadIds(e: DesktopError, run: StoredRead | null): DesktopError {
  const candidates = (e.candidates ?? []).map((c) => {
    if (!("r" in c)) return c; // an app, not an element
    const { i: _fresh, r, ref, ...rest } = c;
    const i = lastReadId(c, run);
    return { r, ...(ref !== undefined ? { ref } : {}), ...(i !== undefined ? { i } : {}), ...rest };
  });
  return new DesktopError(e.code, e.message, {
    suggestion: e.suggestion,
    candidates: candidates as Candidate[],
    details: e.details,
    cause: e,
  });
}

/**
 * The top-level windows of a read: the root when it is one, else the root's
 * children that have bounds.
 *
 * @param root a read's root
 * @returns the windows with bounds
 */
function windowsOf(root: Element): Element[] {
  if (root.r !== "app") return root.b ? [root] : [];
  return (root.c ?? []).filter((w) => w.b !== undefined);
}

/**
 * Checks that a point falls inside a window of the read's app: a point
 * target acts on whatever is on screen there, so outside the scoped app's
 * windows it would act on another app.
 *
 * @param snapshot a read of the scoped app (or window), with bounds
 * @param p the point
 * @throws DesktopError WINDOW_NOT_FOUND when it falls outside every window
 */
export function checkPointInScope(snapshot: Snapshot, p: Point): void {
  const windows = windowsOf(snapshot.root);
  const inside = windows.some(({ b }) =>
    p.x >= b![0] && p.y >= b![1] && p.x < b![0] + b![2] && p.y < b![1] + b![3]
  );
  if (inside) return;
  const where = snapshot.window ? `window "${snapshot.window.title}"` : `${snapshot.app.name}`;
  throw new DesktopError(
    "WINDOW_NOT_FOUND",
    `(${p.x},${p.y}) is outside every window of ${where}`,
    {
      suggestion: windows.length
        ? "Use a point inside the app's window (bounds in read), or target the element by --ref"
        : "The app shows no window on screen; target an element by --ref instead",
      details: {
        windows: windows.map((w) => ({ ...(w.t !== undefined ? { t: w.t } : {}), b: w.b })),
      },
    },
  );
}

/** The deepest element whose bounds contain the point. */
function elementAtPoint(all: Located[], p: Point): Element {
  let best: Located | undefined;
  for (const x of all) {
    const b = x.el.b;
    if (!b || p.x < b[0] || p.y < b[1] || p.x >= b[0] + b[2] || p.y >= b[1] + b[3]) continue;
    if (!best || x.path.split(".").length >= best.path.split(".").length) best = x;
  }
  if (!best) {
    throw new DesktopError("ELEMENT_NOT_FOUND", `no element at (${p.x},${p.y})`, {
      suggestion: "Check the coordinates against bounds from read",
    });
  }
  return best.el;
}
