/**
 * Rows of the agent format: a table or list row whose cells are all simple
 * is printed on one line, and a run of rows with the same shape (a list of
 * invoices, each with the same Delete button) shares a header that names the
 * repeated parts once:
 *
 * ```
 * rows: "…" | [id|<row>/delete] btn "Delete"
 * [38|list/item-1]: "Item 1" | [40]
 * [41|list/item-2]: "Item 2" | [43]
 * ```
 *
 * In such a run `[40]` is element 40, whose ref is the row's ref with the
 * header's suffix: `list/item-1/delete`.
 *
 * @module
 */

import { rowPartSuffix } from "../identity/syntax.ts";
import { isOrdinal, slug } from "../refs/generate.ts";
import type { Element } from "../model/element.ts";
import {
  type AgentOptions,
  elementLine,
  elementTail,
  fold,
  handleText,
  hasInformativeActions,
  hasState,
  idText,
  labelOf,
  LINE_MAX_TEXT,
  quote,
  refText,
  shownChildren,
  textCap,
} from "./agent_line.ts";

/** Roles whose text a one-line row shows as a bare quoted string. */
const INLINE_TEXT_ROLES: ReadonlySet<string> = new Set(["cell", "txt", "colheader", "heading"]);

/**
 * Roles printed as rows, their cells on one line: a table's row, a list's
 * item and a list box's option (a tree item's children are other items).
 */
export const FOLDED_ROW_ROLES: ReadonlySet<string> = new Set(["row", "listitem", "option"]);

/**
 * Whether an element is printed as a row (see {@link FOLDED_ROW_ROLES}).
 *
 * @param el the element
 * @returns true for a table row, list item or option
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFoldedRowRole } from "./agent_rows.ts";
 * assert.equal(isFoldedRowRole({ r: "listitem" }), true);
 * assert.equal(isFoldedRowRole({ r: "btn" }), false);
 * ```
 */
export function isFoldedRowRole(el: Pick<Element, "r">): boolean {
  return FOLDED_ROW_ROLES.has(el.r);
}

/** Longest one-line row, in characters; longer rows are printed as a tree. */
const MAX_ROW_LINE = 400;

/** Fewest consecutive rows of one shape that get a shared header. */
export const MIN_UNIFORM_RUN = 3;

/** The word that starts a run's header line. */
export const RUN_HEADER = "rows:";

/** What stands for the row's ref in a run header's `[id|<row>/suffix]`. */
export const ROW_PLACEHOLDER = "<row>";

/** One cell of a folded row: a bare text, or an element printed inline. */
export type RowPart = { text: string } | { el: Element };

/** The cell a child of a row shows as, or null when it is not simple enough. */
function partOf(kid: Element): RowPart | null {
  const label = labelOf(kid);
  // A cell packing several renderers (GTK 3: an icon beside a name) shows what says something.
  const inner = shownChildren(kid, label).filter((k) => !(kid.r === "cell" && isBlankCell(k)));
  const plain = INLINE_TEXT_ROLES.has(kid.r) && !hasState(kid) &&
    !hasInformativeActions(kid) && !kid.d && (!kid.v || fold(kid.v) === fold(label));
  if (plain && inner.length === 0) return { text: label };
  // A cell that only wraps one simple element shows that element (browsers name a cell by its
  // content, so a cell holding a Refund button is called "Refund"); so does a heading that
  // only wraps its link (a search result's title).
  if (
    (kid.r === "cell" || kid.r === "heading") && inner.length === 1 &&
    (!label || fold(label) === fold(labelOf(inner[0])))
  ) {
    const part = partOf(inner[0]);
    // A cell one clicks (a date picker's day) keeps its handle and states, shown with the text
    // it holds.
    if (kid.r === "cell" && clickable(kid) && part && "text" in part) {
      return { el: { ...kid, t: part.text } };
    }
    if (!hasState(kid)) return part;
  }
  if (inner.length === 0) return { el: kid };
  return null;
}

/**
 * Whether a cell is what one clicks, not only a place for what it shows: the
 * browsers name the action of an element with a click handler `click` (a
 * plain cell's is `doDefault` in Chromium, none in Firefox). A toolkit's
 * cells that all list `activate` (GTK's tree views) are not told apart by it.
 */
function clickable(el: Element): boolean {
  return el.a?.some((a) => a.toLowerCase() === "click") ?? false;
}

/** A cell that says nothing: no label, value, state, informative action or content (an icon renderer). */
function isBlankCell(el: Element): boolean {
  return el.r === "cell" && !labelOf(el) && !el.v && !hasState(el) &&
    !hasInformativeActions(el) && !el.c?.length;
}

