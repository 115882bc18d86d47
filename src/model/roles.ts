/**
 * The one role vocabulary: short roles agents see, and the tables that map
 * every AT-SPI role and every AX role/subrole onto them.
 *
 * Mapping choices worth knowing:
 * - What one picks in a list is told apart by what it is: a table's row is
 *   `row` (AT-SPI `table row`, AX `AXRow` of a table), a list's item is
 *   `listitem` (AT-SPI `list item`), an item of a list box (a list one
 *   chooses from: AT-SPI `list box`, ARIA `listbox`) is `option`, and a tree's
 *   item is `treeitem` (AT-SPI `tree item`, AX outline rows). The list box
 *   itself is `listbox`, an interactive role; a plain list is `list`.
 * - Editable text of every kind (`entry`, `text`, `password text`, `terminal`,
 *   AX text fields and areas) is `input`; password fields are additionally
 *   flagged secure by {@link isSecureAtspiRole} / {@link isSecureAx}.
 * - Pure structure (`panel`, `filler`, `section`, `grouping`...) is `group`,
 *   so refs and the agent format can skip it when it has no label.
 * - Scroll bars are `scroll`, like the scroll areas they belong to: an agent
 *   scrolls with the `scroll` command, and a scroll bar's value still shows
 *   the position.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Role } from "./element.ts";

/** Every short role, in a stable order. */
export const ROLES: readonly Role[] = [
  "app",
  "window",
  "dialog",
  "btn",
  "input",
  "txt",
  "lnk",
  "img",
  "chk",
  "toggle",
  "radio",
  "combo",
  "slider",
  "spin",
  "progress",
  "menubar",
  "menu",
  "menuitem",
  "tablist",
  "tab",
  "tabpanel",
  "list",
  "listitem",
  "listbox",
  "option",
  "row",
  "cell",
  "colheader",
  "table",
  "tree",
  "treeitem",
  "group",
  "scroll",
  "toolbar",
  "statusbar",
  "form",
  "web",
  "heading",
  "landmark",
  "navigation",
  "main",
  "banner",
  "contentinfo",
  "search",
  "region",
  "complementary",
  "separator",
  "tooltip",
  "other",
];

const ROLE_SET: ReadonlySet<string> = new Set(ROLES);

/** Roles an agent can act on; the `interactive` meta-role of `--roles`. */
export const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set<Role>([
  "btn",
  "input",
  "lnk",
  "chk",
  "toggle",
  "radio",
  "combo",
  "slider",
  "spin",
  "menuitem",
  "tab",
  "treeitem",
  "listbox",
  "option",
  "listitem",
  "row",
]);

/**
 * Whether a string is a role of the vocabulary.
 *
 * @param name candidate role
 * @returns true for `btn`, `input`...; false for anything else
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRole } from "./roles.ts";
 * assert.deepEqual(isRole("btn"), true);
 * assert.deepEqual(isRole("button"), false);
 * ```
 */
export function isRole(name: string): name is Role {
  return ROLE_SET.has(name);
}

/**
 * AtspiRole enum names indexed by numeric code (AT-SPI 2.46 order, plus
 * `SWITCH` = 130, which later versions added where 2.46 had LAST_DEFINED).
 */
