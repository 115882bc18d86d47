/**
 * The `agent` text format: one line per element, as few tokens as possible,
 * every interactive element addressable and every visible text kept.
 *
 * A line reads `[id|ref] role "label" val="..." (x,y,w,h) flags`:
 * - the role word is left out for static text (`[5|welcome] "Welcome"`);
 * - flags are `focused disabled checked|unchecked|mixed expanded|collapsed
 *   selected required secure readonly`, then `lv=N`, `range=MIN..MAX`,
 *   `desc="..."`, `ph="..."` and `actions=...` when they add something;
 * - anonymous containers (an unlabeled group, scroll area, web area, a text
 *   with no text of its own...) that carry nothing are not printed: their
 *   children take their place;
 * - a leaf text or image that only repeats its parent's label is not printed
 *   (a button's caption, a link's text);
 * - the box of an element scrolled out of its window is left out (nothing
 *   can be clicked there): no box means "not on screen";
 * - a row whose cells are all simple is printed on one line:
 *   `[7|list/invoice-17] row: "Invoice 17" | "$30" | [9|list/invoice-17/delete] btn "Delete"`;
 * - three or more such rows of the same shape share a header that names the
 *   repeated elements once (`rows: "…" | [id|<row>/delete] btn "Delete"`),
 *   and each row line then shows only what differs: `[7|list/invoice-17]:
 *   "Invoice 17" | "$30" | [9]`, where `[9]` is element 9, ref
 *   `list/invoice-17/delete` (see ./agent_rows.ts);
 * - labels and values are escaped (`\"`, `\n`...) and capped with `…` and
 *   the full length.
 *
 * A secure element's value is never printed, even if one was set by mistake
 * (`val=***` only says that it has one).
 *
 * @module
 */

import type { Bounds, Element } from "../model/element.ts";
import {
  type AgentOptions,
  elementLine,
  fold,
  hasInformativeActions,
  hasState,
  isPunctuation,
  isStaticText,
  labelOf,
  type LiftedTexts,
  refText,
  shownChildren,
  textCap,
} from "./agent_line.ts";
import { foldRow, inlineRow, isFoldedRowRole, runLines, uniformRunAt } from "./agent_rows.ts";

export {
  type AgentOptions,
  elementLine,
  informativeActions,
  isAnonymous,
  quote,
} from "./agent_line.ts";

/** What the tree walk prints next: an element, or a line already made (a row of a run). */
type Entry =
  | { el: Element; depth: number; opts: AgentOptions }
  | { line: string }
  | { closed: Element; indent: string; opts: AgentOptions };

/**
 * Renders a tree in the agent format.
 *
 * @param root the tree (ids and refs assigned)
 * @param opts bounds, text cap, tree or flat
 * @returns the text, one element per line, ending with a newline
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderAgent } from "./agent.ts";
 * const text = renderAgent({ i: 1, ref: "app", r: "app", t: "App", c: [
 *   { i: 2, ref: "ok", r: "btn", t: "OK", c: [{ i: 3, ref: "ok/txt", r: "txt", t: "OK" }] },
 * ] });
 * assert.equal(text, '[1|app] app "App"\n  [2|ok] btn "OK"\n');
 * ```
 */
