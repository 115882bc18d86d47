/**
 * Identity checks between the last read (as the ref store remembers it) and
 * a fresh read: what `--id N` and `.N` refs mean across processes (guide:
 * refs.md section 3). The rule everything here follows: when the element the
 * agent saw cannot be found exactly, fail with STALE_REF; never act on
 * whatever sits at that id or index now.
 *
 * @module
 */

import { type Candidate, DesktopError } from "../errors.ts";
import type { AppInfo, Element } from "../model/element.ts";
import { fold, toCandidate } from "../refs/resolve.ts";
import type { StoredElement, StoredRead } from "../state/ref_store.ts";

/** An element of a fresh read with its child-index path from the root. */
export interface Located {
  /** The element. */
  el: Element;
  /** Child-index path from the root (`0.2.5`; the root is `0`). */
  path: string;
}

/**
 * Lists every element of a tree depth-first with its child-index path.
 *
 * @param root the tree
 * @returns elements in document order
 */
export function locateAll(root: Element): Located[] {
  const out: Located[] = [];
  const visit = (el: Element, path: string) => {
    out.push({ el, path });
    el.c?.forEach((child, k) => visit(child, `${path}.${k}`));
  };
  visit(root, "0");
  return out;
}

/**
 * What the store keeps of an element.
 *
 * @param el a printed element
 * @param path its child-index path in the full read
 * @param twins for an indexed ref (`ok.2`), how many elements share its base ref
 * @returns the stored form
 */
export function toStored(el: Element, path: string, twins?: number): StoredElement {
  return {
    i: el.i,
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    r: el.r,
    ...(el.t !== undefined ? { t: el.t } : {}),
    ...(el.nid !== undefined ? { nid: el.nid } : {}),
    ...(el.b !== undefined ? { b: el.b } : {}),
    path,
    ...(twins !== undefined ? { n: twins } : {}),
  };
}

/**
 * Counts the elements sharing each indexed ref's base (`dialog/ok.1` and
 * `dialog/ok.2` both count for `dialog/ok`).
 *
 * @param all every element of a read
 * @returns base ref → number of twins
 */
