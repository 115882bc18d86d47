/**
 * One element of the agent format as a line: `[id|ref] role "label" val="..."
 * (x,y,w,h) flags`, and the rules that decide what a line leaves out (roles
 * implied by the text, actions implied by the role, anonymous containers,
 * echoes of a parent's label). See ./agent.ts for the whole format.
 *
 * @module
 */

import {
  type Bounds,
  type Element,
  type FlatElement,
  shownValue,
  shownValueText,
} from "../model/element.ts";
import { fold } from "../model/text.ts";
import { isLabelSlug } from "../refs/generate.ts";
import type { RefShortener } from "./short_refs.ts";

/** Options of the agent format. */
export interface AgentOptions {
  /** Print bounds `(x,y,w,h)` (default true). */
  bounds?: boolean;
  /**
   * Longest label or value printed, in characters: longer ones end in
   * `…"(N chars)` (default {@link LINE_MAX_TEXT}; a read passes
   * {@link READ_MAX_TEXT}; 0: no cap).
   */
  maxText?: number;
  /** Indent children (tree); false prints a flat list (default true). */
  tree?: boolean;
  /**
   * The screen area of the window being printed: boxes of elements entirely
   * outside it (scrolled out of view) are left out, since nothing can be
   * clicked there. Set by the tree walk; unset prints every box.
   */
  viewport?: Bounds;
  /**
   * Prints each ref as its shortest unique suffix in the tree the shortener
   * was built from (see ./short_refs.ts); unset prints full refs.
   */
  short?: RefShortener;
  /**
   * Static text prints as its quoted text alone, without `[id|ref]`: it is
   * read, not acted on (`find --text` and `wait --for-text` reach it; JSON
   * keeps its ref). Set by the tree view; a single element's line (find,
   * action results) keeps its ref.
   */
  bareText?: boolean;
}

/**
 * Longest text of a single element's line (find, an action's result): a
 * reminder of which element it is, not its content.
 */
export const LINE_MAX_TEXT = 120;

/**
 * Longest text of an element in a read: visible text is what the agent came
 * to see (a paragraph, a PDF page, a document), so only text past the reader's
 * own bound (2,000 characters) is cut, with its length said.
 */
export const READ_MAX_TEXT = 2000;

/** The cap `maxText` asks for: 0 means none. */
export function textCap(opts: Pick<AgentOptions, "maxText">): number {
  const max = opts.maxText ?? LINE_MAX_TEXT;
  return max > 0 ? max : Infinity;
}

/** Most action names a line prints; the rest are counted. */
const MAX_ACTIONS = 6;

/** Longest description printed, in characters: help texts run long and repeat. */
const MAX_DESC = 60;

/** Roles whose value and range mean something (elsewhere a numeric value is toolkit noise). */
const VALUE_ROLES: ReadonlySet<string> = new Set([
  "slider",
  "spin",
  "progress",
  "scroll",
  "input",
  "combo",
  "listbox",
  "txt",
  "cell",
]);

/** Containers that are not printed when they carry nothing. */
const ANONYMOUS_CONTAINERS: ReadonlySet<string> = new Set([
  "list",
  "group",
  "other",
  "scroll",
  "web",
  "tabpanel",
  "separator",
  "img",
]);

/** Action names (squashed) that every element of their kind has: printing them says nothing. */
const UNINFORMATIVE_ACTIONS: ReadonlySet<string> = new Set([
  "click",
  "press",
  "release", // GTK 2's buttons: press and release, the two halves of a click
  "activate",
  "default",
  "dodefault",
  "jump",
  "toggle",
  "check",
  "uncheck",
  "select",
  "switch",
  "open",
  "showmenu",
  "showcontextmenu",
  "contextmenu",
  "menu",
  "raise",
  "confirm",
  "cancel",
  "pick",
  "focus",
  "setfocus",
  "increment",
  "decrement",
  "increase",
  "decrease",
  "clickancestor",
]);

/**
 * Prefixes of actions implied by the role or a printed state: scrolling
 * (`scrollUp`, `scrollToVisible`...), expanding and collapsing (the
 * expanded/collapsed flag says it), and activation described in words.
 */
