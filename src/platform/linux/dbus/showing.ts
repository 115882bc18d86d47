/**
 * What a reader may see of a container that manages its descendants
 * (MANAGES_DESCENDANTS: LibreOffice Calc's sheet with about 2^34 cells, GTK3
 * tree views): such children are created on demand, so asking for all of
 * them (GetChildren) makes the app build every one. Like a screen reader, we
 * read only what is showing, and never more than {@link SHOWING_CAP} objects:
 *
 * - a table (Table interface) gives its visible cell range: the cells under
 *   the top-left and bottom-right corners of its box (GetAccessibleAtPoint),
 *   their row and column (GetRowAtIndex, GetColumnAtIndex), then each cell
 *   by row and column (GetAccessibleAt); a small table is read whole. Cells
 *   come grouped by row, with the column headers first;
 * - any other such container gives its first children by index
 *   (GetChildAtIndex), at most the cap, and its selected children.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import type { AppCall } from "./atspi_bus.ts";
import type { DBusValue, Variant } from "./value.ts";

/** Most objects read below one container that manages its descendants. */
export const SHOWING_CAP = 2048;
/** Probes (one GetAccessibleAtPoint each) spent finding a visible corner cell. */
const PROBES = 24;
/** Pixels between two corner probes (past a column header, a blank area below the rows). */
const PROBE_STEP = 8;

const ATSPI = "org.a11y.atspi.";
const PROPS = "org.freedesktop.DBus.Properties";

/** The part of a managing container that is read, as object paths of the same app. */
export interface ShowingChildren {
  /** Column headers, in column order (tables only). */
  headers: string[];
  /** Rows of cells, in row order (tables only), each with its row number. */
  rows: Array<{ row: number; cells: string[] }>;
  /** Plain children in order (containers without a Table interface). */
  children: string[];
  /** Whether the container had more than was read. */
  truncated: boolean;
}

/**
 * Reads what is showing of a container that manages its descendants.
 *
 * @param call the app call function
 * @param bus the app's bus name (references to other apps are dropped)
 * @param path the container's object path
 * @param interfaces the container's interfaces
 * @returns headers and rows of cells (tables) or plain children, bounded by the cap
 * @throws DesktopError APP_UNRESPONSIVE when the app stops answering
 */
export async function readShowing(
  call: AppCall,
  bus: string,
  path: string,
  interfaces: readonly string[],
): Promise<ShowingChildren> {
  const out: ShowingChildren = { headers: [], rows: [], children: [], truncated: false };
  const own = (v: DBusValue): string | null => {
    const [b, p] = v as [string, string];
    return b === bus && p && p !== "/org/a11y/atspi/null" ? p : null;
  };
  if (interfaces.includes(ATSPI + "Table")) {
    const dims = await optional(() => tableSize(call, path));
    if (dims && dims.rows > 0 && dims.cols > 0) {
      const range = await visibleRange(call, path, interfaces, dims);
      const cols = Math.min(range.c1 - range.c0 + 1, SHOWING_CAP);
      const maxRows = Math.max(1, Math.floor(SHOWING_CAP / cols));
      const r1 = Math.min(range.r1, range.r0 + maxRows - 1);
      out.truncated = r1 < dims.rows - 1 || range.r0 > 0 || cols < dims.cols;
      const colList = Array.from({ length: cols }, (_, k) => range.c0 + k);
      const [headers, rows] = await Promise.all([
        Promise.all(
          colList.map((c) =>
            optional(() => call(path, ATSPI + "Table", "GetColumnHeader", "i", [c]))
          ),
        ),
        Promise.all(
          Array.from({ length: r1 - range.r0 + 1 }, (_, k) => range.r0 + k).map(async (row) => {
            const cells = await Promise.all(
              colList.map((c) =>
                optional(() => call(path, ATSPI + "Table", "GetAccessibleAt", "ii", [row, c]))
              ),
            );
            return { row, cells: cells.map((r) => r && own(r[0])).filter(isPath) };
          }),
        ),
      ]);
      out.headers = headers.map((r) => r && own(r[0])).filter(isPath);
      // A spanning cell answers for every slot it covers: keep it once.
      const seen = new Set<string>(out.headers);
      for (const r of rows) {
        const cells = r.cells.filter((p) => !seen.has(p) && seen.add(p));
        if (cells.length) out.rows.push({ row: r.row, cells });
      }
      return out;
    }
  }
  const count = await optional(async () => {
    const [v] = await call(path, PROPS, "Get", "ss", [ATSPI + "Accessible", "ChildCount"]);
    return Number((v as Variant).value);
  }) ?? 0;
  const n = Math.max(0, Math.min(count, SHOWING_CAP));
  out.truncated = count > n;
  const kids = await Promise.all(
    Array.from(
      { length: n },
      (_, i) => optional(() => call(path, ATSPI + "Accessible", "GetChildAtIndex", "i", [i])),
    ),
  );
  out.children = kids.map((r) => r && own(r[0])).filter(isPath);
  if (out.truncated && interfaces.includes(ATSPI + "Selection")) {
    // The selected children matter most when the first ones are not all of it.
    const selected = await optional(async () => {
      const [v] = await call(path, PROPS, "Get", "ss", [ATSPI + "Selection", "NSelectedChildren"]);
      const k = Math.min(Number((v as Variant).value), 64);
      return await Promise.all(
        Array.from(
          { length: Math.max(0, k) },
          (_, i) => optional(() => call(path, ATSPI + "Selection", "GetSelectedChild", "i", [i])),
        ),
      );
    }) ?? [];
    const have = new Set(out.children);
    for (const r of selected) {
      const p = r && own(r[0]);
      if (p && !have.has(p)) out.children.push(p);
    }
  }
  return out;
}

