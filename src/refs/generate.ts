/**
 * Ref generation (guide: refs.md section 1). Pure and deterministic: the same
 * tree always gets the same refs.
 *
 * The rules, in one place:
 *
 * - A ref is the `/`-joined segments of the element's *contributing*
 *   ancestors, then the element's own segment.
 * - Own segment: `slug(bestLabel)`, else the short role. A count is left
 *   out, since it changes: in brackets at the end (`Inbox (12)`), before the
 *   first word (`4 comments`, `98 Open`), or in a badge of its own (a link
 *   "Issues" holding a text "128"). A number that ends a label as one word of
 *   it names the element and stays (`Page 2`, `Invoice 17`); so does every
 *   number of a row's key but a bracketed count. A row or tree item
 *   without a label uses its row key (below). When the label's slug repeats
 *   the segment of the nearest contributing ancestor (a link's text child, a
 *   cell that names its row, a window titled as its app), the own segment is
 *   the role instead, so the child does not collide with its container.
 * - Contributing ancestors:
 *   - never: app, window, scroll, web (always implied), and an element whose
 *     label just repeats its container's segment;
 *   - landmarks (toolbar, menubar, menu, dialog, tablist, tab, list, table,
 *     tree, form, landmark): label slug, else role. Tabs sit under their tab
 *     list (`tablist/inbox`), so a tab titled like the page it shows never
 *     collides with that page. An unlabeled menu or list that pops up
 *     from a menu item, button or combo contributes nothing: the item already
 *     named it (`menubar/file/new-window`);
 *   - rows and tree items: label slug, else row key (slug of the first
 *     labeled cell, link, text or heading inside), else nothing; so does a
 *     grid view's item (a cell straight in a table with no rows and no
 *     column headers: a file manager's icon), by its row key, or by its
 *     first text that not every item shows (a font viewer's "Aa" sample);
 *   - any other element with a label (labeled group, link with text inside):
 *     its slug. Unlabeled containers contribute nothing.
 * - Duplicates: every element sharing a ref gets `.1`, `.2`... in document
 *   order.
 * - Length: a ref longer than {@link MAX_REF_LENGTH} (less room for an index)
 *   loses its outermost segments, so every generated ref is a valid one.
 *
 * Why this is stable: a ref depends only on the labels and roles of the
 * element and its contributing ancestors (and, for row keys, on the row's own
 * text), never on sibling positions or values. Inserting or removing an
 * element elsewhere, or changing a value, leaves every other ref unchanged
 * unless it creates or removes a duplicate.
 *
 * @module
 */

import type { Element, Role } from "../model/element.ts";
import { formatRef, MAX_REF_LENGTH, parseRef } from "../identity/syntax.ts";
import { fold } from "../model/text.ts";

// The ref syntax (twin index, longest ref) is defined once, in src/identity/syntax.ts.
export { MAX_REF_LENGTH };
import { isToolkitClassName } from "../model/semantics.ts";
import { INTERACTIVE_ROLES } from "../model/roles.ts";

/** Longest slug, in code points. */
export const MAX_SLUG_LENGTH = 40;

/** Room kept for a `.N` duplicate index when a very deep ref is shortened. */
const INDEX_ROOM = 8;

/**
 * A trailing keyboard-shortcut hint in a description: `Pi [Ctrl+P]`, one set
 * off by a tab or a wide gap (`Multiply    KP *`), or a key in parentheses
 * (Qt's `Next (F3)`, `Find (Ctrl+F)`).
 */
const SHORTCUT_HINT =
  /(?:\s*\[[^\]]*\]|\t.*|\s{2,}\S.*|\s*\((?:F\d{1,2}|(?:(?:Ctrl|Control|Alt|Shift|Meta|Super|Cmd)\+)+[^()\s]+)\))$/;

/** A count in brackets at the end of a label: "Inbox (12)", "Updates [3]", "Cart (1,024)". */
const BRACKETED_COUNT = /\s*(?:\(\d[\d,.]*\)|\[\d[\d,.]*\])\s*$/;

/** A count at the start of a label, before a word: "4 comments", "98 Open", "1,024 results". */
const LEADING_COUNT = /^\d[\d,.]*\s+(?=\p{L})/u;

/** A number alone: what a badge says. */
const BARE_NUMBER = /^\d[\d,.]*$/;

/**
 * A label without the count it holds ("" when it has none): a bracketed count
 * at its end, a count before its first word (not in a row's key: "3 Musketeers"
 * may key a row), or the number its badge shows at its end.
 *
 * @param label the label
 * @param key whether the label keys a row
 * @param badge the number a badge inside the element shows, if any
 * @returns the label without its count, or ""
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { uncounted } from "./generate.ts";
 * console.log(uncounted("Inbox (12)"), uncounted("4 comments"), uncounted("Issues 128", false, "128")); // Inbox comments Issues
 * assert.equal(uncounted("Page 2"), "");
 * assert.equal(uncounted("Invoice 17", true), "");
 * ```
 */
export function uncounted(label: string, key = false, badge?: string): string {
  let out = label.replace(BRACKETED_COUNT, "");
  if (!key) {
    out = out.replace(LEADING_COUNT, "");
    if (badge !== undefined && out.endsWith(badge)) out = out.slice(0, -badge.length).trimEnd();
  }
  return out !== label && /\p{L}/u.test(out) ? out : "";
}

/**
 * The number a badge inside an element shows: its last child, a text that is
 * a number alone, or an unlabeled container of one (a `<span>` with an id).
 */
