/**
 * The parameters MCP tools share (scope, target, filters) as zod shapes, and
 * their conversion to the library's Scope, Target and filter types. Bad
 * combinations become INVALID_ARGS, like on the CLI.
 *
 * @module
 */

import { z } from "zod";
import type { ReadRequest, Target } from "../desktop.ts";
import { DesktopError } from "../errors.ts";
import type { Role } from "../model/element.ts";
import { INTERACTIVE_ROLES, parseRoles } from "../model/roles.ts";
import type { Scope } from "../platform/provider.ts";

/** Which app or window a tool is about. */
export const scopeShape = {
  app: z.string().optional().describe("App name (case-insensitive; unique substring works)"),
  pid: z.number().int().positive().optional().describe("Process id of the app"),
  window: z.string().optional().describe("Window title substring"),
  window_id: z.number().int().nonnegative().optional().describe("Window id from list_windows"),
};

/** How an action names its element: one of ref, id, text; or a point. */
export const targetShape = {
  ref: z.string().optional().describe(
    "Element ref from read/find, e.g. form/email (exact, or a unique suffix like email)",
  ),
  id: z.number().int().positive().optional().describe(
    "Numeric id from the last read (prefer ref: ids go stale)",
  ),
  text: z.string().optional().describe("Match by label/value/description text"),
  roles: z.string().optional().describe(
    'Roles to restrict text matching to, comma-separated: "btn,lnk" or "interactive"',
  ),
  exact: z.boolean().optional().describe("Text must equal the label (case-insensitive)"),
  x: z.number().optional().describe("Screen x instead of an element (with y)"),
  y: z.number().optional().describe("Screen y instead of an element (with x)"),
};

/** Read filters. */
export const filterShape = {
  roles: z.string().optional().describe(
    'Keep only these roles, comma-separated: "btn,input" or "interactive"',
  ),
  text: z.string().optional().describe("Keep elements whose label/value/description contains this"),
  depth: z.number().int().nonnegative().optional().describe("Maximum depth below the root"),
  focused: z.boolean().optional().describe("Only the focused element and its ancestors"),
  scope_ref: z.string().optional().describe("Only the subtree of the element with this ref"),
  interactive: z.boolean().optional().describe("Only elements an agent can act on"),
  max_elements: z.number().int().positive().optional().describe("Cut after this many elements"),
};

/** Values of {@link scopeShape} as the tool receives them. */
export interface ScopeArgs {
  /** App name. */
  app?: string;
  /** Process id. */
  pid?: number;
  /** Window title substring. */
  window?: string;
  /** Window id. */
  window_id?: number;
}

/** Values of {@link targetShape}. */
export interface TargetArgs {
  /** Element ref. */
  ref?: string;
  /** Numeric id. */
  id?: number;
  /** Text to match. */
  text?: string;
  /** Roles list for text matching. */
  roles?: string;
  /** Exact label match. */
  exact?: boolean;
  /** Point x. */
  x?: number;
  /** Point y. */
  y?: number;
}

/** Values of {@link filterShape}. */
export interface FilterArgs {
  /** Roles list. */
  roles?: string;
  /** Text filter. */
  text?: string;
  /** Depth limit. */
  depth?: number;
  /** Focused only. */
  focused?: boolean;
  /** Subtree ref. */
  scope_ref?: string;
  /** Interactive roles only. */
  interactive?: boolean;
  /** Element cap. */
  max_elements?: number;
}

/**
 * Converts scope parameters to a Scope.
 *
 * @param args the tool's scope arguments
 * @returns the scope (empty means the focused app)
 */
export function toScope(args: ScopeArgs): Scope {
  const scope: Scope = {};
  if (args.app !== undefined) scope.app = args.app;
  if (args.pid !== undefined) scope.pid = args.pid;
  if (args.window !== undefined) scope.window = args.window;
  if (args.window_id !== undefined) scope.windowId = args.window_id;
  return scope;
}

/**
 * Parses an optional roles list.
 *
 * @param list comma-separated roles, or undefined
 * @returns the role set, or undefined when no list was given
 * @throws DesktopError INVALID_ARGS for an unknown role
 */
export function toRoles(list: string | undefined): Set<Role> | undefined {
  return list === undefined || list.trim() === "" ? undefined : parseRoles(list);
}

/**
 * Converts target parameters to a Target, checking that exactly one way of
 * naming the element was used.
 *
 * @param args the tool's target arguments
 * @returns the target
 * @throws DesktopError INVALID_ARGS when none or several of ref/id/text/point are given
 */
export function toTarget(args: TargetArgs): Target {
  const hasPoint = args.x !== undefined || args.y !== undefined;
  const given = [
    args.ref !== undefined && "ref",
    args.id !== undefined && "id",
    args.text !== undefined && "text",
    hasPoint && "x/y",
  ].filter((g): g is string => typeof g === "string");
  if (given.length !== 1) {
    throw new DesktopError(
      "INVALID_ARGS",
      given.length === 0
        ? "no target: give one of ref, id, text, or x and y"
        : `give only one target, got ${given.join(" and ")}`,
      { suggestion: "Call read or find, then pass the element's ref" },
    );
  }
  if (hasPoint) {
    if (args.x === undefined || args.y === undefined) {
      throw new DesktopError("INVALID_ARGS", "a point target needs both x and y", {
        suggestion: "Pass x and y together, or use a ref",
      });
    }
    return { point: { x: args.x, y: args.y } };
  }
  if (args.ref !== undefined) return { ref: args.ref };
  if (args.id !== undefined) return { id: args.id };
  const target: Target = { text: args.text };
  const roles = toRoles(args.roles);
  if (roles) target.roles = roles;
  if (args.exact) target.exact = true;
  return target;
}

/**
 * Converts filter parameters to a read request.
 *
 * @param args the tool's filter arguments
 * @returns the read request
 * @throws DesktopError INVALID_ARGS for an unknown role
 */
export function toReadRequest(args: FilterArgs): ReadRequest {
  const req: ReadRequest = {};
  let roles = toRoles(args.roles);
  if (args.interactive) {
    roles = roles
      ? new Set([...roles].filter((r) => INTERACTIVE_ROLES.has(r)))
      : new Set(INTERACTIVE_ROLES);
  }
  if (roles) req.roles = roles;
  if (args.text !== undefined) req.text = args.text;
  if (args.depth !== undefined) req.depth = args.depth;
  if (args.focused) req.focused = true;
  if (args.scope_ref !== undefined) req.scopeRef = args.scope_ref;
  if (args.max_elements !== undefined) req.maxElements = args.max_elements;
  return req;
}