const UNINFORMATIVE_PREFIXES: readonly string[] = [
  "scroll",
  "expand",
  "collapse",
  "activates",
];

/** A namespaced widget command: `group.action` (GTK 4's installed actions). */
const WIDGET_COMMAND = /^[a-z][\w-]*\.[\w.-]+$/;

/** Squashes an action name: `AXShowMenu`, `show menu`, `showMenu` agree. */
function squashAction(name: string): string {
  return name.replace(/^AX/, "").toLowerCase().replace(/[^a-z]/g, "");
}

/**
 * The actions worth printing: those not implied by the element's role or state.
 *
 * @param el the element
 * @returns informative action names, in the element's order
 */
export function informativeActions(el: Pick<Element, "a"> & { r?: Element["r"] }): string[] {
  // A text field's actions are its editing commands (Swing lists 56: "caret-forward",
  // "cut-to-clipboard"...): typing and set-value are what it takes (JSON keeps them).
  if (el.r === "input" || !el.a?.length) return [];
  return el.a.filter(isInformativeAction);
}

/**
 * Whether an element has an action worth printing: `informativeActions(el).length > 0`
 * without the list.
 *
 * @param el the element
 * @returns true when {@link informativeActions} would name one
 */
export function hasInformativeActions(el: Pick<Element, "a"> & { r?: Element["r"] }): boolean {
  return el.r !== "input" && !!el.a?.some(isInformativeAction);
}

/**
 * What {@link isInformativeAction} said of each action name: a few names
 * ("click", "jump", "showContextMenu") recur on most elements, and a line
 * asks of its element's actions several times. Bounded, as a long-lived
 * process meets new names.
 */
const informativeByName = new Map<string, boolean>();

/** Most action names {@link informativeByName} keeps. */
const MAX_REMEMBERED_ACTIONS = 1000;

/** Whether an action name is worth printing (see {@link informativeActions}). */
function isInformativeAction(a: string): boolean {
  let yes = informativeByName.get(a);
  if (yes === undefined) {
    yes = !WIDGET_COMMAND.test(a) && informativeSquashed(squashAction(a));
    if (informativeByName.size >= MAX_REMEMBERED_ACTIONS) informativeByName.clear();
    informativeByName.set(a, yes);
  }
  return yes;
}

/**
 * Whether a squashed action name says something. A toolkit's widget command
 * ("clipboard.paste", "page.zoom-in": GTK 4 lists every action installed on
 * a text view) is no action on the element (JSON keeps it): the caller
 * leaves those out first.
 */
function informativeSquashed(s: string): boolean {
  return s !== "" && !UNINFORMATIVE_ACTIONS.has(s) &&
    !UNINFORMATIVE_PREFIXES.some((p) => s.startsWith(p));
}

/**
 * Escapes text for a double-quoted agent string and caps its length.
 *
 * @param text raw text
 * @param max longest text kept, in code points
 * @returns `"escaped"`, or `"head…"(N chars)` when cut
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quote } from "./agent.ts";
 * assert.equal(quote('Say "hi"\nnow', 120), String.raw`"Say \"hi\"\nnow"`);
 * ```
 */
export function quote(text: string, max: number): string {
  // UTF-16 length bounds the code point count: short text needs no splitting.
  if (text.length <= max) return `"${escape(text)}"`;
  const chars = Array.from(text);
  if (chars.length <= max) return `"${escape(text)}"`;
  return `"${escape(chars.slice(0, Math.max(1, max - 1)).join(""))}…"(${chars.length} chars)`;
}

/**
 * Whether a text has anything {@link escape} escapes (a backslash, a quote,
 * a control character: U+0000-U+001F, U+007F-U+009F, or a line or paragraph
 * separator): most labels have none and are used as they are.
 */
function needsEscape(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0x7f && c <= 0x9f)) return true;
    if (c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

/** JSON-style escaping of backslash, quote and control characters. */
function escape(s: string): string {
  if (!needsEscape(s)) return s;
  return s.replace(/[\\"\p{Cc}\u2028\u2029]/gu, (ch) => {
    switch (ch) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
    }
  });
}