function badgeOf(el: Element): string | undefined {
  let last = el.c?.at(-1);
  while (last && !last.t && last.c?.length === 1 && (last.r === "group" || last.r === "other")) {
    last = last.c[0];
  }
  const text = last?.r === "txt" && !last.c?.length ? (last.t ?? last.v)?.trim() : undefined;
  return text !== undefined && BARE_NUMBER.test(text) ? text : undefined;
}

/**
 * The explanation after a tooltip's title: "Move Tool: Move layers, selections…"
 * is named "Move Tool" (a title of one to four words before ": ").
 */
const TOOLTIP_TAIL = /(?<=^(?:\S+ ){0,3}\S+): .*$/s;

/** A digit anywhere: what a count needs. */
const HAS_DIGIT = /\d/;

/** Labels made only of printable ASCII characters. */
const PRINTABLE_ASCII = /^[ -~]*$/;

/** Roles never shown in a ref path, labeled or not. */
const SKIPPED_ROLES: ReadonlySet<Role> = new Set<Role>(["app", "window", "scroll", "web"]);

/**
 * Roles whose label is what they currently say (a status bar's "2 folders |
 * 1 file", a progress bar's "Copying 3 of 9"): content, so never in a ref.
 */
const LIVE_TEXT_ROLES: ReadonlySet<Role> = new Set<Role>(["statusbar", "progress"]);

/** Roles that contribute a segment even when unlabeled (their role). */
export const LANDMARK_ROLES: ReadonlySet<Role> = new Set<Role>([
  "toolbar",
  "menubar",
  "menu",
  "dialog",
  "tablist",
  "tab",
  "list",
  "listbox",
  "table",
  "tree",
  "form",
  "landmark",
  "navigation",
  "main",
  "banner",
  "contentinfo",
  "search",
  "region",
  "complementary",
]);

/** Rows whose key may come from their content. */
const ROW_ROLES: ReadonlySet<Role> = new Set<Role>(["row", "treeitem", "listitem", "option"]);

/** Descendant roles whose label can key a row (a header row is keyed by its first header). */
const ROW_KEY_ROLES: ReadonlySet<Role> = new Set<Role>([
  "cell",
  "colheader",
  "txt",
  "lnk",
  "heading",
]);

/** Roles that open an unlabeled popup menu or list named by themselves. */
const POPUP_OWNERS: ReadonlySet<Role> = new Set<Role>(["menuitem", "btn", "combo"]);

/**
 * Turns a label into a ref segment: NFKC-normalized, lowercase, Unicode
 * letters, digits and combining marks kept (a Japanese or Cyrillic label stays
 * readable), every other run of characters one `-`, trimmed, at most 40 code
 * points, cut at a `-` boundary when that keeps at least half of it.
 *
 * @param label any label
 * @returns the slug; empty when the label has no letter or digit
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slug } from "./generate.ts";
 * assert.deepEqual(slug("Inbox (23,288 unread)"), "inbox-23-288-unread");
 * assert.deepEqual(slug("Сохранить как…"), "сохранить-как");
 * ```
 */
export function slug(label: string): string {
  const s = wholeSlug(label);
  if (s.length <= MAX_SLUG_LENGTH) return s;
  const chars = Array.from(s);
  if (chars.length <= MAX_SLUG_LENGTH) return s;
  // Prefer a cut where a word ends: at position 40 itself, or the last '-' before it.
  if (chars[MAX_SLUG_LENGTH] === "-") return chars.slice(0, MAX_SLUG_LENGTH).join("");
  const head = chars.slice(0, MAX_SLUG_LENGTH);
  const dash = head.lastIndexOf("-");
  if (dash >= MAX_SLUG_LENGTH / 2) return head.slice(0, dash).join("");
  return head.join("").replace(/-+$/, "");
}

/** A label's slug before any cut: every run of non-letters one `-`, lowercase, trimmed. */
function wholeSlug(label: string): string {
  // Printable ASCII is already NFKC and needs no Unicode classes: the common case, made cheap.
  return PRINTABLE_ASCII.test(label)
    ? label.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
    : label.normalize("NFKC").toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, "-")
      .replace(/^-+|-+$/g, "");
}

/**
 * Whether a ref is its label's slug: one segment, so that anyone who sees the
 * label can write the ref (lowercase it, make every run of other characters
 * than letters and digits one `-`; a slug over 40 characters is cut at a
 * word's end, and the whole one is accepted too: see
 * {@link cutLongSegments}). The agent format leaves such a ref out of a
 * line (`[15] chk "Subscribe to the newsletter"` has the ref
 * `subscribe-to-the-newsletter`).
 *
 * @param ref a ref as printed
 * @param label the label the line shows
 * @returns true when the ref can be written from the label alone
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLabelSlug } from "./generate.ts";
 * assert.equal(isLabelSlug("save-as", "Save As…"), true);
 * assert.equal(isLabelSlug("form/email", "Email"), false);
 * assert.equal(isLabelSlug("ok.2", "OK"), false);
 * const long = "Lena Fischer: Security alert, a new sign-in from Oslo";
 * assert.equal(isLabelSlug("lena-fischer-security-alert-a-new-sign", long), true);
 * ```
 */
export function isLabelSlug(ref: string, label: string): boolean {
  // A cheap length test first: most refs of a read are not their label's slug.
  if (ref.length > label.length || ref.length > MAX_SLUG_LENGTH) return false;
  return ref !== "" && slug(label) === ref;
}

