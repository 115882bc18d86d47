import assert from "node:assert/strict";
import { ATSPI_ROLE_NAMES } from "../../src/model/roles.ts";
import {
  ATSPI_ROLE,
  DOCUMENT_ROLES,
  EDIT_ROLES,
  MENU_ROLES,
  OPENABLE_MENU_ROLES,
  TEXT_VALUE_ROLES,
} from "../../src/platform/linux/atspi_roles.ts";

Deno.test("atspi roles: the named table and the model's name list agree on every code", () => {
  const entries = Object.entries(ATSPI_ROLE);
  assert.equal(entries.length, ATSPI_ROLE_NAMES.length);
  for (const [name, code] of entries) assert.equal(ATSPI_ROLE_NAMES[code], name, name);
  assert.equal(new Set(entries.map(([, c]) => c)).size, entries.length, "no code twice");
});

Deno.test("atspi roles: the enum values libatspi documents", () => {
  // atspi-constants.h (at-spi2-core 2.46), plus SWITCH from later versions.
  assert.equal(ATSPI_ROLE.CHECK_BOX, 7);
  assert.equal(ATSPI_ROLE.MENU, 33);
  assert.equal(ATSPI_ROLE.MENU_BAR, 34);
  assert.equal(ATSPI_ROLE.PASSWORD_TEXT, 40);
  assert.equal(ATSPI_ROLE.POPUP_MENU, 41);
  assert.equal(ATSPI_ROLE.PUSH_BUTTON, 43);
  assert.equal(ATSPI_ROLE.APPLICATION, 75);
  assert.equal(ATSPI_ROLE.ENTRY, 79);
  assert.equal(ATSPI_ROLE.HEADING, 83);
  assert.equal(ATSPI_ROLE.SWITCH, 130);
});

Deno.test("atspi roles: menus hold items whether they open from a parent or pop up", () => {
  assert.deepEqual([...MENU_ROLES].sort(), [ATSPI_ROLE.MENU, ATSPI_ROLE.POPUP_MENU].sort());
  // Only a menu under a menu bar or an item is opened by an action on its parent.
  assert.deepEqual([...OPENABLE_MENU_ROLES], [ATSPI_ROLE.MENU]);
  for (const r of OPENABLE_MENU_ROLES) assert.ok(MENU_ROLES.has(r));
});

Deno.test("atspi roles: a password field's text is never a value role; it is editable", () => {
  assert.ok(!TEXT_VALUE_ROLES.has(ATSPI_ROLE.PASSWORD_TEXT));
  assert.ok(EDIT_ROLES.has(ATSPI_ROLE.PASSWORD_TEXT));
  for (const r of DOCUMENT_ROLES) assert.match(ATSPI_ROLE_NAMES[r], /^DOCUMENT_/);
  assert.equal(DOCUMENT_ROLES.size, 6);
});