export const ATSPI_ROLE_NAMES: readonly string[] = [
  "INVALID",
  "ACCELERATOR_LABEL",
  "ALERT",
  "ANIMATION",
  "ARROW",
  "CALENDAR",
  "CANVAS",
  "CHECK_BOX",
  "CHECK_MENU_ITEM",
  "COLOR_CHOOSER",
  "COLUMN_HEADER", // 10
  "COMBO_BOX",
  "DATE_EDITOR",
  "DESKTOP_ICON",
  "DESKTOP_FRAME",
  "DIAL",
  "DIALOG",
  "DIRECTORY_PANE",
  "DRAWING_AREA",
  "FILE_CHOOSER",
  "FILLER", // 20
  "FOCUS_TRAVERSABLE",
  "FONT_CHOOSER",
  "FRAME",
  "GLASS_PANE",
  "HTML_CONTAINER",
  "ICON",
  "IMAGE",
  "INTERNAL_FRAME",
  "LABEL",
  "LAYERED_PANE", // 30
  "LIST",
  "LIST_ITEM",
  "MENU",
  "MENU_BAR",
  "MENU_ITEM",
  "OPTION_PANE",
  "PAGE_TAB",
  "PAGE_TAB_LIST",
  "PANEL",
  "PASSWORD_TEXT", // 40
  "POPUP_MENU",
  "PROGRESS_BAR",
  "PUSH_BUTTON",
  "RADIO_BUTTON",
  "RADIO_MENU_ITEM",
  "ROOT_PANE",
  "ROW_HEADER",
  "SCROLL_BAR",
  "SCROLL_PANE",
  "SEPARATOR", // 50
  "SLIDER",
  "SPIN_BUTTON",
  "SPLIT_PANE",
  "STATUS_BAR",
  "TABLE",
  "TABLE_CELL",
  "TABLE_COLUMN_HEADER",
  "TABLE_ROW_HEADER",
  "TEAROFF_MENU_ITEM",
  "TERMINAL", // 60
  "TEXT",
  "TOGGLE_BUTTON",
  "TOOL_BAR",
  "TOOL_TIP",
  "TREE",
  "TREE_TABLE",
  "UNKNOWN",
  "VIEWPORT",
  "WINDOW",
  "EXTENDED", // 70
  "HEADER",
  "FOOTER",
  "PARAGRAPH",
  "RULER",
  "APPLICATION",
  "AUTOCOMPLETE",
  "EDITBAR",
  "EMBEDDED",
  "ENTRY",
  "CHART", // 80
  "CAPTION",
  "DOCUMENT_FRAME",
  "HEADING",
  "PAGE",
  "SECTION",
  "REDUNDANT_OBJECT",
  "FORM",
  "LINK",
  "INPUT_METHOD_WINDOW",
  "TABLE_ROW", // 90
  "TREE_ITEM",
  "DOCUMENT_SPREADSHEET",
  "DOCUMENT_PRESENTATION",
  "DOCUMENT_TEXT",
  "DOCUMENT_WEB",
  "DOCUMENT_EMAIL",
  "COMMENT",
  "LIST_BOX",
  "GROUPING",
  "IMAGE_MAP", // 100
  "NOTIFICATION",
  "INFO_BAR",
  "LEVEL_BAR",
  "TITLE_BAR",
  "BLOCK_QUOTE",
  "AUDIO",
  "VIDEO",
  "DEFINITION",
  "ARTICLE",
  "LANDMARK", // 110
  "LOG",
  "MARQUEE",
  "MATH",
  "RATING",
  "TIMER",
  "STATIC",
  "MATH_FRACTION",
  "MATH_ROOT",
  "SUBSCRIPT",
  "SUPERSCRIPT", // 120
  "DESCRIPTION_LIST",
  "DESCRIPTION_TERM",
  "DESCRIPTION_VALUE",
  "FOOTNOTE",
  "CONTENT_DELETION",
  "CONTENT_INSERTION",
  "MARK",
  "SUGGESTION",
  "PUSH_BUTTON_MENU",
  "SWITCH", // 130
];

/** The AT-SPI code of PASSWORD_TEXT: the only secure AT-SPI role. */
export const ATSPI_ROLE_PASSWORD_TEXT = 40;

/**
 * The table: AtspiRole enum name to short role. Every name of
 * {@link ATSPI_ROLE_NAMES} has an entry (a unit test checks it).
 */