/**
 * A written ref as the generator would have made it: a segment written as
 * the whole slug of a label longer than a ref keeps (40 characters) is cut
 * as {@link slug} cuts it. The whole segments it cut are returned too: the
 * element the cut ref finds must have one of them as its label's (or its
 * row's key's) whole slug, so that a cut shared with another label never
 * finds that other element.
 *
 * @param ref a ref as written (validated)
 * @returns the ref to resolve, and the whole segments that were cut
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutLongSegments } from "./generate.ts";
 * const whole = "lena-fischer-security-alert-a-new-sign-in-from-oslo";
 * assert.deepEqual(cutLongSegments(`inbox/${whole}/star`), {
 *   ref: "inbox/lena-fischer-security-alert-a-new-sign/star",
 *   whole: [whole],
 * });
 * assert.deepEqual(cutLongSegments("form/email.2"), { ref: "form/email.2", whole: [] });
 * ```
 */
export function cutLongSegments(ref: string): { ref: string; whole: string[] } {
  const { base, index, segments } = parseRef(ref);
  if (base.length <= MAX_SLUG_LENGTH) return { ref, whole: [] };
  const whole: string[] = [];
  const cut = segments.map((segment) => {
    const folded = fold(segment);
    if (folded.length <= MAX_SLUG_LENGTH || wholeSlug(folded) !== folded) return segment;
    whole.push(folded);
    return slug(folded);
  });
  return whole.length ? { ref: formatRef(cut.join("/"), index), whole } : { ref, whole };
}

/**
 * The whole slugs an element and its ancestors are named by (labels and row
 * keys, uncut): what a written segment longer than a ref keeps must be one of
 * (see {@link cutLongSegments}).
 *
 * @param chain the element and its ancestors
 * @returns their labels' and row keys' whole slugs
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wholeSlugsOf } from "./generate.ts";
 * const row = { i: 2, r: "row" as const, c: [{ i: 3, r: "txt" as const, t: "Q4 plan: review" }] };
 * assert.deepEqual([...wholeSlugsOf([{ i: 4, r: "btn", t: "Star" }, row])], ["star", "q4-plan-review"]);
 * ```
 */
export function wholeSlugsOf(chain: readonly Element[]): Set<string> {
  const out = new Set<string>();
  for (const el of chain) {
    for (const label of [bestLabel(el), ROW_ROLES.has(el.r) ? rowKeyText(el) : ""]) {
      const s = label ? wholeSlug(label) : "";
      if (s) out.add(s);
    }
  }
  return out;
}

/**
 * Whether a text is a list marker or a position number ("1.", "12)"): it
 * never keys a row, since it changes when a row is inserted above.
 *
 * @param text a text as shown
 * @returns true for an ordinal
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isOrdinal } from "./generate.ts";
 * assert.equal(isOrdinal("12."), true);
 * assert.equal(isOrdinal("12 apples"), false);
 * ```
 */
export function isOrdinal(text: string): boolean {
  return ORDINAL.test(text);
}

/**
 * The label a ref is built from: title, else description, else placeholder
 * (trimmed), skipping toolkit class names ("GtkButton"). A label made only of
 * symbols (÷ × =) gives way to the description ("Multiply [*]"), since its
 * slug would be empty. Never the value: values change.
 *
 * @param el the element
 * @returns the label, or "" when it has none
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bestLabel } from "./generate.ts";
 * assert.deepEqual(bestLabel({ i: 1, r: "input", v: "john", ph: "Email" }), "Email");
 * assert.deepEqual(bestLabel({ i: 1, r: "btn", t: "×", d: "Multiply [*]" }), "Multiply [*]");
 * ```
 */
export function bestLabel(el: Element): string {
  let first = "";
  for (const raw of [el.t, el.d, el.ph]) {
    const s = raw?.trim();
    if (!s || isToolkitClassName(s)) continue;
    if (slug(s) !== "") return s;
    first ||= s;
  }
  return first;
}

/**
 * A contributing (landmark) ancestor, linked to the ones outside it. Shared by
 * every element below it, so a trace costs O(1) memory per element.
 */
export interface LandmarkNode {
  /** Segment this ancestor contributes. */
  readonly seg: string;
  /** The ancestor itself. */
  readonly el: Element;
  /** The next contributing ancestor outwards. */
  readonly prev: LandmarkNode | null;
  /** Segments from the outermost landmark down to this one, joined with `/`. */
  readonly prefix: string;
  /** Roles from the outermost landmark down to this one, joined with ` > `. */
  readonly roles: string;
}

/** What {@link traceRefs} reports for each element. */
export interface RefTrace {
  /** The element. */
  el: Element;
  /** The ref before duplicate indexes are added. */
  base: string;
  /** Nearest contributing ancestor (null when there is none). */
  anc: LandmarkNode | null;
  /** Depth below the root (root is 0). */
  depth: number;
}

/**
 * The contributing ancestors of a trace, outermost first.
 *
 * @param anc the trace's nearest contributing ancestor
 * @returns the landmark ancestors, outermost first
 */
export function landmarksOf(anc: LandmarkNode | null): Element[] {
  const out: Element[] = [];
  for (let p = anc; p; p = p.prev) out.push(p.el);
  return out.reverse();
}

/**
 * Computes every element's base ref and landmark ancestors, in document order.
 * The building block of {@link assignRefs} and of `flatten`'s landmark path.
 *
 * @param root the tree
 * @returns one trace per element, document order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceRefs } from "./generate.ts";
 * const t = traceRefs({ i: 1, r: "toolbar", c: [{ i: 2, r: "input", t: "Search" }] });
 * assert.deepEqual(t[1].base, "toolbar/search");
 * assert.deepEqual(t[1].anc?.roles, "toolbar");
 * ```
 */
