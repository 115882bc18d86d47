/**
 * Element semantics, settled once on a freshly read tree before ids and refs
 * are assigned, so every output (agent, json, yaml, diff, observe, MCP, the
 * store) sees the same elements:
 *
 * - **A label folds into its control.** A label element that labels a control
 *   (AT-SPI LABEL_FOR, the macOS title element, an HTML `<label>`: `lf`) is
 *   removed and its text becomes the control's label when the control has
 *   none (a label saying something else than the control's own name stays:
 *   its text is visible and it is no twin); the control owns the bare ref (`filter/customer`, never
 *   `customer.2` beside a `customer.1` label). A label wrapping its control
 *   (`<label><input> Paid</label>`) is unwrapped the same way.
 * - **Controls with no relation** take the text that labels them on screen:
 *   the static text just before them in the same row or group (the way screen
 *   readers guess labels): by their boxes, the nearest text to the left on
 *   the same row, else just above; without boxes, the text before them in
 *   document order. A control with a label of its own keeps it, and the text
 *   folds only when it repeats that label.
 * - **Toolkit class names are not labels**: "GtkButton", "AdwGizmo",
 *   "GtkSourceView" are what GTK reports where an app set no label. A
 *   button, link, menu item or tab with no name of its own is named by the
 *   short text inside it, as a browser names a `<button>`.
 * - **No U+FFFC**: the embedded-object character stands for a child that is
 *   in the tree anyway.
 * - **A choice is not a label**: a combo box named after its current choice
 *   (GTK 3 names an unlabelled combo by its active item, Qt by its current
 *   text) carries that name as its value, so the text before it can label
 *   it and no ref changes when another item is chosen; so does the one
 *   button of a GTK 4 drop-down that shows the choice.
 * - **A named button's text is not its value**: the "×" of a button named
 *   "Close" is what the name stands for.
 * - **A row or cell named by all its content has no label**: Firefox names a
 *   list item "• Ken Great write-up… Reply Like"; its content says it once.
 * - **A paragraph holding its own text is a text** (Firefox), as it is where
 *   the text is a child (Chromium).
 * - **An iframe and its document are one element** (Firefox lists both under
 *   one name).
 * - **Focus is on one element of a branch**: Qt marks every widget whose
 *   focus proxy has the focus (okular's page view is four nested focused
 *   groups; a text editor's viewport is focused with the editor). Of a
 *   focused element and focused elements inside it, the innermost that is a
 *   control or has a label keeps the focus (the editor, not its unlabeled
 *   viewport), else the innermost. A tab focused while something else is
 *   focused too is only current (Qt 5 marks the current tab focused), and so
 *   is a focus proxy: of a text field and other focused elements, the field
 *   keeps the focus (KWrite's status bar buttons).
 *
 * Idempotent: folding a folded tree changes nothing.
 *
 * @module
 */

import type { Bounds, Element, Role } from "./element.ts";
import { INTERACTIVE_ROLES } from "./roles.ts";
import { fold } from "./text.ts";

/** Controls that take the text just before them as their label when they have none. */
const LABELLED_CONTROLS: ReadonlySet<Role> = new Set<Role>(["input", "combo", "spin", "slider"]);

/** Form controls whose label a text just before them may repeat. */
const FORM_CONTROLS: ReadonlySet<Role> = new Set<Role>([
  ...LABELLED_CONTROLS,
  "chk",
  "radio",
  "toggle",
]);

/** Roles that can be folded as a label: static text and its wrappers. */
const LABEL_ROLES: ReadonlySet<Role> = new Set<Role>(["txt", "other", "group"]);

/** Longest text taken as an on-screen label (a sentence is not a label). */
const MAX_SCREEN_LABEL = 60;

/**
 * Class names toolkits report as a name where an app set none: GTK 4 names a
 * widget by its type, whose name is the library's ("GtkButton", "AdwGizmo"),
 * or one a language binding made up for an app's own class: GJS
 * ("Gjs_SidebarRow", gnome-characters) and PyGObject ("__main__+Window").
 */
const TOOLKIT_CLASS =
  /^(?:(?:Gtk|Adw|Gdk|Gsk|Vte|Panel|Ide)[A-Z][A-Za-z0-9]*|Gjs_[A-Za-z0-9_]+|[A-Za-z_][\w.]*\+[A-Za-z_]\w*)$/;

/** The embedded-object character (U+FFFC) and the space around it. */
const OBJECT_CHAR = /\s*\uFFFC\s*/g;