const ATSPI_TO_ROLE: Readonly<Record<string, Role>> = {
  INVALID: "other",
  ACCELERATOR_LABEL: "txt",
  ALERT: "dialog",
  ANIMATION: "img",
  ARROW: "img",
  CALENDAR: "table",
  CANVAS: "img",
  CHECK_BOX: "chk",
  CHECK_MENU_ITEM: "menuitem",
  COLOR_CHOOSER: "group",
  COLUMN_HEADER: "colheader",
  COMBO_BOX: "combo",
  DATE_EDITOR: "input",
  DESKTOP_ICON: "img",
  DESKTOP_FRAME: "window",
  DIAL: "slider",
  DIALOG: "dialog",
  DIRECTORY_PANE: "group",
  DRAWING_AREA: "img",
  FILE_CHOOSER: "group",
  FILLER: "group",
  FOCUS_TRAVERSABLE: "other",
  FONT_CHOOSER: "group",
  FRAME: "window",
  GLASS_PANE: "group",
  HTML_CONTAINER: "web",
  ICON: "img",
  IMAGE: "img",
  INTERNAL_FRAME: "window",
  LABEL: "txt",
  LAYERED_PANE: "group",
  LIST: "list",
  LIST_ITEM: "listitem",
  MENU: "menu",
  MENU_BAR: "menubar",
  MENU_ITEM: "menuitem",
  OPTION_PANE: "group",
  PAGE_TAB: "tab",
  PAGE_TAB_LIST: "tablist",
  PANEL: "group",
  PASSWORD_TEXT: "input",
  POPUP_MENU: "menu",
  PROGRESS_BAR: "progress",
  PUSH_BUTTON: "btn",
  RADIO_BUTTON: "radio",
  RADIO_MENU_ITEM: "menuitem",
  ROOT_PANE: "group",
  ROW_HEADER: "cell",
  SCROLL_BAR: "scroll",
  SCROLL_PANE: "scroll",
  SEPARATOR: "separator",
  SLIDER: "slider",
  SPIN_BUTTON: "spin",
  SPLIT_PANE: "group",
  STATUS_BAR: "statusbar",
  TABLE: "table",
  TABLE_CELL: "cell",
  TABLE_COLUMN_HEADER: "colheader",
  TABLE_ROW_HEADER: "cell",
  TEAROFF_MENU_ITEM: "menuitem",
  TERMINAL: "input",
  TEXT: "input",
  TOGGLE_BUTTON: "toggle",
  TOOL_BAR: "toolbar",
  TOOL_TIP: "tooltip",
  TREE: "tree",
  TREE_TABLE: "table",
  UNKNOWN: "other",
  VIEWPORT: "scroll",
  WINDOW: "window",
  EXTENDED: "other",
  HEADER: "group",
  FOOTER: "group",
  PARAGRAPH: "group",
  RULER: "other",
  APPLICATION: "app",
  AUTOCOMPLETE: "combo",
  EDITBAR: "input",
  EMBEDDED: "group",
  ENTRY: "input",
  CHART: "img",
  CAPTION: "txt",
  DOCUMENT_FRAME: "web",
  HEADING: "heading",
  PAGE: "group",
  SECTION: "group",
  REDUNDANT_OBJECT: "other",
  FORM: "form",
  LINK: "lnk",
  INPUT_METHOD_WINDOW: "window",
  TABLE_ROW: "row",
  TREE_ITEM: "treeitem",
  DOCUMENT_SPREADSHEET: "web",
  DOCUMENT_PRESENTATION: "web",
  DOCUMENT_TEXT: "web",
  DOCUMENT_WEB: "web",
  DOCUMENT_EMAIL: "web",
  COMMENT: "group",
  LIST_BOX: "listbox",
  GROUPING: "group",
  IMAGE_MAP: "img",
  NOTIFICATION: "group",
  INFO_BAR: "statusbar",
  LEVEL_BAR: "progress",
  TITLE_BAR: "other",
  BLOCK_QUOTE: "group",
  AUDIO: "group",
  VIDEO: "group",
  DEFINITION: "group",
  ARTICLE: "group",
  LANDMARK: "landmark",
  LOG: "group",
  MARQUEE: "group",
  MATH: "group",
  RATING: "slider",
  TIMER: "txt",
  STATIC: "txt",
  MATH_FRACTION: "group",
  MATH_ROOT: "group",
  SUBSCRIPT: "group",
  SUPERSCRIPT: "group",
  DESCRIPTION_LIST: "list",
  DESCRIPTION_TERM: "group",
  DESCRIPTION_VALUE: "group",
  FOOTNOTE: "group",
  CONTENT_DELETION: "group",
  CONTENT_INSERTION: "group",
  MARK: "group",
  SUGGESTION: "group",
  PUSH_BUTTON_MENU: "btn",
  SWITCH: "toggle",
};

/** Role names toolkits report that differ from the enum names by more than spacing. */
const ATSPI_NAME_ALIASES: Readonly<Record<string, string>> = {
  embeddedcomponent: "EMBEDDED",
  tearoffmenuitem: "TEAROFF_MENU_ITEM",
  menubutton: "PUSH_BUTTON_MENU",
  togglebutton: "TOGGLE_BUTTON",
  lastdefined: "SWITCH",
};