export function traceRefs(root: Element, keepCount?: ReadonlySet<Element>): RefTrace[] {
  const out: RefTrace[] = [];
  const slugOf = cachedSlug(keepCount);
  const cellKeys = new Map<Element, string>();
  const gridItems = new Set<Element>();
  const seg: Segment = { own: "", contributes: null };
  // One frame per open parent (not per child), walked without recursion: generated
  // trees can be deeper than the call stack, and fewer allocations keep 100k-element
  // trees cheap. `cell` is the enclosing cell's column key ("" for none, null outside cells).
  // `win` is the enclosing window's own segment and the path it sits on.
  type Win = { seg: string; path: LandmarkNode | null } | null;
  const frames: Array<
    {
      el: Element;
      path: LandmarkNode | null;
      depth: number;
      next: number;
      cell: string | null;
      win: Win;
    }
  > = [];
  const visit = (
    el: Element,
    parent: Element | null,
    path: LandmarkNode | null,
    depth: number,
    cell: string | null,
    win: Win,
  ) => {
    if (el.r === "table" || el.r === "tree") indexTable(el, slugOf, cellKeys, gridItems);
    // A dialog (or its page list, named like it) titled after the page it shows ("Options -
    // LibreOffice - User Data"): the page's name is its content, not its name.
    const title = el.t !== undefined && el.r !== "window" && TITLE_PARTS.test(el.t)
      ? titleWithoutCurrentPage(el)
      : undefined;
    segmentOf(title === undefined ? el : { ...el, t: title }, parent, path, slugOf, seg);
    if (el.r === "cell") {
      seg.own = cellKeys.get(el) || "cell";
      // A grid view's item names what is inside it, as a row does.
      seg.contributes = gridItems.has(el) ? seg.own : null;
    } else if (cell !== null) {
      // Inside a cell, text is the cell's value: keyed by role, under the cell's column (not
      // by its place in the row, which shifts when a cell before it becomes an editor).
      // Controls keep their label; one named as its column (the cell's editor, "city" in the
      // City column) is keyed under the cell, which keeps its ref while it is edited.
      if (!INTERACTIVE_IN_CELL.has(el.r)) seg.own = cell ? `${cell}/${el.r}` : el.r;
      else if (cell && seg.own === cell) seg.own = `${cell}/${el.r}`;
      seg.contributes = null;
    }
    // A window's title shown inside it as text (a dialog's header bar) repeats the window on
    // the same path: named by its role, no twin of its window; so is a text field named after
    // the document the window shows (KWrite's editor "notes.txt" in "notes.txt": its name
    // follows the document). A button keeps its label (a dialog "Print" and its button
    // "Print" are twins, as any two controls would be).
    if (win && TITLE_ROLES.has(el.r) && path === win.path && seg.own === win.seg) seg.own = el.r;
    // A group named as its window (LibreOffice's document frame "Untitled 1 - LibreOffice
    // Writer") says the title again: named by its role, and no segment for what it holds,
    // which would carry the document's name into every ref inside it.
    if (win && el.r === "group" && path === win.path && seg.own === win.seg) {
      seg.own = el.r;
      seg.contributes = null;
    }
    out.push({ el, base: fit(path ? `${path.prefix}/${seg.own}` : seg.own), anc: path, depth });
    if (!el.c?.length) return;
    const contributes = seg.contributes;
    const childPath: LandmarkNode | null = contributes === null ? path : {
      seg: contributes,
      el,
      prev: path,
      prefix: path ? `${path.prefix}/${contributes}` : contributes,
      roles: path ? `${path.roles} > ${el.r}` : el.r,
    };
    // A grid view's item already names what is inside it (it contributes its key).
    const childCell = el.r === "cell" ? (gridItems.has(el) ? "" : cellKeys.get(el) ?? "") : cell;
    // A window with no title of its own (a frame inside one: Qt's central widget) keeps the title.
    const childWin = el.r === "window" && seg.own !== el.r ? { seg: seg.own, path } : win;
    frames.push({ el, path: childPath, depth: depth + 1, next: 0, cell: childCell, win: childWin });
  };
  visit(root, null, null, 0, null, null);
  while (frames.length) {
    const top = frames[frames.length - 1];
    const kids = top.el.c!;
    if (top.next >= kids.length) {
      frames.pop();
      continue;
    }
    visit(kids[top.next++], top.el, top.path, top.depth, top.cell, top.win);
  }
  return out;
}

/** What separates the parts of a window's title: "Options - LibreOffice - User Data". */
const TITLE_PARTS = /\s+[-–—|:]\s+|:\s+/;

/** How many elements below a titled container are looked at for its current page. */
const PAGE_LOOK_LIMIT = 5000;

/** Roles whose items name the pages a dialog shows. */
const PAGE_PICKERS: ReadonlySet<Role> = new Set<Role>([
  "treeitem",
  "row",
  "listitem",
  "option",
  "tab",
  "cell",
]);

/**
 * A container's title without the name of the page it shows, when the title
 * names it: a part of the title (between ` - `, `: `, ` | `) that is the label
 * of a tree item, row or tab inside it (a dialog, or the tree that picks its
 * pages, which LibreOffice names like the dialog and does not rename when
 * another page is chosen: any page's name is left out, not only the selected
 * one's). Undefined when the title names no such page.
 */
