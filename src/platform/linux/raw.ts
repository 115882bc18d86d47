/**
 * The raw shape of one AT-SPI node, as either reader (libatspi walk or bulk
 * D-Bus) produces it, before conversion to the shared element model, and the
 * rules both readers share about what to read into it.
 *
 * @module
 */

import { ATSPI_ROLE, TEXT_VALUE_ROLES } from "./atspi_roles.ts";

/** Longest text kept from a Text object, in characters. */
export const TEXT_CAP = 2000;
/** Marks a text cut at {@link TEXT_CAP} characters. */
export const TRUNCATION_MARK = "…";
/**
 * Roles whose Text content is their value, read even when they have children:
 * text, entry, spin button, combo box, and terminal (Konsole's holds its
 * hidden search bar).
 */
export { TEXT_VALUE_ROLES };
/**
 * Roles whose action names are not read: containers, text and windows, where
 * toolkits list clipboard or "click the ancestor" actions (GTK4: eight per
 * label; Chromium and Firefox: `clickAncestor` on static text and sections)
 * that cost a round trip each and are not what an agent presses.
 */
export const PASSIVE_ROLES: ReadonlySet<number> = new Set([
  ATSPI_ROLE.FILLER,
  ATSPI_ROLE.FRAME,
  ATSPI_ROLE.LABEL,
  ATSPI_ROLE.PANEL,
  ATSPI_ROLE.SEPARATOR,
  ATSPI_ROLE.PARAGRAPH,
  ATSPI_ROLE.APPLICATION,
  ATSPI_ROLE.SECTION,
  ATSPI_ROLE.LANDMARK,
  ATSPI_ROLE.STATIC,
]);
/** Roles whose text is their name when they have one (label, static, heading). */
const NAMED_TEXT_ROLES: ReadonlySet<number> = new Set([
  ATSPI_ROLE.LABEL,
  ATSPI_ROLE.STATIC,
  ATSPI_ROLE.HEADING,
]);
const ROLE_PASSWORD_TEXT: number = ATSPI_ROLE.PASSWORD_TEXT;

/**
 * Whether a reader reads a node's Text: always for inputs; for every other
 * leaf that has the Text interface (a PDF page, a document paragraph, a
 * spreadsheet cell, an unnamed label), since that is where its content is; a
 * container's text only repeats its children's (one U+FFFC per child), and a
 * named label's or heading's text is its name. Never for a password field.
 *
 * @param node role, name and interfaces
 * @param leaf whether the node has no children
 * @returns true when the text is read
 * @example
 * ```ts
 * import { readsText } from "./raw.ts";
 * const page = { role: 84, name: "", interfaces: ["org.a11y.atspi.Text"] };
 * console.log(readsText(page, true), readsText(page, false)); // true false
 * ```
 */
export function readsText(
  node: Pick<AtspiRawNode, "role" | "name" | "interfaces">,
  leaf: boolean,
): boolean {
  const has = (i: string) => node.interfaces.includes(`org.a11y.atspi.${i}`);
  if (node.role === ROLE_PASSWORD_TEXT || !has("Text")) return false;
  if (has("EditableText") || TEXT_VALUE_ROLES.has(node.role)) return true;
  return leaf && !(NAMED_TEXT_ROLES.has(node.role) && node.name !== "");
}

/**
 * Whether the caret and text selection of a node are read: an editable text
 * (not a password field) that has the focus, or that holds many lines (a
 * document: its search bar's Next button selects in it while the bar keeps
 * the focus). Two round trips each, for a handful of nodes.
 *
 * @param node the node (role, interfaces, states)
 * @returns true to read its selection
 * @example
 * ```ts
 * import { readsSelection } from "./raw.ts";
 * const doc = { role: 61, interfaces: ["org.a11y.atspi.Text", "org.a11y.atspi.EditableText"], states: [0, 0] as [number, number] };
 * console.log(readsSelection(doc), readsSelection({ ...doc, states: [1 << 17, 0] })); // false true
 * // Chromium's field: Text and the EDITABLE and FOCUSED states, no EditableText.
 * const field = { role: 79, interfaces: ["org.a11y.atspi.Text"], states: [(1 << 7) | (1 << 12), 0] as [number, number] };
 * console.log(readsSelection(field)); // true
 * ```
 */
export function readsSelection(
  node: Pick<AtspiRawNode, "role" | "interfaces" | "states">,
): boolean {
  if (node.role === ROLE_PASSWORD_TEXT) return false;
  if (!node.interfaces.includes("org.a11y.atspi.Text")) return false;
  const [low] = node.states;
  const bit = (n: number) => ((low >>> n) & 1) === 1;
  // Chromium's text fields say EDITABLE and have no EditableText interface.
  if (!node.interfaces.includes("org.a11y.atspi.EditableText") && !bit(STATE_EDITABLE)) {
    return false;
  }
  return bit(STATE_FOCUSED) || bit(STATE_MULTI_LINE);
}

/** AtspiStateType bits {@link readsSelection} looks at (all in the low word). */
const STATE_EDITABLE = 7;
const STATE_FOCUSED = 12;
const STATE_MULTI_LINE = 17;

/**
 * A text's selection as kept: the first selected range, else the caret as an
 * empty range; undefined when the app says neither.
 *
 * @param caret the caret offset (-1 when unknown)
 * @param range the first selected range, if any
 * @returns `[start, end]`, start first
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectionOf } from "./raw.ts";
 * assert.deepEqual(selectionOf(17, [17, 12]), [12, 17]);
 * assert.deepEqual(selectionOf(4, undefined), [4, 4]);
 * assert.equal(selectionOf(-1, undefined), undefined);
 * ```
 */
