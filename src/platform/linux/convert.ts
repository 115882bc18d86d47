/**
 * Conversion from the raw AT-SPI shape ({@link AtspiRawNode}, produced by
 * both the libatspi walk and the bulk D-Bus reader) to the shared element
 * model. Pure: no FFI, no I/O.
 *
 * @module
 */

import type { Bounds, Element, Role } from "../../model/element.ts";
import { landmarkRole, roleFromAtspiCode } from "../../model/roles.ts";
import { walk } from "../../model/tree.ts";
import { fold } from "../../model/text.ts";
import type { AtspiRawNode } from "./raw.ts";
import { ATSPI_STATE } from "../../ffi/atspi.ts";
import {
  ATSPI_ROLE,
  DOCUMENT_ROLES,
  EDIT_ROLES,
  MENU_ROLES,
  TEXT_VALUE_ROLES,
} from "./atspi_roles.ts";

/** AtspiStateType bit numbers. */
const S = ATSPI_STATE;

/** AtspiRole values the conversion names. */
const R = ATSPI_ROLE;

/** Roles that always carry a checked state, even when CHECKABLE is not set (GTK3). */
const CHECK_ROLES: ReadonlySet<number> = new Set([
  R.CHECK_BOX,
  R.CHECK_MENU_ITEM,
  R.RADIO_BUTTON,
  R.RADIO_MENU_ITEM,
  R.TOGGLE_BUTTON,
  R.SWITCH,
]);

/** Roles whose value a user could change, for which read-only is news. */
const CHANGEABLE_ROLES: ReadonlySet<Role> = new Set<Role>([
  "input",
  "combo",
  "spin",
  "slider",
  "chk",
  "radio",
  "toggle",
  "cell",
  "treeitem",
  "option",
  "menuitem",
]);

/**
 * GTK 4 publishes its objects under `<app path>/a11y/<uuid>` (dashes as
 * underscores); no other toolkit does.
 */
const GTK4_OBJECT_PATH = /\/a11y\/[0-9a-f]{8}_[0-9a-f]{4}_/;

/** A GType name: CamelCase words run together ("EditorSourceView", "AdwGizmo"). */
const TYPE_NAME = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;

/**
 * Whether a node's name is GTK 4's fallback for an unlabelled widget: its
 * class name (gtkatcontext.c adds G_OBJECT_TYPE_NAME when nothing labels a
 * non-structural widget). A name the widget also shows (a child's text) is
 * a real label, whatever it looks like.
 */
function isGtk4ClassName(node: AtspiRawNode, name: string): boolean {
  if (!looksLikeGtk4ClassName(node.path, name)) return false;
  return !node.children.some((k) => k.name.trim() === name || k.text?.trim() === name);
}

/**
 * Whether an object's name has the shape of GTK 4's class-name fallback: a
 * GType name on an object of a GTK 4 app.
 *
 * @param path the object's D-Bus path
 * @param name its accessible name
 * @returns true for "EditorSourceView" on `/org/gnome/TextEditor/a11y/<uuid>`
 * @example
 * ```ts
 * import { looksLikeGtk4ClassName } from "./convert.ts";
 * const path = "/org/gnome/Calculator/a11y/faca034d_379e_47b1_b939_be031594c116";
 * console.log(looksLikeGtk4ClassName(path, "AdwGizmo"), looksLikeGtk4ClassName(path, "Undo")); // true false
 * ```
 */
export function looksLikeGtk4ClassName(path: string, name: string): boolean {
  return TYPE_NAME.test(name) && GTK4_OBJECT_PATH.test(path);
}

/** A symbolic icon's name in the icon theme ("go-down-symbolic", "edit-find-symbolic"). */
const SYMBOLIC_ICON_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*-symbolic$/;

/**
 * Whether an image's name is only the icon theme's name of what it draws:
 * GTK 3 names an entry's icon that way ("go-down-symbolic" in eog's zoom
 * entry, "edit-find-symbolic" in a search field). It is not a label.
 *
 * @param role the element's role
 * @param name its accessible name
 * @returns true for an image named like a symbolic icon
 * @example
 * ```ts
 * import { isIconThemeName } from "./convert.ts";
 * console.log(isIconThemeName("img", "edit-find-symbolic"), isIconThemeName("img", "Logo")); // true false
 * ```
 */
export function isIconThemeName(role: Role, name: string): boolean {
  return role === "img" && SYMBOLIC_ICON_NAME.test(name);
}

/** Roles of an app's own windows that are dialogs: a file chooser, a filler, a panel. */
const TOP_LEVEL_DIALOG_ROLES: ReadonlySet<number> = new Set([
  R.FILE_CHOOSER,
  R.FILLER,
  R.PANEL,
]);

/**
 * Gives an app's own window the role it has as a window: a file chooser or a
 * plain container that is a top-level window is a dialog.
 */