function titleWithoutCurrentPage(dialog: Element): string | undefined {
  const title = dialog.t?.trim();
  if (!title || !TITLE_PARTS.test(title)) return undefined;
  const selected = new Set<string>();
  const stack = [...(dialog.c ?? [])];
  // A page picker sits near the top of what it names: a bounded look keeps this cheap.
  for (let seen = 0; stack.length && seen < PAGE_LOOK_LIMIT; seen++) {
    const el = stack.pop()!;
    if (PAGE_PICKERS.has(el.r)) {
      const label = el.t?.trim() || rowKeyText(el);
      if (label) selected.add(label.toLowerCase());
    }
    if (el.r !== "dialog") { for (const k of el.c ?? []) stack.push(k); }
  }
  if (!selected.size) return undefined;
  const parts = title.split(TITLE_PARTS);
  const kept = parts.filter((p) => !selected.has(p.trim().toLowerCase()));
  return kept.length === parts.length ? undefined : kept.join(" - ");
}

/** Roles inside a cell that keep their label in a ref (a Refund button, a checkbox). */
const INTERACTIVE_IN_CELL: ReadonlySet<Role> = new Set<Role>([
  "btn",
  "lnk",
  "chk",
  "toggle",
  "radio",
  "combo",
  "input",
  "spin",
  "slider",
  "menuitem",
]);

/** Roles whose children are a table's cells or column headers. */
const CELL_ROLES: ReadonlySet<Role> = new Set<Role>(["cell", "colheader"]);

/** The cells and column headers directly in a row (or a table), through unlabeled groups. */
function cellsOf(parent: Element): Element[] {
  const out: Element[] = [];
  for (const kid of parent.c ?? []) {
    if (CELL_ROLES.has(kid.r)) out.push(kid);
    else if (kid.r === "group" && !kid.t) out.push(...cellsOf(kid));
  }
  return out;
}