/**
 * Whether an element has any state worth a flag.
 *
 * @param el the element
 * @returns true when a flag such as focused or checked applies
 */
export function hasState(el: Element | FlatElement): boolean {
  return !!(el.f || el.e === false || el.s || el.chk !== undefined || el.exp !== undefined ||
    el.req || el.inv || el.sec || el.ro || el.sort);
}

/** A label folded for comparisons: the model's one {@link fold}. */
export { fold };

/**
 * The text a line shows in the label position: label, else (for text) the value.
 *
 * @param el the element
 * @returns the label, or ""
 */
export function labelOf(el: Element | FlatElement): string {
  const t = el.t?.trim();
  if (t) return t;
  const v = shownValue(el);
  if (el.r === "txt" && v) return v.trim();
  return "";
}

/** Where the children {@link shownChildren} lifted out of unprinted containers came from. */
export interface LiftedTexts {
  /** The unprinted container (a paragraph) each lifted child sits in. */
  origins: Map<Element, Element>;
  /** Children that sat in an inline run (a text holding text: `<em>`, `<code>`). */
  inline: Set<Element>;
}

/**
 * Whether an element carries nothing and is not printed (its children are).
 *
 * @param el the element
 * @returns true for unlabeled, stateless, valueless containers
 */
export function isAnonymous(el: Element): boolean {
  // A text with no text of its own (a web <label> wrapping text, an empty run) carries nothing,
  // and so does a wrapper around one element of its own role with nothing to do (GTK 4's menu
  // button: a button holding the toggle button that opens the menu).
  const container = ANONYMOUS_CONTAINERS.has(el.r) || el.r === "txt" ||
    (el.c?.length === 1 && el.c[0].r === el.r && !el.a?.length);
  // A number where a value means nothing (a GTK 4 scroll bar's inner range) is no content either.
  const value = !!el.v && !isValueNoise(el);
  return container && !el.t?.trim() && !el.d?.trim() && !value && !el.ph &&
    !hasOwnState(el) && !hasInformativeActions(el);
}

/**
 * Whether an element is a window that says nothing: a frame inside a window
 * (Firefox's tab frame around its page, the empty frames of its background
 * tabs) is a container and prints no line; a top-level window with no title
 * prints none when nothing inside it would (Chromium keeps two such windows
 * around empty documents). Titled windows always print.
 */
function isInnerFrame(parent: Element, el: Element): boolean {
  if (el.r !== "window" || el.t?.trim() || el.d?.trim() || hasOwnState(el)) return false;
  if (hasInformativeActions(el)) return false;
  return parent.r !== "app" || (el.c ?? []).every(printsNothing);
}

/**
 * Whether a child is a spin box's or combo box's own line editor, saying its
 * value (or value text) again (Qt: qpdfview's page spin box at 1, "1 / 17",
 * holds an input "1 / 17").
 * The owner's line says it, and typing into the owner reaches the editor.
 */
function isOwnEditor(owner: Element, kid: Element): boolean {
  if ((owner.r !== "spin" && owner.r !== "combo") || kid.r !== "input") return false;
  if (owner.v === undefined || kid.t || kid.c?.length || hasState(kid)) return false;
  // The editor shows the value as the owner's value text says it ("1 / 17" for page 1).
  const says = fold(kid.v ?? "");
  return !hasInformativeActions(kid) &&
    (says === fold(owner.v) || (owner.vt !== undefined && says === fold(owner.vt)));
}

/** Bars that group what they hold: unlabeled and holding nothing that prints, they say nothing. */
const BARS: ReadonlySet<string> = new Set(["statusbar", "toolbar"]);

/**
 * Whether an element is an unlabeled status bar or tool bar with nothing to
 * show (meld keeps an empty status bar above each pane).
 */
function isEmptyBar(el: Element): boolean {
  if (!BARS.has(el.r) || el.t?.trim() || el.d?.trim() || el.v || hasOwnState(el)) return false;
  return !hasInformativeActions(el) && (el.c ?? []).every(printsNothing);
}