/** The cells of a row that can be folded onto one line, or null. */
function rowParts(row: Element): RowPart[] | null {
  if (!FOLDED_ROW_ROLES.has(row.r)) return null;
  const kids = shownChildren(row, labelOf(row));
  if (kids.length === 0) return null;
  const parts: RowPart[] = [];
  for (const kid of kids) {
    const part = partOf(kid);
    if (part === null) return null;
    parts.push(part);
  }
  return parts;
}

function partText(part: RowPart, opts: AgentOptions): string {
  return "text" in part ? quote(part.text, textCap(opts)) : elementLine(part.el, opts);
}

/**
 * A row on one line (`[7|list/invoice-17] row: "Invoice 17" | [9|list/invoice-17/delete] btn
 * "Delete"`), or null when it is not a row, a cell is not simple, or the line is too long.
 *
 * @param row the element
 * @param opts bounds, viewport and text cap
 * @returns the line without indentation, or null
 */
export function inlineRow(row: Element, opts: AgentOptions): string | null {
  return foldRow(row, opts)?.line ?? null;
}

/** A row that fits on one line: its cells, its line, and its shape for uniform runs. */
export interface FoldedRow {
  /** The row element. */
  row: Element;
  /** Its cells in order. */
  parts: RowPart[];
  /** The row printed on its own line (no indentation). */
  line: string;
  /** Key shared by rows that can form a run (null: this row cannot). */
  shape: string | null;
}

/**
 * Folds a row onto one line, once, for both uses: printed alone or in a run.
 *
 * @param row the element
 * @param opts bounds, viewport and text cap
 * @returns the folded row, or null when it is not a row that fits on one line
 */
export function foldRow(row: Element, opts: AgentOptions): FoldedRow | null {
  const parts = rowParts(row);
  if (!parts) return null;
  // A row without a label of its own is named by its first text (`[60] row: "Pi 5" | "$80"`).
  const named = labelOf(row) ? undefined : firstText(parts, parts.map(() => null));
  const lineWith = (o: AgentOptions) =>
    `${elementLine(row, o, named)}: ${parts.map((p) => partText(p, o)).join(" | ")}`;
  const line = lineWith(opts);
  // Too many cells for one line, not one long text: a process's command line is printed whole
  // either way, and as a tree it would cost a line per cell on top.
  if (
    line.length > MAX_ROW_LINE && (textCap(opts) <= LINE_MAX_TEXT ||
      lineWith({ ...opts, maxText: LINE_MAX_TEXT }).length > MAX_ROW_LINE)
  ) return null;
  return { row, parts, line, shape: shapeOf(row, parts) };
}

/** The ref of `ref` below `rowRef` (`delete` for `list/a/delete` in `list/a`), or null. */
const refSuffix = rowPartSuffix;

/** The row's own key: the last segment of its ref, without a twin index (`so-1005`). */
function rowKey(rowRef: string): string {
  const last = rowRef.slice(rowRef.lastIndexOf("/") + 1);
  const dot = last.search(/\.\d+$/);
  return dot < 0 ? last : last.slice(0, dot);
}

/**
 * Whether a cell's ref below its row repeats the row's key (`select-so-1005`
 * in row `so-1005`, a check box named "Select SO-1005"): each row's differs,
 * so a run prints that cell with its own ref.
 */
function keyedSuffix(suffix: string, rowRef: string): boolean {
  const key = rowKey(rowRef);
  return key.length > 0 && suffix !== key && suffix.includes(key);
}

/**
 * A key equal for rows whose element cells agree in role and ref suffix (a
 * suffix that repeats the row's key agrees with any other that does); null
 * if there are none.
 */
function shapeOf(row: Element, parts: RowPart[]): string | null {
  if (!row.ref) return null;
  const keys: string[] = [];
  let elements = 0;
  for (const p of parts) {
    if ("text" in p) {
      keys.push("");
      continue;
    }
    const suffix = refSuffix(p.el.ref, row.ref);
    if (suffix === null) return null;
    keys.push(`${p.el.r}\u0000${keyedSuffix(suffix, row.ref) ? "\u0002" : suffix}`);
    elements++;
  }
  return elements > 0 ? keys.join("\u0001") : null;
}

/**
 * The run of same-shaped rows that starts at `folded[start]`, or null when
 * fewer than {@link MIN_UNIFORM_RUN} rows share its shape.
 *
 * @param folded the siblings as {@link foldRow} folded them (null: not a foldable row)
 * @param start where the run would begin
 * @returns the rows of the run, in order
 */