/** The rows of a table, not those of tables nested in it. */
function rowsOf(table: Element): Element[] {
  const out: Element[] = [];
  const stack = [...(table.c ?? [])].reverse();
  while (stack.length) {
    const el = stack.pop()!;
    if (ROW_ROLES.has(el.r)) out.push(el);
    if (el.r === "table" || el.r === "tree" || el.r === "cell") continue;
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out;
}

/**
 * Keys every cell of a table by its column header's slug, so a ref never
 * carries a cell's value. Rows come from their own key (the row key). A table
 * that lists its cells directly, row after row under its column headers
 * (GTK 3 tree views), gets the row key of each virtual row (its first cell)
 * in front: `files/readme-txt/size`.
 */
function indexTable(
  table: Element,
  slugOf: SlugOf,
  keys: Map<Element, string>,
  items: Set<Element>,
): void {
  const direct = cellsOf(table);
  let headers = direct.filter((c) => c.r === "colheader").map((c) => columnKey(c, slugOf));
  const rows = rowsOf(table);
  if (headers.length === 0) {
    const head = rows.find((r) => {
      const cells = cellsOf(r);
      return cells.length > 0 && cells.every((c) => c.r === "colheader");
    });
    if (head) headers = cellsOf(head).map((c) => columnKey(c, slugOf));
  }
  if (headers.length === 0 && rows.length === 0) {
    // A grid view (cells straight in the table, no rows, no headers: a file manager's icons)
    // holds items, not values: each cell is keyed like a row, by its first text, unless every
    // item shows that text (a font viewer's "Aa" sample): then by the first one that differs.
    const cells = direct.filter((c) => c.r === "cell");
    const texts = cells.map((c) => rowKeys(c, slugOf.key, GRID_KEY_DEPTH));
    let at = 0;
    while (
      cells.length > 1 && at < GRID_KEY_DEPTH - 1 &&
      texts.every((t) => t[at] !== undefined && t[at] === texts[0][at]) &&
      texts.some((t) => t[at + 1] !== undefined)
    ) at++;
    cells.forEach((c, k) => {
      const key = texts[k][at] ?? texts[k][0] ?? "";
      if (key) {
        keys.set(c, key);
        items.add(c);
      }
    });
    return;
  }
  if (headers.length === 0) {
    // A spreadsheet's cells are named by their address ("B2"), not by what they hold: that
    // name is their key (`sheet-sheet1/a2/b2`), where other cells would be `cell.2`.
    for (const row of rows) {
      const cells = cellsOf(row);
      if (cells.length && cells.every((c) => c.r === "cell" && isCellAddress(c.t))) {
        for (const c of cells) keys.set(c, slugOf(c, true));
      }
    }
    return;
  }
  for (const row of rows) {
    cellsOf(row).forEach((c, k) => {
      if (c.r === "cell" && headers[k]) keys.set(c, headers[k]);
    });
  }
  const flat = direct.filter((c) => c.r === "cell");
  const n = headers.length;
  for (let j = 0; j < flat.length; j++) {
    const col = j % n;
    const rowKey = slugOf(flat[j - col], true);
    const colKey = headers[col] || "cell";
    keys.set(flat[j], rowKey && col > 0 ? `${rowKey}/${colKey}` : rowKey || colKey);
  }
}

/** A spreadsheet cell's address as its name: a column's letters, then its row's number. */
const CELL_ADDRESS = /^\$?[A-Z]{1,3}\$?[1-9]\d{0,6}$/;

/** Whether a cell's name is its address in a sheet (`B2`, `AA10`). */
function isCellAddress(name: string | undefined): boolean {
  return name !== undefined && CELL_ADDRESS.test(name);
}

/**
 * A column's key: its header's slug, without the labels of the controls in
 * it (a browser names a header "Balance Sort by Balance" after its text and
 * its sort button): the cells of that column are `<row>/balance`.
 */
function columnKey(header: Element, slugOf: SlugOf): string {
  const full = slugOf(header, true);
  let rest = header.t?.trim() ?? "";
  if (!rest || !header.c?.length) return full;
  const inside: Element[] = [...header.c];
  for (let k = 0; k < inside.length && k < HEADER_LOOK_LIMIT; k++) {
    const d = inside[k];
    const label = d.t?.trim();
    if (INTERACTIVE_IN_CELL.has(d.r) && label && label !== rest) rest = rest.replace(label, " ");
    else if (d.c) inside.push(...d.c);
  }
  rest = rest.trim();
  return rest && rest !== header.t?.trim() ? slugOf({ ...header, t: rest }, true) || full : full;
}

/** How many elements inside a column header are looked at for its controls. */
const HEADER_LOOK_LIMIT = 20;

/** The segments of one element, filled in by {@link segmentOf} (reused to spare allocations). */
interface Segment {
  /** The element's own last segment. */
  own: string;
  /** What it contributes to its descendants' refs, or null. */
  contributes: string | null;
}

/**
 * Keeps a ref within {@link MAX_REF_LENGTH} (with room for a `.N` index) by
 * dropping its outermost segments: only very deep trees of long labels need it.
 */
function fit(ref: string): string {
  let out = ref;
  while (out.length > MAX_REF_LENGTH - INDEX_ROOM && out.includes("/")) {
    out = out.slice(out.indexOf("/") + 1);
  }
  return out;
}

/**
 * The slug of an element's best label; `asKey` when it keys a row or a
 * column (an identifier: only a bracketed count leaves it).
 */
type SlugOf = ((el: Element, asKey?: boolean) => string) & {
  /** The slug as a key: `slugOf(el, true)`, one function for every row looked at. */
  key: (el: Element) => string;
};

/**
 * A memoized slug of an element's {@link bestLabel}: UIs repeat labels
 * ("Delete", "OK") a lot.
 */
function cachedSlug(keepCount?: ReadonlySet<Element>): SlugOf {
  const cache = new Map<string, string>();
  const slugOnce = (label: string) => {
    let s = cache.get(label);
    if (s === undefined) {
      s = isToolkitClassName(label) ? "" : slug(label);
      cache.set(label, s);
    }
    return s;
  };
  // Each label's slug without its count ("" when it has none), by label, key use and badge.
  // Without a badge (nearly always) the label alone is the key: no key string is built.
  const bareByLabel = [new Map<string, string>(), new Map<string, string>()];
  const bareWithBadge = new Map<string, string>();
  const bareSlug = (label: string, asKey: boolean, badge: string | undefined) => {
    // A count is made of digits: a label without one has none to leave out.
    if (!HAS_DIGIT.test(label)) return "";
    const cache = badge === undefined ? bareByLabel[asKey ? 1 : 0] : bareWithBadge;
    const k = badge === undefined ? label : `${asKey ? 1 : 0}${badge}\u0000${label}`;
    let s = cache.get(k);
    if (s === undefined) {
      const bare = uncounted(label, asKey, badge);
      s = bare ? slugOnce(bare) : "";
      cache.set(k, s);
    }
    return s;
  };
  const slugOf = (el: Element, asKey = false) => {
    const t = el.t?.trim();
    // A count changes: not part of a ref (see uncounted). A row's key ("Invoice 17") is an
    // identifier: only a bracketed count leaves it; so is a number that tells twins apart.
    const s = t ? (keepCount?.has(el) ? "" : bareSlug(t, asKey, badgeOf(el))) || slugOnce(t) : "";
    if (s) return s;
    // A description's trailing shortcut hint ("Multiply [*]", "Pi [Ctrl+P]") is not its name,
    // and a tooltip of the form "Move Tool: Move layers…" is named by its head.
    const d = el.d?.trim().replace(SHORTCUT_HINT, "").replace(TOOLTIP_TAIL, "");
    const ds = d ? slugOnce(d) : "";
    if (ds) return ds;
    const ph = el.ph?.trim();
    return ph ? slugOnce(ph) : "";
  };
  return Object.assign(slugOf, { key: (el: Element) => slugOf(el, true) });
}

/** A letter anywhere: a text without one (a number, a symbol) is named by its role. */
const HAS_LETTER = /\p{L}/u;

/** Roles that say their window's title: its text or heading, or the document's text field. */
const TITLE_ROLES: ReadonlySet<Role> = new Set<Role>(["txt", "heading", "input"]);

/** Fills `out` with the element's own segment and the one it contributes to descendants. */
function segmentOf(
  el: Element,
  parent: Element | null,
  path: LandmarkNode | null,
  slugOf: SlugOf,
  out: Segment,
): void {
  // A text that is only a number ("4" in a badge, "$20") is a value, named by its role. A row
  // with no label of its own is keyed by what it shows before its tooltip (GTK's places
  // sidebar: "Home", not "Open your personal folder").
  // The row key of a row with no title, found once for both uses below.
  const untitledRowKey = ROW_ROLES.has(el.r) && !el.t?.trim() ? rowKey(el, slugOf) : undefined;
  const labelSlug = LIVE_TEXT_ROLES.has(el.r) || (el.r === "txt" && !HAS_LETTER.test(el.t ?? "")) ||
      (untitledRowKey !== undefined && untitledRowKey !== "")
    ? ""
    : slugOf(el);
  out.own = labelSlug || el.r;
  out.contributes = null;
  // A label that repeats its container's segment is an echo: name it by role (the link
  // "Invoice 17" that keys its row `invoice-17`, counted or not).
  const counted = labelSlug !== "" && HAS_DIGIT.test(el.t ?? "");
  if (labelSlug && path && (path.seg === labelSlug || (counted && path.seg === slugOf(el, true)))) {
    out.own = el.r;
  } else if (SKIPPED_ROLES.has(el.r)) {
    // Implied containers: never in a path. A window titled as its app (macOS's "Calculator",
    // "dconf Editor") repeats the app: named by its role, no twin of the app.
    if (el.r === "window" && parent?.r === "app" && labelSlug === slugOf(parent)) out.own = el.r;
  } else if (ROW_ROLES.has(el.r) && !labelSlug) {
    const key = untitledRowKey ?? rowKey(el, slugOf);
    if (key && !(path && path.seg === key)) out.own = out.contributes = key;
  } else if (LANDMARK_ROLES.has(el.r)) {
    const popup = !labelSlug && (el.r === "menu" || el.r === "list" || el.r === "listbox") &&
      parent !== null &&
      POPUP_OWNERS.has(parent.r);
    // An unlabeled list inside a row is that row's sublist (a nested navigation, a thread's
    // replies): the row's key already names it.
    const sublist = !labelSlug && (el.r === "list" || el.r === "listbox") && path !== null &&
      ROW_ROLES.has(path.el.r);
    if (!popup && !sublist) out.contributes = out.own;
  } else if (labelSlug) {
    out.contributes = labelSlug;
  }
}

/** Controls that never key a row: a cell holding only one of them (a row's checkbox) is skipped. */
const NON_KEY_CONTROLS: ReadonlySet<Role> = new Set<Role>([
  "chk",
  "radio",
  "toggle",
  "btn",
  "combo",
  "input",
  "spin",
  "slider",
]);

/** Whether a cell only wraps a control (a selection checkbox, a button): no key column. */
function controlCell(el: Element): boolean {
  let inner: Element = el;
  while (inner.c?.length === 1) inner = inner.c[0];
  return inner !== el && NON_KEY_CONTROLS.has(inner.r);
}

/** A list marker or position number: "1.", "12)". */
const ORDINAL = /^\s*\d+\s*[.)]\s*$/;