/** Whether an element and everything inside it print no line (anonymous all the way down). */
function printsNothing(el: Element): boolean {
  return isAnonymous(el) && (el.c ?? []).every(printsNothing);
}

/**
 * Whether an element has a state its children do not already say: a
 * disabled wrapper around disabled controls (a GTK tool item around its
 * button) says nothing the button's line does not.
 */
function hasOwnState(el: Element | FlatElement): boolean {
  if (!hasState(el)) return false;
  const kids = "c" in el ? el.c : undefined;
  if (el.e !== false || !kids?.length || !kids.every((k) => k.e === false)) return true;
  return hasState({ ...el, e: undefined });
}

/**
 * Owners whose title is not made of their children's text: a window's title
 * ("New Document - Text Editor") only names it, so a heading inside that says
 * part of it ("New Document") is visible text of its own, kept unless it
 * repeats the whole title.
 */
const TITLED_OWNERS: ReadonlySet<string> = new Set(["app", "window", "dialog", "web"]);

/** Whether a leaf only repeats the label of the element it belongs to. */
function isEcho(el: Element, ownerLabel: string, partial = true): boolean {
  if (el.c?.length || !ownerLabel) return false;
  if (!["txt", "img", "other", "heading"].includes(el.r)) return false;
  if (hasState(el) || hasInformativeActions(el)) return false;
  const label = labelOf(el);
  if (el.v && fold(el.v) !== fold(label)) return false;
  // The whole label, or a part of it (a link whose text is split over several spans).
  if (label === "") return false;
  return partial ? fold(ownerLabel).includes(fold(label)) : fold(ownerLabel) === fold(label);
}

/**
 * Whether a field's value holds several lines (a rich editor's paragraphs):
 * each text inside it says a part of the value, already on its line.
 */
function holdsLines(el: Element): boolean {
  return el.r === "input" && el.v !== undefined && el.v.includes("\n");
}

/** Text with no letter or digit: a list bullet, a `·` or `/` between items. */
const NO_WORD = /^[^\p{L}\p{N}]*$/u;

/**
 * Whether a leaf is punctuation only (a list bullet, a separator dot): it says
 * nothing an agent can use, so it gets no line.
 *
 * @param el the element
 * @returns true for a stateless leaf text with no letter or digit
 */
export function isPunctuation(el: Element): boolean {
  return el.r === "txt" && !el.c?.length && !hasState(el) && !hasInformativeActions(el) &&
    NO_WORD.test(labelOf(el));
}

/**
 * One element's line, without indentation or children.
 *
 * @param el the element (children are ignored)
 * @param opts bounds and text cap
 * @param named for a row folded onto the line without a label of its own, the first text of its
 *   cells that can name it (its id alone is printed when its ref is that text's slug)
 * @returns e.g. `[42|toolbar/search] input "Search" (200,50,800,30) focused`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { elementLine } from "./agent_line.ts";
 * const el = { i: 42, ref: "toolbar/search", r: "input" as const, t: "Search", b: [200, 50, 800, 30] as [number, number, number, number] };
 * assert.equal(elementLine(el), '[42|toolbar/search] input "Search" (200,50,800,30)');
 * ```
 */
export function elementLine(
  el: Element | FlatElement,
  opts: AgentOptions = {},
  named?: string,
): string {
  const max = textCap(opts);
  const label = labelOf(el);
  const parts: string[] = opts.bareText && isStaticText(el)
    ? []
    : [handleText(el, refText(el, opts), named || label, opts)];
  if (el.r !== "txt") parts.push(el.r);
  if (label) parts.push(quote(label, max));
  else if (el.r === "txt") parts.push('""');
  tailParts(el, label, opts, parts);
  return parts.join(" ");
}

