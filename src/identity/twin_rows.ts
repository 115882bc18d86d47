/**
 * Telling twin rows apart by their cells. Rows with one key (a process
 * monitor's many `deno` rows) share a ref base, and their `.N` index shifts
 * whenever a twin comes or goes. What tells them apart is a cell that keeps
 * its text (a process id), not one that changes by itself (a CPU figure).
 * Which cells keep their text is learned from the same list's other rows:
 * how many of the rows with a ref of their own kept their text there between
 * the last read and now. Of the columns whose texts differed between the
 * twins in the last read, the steadiest decides (kept by at least
 * {@link STEADY} of those rows): the twin the agent meant is the one whose
 * cell there reads as it did; when not exactly one twin does, nothing is
 * chosen. Pure.
 *
 * @module
 */

import type { Role } from "../model/element.ts";
import type { Located } from "./same.ts";
import type { StoredElement, StoredRead } from "./stored.ts";
import { indexedBase, stripIndex } from "./syntax.ts";

/** Roles of rows, whose cells may tell twins apart. */
const ROW_ROLES: ReadonlySet<string> = new Set<Role>(["row", "treeitem", "listitem"]);

/** Rows with a ref of their own that must have been compared before a column can decide. */
const ROWS_SEEN = 3;

/**
 * The least share of those rows that kept a column's text for the column to
 * decide: processes come and go under one name (a new `bash` with a new id),
 * so a process id column keeps its text in most rows, not in all.
 */
const STEADY = 0.9;

/**
 * The twin row the agent meant, by the cells that keep their text; undefined
 * when the cells do not single one out (the caller then refuses).
 *
 * @param fresh every element of the fresh read, located
 * @param was the stored row the agent named
 * @param read the stored read `was` belongs to
 * @param twins the fresh rows that could be it (same ref base, role, label, place)
 * @returns the one twin whose steady cells all read as before, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locateAll } from "./same.ts";
 * import { twinByCells } from "./twin_rows.ts";
 * const row = (ref: string, pid: string, cpu: string) => ({ i: 0, ref, r: "row" as const, t: "", c: [
 *   { i: 0, r: "cell" as const, t: ref.startsWith("table/deno") ? "deno" : ref.slice(6) },
 *   { i: 0, r: "cell" as const, t: pid }, { i: 0, r: "cell" as const, t: cpu },
 * ] });
 * const table = (rows: ReturnType<typeof row>[]) => ({ i: 0, ref: "table", r: "table" as const, c: rows });
 * const fresh = locateAll(table([
 *   row("table/a", "1", "5"), row("table/b", "2", "0"), row("table/c", "3", "1"),
 *   row("table/deno.1", "41", "9"), row("table/deno.2", "40", "3"),
 * ]));
 * const stored = (path: string, t: string) => ({ i: 0, r: "cell" as const, t, path });
 * const read = { app: { name: "m", pid: 1 }, readAt: "", elements: [
 *   { i: 1, ref: "table/a", r: "row" as const, path: "0.0" }, stored("0.0.0", "a"), stored("0.0.1", "1"), stored("0.0.2", "2"),
 *   { i: 2, ref: "table/b", r: "row" as const, path: "0.1" }, stored("0.1.0", "b"), stored("0.1.1", "2"), stored("0.1.2", "4"),
 *   { i: 3, ref: "table/c", r: "row" as const, path: "0.2" }, stored("0.2.0", "c"), stored("0.2.1", "3"), stored("0.2.2", "0"),
 *   { i: 4, ref: "table/deno.1", r: "row" as const, path: "0.3", n: 2 }, stored("0.3.0", "deno"), stored("0.3.1", "40"), stored("0.3.2", "7"),
 *   { i: 5, ref: "table/deno.2", r: "row" as const, path: "0.4", n: 2 }, stored("0.4.0", "deno"), stored("0.4.1", "39"), stored("0.4.2", "0"),
 * ] };
 * const twins = fresh.filter((x) => x.el.ref?.startsWith("table/deno"));
 * // Process 41 came first, 39 ended, 40's CPU changed: the row of process 40 is now deno.2.
 * assert.equal(twinByCells(fresh, read.elements[12], read, twins)?.el.ref, "table/deno.2");
 * ```
 */