/**
 * Bidirectional-text controls (LRM, RLM, embeddings, isolates): toolkits put
 * them around numbers and times (GTK's "19\u200E∶47", a GTK 2 slider's
 * "\u200E0.0"); they print as nothing and only cost tokens.
 */
const BIDI_CONTROLS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text without bidirectional-text control characters.
 *
 * @param s the text
 * @returns the text without LRM, RLM, embeddings and isolates
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutBidiControls } from "./semantics.ts";
 * assert.deepEqual(withoutBidiControls("19\u200E:47") === "19:47", true);
 * ```
 */
export function withoutBidiControls(s: string): string {
  return s.replace(BIDI_CONTROLS, "");
}

/**
 * Whether a label is a toolkit's class-name fallback, not a label.
 *
 * @param label a label
 * @returns true for "GtkButton", "AdwGizmo", "Gjs_SidebarRow"...
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isToolkitClassName } from "./semantics.ts";
 * assert.deepEqual(isToolkitClassName("AdwGizmo"), true);
 * assert.deepEqual(isToolkitClassName("Save"), false);
 * ```
 */
export function isToolkitClassName(label: string): boolean {
  return TOOLKIT_CLASS.test(label.trim());
}

/**
 * Text without U+FFFC embedded-object characters (a space where one stood
 * between words).
 *
 * @param s the text
 * @returns the cleaned text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutObjectChars } from "./semantics.ts";
 * assert.equal(withoutObjectChars("a\uFFFCb \uFFFC"), "a b");
 * ```
 */
export function withoutObjectChars(s: string): string {
  return s.includes("\uFFFC") ? s.replace(OBJECT_CHAR, " ").trim() : s;
}

/** The label text of a would-be label element: its label, value, or its texts joined. */
function labelText(el: Element): string {
  const own = el.t?.trim() || (el.r === "txt" ? el.v?.trim() : "") || "";
  if (own) return own;
  const parts: string[] = [];
  for (const kid of el.c ?? []) {
    if (!onlyText(kid)) continue; // a wrapped control's own text is not the label's
    const t = labelText(kid);
    if (t) parts.push(t);
  }
  return parts.join(" ").trim();
}

/**
 * Whether a subtree is only text (a label's own content), no control and no
 * state; unnamed icons may sit beside the text. Actions do not count: a label
 * is clickable (it focuses its control).
 */
function onlyText(el: Element): boolean {
  // An unnamed image beside the text (an icon) is decoration: it says nothing.
  const says = LABEL_ROLES.has(el.r) || (el.r === "img" && !el.t?.trim() && !el.c?.length);
  return says && !el.f && !el.s && el.chk === undefined &&
    el.exp === undefined && (el.c ?? []).every(onlyText);
}

/**
 * Chromium's offer to describe an image, appended to the name of an image it
 * finds undescribed (and of the link holding it): "logo. To get missing image
 * descriptions, open the context menu." It is the browser speaking, not the page.
 */
const IMAGE_DESCRIPTION_OFFER =
  /\.?\s*To get missing image descriptions, open the context menu\.?$/;

/** The words of {@link IMAGE_DESCRIPTION_OFFER}, looked for before the pattern is tried. */
const IMAGE_DESCRIPTION_WORDS = "To get missing image descriptions, open the context menu";

/**
 * What Chromium appends to a tab's name: the memory its page uses ("Orders -
 * Memory usage - 113 MB"). It is the browser's hover card speaking, not the
 * tab's title, and it changes by the second.
 */
const TAB_MEMORY_USAGE = / - Memory usage - [\d.,]+ ?[KMGT]?B$/;

/** The name GTK 3 gives a menu button that has none of its own. */
const GTK_MENU_BUTTON_NAME = "Menu";

/**
 * Qt's mnemonic marker in a title Qt does not strip for accessibility (a tool
 * bar's window title "&File"): an ampersand before a letter or digit; "&&" is
 * a literal ampersand.
 */
const QT_MNEMONIC = /&(&|(?=[\p{L}\p{N}]))/gu;

/** Roles whose name is a widget title, where an ampersand is a mnemonic, not text. */
const TITLE_MNEMONIC_ROLES: ReadonlySet<string> = new Set(["toolbar", "menu", "tab", "group"]);