/** Squashes a role name to letters only: `push button`, `push-button`, `PUSH_BUTTON` agree. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, "");
}

const ATSPI_BY_SQUASHED: ReadonlyMap<string, string> = new Map([
  ...ATSPI_ROLE_NAMES.map((n): [string, string] => [squash(n), n]),
  ...Object.entries(ATSPI_NAME_ALIASES),
]);

/**
 * Maps an AT-SPI role name as `atspi_accessible_get_role_name` returns it
 * (`"push button"`, `"check box"`, `"entry"`...) to a short role. Spelling
 * variants (`push-button`, `PUSH_BUTTON`, `statusbar`) are accepted; an
 * unknown name is `other`.
 *
 * @param name the role name
 * @returns the short role
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roleFromAtspiName } from "./roles.ts";
 * assert.deepEqual(roleFromAtspiName("push button"), "btn");
 * ```
 */
export function roleFromAtspiName(name: string): Role {
  const enumName = ATSPI_BY_SQUASHED.get(squash(name));
  return enumName ? ATSPI_TO_ROLE[enumName] ?? "other" : "other";
}

/**
 * Maps a numeric AtspiRole (the enum value GetItems and GetRole return) to a
 * short role. Codes outside the table are `other`.
 *
 * @param code the AtspiRole value
 * @returns the short role
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roleFromAtspiCode } from "./roles.ts";
 * assert.deepEqual(roleFromAtspiCode(43), "btn");
 * ```
 */
export function roleFromAtspiCode(code: number): Role {
  const name = ATSPI_ROLE_NAMES[code];
  return name === undefined ? "other" : ATSPI_TO_ROLE[name] ?? "other";
}

/**
 * Whether an AtspiRole code is a secure (password) text role, whose value
 * must never be read.
 *
 * @param code the AtspiRole value
 * @returns true for PASSWORD_TEXT
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSecureAtspiRole } from "./roles.ts";
 * assert.deepEqual(isSecureAtspiRole(40), true);
 * assert.deepEqual(isSecureAtspiRole(79), false);
 * ```
 */
export function isSecureAtspiRole(code: number): boolean {
  return code === ATSPI_ROLE_PASSWORD_TEXT;
}

/** AX roles (`kAXRoleAttribute` values) to short roles. */
const AX_ROLE: Readonly<Record<string, Role>> = {
  AXApplication: "app",
  AXSystemWide: "other",
  AXWindow: "window",
  AXSheet: "dialog",
  AXDrawer: "group",
  AXPopover: "dialog",
  AXButton: "btn",
  AXMenuButton: "btn",
  AXDisclosureTriangle: "btn",
  AXColorWell: "btn",
  AXDockItem: "btn",
  AXSortButton: "btn",
  AXRadioButton: "radio",
  AXRadioGroup: "group",
  AXCheckBox: "chk",
  AXSwitch: "toggle",
  AXToggle: "toggle",
  AXPopUpButton: "combo",
  AXComboBox: "combo",
  AXTextField: "input",
  AXTextArea: "input",
  AXSecureTextField: "input",
  AXSearchField: "input",
  AXDateField: "input",
  AXTimeField: "input",
  AXStaticText: "txt",
  AXHeading: "heading",
  AXLink: "lnk",
  AXImage: "img",
  AXSlider: "slider",
  AXIncrementor: "spin",
  AXStepper: "spin",
  AXProgressIndicator: "progress",
  AXBusyIndicator: "progress",
  AXLevelIndicator: "progress",
  AXRelevanceIndicator: "progress",
  AXValueIndicator: "other",
  AXMenuBar: "menubar",
  AXMenuBarItem: "menuitem",
  AXMenu: "menu",
  AXMenuItem: "menuitem",
  AXTabGroup: "tablist",
  AXList: "list",
  AXRow: "row",
  AXColumn: "other",
  AXCell: "cell",
  AXColumnHeader: "colheader",
  AXTable: "table",
  AXGrid: "table",
  AXOutline: "tree",
  AXBrowser: "group",
  AXGroup: "group",
  AXSplitGroup: "group",
  AXSplitter: "separator",
  AXLayoutArea: "group",
  AXLayoutItem: "group",
  AXMatte: "group",
  AXScrollArea: "scroll",
  AXScrollBar: "scroll",
  AXToolbar: "toolbar",
  AXRuler: "other",
  AXRulerMarker: "other",
  AXGrowArea: "other",
  AXHandle: "other",
  AXHelpTag: "tooltip",
  AXWebArea: "web",
  AXListMarker: "txt",
  AXDescriptionList: "list",
  AXUnknown: "other",
};