function asTopLevel(el: Element, role: number): void {
  if (TOP_LEVEL_DIALOG_ROLES.has(role)) el.r = "dialog";
}

/**
 * Converts one of an app's windows read on its own (a read scoped to a
 * window): the same element it is inside the app's tree.
 *
 * @param node the window's raw subtree
 * @returns the element tree
 * @example
 * ```ts
 * import { windowToElement } from "./convert.ts";
 * const saveAs = { bus: ":1.2", path: "/w", role: 20, name: "Save As", description: "", states: [0, 0] as [number, number], interfaces: [], children: [] };
 * console.log(windowToElement(saveAs).r); // dialog
 * ```
 */
export function windowToElement(node: AtspiRawNode): Element {
  const el = rawToElement(node);
  asTopLevel(el, node.role);
  return el;
}

/** Toolkits report hidden objects at this coordinate (INT32_MIN). */
const OFFSCREEN = -2147483648;

/**
 * Whether bit `state` is set in an AtspiStateSet given as (low, high) words.
 *
 * @param states the two 32-bit words
 * @param state an AtspiStateType value (0-63)
 * @returns true when set
 * @example
 * ```ts
 * import { hasState } from "./convert.ts";
 * console.log(hasState([1 << 12, 0], 12)); // true (FOCUSED)
 * ```
 */
export function hasState(states: readonly [number, number], state: number): boolean {
  const word = state < 32 ? states[0] : states[1];
  return ((word >>> (state % 32)) & 1) === 1;
}

/**
 * Whether a node is hidden and so not part of what the user sees: it lacks
 * VISIBLE, it is the content of a tab that is not selected (a page tab's
 * child that is not SHOWING: GTK's notebook pages), or it is a document that
 * is not SHOWING (a browser's background tab, Firefox's preloaded "New
 * Tab"). Top-level frames are kept whatever they report. Both readers drop
 * hidden subtrees.
 *
 * @param node the raw node
 * @param parentRole its parent's AT-SPI role, when known
 * @returns true when the node and its subtree should be skipped
 */
export function isHidden(
  node: Pick<AtspiRawNode, "states" | "role">,
  parentRole?: number,
): boolean {
  const role = node.role;
  if (role === R.FRAME || role === R.APPLICATION) return false;
  const states = node.states;
  if (states[0] === 0 && states[1] === 0) return false; // no states reported at all
  if (!hasState(states, S.VISIBLE)) return true;
  if (parentRole === R.PAGE_TAB && !hasState(states, S.SHOWING)) return true;
  return DOCUMENT_ROLES.has(role) && !hasState(states, S.SHOWING);
}

/**
 * The frames of a tree whose document is on its way: Firefox builds a page's
 * document when a client first asks for it, so the first read after it
 * starts (or after a new tab opens) finds the tab's frame empty (the reader
 * marks it `pending`: an internal frame that reported no children), or holding
 * a document laid out nowhere yet (no area all the way down); a moment later
 * it is there. A frame with an area on screen is waited for.
 *
 * @param root a raw tree, read whole (no depth limit)
 * @returns the frames with an area whose document has not arrived
 * @example
 * ```ts
 * import { framesAwaitingDocument } from "./convert.ts";
 * const frame = { bus: ":1.1", path: "/f", role: 28, name: "", description: "",
 *   states: [1 << 30, 0] as [number, number], interfaces: [], children: [], pending: true,
 *   extents: [0, 0, 800, 600] as [number, number, number, number] };
 * console.log(framesAwaitingDocument({ ...frame, role: 23, pending: false, children: [frame] }).length); // 1
 * ```
 */
export function framesAwaitingDocument(root: AtspiRawNode): AtspiRawNode[] {
  const out: AtspiRawNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    const area = !n.extents || (n.extents[2] > 0 && n.extents[3] > 0);
    if (n.role === INTERNAL_FRAME && area) {
      const empty = n.children.length === 0
        ? n.pending === true
        : n.children.every(isOffscreenSubtree);
      if (empty) out.push(n);
    }
    stack.push(...n.children);
  }
  return out;
}

/** AT-SPI's internal frame: what holds a browser tab's or an iframe's document. */
export const INTERNAL_FRAME: number = ATSPI_ROLE.INTERNAL_FRAME;

/**
 * Whether a subtree shows nothing on screen: it has extents of zero area (or
 * none, for a container) and so do all its descendants. GTK4 reports the
 * pages of a stack or notebook that are not shown this way (VISIBLE, but
 * 0x0); dropping them keeps hidden pages out of reads and ref numbering.
 * Leaves without extents (bounds not read) are kept.
 *
 * @param node the raw node
 * @returns true when the subtree can be dropped
 */
export function isOffscreenSubtree(node: AtspiRawNode): boolean {
  if (node.extents) {
    if (node.extents[2] > 0 && node.extents[3] > 0) return false;
  } else if (node.children.length === 0) return false;
  return node.children.every(isOffscreenSubtree);
}

