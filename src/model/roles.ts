/**
 * The one role vocabulary: short roles agents see, and the tables that map
 * every AT-SPI role and every AX role/subrole onto them.
 *
 * @module
 */

import type { Role } from "./element.ts";

/** Every short role, in a stable order. */
export const ROLES: readonly Role[] = [];

/** Roles an agent can act on; the `interactive` meta-role of `--roles`. */
export const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set<Role>();

/**
 * Maps an AT-SPI role name as `atspi_accessible_get_role_name` returns it
 * (`"push button"`, `"check box"`, `"entry"`...) to a short role.
 */
export function roleFromAtspiName(name: string): Role {
  throw new Error(`not implemented ${name}`);
}

/**
 * Maps a numeric AtspiRole (the enum value GetItems and GetRole return) to a
 * short role.
 */
export function roleFromAtspiCode(code: number): Role {
  throw new Error(`not implemented ${code}`);
}

/** Maps an AX role (`AXButton`) and optional subrole (`AXSecureTextField`) to a short role. */
export function roleFromAx(role: string, subrole?: string): Role {
  throw new Error(`not implemented ${role} ${subrole}`);
}

/**
 * Parses a `--roles` list (`"btn,input"`, `"interactive"`), throwing
 * INVALID_ARGS naming the unknown role and the valid ones.
 */
export function parseRoles(list: string): Set<Role> {
  throw new Error(`not implemented ${list}`);
}