export function twinCounts(all: Located[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { el } of all) {
    const base = el.ref?.match(/^(.*)\.\d+$/)?.[1];
    if (base !== undefined) counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  return counts;
}

/** The base of an indexed ref, or undefined. */
export function indexedBase(ref: string | undefined): string | undefined {
  return ref?.match(/^(.*)\.\d+$/)?.[1];
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
 * Re-finds element `id` of the last read in a fresh tree.
 *
 * Order: native identity (`nid`) fast path, then the stored ref; either way
 * role and label must still match, and an indexed ref (`ok.2`) must also keep
 * its place (path or bounds) because its index shifts when a twin appears.
 *
 * @param fresh every element of the fresh read (see {@link locateAll})
 * @param stored the stored read of this app, or null when there is none
 * @param app the app of the fresh read
 * @param id the id the agent passed
 * @returns the element
 * @throws DesktopError STALE_REF saying what changed, with the closest candidates
 */
export function resolveStoredId(
  fresh: Located[],
  stored: StoredRead | null,
  app: AppInfo,
  id: number,
): Element {
  if (!stored) {
    throw new DesktopError("STALE_REF", `no read of ${app.name} (pid ${app.pid}) is recorded`, {
      suggestion: `Run \`desktop read --app "${app.name}"\` first, then use an id it printed`,
    });
  }
  if (!sameAppRun(stored, app)) throw restarted(stored, app);
  const was = stored.elements.find((e) => e.i === id);
  if (!was) {
    const why = stored.truncated ? " (the stored read was cut to fit the store's size cap)" : "";
    throw new DesktopError(
      "STALE_REF",
      `id ${id} was not printed by the last read of ${app.name}${why}`,
      { suggestion: "Use an id the last read printed, or run read again" },
    );
  }
  return refind(fresh, was, `id ${id}`);
}

/**
 * Checks that an indexed ref (`dialog/ok.2`) still names the element the last
 * read printed under it. Refs without an index, and refs the store does not
 * know, pass unchanged.
 *
 * @param found the element the ref resolved to in the fresh read
 * @param fresh every element of the fresh read
 * @param stored the stored read of this app, or null
 * @param app the app of the fresh read
 * @throws DesktopError STALE_REF when the index now points elsewhere
 */
export function checkIndexedRef(
  found: Element,
  fresh: Located[],
  stored: StoredRead | null,
  app: AppInfo,
): void {
  if (!found.ref || !/\.\d+$/.test(found.ref)) return;
  if (!stored || !sameAppRun(stored, app)) return;
  const was = stored.elements.find((e) => e.ref === found.ref);
  if (!was) return;
  const now = refind(fresh, was, `ref ${found.ref}`);
  if (now !== found) throw moved(was, found.ref, fresh);
}

/**
 * Guards a ref that matched an element exactly while, in the last read, no
 * element had exactly that ref but some ended with it: then the agent used a
 * shortened ref (a unique suffix at the time), and the element that now owns
 * the whole ref is a newcomer, not the one meant. Fails with AMBIGUOUS_TARGET
 * when the element meant is still there, STALE_REF when it is gone.
 *
 * @param query the ref as given
 * @param found what the fresh read resolved it to
 * @param fresh every element of the fresh read
 * @param stored the stored read of this app, or null
 * @param app the app of the fresh read
 * @throws DesktopError AMBIGUOUS_TARGET or STALE_REF, with candidates
 */
export function checkShortRef(
  query: string,
  found: Element,
  fresh: Located[],
  stored: StoredRead | null,
  app: AppInfo,
): void {
  const q = fold(query);
  if (found.ref === undefined || fold(found.ref) !== q) return; // a suffix match: unique now
  if (!stored || !sameAppRun(stored, app)) return;
  const tail = "/" + q;
  if (stored.elements.some((e) => e.ref !== undefined && fold(e.ref) === q)) return;
  const meant = stored.elements.filter((e) => e.ref !== undefined && fold(e.ref).endsWith(tail));
  if (meant.length === 0) return;
  const still = fresh.filter((x) => meant.some((m) => m.ref === x.el.ref)).map((x) => x.el);
  const candidates = [found, ...still].map(toCandidate);
  const was = meant.map((m) => m.ref).join(", ");
  if (still.length > 0) {
    throw new DesktopError(
      "AMBIGUOUS_TARGET",
      `"${query}" now names a new element exactly; in the last read it was short for ${was}`,
      {
        suggestion: "Retry with the full ref of the element you mean (one of the candidates)",
        candidates,
      },
    );
  }
  throw new DesktopError(
    "STALE_REF",
    `"${query}" was short for ${was} in the last read, which is gone; a new element has that ref`,
    {
      suggestion: "Run read again, or use the candidate's ref if it is the element you mean",
      candidates,
      details: { change: "removed", was },
    },
  );
}

/** Finds the stored element in the fresh read, or throws STALE_REF. */
function refind(fresh: Located[], was: StoredElement, what: string): Element {
  if (was.nid !== undefined) {
    const byNid = fresh.find((x) => x.el.nid === was.nid);
    if (byNid) {
      if (sameRoleLabel(byNid.el, was)) return byNid.el;
      throw changed(what, was, byNid.el, fresh);
    }
  }
  const byRef = was.ref === undefined ? undefined : fresh.find((x) => x.el.ref === was.ref);
  if (byRef) {
    if (!sameRoleLabel(byRef.el, was)) throw changed(what, was, byRef.el, fresh);
    if (isIndexed(was.ref) && !samePlace(byRef, was, fresh)) throw moved(was, was.ref!, fresh);
    return byRef.el;
  }
  throw new DesktopError(
    "STALE_REF",
    `${what} (${describe(was)}) is gone since the last read`,
    {
      suggestion: "Run read again, or use one of the candidates' refs",
      candidates: closestCandidates(fresh, was),
      details: { change: "removed", was: describe(was) },
    },
  );
}

function isIndexed(ref: string | undefined): boolean {
  return indexedBase(ref) !== undefined;
}

function sameRoleLabel(el: Element, was: StoredElement): boolean {
  return el.r === was.r && (el.t ?? "") === (was.t ?? "");
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

function changed(what: string, was: StoredElement, now: Element, fresh: Located[]): DesktopError {
  const change = was.r !== now.r ? "role changed" : "renamed";
  return new DesktopError(
    "STALE_REF",
    `${what} changed since the last read (${change}): was ${describe(was)}, now ${describe(now)}`,
    {
      suggestion: "Run read again, or use one of the candidates' refs",
      candidates: closestCandidates(fresh, was),
      details: { change, was: describe(was), now: describe(now) },
    },
  );
}

function moved(was: StoredElement, ref: string, fresh: Located[]): DesktopError {
  return new DesktopError(
    "STALE_REF",
    `ref ${ref} now names a different ${was.r} "${was.t ?? ""}" than the last read showed`,
    {
      suggestion: "Duplicates changed: run read again and use the new indexed ref",
      candidates: closestCandidates(fresh, was),
      details: { change: "index shifted", was: describe(was) },
    },
  );
}

function describe(el: { r: string; t?: string; ref?: string }): string {
  return `${el.r}${el.t ? ` "${el.t}"` : ""}${el.ref ? ` [${el.ref}]` : ""}`;
}

/**
 * The current elements most like a stored one, nearest first (at most 5).
 *
 * @param fresh every element of the fresh read
 * @param was the stored element
 * @returns candidates for an error
 */
export function closestCandidates(fresh: Located[], was: StoredElement): Candidate[] {
  const label = (was.t ?? "").toLowerCase();
  const lastSeg = (ref?: string) => ref?.split("/").pop()?.replace(/\.\d+$/, "");
  const scored = fresh.map(({ el }) => {
    let score = 0;
    const t = (el.t ?? "").toLowerCase();
    if (el.r === was.r) score += 2;
    if (label && t === label) score += 3;
    else if (label && t && (t.includes(label) || label.includes(t))) score += 1;
    if (was.ref && lastSeg(el.ref) === lastSeg(was.ref)) score += 2;
    if (el.b && was.b && Math.abs(el.b[0] - was.b[0]) + Math.abs(el.b[1] - was.b[1]) < 50) {
      score += 1;
    }
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