/**
 * Roles that INT32_MIN does not mark as undrawn: menus and their items (kept
 * when closed: the actor opens them), and the cells, rows and items of tables
 * and lists (GTK 2 puts scrolled-out cells there; they are content, not a
 * hidden widget).
 */
const KEPT_UNDRAWN_ROLES: ReadonlySet<number> = new Set([
  R.MENU,
  R.MENU_ITEM,
  R.CHECK_MENU_ITEM,
  R.RADIO_MENU_ITEM,
  R.TEAROFF_MENU_ITEM,
  R.POPUP_MENU,
  R.TABLE_CELL,
  R.TABLE_COLUMN_HEADER,
  R.TABLE_ROW_HEADER,
  R.COLUMN_HEADER,
  R.ROW_HEADER,
  R.TABLE_ROW,
  R.TREE_ITEM,
  R.LIST_ITEM,
]);

/** The items of lists, tables and trees, whose content scrolls out of view with them. */
const SCROLLED_ITEM_ROLES: ReadonlySet<number> = new Set([
  R.TABLE_CELL,
  R.TABLE_ROW,
  R.TREE_ITEM,
  R.LIST_ITEM,
]);

/**
 * Whether a node is not drawn at all: it is not SHOWING and its extents sit at
 * INT32_MIN, GTK 3's mark for a widget that is not mapped (a closed revealer
 * such as a hidden search bar, a popover that is not open, a collapsed
 * expander's content). Scrolled-out content keeps real coordinates and stays,
 * and so do the cells and items of tables and lists (GTK 2 puts scrolled-out
 * cells at INT32_MIN). Menus and what they hold stay too: a closed menu is
 * still reachable (the actor opens it) and reads as one line.
 *
 * @param node the raw node (extents read)
 * @param parentRole its parent's AT-SPI role, when known
 * @returns true when the node and its subtree should be skipped
 * @example
 * ```ts
 * import { isUndrawn } from "./convert.ts";
 * const base = { states: [1 << 30, 0] as [number, number], extents: [-2147483648, -2147483648, 252, 47] as [number, number, number, number] };
 * console.log(isUndrawn({ ...base, role: 39 }), isUndrawn({ ...base, role: 35 })); // true false
 * ```
 */
export function isUndrawn(
  node: Pick<AtspiRawNode, "states" | "role" | "extents">,
  parentRole?: number,
): boolean {
  const e = node.extents;
  if (!e || e[0] !== OFFSCREEN || e[1] !== OFFSCREEN) return false;
  if (
    KEPT_UNDRAWN_ROLES.has(node.role) || (parentRole !== undefined && MENU_ROLES.has(parentRole))
  ) {
    return false;
  }
  return !hasState(node.states, S.SHOWING);
}

/** The node identity used as `nid`: bus name followed by object path. */
export function nodeId(node: Pick<AtspiRawNode, "bus" | "path">): string {
  return `${node.bus}${node.path}`;
}

/**
 * Splits a `nid` made by {@link nodeId} back into bus name and object path.
 *
 * @param nid e.g. `:1.42/org/a11y/atspi/accessible/17`
 * @returns bus and path, or null when malformed
 */
export function parseNodeId(nid: string): { bus: string; path: string } | null {
  const slash = nid.indexOf("/");
  if (slash <= 0) return null;
  return { bus: nid.slice(0, slash), path: nid.slice(slash) };
}

/**
 * Converts a raw AT-SPI tree to elements (ids are 0: numbering happens later).
 * Password fields get `sec` and never a value.
 *
 * @param node the raw root
 * @param inScrolledOutItem inside a row, item or cell that is not showing (scrolled out of its
 *   list): GTK 3 marks its widgets undrawn too, but they are the item's content, kept with it
 * @returns the element tree
 * @example
 * ```ts
 * import { rawToElement } from "./convert.ts";
 * const el = rawToElement({
 *   bus: ":1.5", path: "/p/1", role: 40, name: "Password", description: "",
 *   states: [0, 0], interfaces: [], children: [], text: "hunter2",
 * });
 * console.log(el.sec, el.v); // true undefined
 * ```
 */