export function twinByCells(
  fresh: readonly Located[],
  was: StoredElement,
  read: StoredRead,
  twins: readonly Located[],
): Located | undefined {
  if (!ROW_ROLES.has(was.r) || twins.length === 0 || was.ref === undefined) return undefined;
  const list = parentPath(was.path);
  // The twins of the last read: the columns whose texts told them apart then.
  const base = stripIndex(was.ref);
  const storedTwins = read.elements.filter((e) =>
    ROW_ROLES.has(e.r) && e.ref !== undefined && stripIndex(e.ref) === base &&
    parentPath(e.path) === list
  );
  const twinCells = storedCellsOf(read.elements, new Set(storedTwins.map((e) => e.path)));
  const cellsWas = twinCells.get(was.path);
  if (!cellsWas || storedTwins.length < 2) return undefined;
  const telling = [...cellsWas.keys()].filter((k) => {
    const texts = storedTwins.map((e) => twinCells.get(e.path)?.get(k));
    return texts.every((t) => t !== undefined) && new Set(texts).size === texts.length;
  });
  const kept = keptShare(fresh, read, list);
  const best = Math.max(0, ...telling.map((k) => kept.get(k) ?? 0));
  if (best < STEADY) return undefined;
  const keys = telling.filter((k) => kept.get(k) === best);
  const rows = twins.filter((x) => ROW_ROLES.has(x.el.r));
  const cellsNow = freshCellsOf(fresh, new Set(rows.map((x) => x.path)));
  const matching = rows.filter((x) => {
    const now = cellsNow.get(x.path);
    return now !== undefined && keys.every((k) => now.get(k) === cellsWas.get(k));
  });
  return matching.length === 1 ? matching[0] : undefined;
}

/** The path of an element's parent (`0.3` for `0.3.1`). */
function parentPath(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf(".")));
}

/** For each of `rows` (paths), the texts of its stored descendants by their path below it. */
function storedCellsOf(
  elements: readonly StoredElement[],
  rows: ReadonlySet<string>,
): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const e of elements) {
    if (e.t === undefined) continue;
    for (let at = e.path.lastIndexOf("."); at > 0; at = e.path.lastIndexOf(".", at - 1)) {
      const row = e.path.slice(0, at);
      if (!rows.has(row)) continue;
      const cells = out.get(row) ?? new Map<string, string>();
      cells.set(e.path.slice(at + 1), e.t);
      out.set(row, cells);
      break;
    }
  }
  return out;
}

/** For each of `rows` (paths), the texts of its fresh descendants by their path below it. */
function freshCellsOf(
  fresh: readonly Located[],
  rows: ReadonlySet<string>,
): Map<string, Map<string, string>> {
  return storedCellsOf(
    fresh.flatMap((x) =>
      x.el.t === undefined ? [] : [{ i: 0, r: x.el.r, t: x.el.t, path: x.path }]
    ),
    rows,
  );
}

/**
 * For each column (path below a row) of the list at `list`: the share of the
 * rows with a ref of their own, in both reads, that kept its text there;
 * only columns seen in at least {@link ROWS_SEEN} such rows.
 */
function keptShare(fresh: readonly Located[], read: StoredRead, list: string): Map<string, number> {
  const freshRows = new Map<string, Located>();
  for (const x of fresh) {
    if (x.el.ref !== undefined && ROW_ROLES.has(x.el.r) && parentPath(x.path) === list) {
      freshRows.set(x.el.ref, x);
    }
  }
  // Rows of this list with a ref of their own in both reads: stored path -> fresh path.
  const pairs = new Map<string, string>();
  for (const e of read.elements) {
    if (!ROW_ROLES.has(e.r) || e.ref === undefined || indexedBase(e.ref) !== undefined) continue;
    if (parentPath(e.path) !== list) continue;
    const now = freshRows.get(e.ref);
    if (now) pairs.set(e.path, now.path);
  }
  const before = storedCellsOf(read.elements, new Set(pairs.keys()));
  const after = freshCellsOf(fresh, new Set(pairs.values()));
  const seen = new Map<string, number>();
  const same = new Map<string, number>();
  for (const [was, now] of pairs) {
    const a = after.get(now) ?? new Map<string, string>();
    for (const [k, t] of before.get(was) ?? []) {
      if (!a.has(k)) continue;
      seen.set(k, (seen.get(k) ?? 0) + 1);
      if (a.get(k) === t) same.set(k, (same.get(k) ?? 0) + 1);
    }
  }
  const out = new Map<string, number>();
  for (const [k, n] of seen) if (n >= ROWS_SEEN) out.set(k, (same.get(k) ?? 0) / n);
  return out;
}
