import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import type { Role } from "../../src/model/element.ts";
import {
  ATSPI_ROLE_NAMES,
  INTERACTIVE_ROLES,
  isRole,
  isSecureAtspiRole,
  isSecureAx,
  LANDMARK_KINDS,
  landmarkRole,
  parseRoles,
  roleFromAtspiCode,
  roleFromAtspiName,
  roleFromAx,
  ROLES,
} from "../../src/model/roles.ts";

/** Codes from the AT-SPI enum (atspi-constants.h), by name. */
const CODES: Record<string, number> = {
  INVALID: 0,
  ALERT: 2,
  CHECK_BOX: 7,
  CHECK_MENU_ITEM: 8,
  COLUMN_HEADER: 10,
  COMBO_BOX: 11,
  DIALOG: 16,
  FILLER: 20,
  FRAME: 23,
  IMAGE: 27,
  LABEL: 29,
  LIST: 31,
  LIST_ITEM: 32,
  MENU: 33,
  MENU_BAR: 34,
  MENU_ITEM: 35,
  PAGE_TAB: 37,
  PAGE_TAB_LIST: 38,
  PANEL: 39,
  PASSWORD_TEXT: 40,
  POPUP_MENU: 41,
  PROGRESS_BAR: 42,
  PUSH_BUTTON: 43,
  RADIO_BUTTON: 44,
  SCROLL_BAR: 48,
  SCROLL_PANE: 49,
  SEPARATOR: 50,
  SLIDER: 51,
  SPIN_BUTTON: 52,
  STATUS_BAR: 54,
  TABLE: 55,
  TABLE_CELL: 56,
  TABLE_COLUMN_HEADER: 57,
  TEXT: 61,
  TOGGLE_BUTTON: 62,
  TOOL_BAR: 63,
  TOOL_TIP: 64,
  TREE: 65,
  TREE_TABLE: 66,
  VIEWPORT: 68,
  WINDOW: 69,
  APPLICATION: 75,
  ENTRY: 79,
  DOCUMENT_FRAME: 82,
  HEADING: 83,
  SECTION: 85,
  FORM: 87,
  LINK: 88,
  TABLE_ROW: 90,
  TREE_ITEM: 91,
  DOCUMENT_WEB: 95,
  LIST_BOX: 98,
  GROUPING: 99,
  LEVEL_BAR: 103,
  LANDMARK: 110,
  STATIC: 116,
  PUSH_BUTTON_MENU: 129,
  SWITCH: 130,
};

Deno.test("roles: the AT-SPI name table matches the enum codes", () => {
  assert.equal(ATSPI_ROLE_NAMES.length, 131);
  for (const [name, code] of Object.entries(CODES)) {
    assert.equal(ATSPI_ROLE_NAMES[code], name, `code ${code}`);
  }
  assert.equal(new Set(ATSPI_ROLE_NAMES).size, ATSPI_ROLE_NAMES.length, "no name twice");
});

Deno.test("roles: AT-SPI codes map to the expected short roles", () => {
  const table: Array<[string, Role]> = [
    ["PUSH_BUTTON", "btn"],
    ["PUSH_BUTTON_MENU", "btn"],
    ["TOGGLE_BUTTON", "toggle"],
    ["SWITCH", "toggle"],
    ["CHECK_BOX", "chk"],
    ["CHECK_MENU_ITEM", "menuitem"],
    ["RADIO_BUTTON", "radio"],
    ["ENTRY", "input"],
    ["TEXT", "input"],
    ["PASSWORD_TEXT", "input"],
    ["LABEL", "txt"],
    ["STATIC", "txt"],
    ["LINK", "lnk"],
    ["IMAGE", "img"],
    ["COMBO_BOX", "combo"],
    ["SLIDER", "slider"],
    ["SPIN_BUTTON", "spin"],
    ["PROGRESS_BAR", "progress"],
    ["LEVEL_BAR", "progress"],
    ["MENU_BAR", "menubar"],
    ["MENU", "menu"],
    ["POPUP_MENU", "menu"],
    ["MENU_ITEM", "menuitem"],
    ["PAGE_TAB_LIST", "tablist"],
    ["PAGE_TAB", "tab"],
    ["LIST", "list"],
    ["LIST_BOX", "listbox"],
    ["LIST_ITEM", "listitem"],
    ["TABLE_ROW", "row"],
    ["TABLE_CELL", "cell"],
    ["COLUMN_HEADER", "colheader"],
    ["TABLE_COLUMN_HEADER", "colheader"],
    ["TABLE", "table"],
    ["TREE_TABLE", "table"],
    ["TREE", "tree"],
    ["TREE_ITEM", "treeitem"],
    ["PANEL", "group"],
    ["FILLER", "group"],
    ["SECTION", "group"],
    ["GROUPING", "group"],
    ["SCROLL_PANE", "scroll"],
    ["VIEWPORT", "scroll"],
    ["SCROLL_BAR", "scroll"],
    ["TOOL_BAR", "toolbar"],
    ["STATUS_BAR", "statusbar"],
    ["FORM", "form"],
    ["DOCUMENT_WEB", "web"],
    ["DOCUMENT_FRAME", "web"],
    ["HEADING", "heading"],
    ["LANDMARK", "landmark"],
    ["SEPARATOR", "separator"],
    ["TOOL_TIP", "tooltip"],
    ["DIALOG", "dialog"],
    ["ALERT", "dialog"],
    ["FRAME", "window"],
    ["WINDOW", "window"],
    ["APPLICATION", "app"],
    ["INVALID", "other"],
  ];
  for (const [name, role] of table) {
    assert.equal(roleFromAtspiCode(CODES[name]), role, name);
  }
});