export function rawToElement(raw: AtspiRawNode, inScrolledOutItem = false): Element {
  // A paragraph whose inline children are only styled text (Firefox: <em>, <code>) reads as
  // its whole text, spaces as the page has them.
  const flowed = flowedText(raw);
  const node = flowed === undefined ? raw : { ...raw, text: flowed, children: [] };
  const st = node.states;
  // The node's AT-SPI role, read once: raw nodes come in many shapes, so each read of a field
  // is a slow, generic lookup.
  const code = node.role;
  const editable = node.interfaces.includes("org.a11y.atspi.EditableText");
  // GTK3 entries and text views use the generic "text" role; editable ones are inputs. A push
  // button that can be checked is a toggle (Firefox's aria-pressed buttons; Chromium says so).
  const role = code === R.TEXT && editable
    ? roleFromAtspiCode(R.ENTRY)
    : code === R.PUSH_BUTTON && hasState(st, S.CHECKABLE)
    ? roleFromAtspiCode(R.TOGGLE_BUTTON)
    : roleFromAtspiCode(code);
  const el: Element = { i: 0, r: role };
  // A row made to group a table's cells has no object behind it, so no identity.
  if (node.path) el.nid = nodeId(node);

  // A combo box's popup that has no area is closed (Qt 5 keeps its list SHOWING): its items
  // are the combo's choices, not content.
  const closedPopups = code === R.COMBO_BOX ? node.children.filter(isClosedPopup) : NO_NODES;
  const choices = closedPopups.length
    ? [...(node.choices ?? []), ...closedPopups.flatMap(itemNames)]
    : node.choices;
  const own = node.name.trim();
  const notALabel = isGtk4ClassName(node, own) || isIconThemeName(role, own);
  const label = (notALabel ? "" : own) || node.labelledBy?.trim() || "";
  if (label) el.t = label;
  if (node.labelFor?.length) el.lf = nodeId({ bus: node.bus, path: node.labelFor[0] });
  const desc = node.description.trim();
  if (desc && desc !== label) el.d = desc;

  // Text between embedded children (Firefox: "Email \uFFFC") becomes text children below.
  const inline = inlineSegments(node);
  const secure = code === R.PASSWORD_TEXT;
  if (secure) el.sec = true;
  else if (inline || code === R.SPLIT_PANE) {
    // Its text is its children's, in place; a split pane's value is where its divider sits.
  } else {
    const combo = code === R.COMBO_BOX;
    const v = showsNoValue(node) ? undefined : valueOf(node) || valueText(node) ||
      (combo ? chosenOption(node) ?? (closedChoice(choices, label) || node.chosen) : undefined);
    // A label's or cell's text that only repeats its name says nothing new; a combo box named
    // after its choice keeps it as its value (semantics then finds it its label).
    if (v !== undefined && v !== "" && (EDIT_ROLES.has(code) || combo || v.trim() !== label)) {
      el.v = v;
    }
  }
  // A scroll bar's value is a position in pixels: its fractions (GTK's 1118.99605249) are noise.
  if (code === R.SCROLL_BAR && el.v !== undefined && node.value && !node.text) {
    el.v = String(Math.round(node.value.current));
  }
  // A spin button that shows its number in words ("January", "01:30") reads as a slider with a
  // value text: its number is its value, what it shows its value text.
  const shown = el.v !== undefined && node.value ? spinWords(code, el.v) : undefined;
  if (shown !== undefined) el.v = formatNumber(node.value!.current);
  const vt = valueText(node) ?? shown;
  if (vt && el.v !== undefined && !secure && fold(vt) !== fold(el.v)) el.vt = vt;
  // A spin button whose field holds a number it has not taken yet (typed, not committed by
  // Return, Tab or leaving the field: GTK): its value is the number it holds, what the field
  // shows its value text, so no one takes the typed number for the spin's.
  if (code === R.SPIN_BUTTON && shown === undefined && !secure) {
    const pending = pendingSpinText(el.v, node.value?.current);
    if (pending !== undefined) {
      el.v = formatNumber(node.value!.current);
      el.vt = pending;
    }
  }
  if (node.selection && !secure) el.sel = node.selection;
  if (
    node.value && node.value.max > node.value.min && bounded(node.value) &&
    code !== R.SPLIT_PANE
  ) {
    el.min = node.value.min;
    el.max = node.value.max;
  }

  const b = boundsOf(node.extents);
  if (b) el.b = b;

  if (hasState(st, S.FOCUSED)) el.f = true;
  const anyState = st[0] !== 0 || st[1] !== 0;
  // An app is not a control: Firefox's application object reports neither state, and is not
  // disabled for it.
  if (
    anyState && !hasState(st, S.ENABLED) && !hasState(st, S.SENSITIVE) &&
    code !== R.APPLICATION
  ) {
    el.e = false;
  }
  if (hasState(st, S.SELECTED)) el.s = true;
  if (hasState(st, S.INDETERMINATE) && (CHECK_ROLES.has(code) || hasState(st, S.CHECKABLE))) {
    el.chk = "mixed";
  } // Qt 5 marks a checked menu item CHECKED without CHECKABLE: the state alone says it is on.
  else if (CHECK_ROLES.has(code) || hasState(st, S.CHECKABLE) || hasState(st, S.CHECKED)) {
    el.chk = hasState(st, S.CHECKED) || (code === R.TOGGLE_BUTTON && hasState(st, S.PRESSED));
  } // A push button held pressed (GTK 4's toggle buttons say only that, and nothing while
  // released): shown as on, so pressing it shows a change.
  else if (code === R.PUSH_BUTTON && hasState(st, S.PRESSED)) el.chk = true;
  if (hasState(st, S.EXPANDABLE) || hasState(st, S.EXPANDED)) el.exp = hasState(st, S.EXPANDED);
  if (hasState(st, S.REQUIRED)) el.req = true;
  if (hasState(st, S.INVALID_ENTRY)) el.inv = true;
  // Read-only says something only of what could change (Qt marks every label and image so).
  if (
    (hasState(st, S.READ_ONLY) && CHANGEABLE_ROLES.has(role)) ||
    (editable && EDIT_ROLES.has(code) && !hasState(st, S.EDITABLE))
  ) {
    el.ro = true;
  }

  const attrs = node.attributes ?? NO_ATTRIBUTES;
  if (el.r === "landmark") el.r = landmarkRole(attrs["xml-roles"]);
  // Chromium exposes an ARIA tab panel as a scroll pane; its xml-roles says what it is.
  if (code === R.SCROLL_PANE && /\btabpanel\b/.test(attrs["xml-roles"] ?? "")) {
    el.r = "tabpanel";
  }
  const sort = attrs.sort?.trim().toLowerCase();
  if (sort === "ascending" || sort === "descending" || sort === "other") el.sort = sort;
  const ph = attrs["placeholder-text"]?.trim();
  if (ph) el.ph = ph;
  // A heading's level; Firefox also gives tabs and list items a "level", which says nothing.
  if (role === "heading") {
    const lv = Number.parseInt(attrs.level ?? "", 10);
    if (lv >= 1 && lv <= 6) el.lv = lv;
  }

  // GTK 3 lists "edit" on every tree-view cell; only an EDITABLE one can be edited.
  const cellNotEditable = code === R.TABLE_CELL && !hasState(st, S.EDITABLE);
  if (node.actions?.length) {
    const actions = node.actions.filter((a) => a !== "" && !(cellNotEditable && a === "edit"));
    if (actions.length) el.a = actions;
  }

  const kids: Element[] = [];
  const children = node.children;
  // A list's row scrolled out of view is kept (KEPT_UNDRAWN_ROLES), and so is what it holds: the
  // label that names it, the switch in it (GTK 3 puts them at INT32_MIN, not showing).
  const scrolledOut = inScrolledOutItem ||
    (SCROLLED_ITEM_ROLES.has(code) && !hasState(st, S.SHOWING));
  for (let k = 0; k < children.length; k++) {
    const c = children[k];
    if (inline?.[k]) kids.push(inline[k]!);
    // Shown: not hidden, off screen, undrawn or a combo box's closed popup.
    if (
      isHidden(c, code) || isOffscreenSubtree(c) || (!scrolledOut && isUndrawn(c, code)) ||
      closedPopups.includes(c)
    ) continue;
    const kid = rawToElement(c, scrolledOut);
    if (code === R.COMBO_BOX && EMPTY_POPUP_ROLES.has(c.role) && !kid.c?.length) continue;
    // An unnamed link in a text (a GTK label's markup link) is named by the part it covers.
    if (c.linkRange && !kid.t) {
      const [start, end] = c.linkRange;
      const part = Array.from(node.text ?? node.name).slice(start, end).join("").trim();
      if (part) kid.t = part;
    }
    // A file chooser that is a window of its own (GTK's Open and Save dialogs) is a dialog, and
    // so is a plain container that is one (GTK 4.8 reports its dialogs as fillers: "Save As").
    // A list box's items are what one chooses in it: options (Chromium's ARIA listbox, GTK's).
    if (code === R.LIST_BOX && c.role === R.LIST_ITEM) kid.r = "option";
    if (code === R.APPLICATION) asTopLevel(kid, c.role);
    else if (code !== R.APPLICATION && c.role === R.FRAME && !c.children.length) {
      asTextDisplay(kid);
    }
    kids.push(kid);
  }
  const tail = inline?.[node.children.length];
  if (tail) kids.push(tail);
  if (kids.length) el.c = kids;
  if (code === R.LIST_ITEM && isProseItem(el, node)) el.r = "group";
  if (el.r === "listbox" && el.v === undefined) {
    const chosen = chosenItems(el);
    if (chosen) el.v = chosen;
  }
  return el;
}