/**
 * A handle: `[id|ref]`, or `[id]` alone when the short ref can be written
 * from the text printed beside it: that text's whole slug
 * (`[15] chk "Subscribe to the newsletter"`, ref `subscribe-to-the-newsletter`;
 * a run's row by its first text, `[23]: [25] "Invoice 2024-12" | …`), or,
 * where the line prints the role and no label, the role (`[21] banner`, ref
 * `banner`). An element not in the last read (`-`) keeps its ref, and so does
 * one whose text is cut or escaped as printed.
 *
 * @param el the element
 * @param ref its ref as printed (short where refs are short)
 * @param text the text the ref would be written from ("" for none)
 * @param opts the format options (the text cap; ids alone only with short refs)
 * @param role whether the line prints the role before the text
 * @returns the handle
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { handleText } from "./agent_line.ts";
 * const short = { short: (ref: string) => ref, shortRow: (ref: string) => ref };
 * assert.equal(handleText({ i: 7, r: "btn" }, "save-as", "Save As…", { short }), "[7]");
 * assert.equal(handleText({ i: 8, r: "btn" }, "ok.2", "OK", { short }), "[8|ok.2]");
 * assert.equal(handleText({ i: 3, r: "toolbar" }, "toolbar", "", { short }), "[3]");
 * ```
 */
export function handleText(
  el: Pick<Element, "i" | "r">,
  ref: string,
  text: string,
  opts: AgentOptions,
  role = true,
): string {
  if (opts.short && el.i) {
    // The text as printed must be the text itself: whole, nothing escaped.
    if (
      text
        ? text.length <= textCap(opts) && !needsEscape(text) && isLabelSlug(ref, text)
        : role && ref === el.r
    ) {
      return `[${el.i}]`;
    }
  }
  return `[${idText(el)}|${ref}]`;
}

/**
 * Whether an element is static text: a text with nothing to act on and no
 * children of its own.
 *
 * @param el the element
 * @returns true for a plain text line
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStaticText } from "./agent_line.ts";
 * assert.deepEqual(isStaticText({ i: 3, r: "txt", t: "© 2026" }), true);
 * assert.deepEqual(isStaticText({ i: 4, r: "btn", t: "OK" }), false);
 * ```
 */
export function isStaticText(el: Element | FlatElement): boolean {
  // A labelled value (KCalc's "Result Display" showing 36) is an output to watch: it keeps its ref.
  if (el.r !== "txt" || el.f || (el.t && el.v !== undefined)) return false;
  if ("c" in el && el.c?.length) return false;
  return !hasInformativeActions(el);
}

/**
 * The ref as a line prints it: the shortest unique form when a shortener is set.
 *
 * @param el the element
 * @param opts the format options
 * @returns the ref text ("" when the element has none)
 */
export function refText(el: Pick<Element, "ref">, opts: AgentOptions): string {
  if (el.ref === undefined) return "";
  return opts.short ? opts.short.short(el.ref) : el.ref;
}

/**
 * Whether an element's number is toolkit noise: a numeric value (and range)
 * on a role whose value means nothing, such as `val="0" range=0..1` on a
 * toolbar button.
 *
 * @param el the element
 * @returns true when value and range are left out
 */
export function isValueNoise(el: Element | FlatElement): boolean {
  if (VALUE_ROLES.has(el.r)) return false;
  return el.v === undefined ? el.min !== undefined : /^-?\d+(\.\d+)?$/.test(el.v.trim());
}

/**
 * The id as a line prints it. Id 0 means "not in the last read": there is no
 * id that `--id` would accept, so a dash stands in.
 *
 * @param el the element
 * @returns e.g. `42`, or `-`
 */
export function idText(el: Pick<Element, "i">): string {
  return el.i ? String(el.i) : "-";
}

/**
 * What follows the label on a line: the value, the box and the flags.
 *
 * @param el the element
 * @param label the label the line shows (a value equal to it is not repeated)
 * @param opts bounds, viewport and text cap
 * @returns the parts, to be joined with spaces
 */
export function elementTail(
  el: Element | FlatElement,
  label: string,
  opts: AgentOptions,
): string[] {
  return tailParts(el, label, opts, []);
}