function isPath(p: string | null | undefined): p is string {
  return typeof p === "string";
}

/** Runs an optional call: an unresponsive app fails the read, anything else gives undefined. */
async function optional<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof DesktopError && e.code === "APP_UNRESPONSIVE") throw e;
    return undefined;
  }
}

async function tableSize(call: AppCall, path: string): Promise<{ rows: number; cols: number }> {
  const [[rows], [cols]] = await Promise.all([
    call(path, PROPS, "Get", "ss", [ATSPI + "Table", "NRows"]),
    call(path, PROPS, "Get", "ss", [ATSPI + "Table", "NColumns"]),
  ]);
  return { rows: Number((rows as Variant).value), cols: Number((cols as Variant).value) };
}

/** Inclusive row and column range to read. */
interface Range {
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

/**
 * The visible cell range of a table: the whole table when it is small, else
 * the cells under its box's corners. A corner that hits no cell (a header, a
 * blank area below the last row) is probed again a few pixels inwards.
 */
async function visibleRange(
  call: AppCall,
  path: string,
  interfaces: readonly string[],
  dims: { rows: number; cols: number },
): Promise<Range> {
  const whole = { r0: 0, r1: dims.rows - 1, c0: 0, c1: dims.cols - 1 };
  if (dims.rows * dims.cols <= SHOWING_CAP) return whole;
  const top = { r0: 0, r1: Math.floor(SHOWING_CAP / Math.min(dims.cols, SHOWING_CAP)) - 1 };
  const fallback = { ...whole, ...top };
  if (!interfaces.includes(ATSPI + "Component")) return fallback;
  const box = await optional(() =>
    call(path, ATSPI + "Component", "GetExtents", "u", [0]).then(([v]) => v as number[])
  );
  if (!box || box[2] <= 0 || box[3] <= 0) return fallback;
  const [x, y, w, h] = box;
  const cellAt = async (px: number, py: number) => {
    const ref = await optional(() =>
      call(path, ATSPI + "Component", "GetAccessibleAtPoint", "iiu", [px, py, 0])
    );
    const [, p] = (ref?.[0] ?? ["", ""]) as [string, string];
    if (!p || p === "/org/a11y/atspi/null") return null;
    const at = await optional(() => call(p, ATSPI + "Accessible", "GetIndexInParent"));
    const index = Number(at?.[0] ?? -1);
    if (index < 0) return null;
    const [[row], [col]] = await Promise.all([
      call(path, ATSPI + "Table", "GetRowAtIndex", "i", [index]),
      call(path, ATSPI + "Table", "GetColumnAtIndex", "i", [index]),
    ]);
    return (row as number) >= 0 && (col as number) >= 0
      ? { row: row as number, col: col as number }
      : null;
  };
  const probe = async (sx: number, sy: number, dy: number) => {
    for (let k = 0; k < PROBES && Math.abs(k * PROBE_STEP) < h; k++) {
      const hit = await cellAt(sx, sy + dy * k * PROBE_STEP);
      if (hit) return hit;
    }
    return null;
  };
  const [first, last] = await Promise.all([
    probe(x + 2, y + 2, 1),
    probe(x + w - 3, y + h - 3, -1),
  ]);
  if (!first) return fallback;
  return {
    r0: first.row,
    r1: last ? Math.max(last.row, first.row) : Math.min(dims.rows - 1, first.row + top.r1),
    c0: first.col,
    c1: last ? Math.max(last.col, first.col) : dims.cols - 1,
  };
}