/** No nodes: what most nodes' closed popups are (read only). */
const NO_NODES: readonly AtspiRawNode[] = [];

/** No attributes: what a node without any reads (read only). */
const NO_ATTRIBUTES: Readonly<Record<string, string>> = {};

/** Roles of running text: what a list item of prose holds. */
const PROSE_ROLES: ReadonlySet<Role> = new Set<Role>([
  "txt",
  "lnk",
  "img",
  "group",
  "list",
  "separator",
]);

/**
 * Whether a list item is a paragraph of a list: it has no name of its own,
 * nothing selects or focuses it, and it holds only running text (texts,
 * links, images, nested lists of the same; a heading makes it a card, such
 * as a search result, read as a row). Such an item reads as the
 * paragraph it is (a `group`, as WebKit and Chromium say on macOS), so its
 * words never become a ref; an item holding a control stays a `listitem`.
 */
function isProseItem(el: Element, node: AtspiRawNode): boolean {
  if (el.t || el.s || hasState(node.states, S.SELECTABLE) || hasState(node.states, S.FOCUSABLE)) {
    return false;
  }
  const stack = [...(el.c ?? [])];
  if (stack.length === 0) return false;
  while (stack.length) {
    const k = stack.pop()!;
    if (!PROSE_ROLES.has(k.r) || hasControlState(k)) return false;
    stack.push(...k.c ?? []);
  }
  return true;
}