export function renderAgent(root: Element, opts: AgentOptions = {}): string {
  const tree = opts.tree ?? true;
  const lines: string[] = [];
  const stack: Entry[] = [{ el: root, depth: 0, opts }];
  // Where lifted children came from: one pair of collections for the whole walk, emptied
  // before each element that fills them (an element's are used before the next one's).
  const from: LiftedTexts = { origins: new Map(), inline: new Set() };
  // The first closed menu printed says how to see its items; the others only how many they hold.
  let hinted = false;
  const closedSuffix = (menu: Element, items: number, o: AgentOptions) => {
    const how = hinted ? "" : `: open it, or read --scope-ref ${refText(menu, o)}`;
    hinted = true;
    return ` (closed, ${items} ${items === 1 ? "item" : "items"}${how})`;
  };
  while (stack.length) {
    const entry = stack.pop()!;
    if ("line" in entry) {
      lines.push(entry.line);
      continue;
    }
    if ("closed" in entry) {
      // Made when printed, so that the hint goes with the first closed menu in the text.
      const menu = entry.closed;
      const items = shownChildren(menu, labelOf(menu)).length;
      lines.push(
        entry.indent + elementLine({ ...menu, b: undefined }, entry.opts) +
          closedSuffix(menu, items, entry.opts),
      );
      continue;
    }
    const { depth } = entry;
    // A heading or cell that only wraps one element of the same label (a heading's link) is that
    // element: one line, the heading level kept as a flag.
    let el = entry.el;
    let wrapper: Element | null = null;
    for (let inner = echoWrapped(el); inner; inner = echoWrapped(el)) {
      if (el.r === "heading") wrapper = el;
      el = inner;
    }
    // A window's box is the viewport of everything inside it.
    const o = el.r === "window" && el.b ? withViewport(entry.opts, el.b) : entry.opts;
    const indent = tree ? "  ".repeat(depth) : "";
    const row = inlineRow(el, o);
    if (row !== null) {
      lines.push(indent + row);
      continue;
    }
    const level = wrapper ? ` heading${wrapper.lv !== undefined ? ` lv=${wrapper.lv}` : ""}` : "";
    if (from.origins.size) from.origins.clear();
    if (from.inline.size) from.inline.clear();
    const shown = shownChildren(el, labelOf(el), from);
    const kids = o.bareText && !o.bounds
      ? joinTextRuns(shown, from, textCap(o))
      : shown.filter((k) => !isPunctuation(k));
    // A button that holds its closed menu's items itself (GTK 3's menu button) is one line too.
    if (depth >= 1 && holdsClosedMenu(el, kids)) {
      lines.push(indent + elementLine(el, o) + level + closedSuffix(el, kids.length, o));
      continue;
    }
    lines.push(indent + elementLine(el, o) + level);
    const next: Entry[] = [];
    const kidIndent = tree ? "  ".repeat(depth + 1) : "";
    // Rows are folded once: into runs of one shape, else onto a line each.
    const folded = tree ? kids.map((kid) => isFoldedRowRole(kid) ? foldRow(kid, o) : null) : [];
    for (let k = 0; k < kids.length;) {
      const run = tree ? uniformRunAt(folded, k) : null;
      // A closed menu below the printed root is one line; scoped to it (or its opener), it opens.
      if (depth >= 1 && isClosedMenu(kids[k], el)) {
        next.push({ closed: kids[k++], indent: kidIndent, opts: o });
        continue;
      }
      if (run) {
        for (const line of runLines(run, o)) next.push({ line: kidIndent + line });
        k += run.length;
      } else if (folded[k]) {
        next.push({ line: kidIndent + folded[k++]!.line });
      } else {
        next.push({ el: kids[k++], depth: depth + 1, opts: o });
      }
    }
    for (let k = next.length - 1; k >= 0; k--) stack.push(next[k]);
  }
  return lines.length ? lines.join("\n") + "\n" : "";
}

