/**
 * AT-SPI roles as the Linux backend names them: the enum table
 * ({@link ATSPI_ROLE}, defined with the FFI symbols in src/ffi/atspi.ts) and
 * the role sets more than one Linux module asks about. Every Linux module
 * names a role through this module, never by its number.
 *
 * @module
 */

import { ATSPI_ROLE } from "../../ffi/atspi.ts";

export { ATSPI_ROLE, type AtspiRoleCode } from "../../ffi/atspi.ts";

/**
 * Menus: a menu that opens from a menu bar or a menu item (MENU) and a
 * context menu (POPUP_MENU, also Qt's menus). What they hold is part of the
 * menu whether it is open or not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ATSPI_ROLE, MENU_ROLES } from "./atspi_roles.ts";
 * assert.ok(MENU_ROLES.has(ATSPI_ROLE.MENU) && MENU_ROLES.has(ATSPI_ROLE.POPUP_MENU));
 * assert.ok(!MENU_ROLES.has(ATSPI_ROLE.MENU_BAR));
 * ```
 */
export const MENU_ROLES: ReadonlySet<number> = new Set([ATSPI_ROLE.MENU, ATSPI_ROLE.POPUP_MENU]);

/**
 * Menus an action opens: a menu under the menu bar or under the item that
 * opens it (MENU). A popup menu is opened by the app, not by an action on a
 * parent, so it is not in the chain of menus to open.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ATSPI_ROLE, OPENABLE_MENU_ROLES } from "./atspi_roles.ts";
 * assert.ok(OPENABLE_MENU_ROLES.has(ATSPI_ROLE.MENU));
 * assert.ok(!OPENABLE_MENU_ROLES.has(ATSPI_ROLE.POPUP_MENU));
 * ```
 */
export const OPENABLE_MENU_ROLES: ReadonlySet<number> = new Set([ATSPI_ROLE.MENU]);

/**
 * Document roles: frame, web, text, spreadsheet, presentation, email.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ATSPI_ROLE, DOCUMENT_ROLES } from "./atspi_roles.ts";
 * assert.ok(DOCUMENT_ROLES.has(ATSPI_ROLE.DOCUMENT_WEB));
 * assert.ok(!DOCUMENT_ROLES.has(ATSPI_ROLE.FRAME));
 * ```
 */
export const DOCUMENT_ROLES: ReadonlySet<number> = new Set([
  ATSPI_ROLE.DOCUMENT_FRAME,
  ATSPI_ROLE.DOCUMENT_WEB,
  ATSPI_ROLE.DOCUMENT_TEXT,
  ATSPI_ROLE.DOCUMENT_SPREADSHEET,
  ATSPI_ROLE.DOCUMENT_PRESENTATION,
  ATSPI_ROLE.DOCUMENT_EMAIL,
]);

/**
 * Roles whose value is their text: text, entry, spin button, combo box,
 * terminal. Also the editable roles, with PASSWORD_TEXT, in
 * {@link EDIT_ROLES}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ATSPI_ROLE, TEXT_VALUE_ROLES } from "./atspi_roles.ts";
 * assert.ok(TEXT_VALUE_ROLES.has(ATSPI_ROLE.ENTRY));
 * assert.ok(!TEXT_VALUE_ROLES.has(ATSPI_ROLE.PASSWORD_TEXT));
 * ```
 */
export const TEXT_VALUE_ROLES: ReadonlySet<number> = new Set([
  ATSPI_ROLE.TEXT,
  ATSPI_ROLE.ENTRY,
  ATSPI_ROLE.SPIN_BUTTON,
  ATSPI_ROLE.COMBO_BOX,
  ATSPI_ROLE.TERMINAL,
]);

/**
 * Editable roles: a missing EDITABLE state on one of them means read-only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ATSPI_ROLE, EDIT_ROLES } from "./atspi_roles.ts";
 * assert.ok(EDIT_ROLES.has(ATSPI_ROLE.PASSWORD_TEXT));
 * assert.ok(!EDIT_ROLES.has(ATSPI_ROLE.LABEL));
 * ```
 */
export const EDIT_ROLES: ReadonlySet<number> = new Set([
  ATSPI_ROLE.TEXT,
  ATSPI_ROLE.ENTRY,
  ATSPI_ROLE.PASSWORD_TEXT,
  ATSPI_ROLE.SPIN_BUTTON,
]);