/** Whether an element has a state only a control has (checked, expanded, focused). */
function hasControlState(el: Element): boolean {
  return el.chk !== undefined || el.exp !== undefined || !!el.f || !!el.s;
}

/**
 * The chosen options of a list box, by label ("Français"; several joined
 * with ", "), looked for among its items and one level of groups below it.
 */
function chosenItems(box: Element): string | undefined {
  const names: string[] = [];
  for (const k of box.c ?? []) {
    const items = k.r === "group" ? k.c ?? [] : [k];
    for (const item of items) {
      const name = item.s ? itemLabel(item) : undefined;
      if (name) names.push(name);
    }
  }
  return names.length ? names.join(", ") : undefined;
}

/** An item's label: its name, else its first text (a GTK list box row holds a label). */
function itemLabel(item: Element): string | undefined {
  const own = item.t?.trim();
  if (own) return own;
  for (const k of item.c ?? []) {
    const t = k.r === "txt" ? (k.t ?? k.v)?.trim() : itemLabel(k);
    if (t) return t;
  }
  return undefined;
}

/**
 * A value's words when the number is not what the user sees: ARIA's
 * `aria-valuetext` (Chromium: the `valuetext` attribute) or AT-SPI's value
 * text, when it is more than the number again.
 */
function valueText(node: Pick<AtspiRawNode, "value" | "attributes">): string | undefined {
  const t = (node.value?.text ?? node.attributes?.valuetext)?.trim();
  return t ? t : undefined;
}

/**
 * Makes a frame found inside a window, with nothing in it, the text display it
 * is: a custom Qt widget (KCalc's result display) names itself by the text it
 * shows, so that text is its value and its description, when it has one, its
 * label. Read as a window, the shown number made its ref and twinned the
 * buttons showing the same digit.
 */
function asTextDisplay(el: Element): void {
  el.r = "txt";
  if (el.d && el.t) {
    el.v = el.t;
    el.t = el.d;
    delete el.d;
  }
}

/** AT-SPI's static role: Firefox's `<em>`, `<code>`, `<strong>` inside a paragraph. */
const STATIC_ROLE: number = R.STATIC;

/**
 * The whole text of a container whose text holds one U+FFFC per child when
 * every child is styled text only (a leaf, static, with text, nothing to act
 * on): each U+FFFC is replaced by its child's text. Undefined otherwise.
 */
function flowedText(node: AtspiRawNode): string | undefined {
  const text = node.text;
  if (!text?.includes("\uFFFC") || EDIT_ROLES.has(node.role)) return undefined;
  const styled = node.children.every((c) =>
    c.role === STATIC_ROLE && c.children.length === 0 && !c.actions?.length && c.text?.trim()
  );
  const runs = text.split("\uFFFC");
  if (!styled || runs.length !== node.children.length + 1) return undefined;
  return runs.map((r, k) => r + (node.children[k]?.text ?? "")).join("").replace(/\s+/g, " ")
    .trim();
}

/**
 * The text runs of a container whose text holds one U+FFFC per child (how
 * Firefox exposes a paragraph's inline text: "Email \uFFFC" for `<p>Email
 * <input></p>`), as static text elements: entry k is the run before child k,
 * the last one the run after the last child. Undefined when the text does
 * not interleave the children that way (or is an input's own text).
 */
function inlineSegments(node: AtspiRawNode): Array<Element | undefined> | undefined {
  const text = node.text;
  if (!text || node.children.length === 0 || EDIT_ROLES.has(node.role)) return undefined;
  // Without a U+FFFC there is one run, never one more than the children.
  if (!text.includes("\uFFFC")) return undefined;
  const runs = text.split("\uFFFC");
  if (runs.length !== node.children.length + 1) return undefined;
  if (runs.every((r) => r.trim() === "")) return [];
  return runs.map((r) => {
    const t = r.replace(/\s+/g, " ").trim();
    return t ? { i: 0, r: "txt", t } : undefined;
  });
}