Deno.test("roles: every AT-SPI code maps to a role of the vocabulary", () => {
  for (let code = 0; code < ATSPI_ROLE_NAMES.length; code++) {
    const role = roleFromAtspiCode(code);
    assert.ok(isRole(role), `code ${code} -> ${role}`);
    // Only the meaningless codes fall back to "other".
    if (role === "other") {
      assert.ok(
        [
          "INVALID",
          "FOCUS_TRAVERSABLE",
          "UNKNOWN",
          "EXTENDED",
          "RULER",
          "REDUNDANT_OBJECT",
          "TITLE_BAR",
        ]
          .includes(ATSPI_ROLE_NAMES[code]),
        ATSPI_ROLE_NAMES[code],
      );
    }
  }
  for (const code of [-1, 131, 9999, 1.5, NaN]) assert.equal(roleFromAtspiCode(code), "other");
});

Deno.test("roles: AT-SPI role names in every spelling map like their codes", () => {
  for (let code = 0; code < ATSPI_ROLE_NAMES.length; code++) {
    const name = ATSPI_ROLE_NAMES[code];
    const spaced = name.toLowerCase().replaceAll("_", " ");
    const dashed = name.toLowerCase().replaceAll("_", "-");
    for (const spelling of [name, spaced, dashed]) {
      assert.equal(roleFromAtspiName(spelling), roleFromAtspiCode(code), spelling);
    }
  }
  const toolkitNames: Array<[string, Role]> = [
    ["push button", "btn"],
    ["check box", "chk"],
    ["password text", "input"],
    ["statusbar", "statusbar"],
    ["dateeditor", "input"],
    ["tear off menu item", "menuitem"],
    ["embedded component", "group"],
    ["no such role", "other"],
    ["", "other"],
  ];
  for (const [name, role] of toolkitNames) assert.equal(roleFromAtspiName(name), role, name);
});

Deno.test("roles: only PASSWORD_TEXT is a secure AT-SPI role", () => {
  for (let code = 0; code < ATSPI_ROLE_NAMES.length; code++) {
    assert.equal(isSecureAtspiRole(code), ATSPI_ROLE_NAMES[code] === "PASSWORD_TEXT", String(code));
  }
});

Deno.test("roles: AX roles and subroles map to the expected short roles", () => {
  const table: Array<[string, string | undefined, Role]> = [
    ["AXApplication", undefined, "app"],
    ["AXWindow", "AXStandardWindow", "window"],
    ["AXWindow", "AXDialog", "dialog"],
    ["AXWindow", "AXSystemDialog", "dialog"],
    ["AXSheet", undefined, "dialog"],
    ["AXGroup", "AXApplicationDialog", "dialog"],
    ["AXButton", undefined, "btn"],
    ["AXButton", "AXCloseButton", "btn"],
    ["AXButton", "AXSortButton", "btn"],
    ["AXButton", "AXToggle", "toggle"],
    ["AXCheckBox", undefined, "chk"],
    ["AXCheckBox", "AXSwitch", "toggle"],
    ["AXCheckBox", "AXToggle", "toggle"],
    ["AXRadioButton", undefined, "radio"],
    ["AXRadioButton", "AXTabButton", "tab"],
    ["AXDisclosureTriangle", undefined, "btn"],
    ["AXPopUpButton", undefined, "combo"],
    ["AXComboBox", undefined, "combo"],
    ["AXTextField", undefined, "input"],
    ["AXTextField", "AXSecureTextField", "input"],
    ["AXTextField", "AXSearchField", "input"],
    ["AXTextArea", undefined, "input"],
    ["AXStaticText", undefined, "txt"],
    ["AXHeading", undefined, "heading"],
    ["AXLink", undefined, "lnk"],
    ["AXImage", undefined, "img"],
    ["AXSlider", undefined, "slider"],
    ["AXIncrementor", undefined, "spin"],
    ["AXProgressIndicator", undefined, "progress"],
    ["AXMenuBar", undefined, "menubar"],
    ["AXMenuBarItem", undefined, "menuitem"],
    ["AXMenu", undefined, "menu"],
    ["AXMenuItem", undefined, "menuitem"],
    ["AXTabGroup", undefined, "tablist"],
    ["AXList", undefined, "list"],
    ["AXTable", undefined, "table"],
    ["AXOutline", undefined, "tree"],
    ["AXRow", undefined, "row"],
    ["AXRow", "AXOutlineRow", "treeitem"],
    ["AXRow", "AXTableRow", "row"],
    ["AXCell", undefined, "cell"],
    ["AXGroup", undefined, "group"],
    ["AXGroup", "AXLandmarkMain", "main"],
    ["AXGroup", "AXLandmarkNavigation", "navigation"],
    ["AXGroup", "AXLandmarkBanner", "banner"],
    ["AXGroup", "AXLandmarkSearch", "search"],
    ["AXGroup", "AXLandmarkComplementary", "complementary"],
    ["AXGroup", "AXLandmarkContentInfo", "contentinfo"],
    ["AXGroup", "AXLandmarkRegion", "region"],
    ["AXGroup", "AXLandmarkForm", "form"],
    ["AXGroup", "AXTabPanel", "tabpanel"],
    ["AXScrollArea", undefined, "scroll"],
    ["AXScrollBar", undefined, "scroll"],
    ["AXToolbar", undefined, "toolbar"],
    ["AXWebArea", undefined, "web"],
    ["AXSplitter", undefined, "separator"],
    ["AXHelpTag", undefined, "tooltip"],
    ["AXSomethingNew", undefined, "other"],
    ["AXStaticText", "AXSwitch", "txt"], // a subrole only refines the roles it belongs to
  ];
  for (const [role, sub, want] of table) {
    const got = roleFromAx(role, sub);
    assert.equal(got, want, `${role}/${sub}`);
    assert.ok(isRole(got));
  }
});