/** AX subroles that refine (override) the role. Checked before the role. */
const AX_SUBROLE: Readonly<Record<string, Role>> = {
  AXSecureTextField: "input",
  AXSearchField: "input",
  AXSwitch: "toggle",
  AXToggle: "toggle",
  AXTabButton: "tab",
  AXSortButton: "btn",
  AXOutlineRow: "treeitem",
  AXTableRow: "row",
  AXDialog: "dialog",
  AXSystemDialog: "dialog",
  AXApplicationDialog: "dialog",
  AXApplicationAlertDialog: "dialog",
  AXLandmarkBanner: "banner",
  AXLandmarkComplementary: "complementary",
  AXLandmarkContentInfo: "contentinfo",
  AXLandmarkMain: "main",
  AXLandmarkNavigation: "navigation",
  AXLandmarkRegion: "region",
  AXLandmarkSearch: "search",
  AXLandmarkForm: "form",
  AXTabPanel: "tabpanel",
  AXApplicationStatus: "statusbar",
  AXApplicationTimer: "txt",
  AXUserInterfaceTooltip: "tooltip",
  AXContentList: "list",
  AXDefinitionList: "list",
  AXDescriptionList: "list",
  AXTextAttachment: "img",
  AXFileUploadButton: "btn",
};

/** Subroles that only refine the role they are normally reported with. */
const AX_SUBROLE_SCOPE: Readonly<Record<string, readonly string[]>> = {
  // A toggle-styled checkbox or button is a toggle; elsewhere ignore it.
  AXToggle: ["AXCheckBox", "AXButton"],
  AXSwitch: ["AXCheckBox", "AXButton"],
  AXTabButton: ["AXRadioButton", "AXButton"],
  AXOutlineRow: ["AXRow"],
  AXTableRow: ["AXRow"],
  AXSecureTextField: ["AXTextField"],
  AXSearchField: ["AXTextField"],
};

/**
 * Maps an AX role (`AXButton`) and optional subrole (`AXSecureTextField`) to a
 * short role. A known subrole wins over the role (`AXGroup` +
 * `AXLandmarkMain` is `landmark`); unknown roles are `other`.
 *
 * @param role the AXRole attribute
 * @param subrole the AXSubrole attribute, when present
 * @returns the short role
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roleFromAx } from "./roles.ts";
 * assert.deepEqual(roleFromAx("AXCheckBox", "AXSwitch"), "toggle");
 * ```
 */
export function roleFromAx(role: string, subrole?: string): Role {
  if (subrole) {
    const sub = AX_SUBROLE[subrole];
    const scope = AX_SUBROLE_SCOPE[subrole];
    if (sub && (!scope || scope.includes(role))) return sub;
  }
  return AX_ROLE[role] ?? "other";
}

/**
 * Whether an AX role/subrole pair is a secure text field, whose value must
 * never be read.
 *
 * @param role the AXRole attribute
 * @param subrole the AXSubrole attribute
 * @returns true for secure text fields
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSecureAx } from "./roles.ts";
 * assert.deepEqual(isSecureAx("AXTextField", "AXSecureTextField"), true);
 * ```
 */
export function isSecureAx(role: string, subrole?: string): boolean {
  return role === "AXSecureTextField" || subrole === "AXSecureTextField";
}