/**
 * The value to show: the text of an input, or any other text that was read
 * and is not empty (a document, a cell: a spreadsheet cell's Value is 0
 * whether it is empty or not), else the Value interface's number. U+FFFC
 * (one per embedded child) is left out.
 */
function valueOf(node: AtspiRawNode): string | undefined {
  // A cache that counted no children may be behind the tree (Firefox): a node
  // that turned out to have children keeps no text unless it is an input.
  const input = TEXT_VALUE_ROLES.has(node.role) ||
    node.interfaces.includes("org.a11y.atspi.EditableText");
  // A text field's paragraphs are its value; a frame's or document's embedded objects are its
  // content, printed as its children (Firefox's window has the Text interface).
  const text = input && EDIT_ROLES.has(node.role)
    ? withEmbedded(node, 0)
    : input || node.children.length === 0
    ? node.text?.replaceAll("\uFFFC", "")
    : undefined;
  // An empty field with a number (Chromium's date parts) shows the number.
  if (text || (text !== undefined && EDIT_ROLES.has(node.role) && !node.value)) return text;
  if (node.value) {
    if ((node.value.max > node.value.min && bounded(node.value)) || node.value.current !== 0) {
      // A progress bar's figure is for reading: seven digits, as much as a single-precision
      // number holds (GTK 2 computes 60 as 60.0000023841858).
      return node.role === PROGRESS_BAR
        ? String(Number(node.value.current.toPrecision(7)))
        : formatNumber(node.value.current);
    }
  }
  return undefined;
}

/**
 * The text of a spin button's field when it shows another number than the
 * spin holds (an edit not committed yet), else undefined. Only a plain number
 * counts: a formatted one (units, separators) is left as the app shows it.
 *
 * @param text the field's text
 * @param current the spin's value
 * @returns the field's text, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pendingSpinText } from "./convert.ts";
 * assert.equal(pendingSpinText("5", 10), "5");
 * assert.equal(pendingSpinText("10.00", 10), undefined);
 * assert.equal(pendingSpinText("10 px", 12), undefined);
 * ```
 */
export function pendingSpinText(
  text: string | undefined,
  current: number | undefined,
): string | undefined {
  if (text === undefined || current === undefined || !PLAIN_NUMBER.test(text)) return undefined;
  const shown = Number(text.trim());
  return Math.abs(shown - current) > 1e-9 * Math.max(1, Math.abs(current)) ? text : undefined;
}

/** A number as a spin button's field shows it, plainly: `5`, `-2.5`. */
const PLAIN_NUMBER = /^\s*[-+]?\d+(\.\d+)?\s*$/;

/**
 * A field's text with each embedded object (U+FFFC) replaced by that child's
 * text on a line of its own: a rich editor's second paragraph is a child of
 * the field (Chromium's contenteditable), so its text is part of the value.
 * The embedded objects are the children that are not inline text runs, in
 * order; a child whose text was not read stands for its children's.
 */
function withEmbedded(node: AtspiRawNode, depth: number): string | undefined {
  const text = node.text;
  if (text === undefined || !text.includes("\uFFFC")) return text;
  if (depth >= MAX_EMBED_DEPTH) return text.replaceAll("\uFFFC", "");
  const embedded = node.children.filter((c) => c.role !== R.STATIC);
  // A child whose own text was not read (or reads empty: a section around a text run) stands
  // for its children's; a text run read by its name (Chromium's static text) for that.
  const inner = (c: AtspiRawNode): string =>
    c.text
      ? withEmbedded(c, depth + 1) ?? ""
      : c.children.length
      ? c.children.map(inner).join("")
      : c.name;
  let k = 0;
  return text.replace(/\uFFFC/g, () => {
    const child = embedded[k++];
    return child ? `\n${inner(child)}` : "";
  });
}

/** How deep a field's embedded objects are followed (paragraphs, a list in them). */
const MAX_EMBED_DEPTH = 3;

/** Whether a range is a real one, not the ±DBL_MAX "any number" of a spreadsheet cell. */
/**
 * Whether a field shows no value whatever number its Value interface holds:
 * a field whose text is empty and that has no value text (Chromium's empty
 * `<input type="number" min max>` holds 0; a date part's empty text comes
 * with its value text, `01`), or a number outside its own range (an empty
 * part of Chromium's time field holds 0 in 1..12 and shows `--`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { showsNoValue } from "./convert.ts";
 * import { ATSPI_ROLE } from "../../ffi/atspi.ts";
 * const field = { role: ATSPI_ROLE.SPIN_BUTTON, text: "", value: { current: 0, min: 0, max: 10 } };
 * assert.equal(showsNoValue(field), true);
 * assert.equal(showsNoValue({ ...field, text: "0" }), false);
 * assert.equal(showsNoValue({ ...field, attributes: { valuetext: "00" } }), false);
 * assert.equal(showsNoValue({ ...field, text: "--", value: { current: 0, min: 1, max: 12 } }), true);
 * ```
 */