Deno.test("roles: AX secure text fields are recognised", () => {
  assert.equal(isSecureAx("AXTextField", "AXSecureTextField"), true);
  assert.equal(isSecureAx("AXSecureTextField"), true);
  assert.equal(isSecureAx("AXTextField", "AXSearchField"), false);
  assert.equal(isSecureAx("AXTextField"), false);
});

Deno.test("parseRoles: short roles, aliases and the interactive meta-role", () => {
  const cases: Array<[string, Role[]]> = [
    ["btn", ["btn"]],
    ["btn,input", ["btn", "input"]],
    ["button, link", ["btn", "lnk"]],
    ["textfield checkbox", ["input", "chk"]],
    ["Button,BTN", ["btn"]],
    ["text-field,combo-box,list-item,menu-item", ["input", "combo", "listitem", "menuitem"]],
    ["switch,image,label,grid", ["toggle", "img", "txt", "table"]],
  ];
  for (const [list, want] of cases) assert.deepEqual([...parseRoles(list)], want, list);
  // What one acts on, and column headers: they sort a table and name its rows' cells.
  assert.deepEqual(parseRoles("interactive"), new Set([...INTERACTIVE_ROLES, "colheader"]));
  assert.ok(parseRoles("interactive,heading").has("heading"));
  for (const r of ROLES) {
    if (r !== "landmark") assert.deepEqual([...parseRoles(r)], [r]);
  }
  // "landmark" stands for every kind of landmark.
  assert.deepEqual([...parseRoles("landmark")], ["landmark", ...LANDMARK_KINDS]);
  assert.deepEqual([...parseRoles("nav,header,footer")], ["navigation", "banner", "contentinfo"]);
});

Deno.test("landmarkRole: the xml-roles attribute names the landmark's kind", () => {
  assert.equal(landmarkRole("navigation"), "navigation");
  assert.equal(landmarkRole("main"), "main");
  assert.equal(landmarkRole("banner"), "banner");
  assert.equal(landmarkRole("contentinfo"), "contentinfo");
  assert.equal(landmarkRole("complementary"), "complementary");
  assert.equal(landmarkRole("region"), "region");
  assert.equal(landmarkRole("search"), "search");
  assert.equal(landmarkRole("doc-toc navigation"), "navigation");
  assert.equal(landmarkRole(undefined), "landmark");
  assert.equal(landmarkRole("application"), "landmark");
});

Deno.test("parseRoles: unknown or empty roles are INVALID_ARGS listing the valid ones", () => {
  for (const list of ["bogus", "btn,bogus", "", " , "]) {
    try {
      parseRoles(list);
      assert.fail(`accepted ${list}`);
    } catch (e) {
      assert.ok(e instanceof DesktopError);
      assert.equal(e.code, "INVALID_ARGS");
      assert.ok(e.suggestion?.includes("btn") && e.suggestion.includes("interactive"));
      if (list.includes("bogus")) assert.ok(e.message.includes("bogus"));
    }
  }
});

Deno.test("roles: the vocabulary is complete and interactive roles belong to it", () => {
  assert.equal(ROLES.length, 49);
  assert.equal(new Set(ROLES).size, ROLES.length);
  for (const r of INTERACTIVE_ROLES) assert.ok(ROLES.includes(r));
});