export function selectionOf(
  caret: number,
  range: [number, number] | undefined,
): [number, number] | undefined {
  if (range && range[0] >= 0 && range[1] >= 0 && range[0] !== range[1]) {
    return range[0] <= range[1] ? range : [range[1], range[0]];
  }
  return Number.isInteger(caret) && caret >= 0 ? [caret, caret] : undefined;
}

/** Roles whose object attributes say something printed: heading (level), landmark and scroll pane (xml-roles: their kind, a tab panel). */
const ATTRIBUTE_ROLES: ReadonlySet<number> = new Set([
  ATSPI_ROLE.HEADING,
  ATSPI_ROLE.LANDMARK,
  ATSPI_ROLE.SCROLL_PANE,
]);

/** AT-SPI's link role. */
const LINK_ROLE: number = ATSPI_ROLE.LINK;

/**
 * Whether a reader asks where a link sits in the text that holds it: an
 * unnamed link (a GTK label's markup link, eog's folder link) is named by
 * that part of its parent's text.
 *
 * @param node role, name and interfaces
 * @returns true for an unnamed link with the Hyperlink interface
 * @example
 * ```ts
 * import { readsLinkRange } from "./raw.ts";
 * console.log(readsLinkRange({ role: 88, name: "", interfaces: ["org.a11y.atspi.Hyperlink"] })); // true
 * ```
 */
export function readsLinkRange(node: Pick<AtspiRawNode, "role" | "name" | "interfaces">): boolean {
  return node.role === LINK_ROLE && node.name === "" &&
    node.interfaces.includes("org.a11y.atspi.Hyperlink");
}

/**
 * A link's place in its parent's text, when the offsets make one.
 *
 * @param start Hyperlink's StartIndex
 * @param end Hyperlink's EndIndex
 * @returns the range, or undefined for offsets that say nothing (-1, NaN, empty)
 * @example
 * ```ts
 * import { linkRange } from "./raw.ts";
 * console.log(linkRange(0, 3), linkRange(-1, -1)); // [0, 3] undefined
 * ```
 */
export function linkRange(start: number, end: number): [number, number] | undefined {
  return Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end > start
    ? [start, end]
    : undefined;
}

/**
 * Whether a reader reads a node's object attributes (placeholder, level,
 * xml-roles): for inputs, password fields, headings, landmarks and scroll
 * panes (Chromium's tab panels are scroll panes with xml-roles "tabpanel").
 *
 * @param node role and interfaces
 * @returns true when the attributes are read
 * @example
 * ```ts
 * import { readsAttributes } from "./raw.ts";
 * console.log(readsAttributes({ role: 49, interfaces: [] }), readsAttributes({ role: 43, interfaces: [] })); // true false
 * ```
 */
export function readsAttributes(node: Pick<AtspiRawNode, "role" | "interfaces">): boolean {
  return ATTRIBUTE_ROLES.has(node.role) || node.role === ROLE_PASSWORD_TEXT ||
    TEXT_VALUE_ROLES.has(node.role) || node.interfaces.includes("org.a11y.atspi.EditableText");
}

/**
 * A text as the readers keep it: at most {@link TEXT_CAP} characters, then
 * {@link TRUNCATION_MARK} when there was more.
 *
 * @param text the text read
 * @returns the kept text
 * @example
 * ```ts
 * import { capText, TEXT_CAP } from "./raw.ts";
 * console.log(capText("x".repeat(TEXT_CAP + 5)).endsWith("…")); // true
 * ```
 */
export function capText(text: string): string {
  return text.length > TEXT_CAP ? text.slice(0, TEXT_CAP) + TRUNCATION_MARK : text;
}

/** One accessible object as AT-SPI describes it. */
export interface AtspiRawNode {
  /** Unique bus name of the owning app (`:1.42`). */
  bus: string;
  /** D-Bus object path (`/org/a11y/atspi/accessible/17`). */
  path: string;
  /** AtspiRole enum value. */
  role: number;
  /** Accessible name. */
  name: string;
  /** Accessible description. */
  description: string;
  /** AtspiStateSet bitfield as two 32-bit words (low, high). */
  states: [number, number];
  /** D-Bus interfaces the object implements (`org.a11y.atspi.Action`...). */
  interfaces: string[];
  /** Children in order. */
  children: AtspiRawNode[];
  /** Screen extents x, y, w, h (ATSPI_COORD_TYPE_SCREEN), when read. */
  extents?: [number, number, number, number];
  /** Action names, when the object implements Action. */
  actions?: string[];
  /** Text content, when the object implements Text (capped in length). */
  text?: string;
  /**
   * The text's selection (start, end), or its caret as an empty range, when
   * read (see {@link readsSelection}).
   */
  selection?: [number, number];
  /** Current/min/max value, when the object implements Value. */
  value?: { current: number; min: number; max: number; text?: string };
  /**
   * Where an unnamed link sits in its parent's text (start and end character
   * offsets, Hyperlink's StartIndex and EndIndex), when read.
   */
  linkRange?: [number, number];
  /** Name of the object that labels this one (labelled-by relation), if any. */
  labelledBy?: string;
  /** Paths of the controls this label labels (LABEL_FOR relation), if read. */
  labelFor?: string[];
  /** Object attributes worth keeping (placeholder-text, level, tag...). */
  attributes?: Record<string, string>;
  /**
   * A combo box's choices while its popup is closed (hidden, so not read as
   * children): their names, from the app's cache at no extra call.
   */
  choices?: string[];
  /**
   * A browser's frame that reported no children: its document is on its way
   * (Firefox builds it when first asked for). See framesAwaitingDocument.
   */
  pending?: boolean;
  /**
   * The choice its closed popup marks SELECTED (Chromium's `<select>`, named
   * by its label: the current value is only there).
   */
  chosen?: string;
}