/**
 * The half of a label that says the same thing twice ("7" of "7 7"): what
 * `/^(.+) \1$/s` captures, found without a backtracking match (the half is
 * the text before the middle character, a space, when the text after it is
 * the same).
 */
function doubledHalf(t: string): string | undefined {
  if (t.length < 3 || t.length % 2 === 0) return undefined;
  const mid = (t.length - 1) / 2;
  if (t.charCodeAt(mid) !== 32) return undefined;
  const half = t.slice(0, mid);
  return t.endsWith(half) ? half : undefined;
}

/**
 * A label made of its text child's mnemonic form and that text ("_Add World
 * Clock Add World Clock": GTK 4.8 joins the button's label, underscore and
 * all, with the label it is labelled by) says the text once.
 *
 * @param t the label
 * @param children the element's children
 * @returns the child's text, or `t` unchanged
 */
function withoutMnemonicEcho(t: string, children: readonly Element[]): string {
  // The mnemonic form has an underscore: without one there is no echo to look for.
  if (!t.includes("_")) return t;
  for (const k of children) {
    const text = labelText(k);
    if (!text || !t.endsWith(` ${text}`)) continue;
    const head = t.slice(0, t.length - text.length - 1);
    if (head.includes("_") && head.replace(/_(.)/gs, "$1") === text) return text;
  }
  return t;
}

/**
 * Cleans one element's own keys: class-name labels, U+FFFC, Chromium's
 * image-description offer and a tab's memory usage go, and a label
 * that repeats its only text child twice (GTK 4 names a button "7 7" after
 * its label "7") says it once.
 */
/** Rich text as Qt and GTK take it in tooltips and labels: an HTML document or tagged text. */
const MARKUP = /^\s*<(?:!doctype|html|qt|head|body|p|b|i|u|span|div|font|br|a|tt|nobr)\b[^>]*>/i;

/** Entities rich text uses most. */
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/**
 * Rich text as the plain text it shows: a Qt tooltip's HTML document
 * (`<html><head><meta name="qrichtext" ...><style>...</style></head><body><p>Text</p>...`)
 * is "Text"; text without markup is returned as it is. Markup is never a
 * label, a description or part of a ref.
 *
 * @param s a label or description
 * @returns the text it shows
 * @example
 * ```ts
 * import { withoutMarkup } from "./semantics.ts";
 * import assert from "node:assert/strict";
 * const qt = '<html><head><meta name="qrichtext" content="1" /><style type="text/css">p {}</style>' +
 *   '</head><body><p>Select the <b>audio</b> device</p><p>Default &amp; more</p></body></html>';
 * assert.equal(withoutMarkup(qt), "Select the audio device Default & more");
 * assert.equal(withoutMarkup("a < b"), "a < b");
 * ```
 */