/** A text run's next piece that needs no space before it (closing punctuation). */
const NO_SPACE_BEFORE = /^[,.;:!?)\]}’”»%]/u;
/** A piece that needs no space after it (opening punctuation). */
const NO_SPACE_AFTER = /[(\[{‘“«]$/u;

/**
 * Whether two pieces of one paragraph were set apart by a space. Browsers
 * trim the pieces' names, so a space is assumed unless punctuation closes on
 * the next piece or opens on this one; a gap between boxes on one line always
 * means a space.
 */
function spaced(a: Element, b: Element, before: string, next: string): boolean {
  if (a.b && b.b && Math.abs(a.b[1] - b.b[1]) < Math.max(2, a.b[3] / 2)) {
    if (b.b[0] - (a.b[0] + a.b[2]) >= 2) return true;
  }
  return !NO_SPACE_BEFORE.test(next) && !NO_SPACE_AFTER.test(before);
}

/**
 * Joins the static texts of one paragraph into one line. A browser splits a
 * paragraph at every inline element ("Rust is a" / "statically typed" /
 * "language, which…"); printed apart, each costs a line and the paragraph's
 * bounds are lost. A run joins only when one of its texts sat in an inline
 * run (rich text, not a title above a subtitle), within the unprinted
 * container it came from (never across paragraphs), and while the whole fits
 * the text cap. Punctuation left alone gets no line.
 *
 * @param kids the children to print (punctuation-only texts kept)
 * @param from where lifted children came from
 * @param cap the text cap
 * @returns the children, with each run of static texts as one text
 */
function joinTextRuns(kids: readonly Element[], from: LiftedTexts, cap: number): Element[] {
  const out: Element[] = [];
  for (let k = 0; k < kids.length;) {
    const first = kids[k];
    let end = k + 1;
    while (
      end < kids.length && isStaticText(first) && isStaticText(kids[end]) &&
      from.origins.get(kids[end]) === from.origins.get(first)
    ) end++;
    let text = labelOf(first);
    let joinedTo = k + 1;
    if (end - k > 1 && kids.slice(k, end).some((t) => from.inline.has(t))) {
      for (; joinedTo < end; joinedTo++) {
        const next = labelOf(kids[joinedTo]);
        const glue = spaced(kids[joinedTo - 1], kids[joinedTo], text, next) ? " " : "";
        if (text.length + glue.length + next.length > cap) break;
        text += glue + next;
      }
    }
    if (joinedTo - k > 1) out.push({ i: first.i, ref: first.ref, r: "txt", t: text });
    else if (!isPunctuation(first)) out.push(first);
    k = joinedTo;
  }
  return out;
}

/** Roles that are only a wrapper when their one element says the same. */
const ECHO_WRAPPERS: ReadonlySet<string> = new Set(["heading", "cell", "group", "other", "txt"]);

/** Buttons that wrap a button of their own label (GTK 4's menu button around its toggle). */
const BUTTON_ROLES: ReadonlySet<string> = new Set(["btn", "toggle"]);

/**
 * The one element a heading, cell, group or text only wraps (a GTK label that
 * is all link), when it has the same label and the wrapper says nothing else
 * (no state, value or description);
 * likewise a button that only wraps a button of its label.
 *
 * @param el the wrapper
 * @returns the wrapped element, or null
 */
function echoWrapped(el: Element): Element | null {
  if (BUTTON_ROLES.has(el.r)) {
    // It says nothing the button inside does not: same label and description, no state.
    const kid = el.c?.length === 1 ? el.c[0] : undefined;
    const same = kid !== undefined && BUTTON_ROLES.has(kid.r) && !hasState(el) &&
      fold(labelOf(kid)) === fold(labelOf(el)) && fold(kid.d) === fold(el.d) &&
      (labelOf(el) !== "" || (el.d ?? "") !== "");
    return same ? kid : null;
  }
  if (!ECHO_WRAPPERS.has(el.r) || hasState(el) || hasInformativeActions(el) || el.d) {
    return null;
  }
  const label = labelOf(el);
  if (!label || (el.v && fold(el.v) !== fold(label))) return null;
  const kids = shownChildren(el, label);
  if (kids.length !== 1 || isFoldedRowRole(kids[0])) return null;
  return fold(labelOf(kids[0])) === fold(label) ? kids[0] : null;
}

/**
 * What a read prints no line for because it sits in a closed menu (the read
 * prints the menu as one line, `(closed, 5 items)`): the menu's items and
 * everything inside them. A diff reports those items as added when the menu
 * opens, since that is when a read shows them.
 *
 * @param root the tree read
 * @returns the elements inside closed menus
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closedMenuParts } from "./agent.ts";
 * const item = { i: 4, r: "menuitem" as const, t: "Basic mode" };
 * const bar = { i: 2, r: "menubar" as const, c: [
 *   { i: 3, r: "menu" as const, t: "View", b: [0, 0, 40, 20] as [number, number, number, number], c: [item] },
 * ] };
 * assert.ok(closedMenuParts({ i: 1, r: "window", c: [bar] }).has(item));
 * ```
 */
export function closedMenuParts(root: Element): Set<Element> {
  const out = new Set<Element>();
  const hide = (el: Element) => {
    const stack = [...el.c ?? []];
    while (stack.length) {
      const e = stack.pop()!;
      out.add(e);
      for (const k of e.c ?? []) stack.push(k);
    }
  };
  // Most trees hold no menu: one cheap pass says so.
  let menus = false;
  const scan = [root];
  while (scan.length && !menus) {
    const e = scan.pop()!;
    menus = e.r === "menu" || e.r === "menuitem";
    for (const k of e.c ?? []) scan.push(k);
  }
  if (!menus) return out;
  // The rules the walk in renderAgent applies, below the printed root.
  const stack: Array<{ el: Element; depth: number }> = [{ el: root, depth: 0 }];
  while (stack.length) {
    const { el, depth } = stack.pop()!;
    if (!el.c?.length) continue;
    const kids = shownChildren(el, labelOf(el)).filter((k) => !isPunctuation(k));
    if (depth >= 1 && holdsClosedMenu(el, kids)) {
      hide(el);
      continue;
    }
    for (const kid of el.c) {
      if (depth >= 1 && isClosedMenu(kid, el)) hide(kid);
      else stack.push({ el: kid, depth: depth + 1 });
    }
  }
  return out;
}

/**
 * Whether a menu is closed: its opener says collapsed, or the opener is on
 * screen and the menu is not.
 *
 * @param menu a child element
 * @param owner its parent
 * @returns true for a closed menu
 */
export function isClosedMenu(menu: Element, owner: Element): boolean {
  if (menu.r !== "menu" || !menu.c?.length) return false;
  if (owner.exp === false) return true;
  return owner.b !== undefined && menu.b === undefined &&
    menu.c.every((item) => item.b === undefined);
}

/**
 * Whether an element on screen holds a closed menu's items directly, none of
 * them on screen: GTK's menu bar entries (a `menu` on the bar) and menu
 * buttons list their menu's items as their own children.
 *
 * @param owner the element
 * @param kids its shown children
 * @returns true when its children are a closed menu's items
 */
function holdsClosedMenu(owner: Element, kids: readonly Element[]): boolean {
  if (owner.r === "menubar" || owner.b === undefined) return false;
  // An opener whose one child is its menu (Chromium, Qt) leaves that to isClosedMenu; a menu
  // may hold only submenus (galculator's "Calculator").
  return (owner.r === "menu" ? kids.length > 0 : kids.some((k) => k.r === "menuitem")) &&
    kids.every((k) => (k.r === "menuitem" || k.r === "menu") && k.b === undefined);
}

function withViewport(opts: AgentOptions, viewport: Bounds): AgentOptions {
  return opts.viewport === viewport ? opts : { ...opts, viewport };
}