/**
 * Containers inside a row that belong to other rows (a nested list's items, a
 * nested table): never searched for the row's key.
 */
const OTHER_ROWS: ReadonlySet<Role> = new Set<Role>([
  "list",
  "listbox",
  "table",
  "tree",
  "row",
  "treeitem",
  "listitem",
  "option",
]);

/** Controls whose label may key a row that has no text of its own (a disclosure button). */
const KEY_CONTROLS: ReadonlySet<Role> = new Set<Role>(["btn", "menuitem"]);

/**
 * Slug of the first labeled cell, link, text or heading of a row's own
 * content, depth-first, skipping cells that only hold a control (a row's
 * selection checkbox is named after the row, it is not its key) and nested
 * lists and tables (their items are other rows). A row with none of those is
 * keyed by its first labeled button (a navigation group's "Guides" toggle).
 */
function rowKey(row: Element, slugOf: SlugOf): string {
  return rowKeys(row, slugOf.key, 1)[0] ?? "";
}

/** How many texts of a grid view's item are candidates for its key. */
const GRID_KEY_DEPTH = 3;

/**
 * The first `max` candidates for a row's key, in the order {@link rowKey}
 * tries them (its key is the first), each as `labelOf` gives it (empty:
 * no key); the first labeled button when there is no text.
 */