export function withoutMarkup(s: string): string {
  if (!MARKUP.test(s)) return s;
  return s
    .replace(/<(head|style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? m;
      const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

function clean(el: Element): void {
  if (el.t !== undefined) {
    let t = withoutBidiControls(withoutObjectChars(el.t));
    if (t.includes(IMAGE_DESCRIPTION_WORDS)) t = t.replace(IMAGE_DESCRIPTION_OFFER, "");
    if (el.r === "tab") t = t.replace(TAB_MEMORY_USAGE, "");
    const half = doubledHalf(t);
    if (half !== undefined && el.c?.some((k) => labelText(k) === half)) t = half;
    else t = withoutMnemonicEcho(t, el.c ?? []);
    if (TITLE_MNEMONIC_ROLES.has(el.r) && t.includes("&")) {
      t = t.replace(QT_MNEMONIC, (_, amp) => amp === "&" ? "&" : "");
    }
    if (t === "" || isToolkitClassName(t)) delete el.t;
    else el.t = t;
  }
  if (el.t !== undefined && MARKUP.test(el.t)) el.t = withoutMarkup(el.t);
  if (el.d !== undefined) el.d = withoutBidiControls(withoutMarkup(el.d));
  if (el.d !== undefined && (isToolkitClassName(el.d) || el.d.trim() === "")) delete el.d;
  // GTK 3 names every menu button "Menu" unless told otherwise; its tooltip says which menu
  // (gedit's and pluma's "Open a recently used file" beside the main "Menu").
  if (el.r === "toggle" && el.t === GTK_MENU_BUTTON_NAME && el.d) {
    el.t = el.d;
    delete el.d;
  }
  // An empty value is no value (and one made only of object characters is empty).
  if (el.v !== undefined) {
    // What a user typed stays as typed; a shown value loses its direction marks.
    const v = el.r === "input"
      ? withoutObjectChars(el.v)
      : withoutBidiControls(withoutObjectChars(el.v));
    if (v === "") delete el.v;
    else el.v = v;
  }
  // A named button's or link's own text is what its name replaces (the "×" of a button named
  // "Close"): a screen reader says the name only, and the glyph is no value.
  if (
    el.v !== undefined && el.t !== undefined && NAMED_BY_CONTENT.has(el.r) && el.min === undefined
  ) {
    delete el.v;
  }
  // A paragraph whose text is its own (Firefox: no text child) is a text, as in other browsers.
  // A number on a range (GTK 4's scroll bar holds a filler with the bar's position) is not.
  if (
    el.r === "group" && el.t === undefined && el.v !== undefined && !el.c?.length && !el.f &&
    el.s === undefined && el.d === undefined && el.min === undefined && el.max === undefined
  ) {
    el.r = "txt";
  }
  if (el.r === "combo" && el.t !== undefined && namedByChoice(el, el.t)) {
    el.v ??= el.t;
    delete el.t;
  }
  // A tab list named after its current tab (Qt's QTabWidget) says which tab is chosen: the
  // tab says it too (selected), and the list's ref must not follow the choice.
  if (el.r === "tablist" && el.t !== undefined) {
    const t = fold(el.t);
    if ((el.c ?? []).some((k) => k.r === "tab" && fold(k.t) === t)) delete el.t;
  }
}

/** Roles of a combo box's choices. */
const CHOICE_ROLES: ReadonlySet<Role> = new Set<Role>([
  "menuitem",
  "row",
  "listitem",
  "option",
  "cell",
  "treeitem",
]);

/** How deep below a combo box its choices are looked for (combo > menu/list > item). */
const CHOICE_DEPTH = 3;

/**
 * Whether a combo box's name is its value, one of its choices' labels, or the
 * text of its own field (Qt names an editable combo box by what is typed in it).
 */
function namedByChoice(combo: Element, name: string): boolean {
  const n = fold(withoutObjectChars(name));
  if (n === "") return false;
  if (combo.v !== undefined && fold(combo.v) === n) return true;
  const stack: Array<[Element, number]> = (combo.c ?? []).map((k) => [k, 1]);
  while (stack.length) {
    const [el, depth] = stack.pop()!;
    if (CHOICE_ROLES.has(el.r) && fold(withoutObjectChars(el.t ?? "")) === n) return true;
    if (depth === 1 && el.r === "input" && el.v !== undefined && fold(el.v) === n) return true;
    if (depth < CHOICE_DEPTH) { for (const k of el.c ?? []) stack.push([k, depth + 1]); }
  }
  return false;
}

/** Whether a control lacks a label of its own (title or description). */
function unlabelled(el: Element): boolean {
  return !el.t?.trim() && !el.d?.trim();
}

/**
 * Folds labels into the controls they label, drops toolkit class names and
 * U+FFFC, in place (see the module doc).
 *
 * @param root the tree as a backend read it (mutated)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldLabels } from "./semantics.ts";
 * import type { Element } from "./element.ts";
 * const root: Element = { i: 0, r: "form", c: [
 *   { i: 0, r: "txt", t: "Customer", lf: "n2" },
 *   { i: 0, r: "input", t: "Customer", nid: "n2" },
 * ] };
 * foldLabels(root);
 * assert.deepEqual(root.c!.length, 1);
 * assert.deepEqual(root.c![0].r, "input");
 * ```
 */
export function foldLabels(root: Element): void {
  const all: Element[] = [];
  const stack: Element[] = [root];
  let relations = false;
  while (stack.length) {
    const el = stack.pop()!;
    clean(el);
    all.push(el);
    if (el.lf !== undefined) relations = true;
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  // Elements by native id, for the labels that name theirs: only a tree that has such a label
  // needs it (a native id is a long string, costly to hash).
  const byNid = new Map<string, Element>();
  if (relations) { for (const el of all) if (el.nid) byNid.set(el.nid, el); }
  // One focused element where a toolkit marks several.
  const focusBelow = new Map<Element, Element>();
  for (let k = all.length - 1; k >= 0; k--) oneFocus(all[k], focusBelow);
  currentTabsUnfocused(all);
  proxiesUnfocused(all);
  // Children first: a button whose content is text is named by that text (name from content,
  // as a browser names a <button>), where a toolkit gave it none or only its class name.
  for (let k = all.length - 1; k >= 0; k--) {
    nameFromContent(all[k]);
    tooltipFromWrapper(all[k]);
    choiceButton(all[k]);
    unnameContentEcho(all[k]);
    mergeFrameDocument(all[k]);
  }
  // Parents first (document order): a fold only touches an element's children.
  for (const el of all) {
    if (!el.c?.length) continue;
    // Most parents hold no label of a relation: their children are looked at as they are,
    // and nothing is allocated for them.
    let out: Element[] = el.c;
    let gone: Set<Element> | undefined;
    if (relations && el.c.some((kid) => kid.lf !== undefined)) {
      out = [];
      for (const kid of el.c) {
        const target = kid.lf !== undefined ? byNid.get(kid.lf) : undefined;
        if (target && target !== kid && foldRelation(kid, target, out)) {
          (gone ??= new Set()).add(kid);
        } else out.push(kid);
      }
    }
    for (const [text, control] of screenLabels(out)) {
      if (foldScreenLabel(text, control)) (gone ??= new Set()).add(text);
    }
    if (gone?.size) {
      const kept = out.filter((k) => !gone.has(k));
      if (kept.length) el.c = kept;
      else delete el.c;
    }
  }
}

/** Roles that only hold others: focused along with something inside, they give way. */
const PLAIN_HOLDERS: ReadonlySet<Role> = new Set<Role>([
  "group",
  "other",
  "scroll",
  "web",
  "window",
]);

/**
 * Keeps one focused element per branch (children are seen first): `below`
 * maps an element to the focused element kept inside it.
 */
function oneFocus(el: Element, below: Map<Element, Element>): void {
  let kept: Element | undefined;
  for (const k of el.c ?? []) kept ??= k.f ? k : below.get(k);
  if (!kept) {
    if (el.f) below.set(el, el);
    return;
  }
  if (el.f) {
    const plain = (e: Element) => PLAIN_HOLDERS.has(e.r) && !e.t;
    if (plain(kept) && !plain(el)) {
      delete kept.f;
      kept = el;
    } else {
      delete el.f;
    }
  }
  below.set(el, kept);
}

/**
 * Qt 5 marks a tab bar's current tab focused whatever has the focus: a tab
 * focused while something else is focused too is only the current one.
 */
function currentTabsUnfocused(all: readonly Element[]): void {
  const focused = all.filter((e) => e.f);
  if (focused.length < 2 || focused.every((e) => e.r === "tab")) return;
  for (const e of focused) if (e.r === "tab") delete e.f;
}

/**
 * Qt marks every widget whose focus proxy has the focus: KWrite's status bar
 * buttons ("1:1", "INSERT", "UTF-8") all read focused with its editor, in
 * another branch. Where one text field is focused among other focused
 * elements, it has the keyboard focus: typing goes there, and the others
 * only lead to it.
 */
function proxiesUnfocused(all: readonly Element[]): void {
  const focused = all.filter((e) => e.f);
  if (focused.length < 2) return;
  const fields = focused.filter((e) => e.r === "input");
  if (fields.length !== 1) return;
  for (const e of focused) if (e !== fields[0]) delete e.f;
}

/** Roles named by their text content when they have no name (ARIA's name from content). */
const NAMED_BY_CONTENT: ReadonlySet<Role> = new Set<Role>([
  "btn",
  "toggle",
  "lnk",
  "menuitem",
  "tab",
]);

/** Containers a toolkit may name by their whole content (Firefox's list items and rows, Chromium's cells). */
const NAMED_BY_WHOLE_CONTENT: ReadonlySet<Role> = new Set<Role>([
  "row",
  "listitem",
  "option",
  "cell",
]);

/** Letters and digits only, lower case: how two texts are compared for saying the same words. */
function words(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** The texts inside an element, in order: each named element's label, each text's value. */
function contentTexts(el: Element, out: string[] = []): string[] {
  for (const kid of el.c ?? []) {
    const own = kid.t?.trim() || ((kid.r === "txt" || kid.r === "group") ? kid.v?.trim() : "");
    if (own) out.push(own);
    else contentTexts(kid, out);
  }
  return out;
}

/**
 * A row or cell whose name is only all the text inside it ("• Ken Great
 * write-up… Reply Like" for a list item holding a name, a comment and two
 * buttons) has no label of its own: its content says it, once, and its ref
 * is keyed like an unnamed row's (by its first text).
 */
function unnameContentEcho(el: Element): void {
  if (!NAMED_BY_WHOLE_CONTENT.has(el.r) || el.t === undefined || !el.c?.length) return;
  const texts = contentTexts(el);
  if (texts.length === 0) return;
  const own = words(el.t);
  if (own !== "" && own === words(texts.join(" "))) delete el.t;
}

/**
 * A frame whose one child is its document, under the same name (an iframe in
 * Firefox: the frame, then the document), is one element: the document's
 * content becomes the frame's, as Chromium shows it.
 */
function mergeFrameDocument(el: Element): void {
  if (el.r !== "window" || el.c?.length !== 1 || el.t === undefined) return;
  const doc = el.c[0];
  if (doc.r !== "web" || words(doc.t ?? "") !== words(el.t) || hasFlags(doc)) return;
  if (doc.c?.length) el.c = doc.c;
  else delete el.c;
}

/** Whether an element carries a state or a value of its own. */
function hasFlags(el: Element): boolean {
  return !!(el.f || el.s || el.v !== undefined || el.e === false || el.chk !== undefined ||
    el.exp !== undefined);
}

/**
 * Names an unnamed button, link, menu item or tab by the text inside it (a
 * short one). A description is no name: it is the tooltip (GTK 4's path bar
 * buttons carry their folder both as tooltip and as text); but a single
 * character gives way to the description that spells it out.
 */
function nameFromContent(el: Element): void {
  if (!NAMED_BY_CONTENT.has(el.r) || el.t?.trim() || !el.c?.length) return;
  const parts: string[] = [];
  for (const kid of el.c) {
    if (!onlyText(kid)) continue;
    const t = labelText(kid);
    if (t) parts.push(t);
  }
  const text = parts.join(" ").trim();
  // One character (a calculator's π) says less than the description ("Pi") does.
  if (el.d?.trim() && [...text].length === 1) return;
  if (text && text.length <= MAX_SCREEN_LABEL) el.t = text;
}

/**
 * A control with no label of its own whose only wrapper carries just a
 * description (a tooltip set on the box around it: GIMP's toolbox buttons)
 * takes that description; the wrapper then says nothing and prints no line.
 * Boxes that say nothing may stand between them (GTK 3 tool items: AbiWord's
 * and Gnumeric's zoom combo sits in a box inside the tooltip's box).
 */
function tooltipFromWrapper(el: Element): void {
  if (el.r !== "group" || el.t?.trim() || !el.d?.trim() || el.c?.length !== 1 || hasFlags(el)) {
    return;
  }
  let control = el.c[0];
  while (
    control.r === "group" && control.c?.length === 1 && unlabelled(control) && !hasFlags(control)
  ) {
    control = control.c[0];
  }
  if (!INTERACTIVE_ROLES.has(control.r) || !unlabelled(control)) return;
  control.d = el.d;
  delete el.d;
}

/**
 * A combo box with no value whose one button shows its current choice (GTK 4's
 * drop-down: "Line Ending" holding a button "Unix/Linux (LF)"): the choice is
 * the combo's value, not the button's label, so no ref carries it.
 */
function choiceButton(el: Element): void {
  if (el.r !== "combo" || el.v !== undefined || !el.c) return;
  const buttons = el.c.filter((k) => k.r === "btn");
  if (buttons.length !== 1 || !buttons[0].t) return;
  el.v = buttons[0].t;
  delete buttons[0].t;
}

/** Whether two boxes share a row: their vertical spans overlap by half the smaller height. */
function sameRow(a: Bounds, b: Bounds): boolean {
  const overlap = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  return overlap >= Math.min(a[3], b[3]) / 2;
}

/** Slack, in pixels, for a label box touching its control's box. */
const TOUCH = 4;

/**
 * Pairs each form control among siblings with the text that labels it on
 * screen: with boxes, the nearest text to its left on the same row, else the
 * nearest just above it (toolkits list grid children in any order); without
 * boxes, the text just before it in document order. Each text labels one
 * control at most.
 *
 * @param kids the siblings, in document order
 * @returns text and control pairs
 */
function screenLabels(kids: Element[]): Array<[Element, Element]> {
  // No control, nothing to label: the texts need not be looked at.
  if (!kids.some(takesScreenLabel)) return [];
  const texts = kids.filter((k) => onlyText(k) && labelText(k) !== "");
  if (texts.length === 0) return [];
  const out: Array<[Element, Element]> = [];
  const used = new Set<Element>();
  kids.forEach((control, k) => {
    if (!takesScreenLabel(control)) return;
    let best: Element | undefined;
    const c = control.b;
    if (c) {
      let bestScore = Infinity;
      for (const t of texts) {
        const b = t.b;
        if (!b || used.has(t)) continue;
        let score = Infinity;
        if (sameRow(b, c) && b[0] + b[2] <= c[0] + TOUCH) score = c[0] - (b[0] + b[2]);
        else if (
          b[1] + b[3] <= c[1] + TOUCH && c[1] - (b[1] + b[3]) <= Math.max(b[3], c[3]) &&
          b[0] < c[0] + c[2] && b[0] + b[2] > c[0]
        ) score = 10_000 + c[1] - (b[1] + b[3]);
        if (score < bestScore) [best, bestScore] = [t, score];
      }
    }
    // Without boxes to compare (or a text that has none: Firefox's inline text runs), the
    // text just before it in document order.
    if (!best) {
      const prev = kids[k - 1];
      if (prev && !prev.b && texts.includes(prev) && !used.has(prev)) best = prev;
    }
    if (best) {
      used.add(best);
      out.push([best, control]);
    }
  });
  return out;
}

/** Whether an element may take the text before it as its label: a form control or a choice button. */
function takesScreenLabel(el: Element): boolean {
  return FORM_CONTROLS.has(el.r) || opensChoices(el);
}

/**
 * Folds a label that names `target` by relation. The label leaves the tree;
 * any child that is not its text (a wrapped control) takes its place in `out`.
 *
 * @returns true when the label was folded
 */
function foldRelation(label: Element, target: Element, out: Element[]): boolean {
  const text = labelText(label);
  if (!text) return false;
  // A label whose text differs from the control's own name stays: its text is visible, and it
  // cannot be the control's twin.
  // A label that wraps its control (`<label>Country <select>`) names it whatever else its
  // text holds (Firefox adds the control's value: "Country France").
  const wraps = label.c?.includes(target) ?? false;
  if (
    !wraps && !unlabelled(target) && bare(text) !== bare(target.t) &&
    bare(text) !== bare(target.d)
  ) {
    return false;
  }
  if (unlabelled(target)) target.t = text.replace(/\s*:\s*$/, "");
  const keep = (label.c ?? []).filter((c) => !onlyText(c));
  if (!onlyText(label) && keep.length === 0) return false; // a label with state or actions
  out.push(...keep);
  return true;
}

/**
 * Folds a static text into the control right after it: when the control has
 * no label (the text becomes its label), or when the text only repeats it.
 *
 * @returns true when the text was folded
 */
function foldScreenLabel(text: Element, control: Element): boolean {
  if (!onlyText(text)) return false;
  const label = labelText(text);
  if (!label || label.length > MAX_SCREEN_LABEL) return false;
  if (opensChoices(control)) return foldChoiceLabel(label, control);
  if (!FORM_CONTROLS.has(control.r)) return false;
  if (unlabelled(control)) {
    if (!LABELLED_CONTROLS.has(control.r)) return false;
    control.t = label.replace(/\s*:\s*$/, "");
    return true;
  }
  return bare(label) === bare(control.t);
}

/**
 * A button that opens a list of choices (a listbox or menu button: it offers
 * to open, or says whether it is expanded).
 */
function opensChoices(el: Element): boolean {
  return el.r === "btn" && (el.exp !== undefined || (el.a?.includes("open") ?? false));
}

/**
 * A choice button named by its label and its current choice ("Choose an
 * element: Neptunium", as the collapsible listbox pattern names it, with the
 * label text beside it): the label names it, the choice is its value, so no
 * ref carries the choice. The label text folds into it.
 */
function foldChoiceLabel(label: string, control: Element): boolean {
  const name = control.t?.trim() ?? "";
  const head = bare(label);
  if (control.v !== undefined || !fold(name).startsWith(head)) return false;
  const rest = name.slice(head.length).replace(/^\s*:?\s*/, "");
  if (rest === "") return bare(name) === head;
  control.t = label.trim().replace(/\s*:\s*$/, "");
  control.v = rest;
  return true;
}

/** A label folded for comparison, without a trailing colon ("Name:" labels "Name"). */
function bare(s: string | undefined): string {
  return fold(s).replace(/\s*:$/, "");
}