export function uniformRunAt(
  folded: ReadonlyArray<FoldedRow | null>,
  start: number,
): FoldedRow[] | null {
  const shape = folded[start]?.shape;
  if (!shape) return null;
  let end = start + 1;
  while (end < folded.length && folded[end]?.shape === shape) end++;
  return end - start >= MIN_UNIFORM_RUN ? folded.slice(start, end) as FoldedRow[] : null;
}

/**
 * Whether a text a row shows can stand for the row's ref: not an ordinal
 * ("1.", a position, never a key) nor a text without a slug (a bullet).
 * The format's reader skips the same texts (agent_parse.ts).
 *
 * @param text a text cell or an element cell's label, as the row shows it
 * @returns true when the row's ref may be that text's slug
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namesRow } from "./agent_rows.ts";
 * assert.equal(namesRow("Invoice 2024-12"), true);
 * assert.equal(namesRow("3."), false);
 * assert.equal(namesRow("·"), false);
 * ```
 */
export function namesRow(text: string): boolean {
  return !isOrdinal(text) && slug(text) !== "";
}

/**
 * The first text a row's line shows after its handle that can name the row
 * (a text cell, or an element cell's own label; see {@link namesRow}), or ""
 * when it shows none: a row whose ref is that text's slug prints its id
 * alone.
 *
 * @param parts the row's cells
 * @param shared per cell, the label its column shares (printed in a run's header), or null
 */
function firstText(parts: RowPart[], shared: ReadonlyArray<string | null>): string {
  for (let c = 0; c < parts.length; c++) {
    const p = parts[c];
    // An element cell shows its own label only when the column's labels differ.
    const text = "text" in p ? p.text : shared[c] === null ? labelOf(p.el) : "";
    if (namesRow(text)) return text;
  }
  return "";
}

/**
 * The lines of a uniform run: its header, then one line per row.
 *
 * @param run rows from {@link uniformRunAt}
 * @param opts bounds, viewport and text cap
 * @returns the lines without indentation
 */
export function runLines(run: FoldedRow[], opts: AgentOptions): string[] {
  const max = textCap(opts);
  // A label shared by the whole column goes in the header; others stay on their rows.
  const shared = run[0].parts.map((p, c) => {
    if ("text" in p) return null;
    const label = labelOf(p.el);
    return run.every((r) => labelOf((r.parts[c] as { el: Element }).el) === label) ? label : null;
  });
  // Cells whose ref repeats the row's key print their own ref on each row (`[id|ref]` in the
  // header); the others' refs are the row's ref and the header's suffix.
  const keyed = run[0].parts.map((p) =>
    !("text" in p) && keyedSuffix(refSuffix(p.el.ref, run[0].row.ref!)!, run[0].row.ref!)
  );
  const header = run[0].parts.map((p, c) => {
    if ("text" in p) return `"…"`;
    const suffix = refSuffix(p.el.ref, run[0].row.ref!)!;
    const role = p.el.r === "txt" ? "" : ` ${p.el.r}`;
    const label = shared[c] === null ? ` "…"` : shared[c] ? ` ${quote(shared[c]!, max)}` : "";
    return `[id|${keyed[c] ? "ref" : `${ROW_PLACEHOLDER}/${suffix}`}]${role}${label}`;
  });
  const lines = [`${RUN_HEADER} ${header.join(" | ")}`];
  const below = run[0].parts.flatMap((p, c) =>
    "text" in p || keyed[c] ? [] : [refSuffix(p.el.ref, run[0].row.ref!)!]
  );
  for (const { row, parts } of run) {
    const label = labelOf(row);
    // The row's ref as short as it can be while the cells' derived refs stay unique too.
    const ref = opts.short ? opts.short.shortRow(row.ref!, below) : row.ref!;
    const head = [handleText(row, ref, label || firstText(parts, shared), opts, false)];
    if (label) head.push(quote(label, max));
    head.push(...elementTail(row, label, opts));
    const cells = parts.map((p, c) => {
      if ("text" in p) return quote(p.text, max);
      const label = labelOf(p.el);
      const own = shared[c] === null ? [quote(label, max)] : [];
      const handle = keyed[c]
        ? handleText(p.el, refText(p.el, opts), shared[c] === null ? label : "", opts, false)
        : `[${idText(p.el)}]`;
      return [handle, ...own, ...elementTail(p.el, label, opts)].join(" ");
    });
    lines.push(`${head.join(" ")}: ${cells.join(" | ")}`);
  }
  return lines;
}