function rowKeys(row: Element, labelOf: (el: Element) => string, max: number): string[] {
  const out: string[] = [];
  let control = "";
  const own = row.c;
  if (!own?.length) return out;
  const stack: Element[] = [];
  for (let k = own.length - 1; k >= 0; k--) stack.push(own[k]);
  while (stack.length && out.length < max) {
    const el = stack.pop()!;
    if (OTHER_ROWS.has(el.r)) continue;
    if (el.r === "cell" && controlCell(el)) continue;
    // An ordinal ("1.", "2)") is the row's position, not its key: it changes when a row is
    // inserted above.
    if (ROW_KEY_ROLES.has(el.r) && !ORDINAL.test(el.t ?? "")) {
      const s = labelOf(el);
      if (s) out.push(s);
    }
    if (!control && KEY_CONTROLS.has(el.r)) control = labelOf(el);
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out.length || !control ? out : [control];
}

/**
 * The text an element contributes to a row's key, as people read it: its
 * label (else its description) without a bracketed count; "" for a toolkit
 * class name or a label with no letter or digit.
 *
 * @param el a cell, text, link, heading or button
 * @returns the text, or ""
 * @example
 * ```ts
 * import { keyLabel } from "./generate.ts";
 * import assert from "node:assert/strict";
 * assert.equal(keyLabel({ i: 1, r: "cell", t: " Drafts (3) " }), "Drafts");
 * assert.equal(keyLabel({ i: 1, r: "txt", t: "·" }), "");
 * ```
 */
export function keyLabel(el: Element): string {
  return keyText(el.t) || keyText(el.d);
}

/** A letter or digit anywhere: a text without one keys nothing. */
const HAS_WORD = /[\p{L}\p{N}]/u;

/** The text a label or description contributes to a row's key (see {@link keyLabel}), or "". */
function keyText(raw: string | undefined): string {
  const t = raw?.trim();
  if (!t || isToolkitClassName(t) || !HAS_WORD.test(t)) return "";
  return t.replace(BRACKETED_COUNT, "").trim() || t;
}

/**
 * What identifies a row: the text its ref is keyed by (its own label, else
 * its key column: the first labeled cell, link, text or heading, skipping
 * cells that only hold a control, ordinals and nested rows; else its first
 * labeled button), as the row shows it, without a bracketed count. Never the
 * values of its other cells, which change while the row stays the same row.
 * Empty when the row has no key.
 *
 * @param row a row, tree item, or any container read as one
 * @returns the key's text, or ""
 * @example
 * ```ts
 * import { rowKeyText } from "./generate.ts";
 * import assert from "node:assert/strict";
 * const row = { i: 1, r: "row" as const, c: [
 *   { i: 2, r: "cell" as const, c: [{ i: 3, r: "chk" as const, t: "Select" }] },
 *   { i: 4, r: "cell" as const, t: "SO-1005" }, { i: 5, r: "cell" as const, t: "Open" },
 * ] };
 * assert.equal(rowKeyText(row), "SO-1005");
 * assert.equal(rowKeyText({ ...row, t: "Inbox (12)" }), "Inbox");
 * ```
 */
export function rowKeyText(row: Element): string {
  // Its own title first, then its key column, then its description (as its ref is made).
  const own = keyText(row.t);
  return own || (rowKeys(row, keyLabel, 1)[0] ?? "") || keyLabel(row);
}

/**
 * Roles that only show something (a heading, a text, an image): the lowest
 * peers, so a heading named like the switch under it never twins the switch.
 */
const SHOWING_ROLES: ReadonlySet<Role> = new Set<Role>([
  "txt",
  "heading",
  "img",
  "statusbar",
  "progress",
  "tooltip",
  "separator",
  "colheader",
  "cell",
  "other",
]);

/**
 * Which peers an element twins with: controls (0), containers (1: a table,
 * a popup menu, a group), things that only show (2). Elements of different
 * kinds sharing a ref are not twins: the highest kind keeps the ref, each
 * other one is keyed under it by its role (a menu named like the item that
 * opens it is `format/font/menu`; a heading named like a control is
 * `notifications/heading`).
 */
function peerKind(el: Element): number {
  if (INTERACTIVE_ROLES.has(el.r)) return 0;
  return SHOWING_ROLES.has(el.r) ? 2 : 1;
}

/**
 * The elements whose ref would leave out a count that alone tells them from
 * their twins: of the elements sharing a base ref, those named by their
 * label without its count, when two or more such labels differ.
 */
function numberedTwins(traces: readonly RefTrace[]): Set<Element> {
  const byBase = new Map<string, RefTrace[]>();
  for (const t of traces) {
    const label = t.el.t?.trim();
    if (!label || !HAS_DIGIT.test(label)) continue;
    const bare = uncounted(label, false, badgeOf(t.el));
    if (!bare || t.base.slice(t.base.lastIndexOf("/") + 1) !== slug(bare)) continue;
    const list = byBase.get(t.base);
    if (list) list.push(t);
    else byBase.set(t.base, [t]);
  }
  const keep = new Set<Element>();
  for (const list of byBase.values()) {
    if (new Set(list.map((t) => slug(t.el.t!.trim()))).size < 2) continue;
    for (const t of list) keep.add(t.el);
  }
  return keep;
}

/**
 * Sets `ref` on every element of the tree. Elements that would share a ref
 * all get `.1`, `.2`... in document order, so a bare duplicate never
 * resolves to a guess. Twins are peers only: when a control shares its ref
 * with a heading, a text or a popup, the control keeps the bare ref and the
 * others are keyed under it by their role ({@link peerKind}).
 *
 * @param root the tree (mutated: `ref` is set on every element)
 * @example
 * ```ts
 * import { assignRefs } from "./generate.ts";
 * import assert from "node:assert/strict";
 * import type { Element } from "../model/element.ts";
 * const root: Element = { i: 1, r: "dialog", c: [
 *   { i: 2, r: "btn", t: "OK" }, { i: 3, r: "btn", t: "OK" },
 *   { i: 4, r: "heading", t: "Mute" }, { i: 5, r: "toggle", t: "Mute" },
 * ] };
 * assignRefs(root);
 * assert.deepEqual(root.c?.map((e) => e.ref), [
 *   "dialog/ok.1", "dialog/ok.2", "dialog/mute/heading", "dialog/mute",
 * ]);
 * ```
 */
export function assignRefs(root: Element): void {
  let traces = traceRefs(root);
  // Twins whose labels differ only in their numbers ("1 m", "5 m", "30 m": a timer's presets)
  // are told apart by them: their numbers are what they are, not counts that change.
  const keep = numberedTwins(traces);
  if (keep.size) traces = traceRefs(root, keep);
  // How many elements share each base; lists only for the bases that are shared.
  const counts = new Map<string, number>();
  for (const t of traces) counts.set(t.base, (counts.get(t.base) ?? 0) + 1);
  const shared = new Map<string, RefTrace[]>();
  for (const t of traces) {
    if (counts.get(t.base)! < 2) continue;
    const list = shared.get(t.base);
    if (list) list.push(t);
    else shared.set(t.base, [t]);
  }
  shared.forEach((list, base) => {
    // Of one kind, an element named by its label outranks one named by its role (an echo of
    // its window, or unlabelled): a row "Table" and the unlabelled table holding it.
    const own = base.slice(base.lastIndexOf("/") + 1);
    const rank = (el: Element) => peerKind(el) * 2 + (own === el.r ? 1 : 0);
    const top = Math.min(...list.map((t) => rank(t.el)));
    for (const t of list) {
      if (rank(t.el) === top) continue;
      // Keyed under the ref by its role: counted under its new base.
      counts.set(base, counts.get(base)! - 1);
      t.base = fit(`${base}/${t.el.r}`);
      counts.set(t.base, (counts.get(t.base) ?? 0) + 1);
    }
  });
  const seen = new Map<string, number>();
  for (const t of traces) {
    if (counts.get(t.base)! > 1) {
      const n = (seen.get(t.base) ?? 0) + 1;
      seen.set(t.base, n);
      t.el.ref = formatRef(t.base, n);
    } else {
      t.el.ref = t.base;
    }
  }
}