/** Common long names agents type for `--roles`, squashed (letters only). */
const ROLE_ALIASES: Readonly<Record<string, Role>> = {
  application: "app",
  frame: "window",
  alert: "dialog",
  alertdialog: "dialog",
  sheet: "dialog",
  button: "btn",
  pushbutton: "btn",
  textfield: "input",
  textbox: "input",
  textarea: "input",
  entry: "input",
  searchbox: "input",
  searchfield: "input",
  password: "input",
  text: "txt",
  label: "txt",
  statictext: "txt",
  link: "lnk",
  image: "img",
  icon: "img",
  checkbox: "chk",
  check: "chk",
  switch: "toggle",
  togglebutton: "toggle",
  radiobutton: "radio",
  combobox: "combo",
  select: "combo",
  dropdown: "combo",
  popupbutton: "combo",
  spinbutton: "spin",
  spinner: "spin",
  progressbar: "progress",
  menuitems: "menuitem",
  tabs: "tablist",
  pagetab: "tab",
  tablerow: "row",
  listboxitem: "option",
  listboxrow: "option",
  outlinerow: "treeitem",
  gridcell: "cell",
  tablecell: "cell",
  columnheader: "colheader",
  grid: "table",
  outline: "tree",
  treegrid: "tree",
  panel: "group",
  pane: "group",
  generic: "group",
  scrollarea: "scroll",
  scrollpane: "scroll",
  tool: "toolbar",
  status: "statusbar",
  document: "web",
  webarea: "web",
  nav: "navigation",
  header: "banner",
  footer: "contentinfo",
  aside: "complementary",
  section: "region",
  tip: "tooltip",
};

/** The web landmark roles: each keeps its kind in roles and refs. */
export const LANDMARK_KINDS: readonly Role[] = [
  "navigation",
  "main",
  "banner",
  "contentinfo",
  "search",
  "region",
  "complementary",
  "form",
];

/**
 * The role of a landmark from its ARIA role as toolkits expose it (AT-SPI
 * `xml-roles` attribute, which may list several words): its kind, else the
 * generic `landmark`.
 *
 * @param xmlRoles the attribute value, e.g. `"navigation"`
 * @returns `navigation`, `main`... or `landmark`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { landmarkRole } from "./roles.ts";
 * assert.deepEqual(landmarkRole("navigation"), "navigation");
 * assert.deepEqual(landmarkRole(undefined), "landmark");
 * ```
 */
export function landmarkRole(xmlRoles: string | undefined): Role {
  for (const word of (xmlRoles ?? "").toLowerCase().split(/\s+/)) {
    if ((LANDMARK_KINDS as readonly string[]).includes(word)) return word as Role;
  }
  return "landmark";
}

/**
 * What the `interactive` meta-role of `--roles` (and `read --interactive`)
 * keeps: {@link INTERACTIVE_ROLES}, and column headers, which sort a table
 * when clicked and say what each of its rows' cells is.
 */
export const INTERACTIVE_READ_ROLES: ReadonlySet<Role> = new Set<Role>([
  ...INTERACTIVE_ROLES,
  "colheader",
]);

/** The meta-role of `--roles` that stands for {@link INTERACTIVE_READ_ROLES}. */
export const INTERACTIVE_META_ROLE = "interactive";

/**
 * Parses a `--roles` list (`"btn,input"`, `"interactive"`, `"button, link"`),
 * throwing INVALID_ARGS naming the unknown role and the valid ones.
 *
 * @param list comma- or space-separated roles
 * @returns the set of short roles
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRoles } from "./roles.ts";
 * assert.deepEqual([...parseRoles("button,textfield")], ["btn", "input"]);
 * ```
 */
export function parseRoles(list: string): Set<Role> {
  const out = new Set<Role>();
  const names = list.split(/[\s,]+/).filter((n) => n !== "");
  if (names.length === 0) {
    throw new DesktopError("INVALID_ARGS", "--roles is empty", {
      suggestion: `Give one or more of: ${INTERACTIVE_META_ROLE}, ${ROLES.join(", ")}`,
    });
  }
  for (const raw of names) {
    const name = raw.toLowerCase();
    if (name === INTERACTIVE_META_ROLE) {
      for (const r of INTERACTIVE_READ_ROLES) out.add(r);
      continue;
    }
    if (name === "landmark" || name === "landmarks") {
      for (const r of ["landmark" as const, ...LANDMARK_KINDS]) out.add(r);
      continue;
    }
    const squashed = squash(name);
    if (isRole(name) || isRole(squashed)) {
      out.add(isRole(name) ? name : squashed as Role);
      continue;
    }
    const alias = ROLE_ALIASES[squashed];
    if (alias) {
      out.add(alias);
      continue;
    }
    throw new DesktopError("INVALID_ARGS", `unknown role "${raw}"`, {
      suggestion: `Valid roles: ${INTERACTIVE_META_ROLE}, ${ROLES.join(", ")}`,
      details: { valid: [INTERACTIVE_META_ROLE, ...ROLES] },
    });
  }
  return out;
}