/** Appends what {@link elementTail} returns to `parts` (a line's parts, in order). */
function tailParts(
  el: Element | FlatElement,
  label: string,
  opts: AgentOptions,
  parts: string[],
): string[] {
  const max = textCap(opts);
  const v = shownValue(el);
  if (el.v && !isValueNoise(el)) {
    if (el.sec) parts.push("val=***");
    else if (v && fold(v) !== fold(label)) parts.push(`val=${quote(valueAsShown(v), max)}`);
  }
  // The value in words (a slider's "March" at 3), beside the number it stands for.
  const vt = shownValueText(el);
  if (vt && fold(vt) !== fold(label)) parts.push(`valtext=${quote(vt, max)}`);
  if (boxShown(el, opts)) parts.push(`(${el.b!.join(",")})`);
  flags(el, max, isValueNoise(el), parts);
  return parts;
}

/** Blank lines at the end of a value: a terminal's unused rows, a document's trailing newlines. */
const TRAILING_BLANK_LINES = /\n[ \t\r\n]*$/;

/**
 * A value as a line shows it: blank lines at its end (a terminal screen's
 * empty rows) are one newline, which still says the text ends with one.
 *
 * @param value the element's value
 * @returns the value to quote
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueAsShown } from "./agent_line.ts";
 * assert.equal(valueAsShown("$ ls\nREADME.md\n$ \n\n\n\n"), "$ ls\nREADME.md\n$ \n");
 * assert.equal(valueAsShown("abc "), "abc ");
 * ```
 */
export function valueAsShown(value: string): string {
  return value.replace(TRAILING_BLANK_LINES, "\n");
}

/** Whether a line prints the element's box: wanted, known, and not scrolled out of view. */
function boxShown(el: Element | FlatElement, opts: AgentOptions): boolean {
  if (!(opts.bounds ?? true) || !el.b) return false;
  const v = opts.viewport;
  if (!v) return true;
  const [x, y, w, h] = el.b;
  return x < v[0] + v[2] && x + w > v[0] && y < v[1] + v[3] && y + h > v[1];
}

/** The flags after the bounds, appended to `out`. */
function flags(el: Element | FlatElement, max: number, noise: boolean, out: string[]): void {
  if (el.f) out.push("focused");
  if (el.e === false) out.push("disabled");
  // Off is the state a reader assumes: a check box, radio or switch says only when it is on,
  // and a closed drop-down list (its resting state) says nothing.
  if (el.chk === true) out.push("checked");
  else if (el.chk === "mixed") out.push("mixed");
  if (el.exp === true) out.push("expanded");
  else if (el.exp === false && el.r !== "combo") out.push("collapsed");
  if (el.s) out.push("selected");
  if (el.req) out.push("required");
  if (el.inv) out.push("invalid");
  if (el.sec) out.push("secure");
  if (el.ro) out.push("readonly");
  if (el.sort) out.push(`sort=${el.sort}`);
  // A selection says what the next keys replace; a bare caret is left to JSON and diffs.
  if (el.sel && el.sel[0] !== el.sel[1]) out.push(`sel=${el.sel[0]}..${el.sel[1]}`);
  if (el.lv !== undefined) out.push(`lv=${el.lv}`);
  if (el.min !== undefined && el.max !== undefined && !noise) {
    out.push(`range=${el.min}..${el.max}`);
  }
  const d = el.d?.trim();
  if (d && fold(d) !== fold(el.t)) out.push(`desc=${quote(d, Math.min(max, MAX_DESC))}`);
  const ph = el.ph?.trim();
  if (ph && fold(ph) !== fold(el.t)) out.push(`ph=${quote(ph, Math.min(max, LINE_MAX_TEXT))}`);
  const acts = informativeActions(el);
  // A long list (a toolkit's command map): name a few, count the rest (JSON has them all).
  if (acts.length) {
    const more = acts.length - MAX_ACTIONS;
    out.push(`actions=${acts.slice(0, MAX_ACTIONS).join(",")}${more > 0 ? `,…(+${more})` : ""}`);
  }
}