export function showsNoValue(
  node: Pick<AtspiRawNode, "role" | "text" | "value" | "attributes">,
): boolean {
  const v = node.value;
  if (v === undefined) return false;
  if (node.text === "" && EDIT_ROLES.has(node.role) && !valueText(node)) return true;
  return v.max > v.min && bounded(v) && (v.current < v.min || v.current > v.max);
}

function bounded(v: { min: number; max: number }): boolean {
  return Math.abs(v.min) < 1e300 && Math.abs(v.max) < 1e300;
}

/**
 * The chosen option of a combo box that has no text of its own (Firefox's
 * `<select>`): the name of the SELECTED item in its list, which is a child of
 * the combo, or a grandchild under one menu or list.
 */
function chosenOption(node: AtspiRawNode): string | undefined {
  for (const c of node.children) {
    if (hasState(c.states, S.SELECTED) && c.name.trim()) return c.name.trim();
  }
  for (const list of node.children) {
    for (const c of list.children) {
      if (hasState(c.states, S.SELECTED) && c.name.trim()) return c.name.trim();
    }
  }
  return undefined;
}

/** The name of a combo box whose popup is closed, when it is one of its choices (GTK 3, Qt). */
function closedChoice(choices: string[] | undefined, label: string): string | undefined {
  return label !== "" && choices?.includes(label) ? label : undefined;
}

/** Roles of a combo box's popup: with no item shown (Firefox's closed `<select>`), it says nothing. */
const EMPTY_POPUP_ROLES: ReadonlySet<number> = new Set([
  R.LIST,
  ...MENU_ROLES,
]);

/** Whether a combo box's child is its closed popup: a list or menu with extents of no area. */
function isClosedPopup(c: AtspiRawNode): boolean {
  return !!c.extents && (c.extents[2] <= 0 || c.extents[3] <= 0) && c.children.length > 0;
}

/** The names of a popup's items (its children, or theirs under one more level). */
function itemNames(popup: AtspiRawNode): string[] {
  return popup.children.flatMap((c) => c.name.trim() ? [c.name.trim()] : itemNames(c));
}

/** Numbers without float noise: 0.30000000000000004 prints as 0.3. */
/** AT-SPI's progress bar role. */
const PROGRESS_BAR = 42;

/**
 * The words a spin button shows for its number, when its field shows words rather than a
 * number (GTK's month or time spin buttons: `March`, `01:30`): its value text. The reader and
 * the actor (src/platform/linux/act.ts) both take a spin button's words by this rule.
 *
 * @param role the AT-SPI role code
 * @param text what its field shows
 * @returns the words, or undefined for a number or another role
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spinWords } from "./convert.ts";
 * import { ATSPI_ROLE } from "../../ffi/atspi.ts";
 * assert.equal(spinWords(ATSPI_ROLE.SPIN_BUTTON, " March "), "March");
 * assert.equal(spinWords(ATSPI_ROLE.SPIN_BUTTON, "0x1F"), undefined);
 * assert.equal(spinWords(ATSPI_ROLE.SPIN_BUTTON, "12.50"), undefined);
 * assert.equal(spinWords(ATSPI_ROLE.SLIDER, "March"), undefined);
 * ```
 */
export function spinWords(role: number, text: string): string | undefined {
  const shown = text.trim();
  return role === R.SPIN_BUTTON && shown && !Number.isFinite(Number(shown)) ? shown : undefined;
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  // A single-precision value (Chromium's <meter>: 0.699999988079071) is exact to 7 digits.
  return String(Number(n.toPrecision(Math.fround(n) === n ? 7 : 12)));
}

/** Extents as bounds, dropping the INT32_MIN "not on screen" marker and empty boxes. */
function boundsOf(e: AtspiRawNode["extents"]): Bounds | undefined {
  if (!e) return undefined;
  const [x, y, w, h] = e;
  if (x === OFFSCREEN || y === OFFSCREEN || w <= 0 || h <= 0) return undefined;
  return [x, y, w, h];
}

/**
 * Moves the boxes of a subtree by `dx`, `dy` (in place): boxes a toolkit
 * reported relative to their window, made screen coordinates.
 *
 * @param el the subtree's root
 * @param dx pixels to the right
 * @param dy pixels down
 * @example
 * ```ts
 * import { shiftBoxes } from "./convert.ts";
 * const w = { i: 1, r: "window" as const, b: [0, 0, 400, 300] as [number, number, number, number] };
 * shiftBoxes(w, 240, 212);
 * console.log(w.b); // [240, 212, 400, 300]
 * ```
 */
export function shiftBoxes(el: Element, dx: number, dy: number): void {
  if (dx === 0 && dy === 0) return;
  walk(el, (e) => {
    if (e.b) e.b = [e.b[0] + dx, e.b[1] + dy, e.b[2], e.b[3]];
  });
}