/**
 * The elements of a tree that the agent format gives no line, and whose
 * change therefore shows nothing a read would show: a leaf that repeats its
 * owner's label or value (a button's caption `(2)` in `In Names (2)`, a
 * combo box's own editor), and a part that prints nothing all the way down
 * (an unlabeled image). The owner is the nearest ancestor that prints a line.
 * A diff leaves their changes out (the owner's line says them).
 *
 * @param root the tree
 * @returns the elements without a line of their own
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unprintedParts } from "./agent_line.ts";
 * const count = { i: 3, r: "txt" as const, t: "(2)" };
 * const icon = { i: 4, r: "img" as const };
 * const btn = { i: 2, r: "btn" as const, t: "In Names (2)", c: [count, icon] };
 * const out = unprintedParts({ i: 1, r: "window" as const, t: "Search", c: [btn] });
 * assert.deepEqual([...out].map((el) => el.i), [3, 4]);
 * ```
 */
export function unprintedParts(root: Element): Set<Element> {
  const out = new Set<Element>();
  const stack: Array<{ el: Element; owner: Element | null }> = [{ el: root, owner: null }];
  while (stack.length) {
    const { el, owner } = stack.pop()!;
    if (owner && el !== root && isUnprinted(owner, el)) {
      for (const part of subtree(el)) out.add(part);
      continue;
    }
    const next = el === root || !isAnonymous(el) ? el : owner;
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ el: kids[k], owner: next });
  }
  return out;
}

/** Whether `kid`, lifted into `owner`'s line, prints no line of its own (as {@link shownChildren} decides). */
function isUnprinted(owner: Element, kid: Element): boolean {
  if (printsNothing(kid) || isOwnEditor(owner, kid)) return true;
  if (isEcho(kid, labelOf(owner), !TITLED_OWNERS.has(owner.r))) return true;
  return owner.v !== undefined && isEcho(kid, owner.v, holdsLines(owner));
}

/** An element and everything inside it. */
function subtree(el: Element): Element[] {
  const out: Element[] = [];
  const stack = [el];
  while (stack.length) {
    const e = stack.pop()!;
    out.push(e);
    for (const k of e.c ?? []) stack.push(k);
  }
  return out;
}

/**
 * The children worth showing inside `el`: anonymous wrappers opened, echoes
 * of its label or of its whole value dropped.
 *
 * @param el the parent
 * @param ownerLabel the label the children would only repeat
 * @param lifted filled with where lifted children came from; asking for it keeps
 *   punctuation-only texts, for the caller to join into their paragraph
 * @returns the children to print, in order
 */
export function shownChildren(
  el: Element,
  ownerLabel: string,
  lifted?: LiftedTexts,
): Element[] {
  const origins = lifted?.origins;
  const out: Element[] = [];
  const own = el.c;
  if (!own?.length) return out;
  const stack: Element[] = [];
  for (let k = own.length - 1; k >= 0; k--) stack.push(own[k]);
  while (stack.length) {
    const kid = stack.pop()!;
    if (isAnonymous(kid) || isInnerFrame(el, kid)) {
      const grand = kid.c ?? [];
      // An inline run (a text holding text: <em>) belongs to the paragraph it sits in.
      const from = kid.r === "txt" ? origins?.get(kid) : kid;
      for (let k = grand.length - 1; k >= 0; k--) {
        stack.push(grand[k]);
        if (from) origins?.set(grand[k], from);
        if (kid.r === "txt") lifted?.inline.add(grand[k]);
      }
      continue;
    }
    if (isEcho(kid, ownerLabel, !TITLED_OWNERS.has(el.r))) continue;
    // Punctuation alone says nothing; inside a paragraph (origins asked for) it is joined.
    if (isPunctuation(kid) && !(origins && isStaticText(kid))) continue;
    // A rich-text field's text child says its value again (a contenteditable's paragraph).
    if (el.v !== undefined && isEcho(kid, el.v, holdsLines(el))) continue;
    if (isOwnEditor(el, kid)) continue;
    if (kid.r === "separator" && !kid.c?.length) continue; // a line that only says "a line"
    if (isEmptyBar(kid)) continue;
    out.push(kid);
  }
  return out;
}
