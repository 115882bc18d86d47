/**
 * The parameter groups operations share (scope, target, read filters), and
 * their conversion to the library's Scope, Target and filter types. One
 * place for each rule: a role list plus `interactive` is the union of both;
 * a target is exactly one of ref, id, text, or a point.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS, type Target } from "../desktop.ts";
import { DesktopError } from "../errors.ts";
import type { Role } from "../model/element.ts";
import { parseRoles } from "../model/roles.ts";
import type { Scope } from "../platform/provider.ts";
import type { ParamSpec } from "./types.ts";

/** Arguments of {@link SCOPE_PARAMS}. */
export interface ScopeArgs {
  /** App name (exact, else unique substring). */
  app?: string;
  /** App process id. */
  pid?: number;
  /** Window title substring. */
  window?: string;
  /** Window id from `list`. */
  window_id?: number;
  /** Per-operation deadline in ms. */
  timeout?: number;
}

/**
 * Which app or window, and the deadline: every live operation takes these.
 * What MCP tells the agent about the shared parameters, once.
 */
export const SHARED_DOC = "Common parameters: app (name or unique part; default the focused " +
  "app), pid, window (title part), window_id (from list), timeout (deadline ms, default 10000). " +
  "Name an element by exactly one of ref (from read; e.g. form/email or a unique suffix), id " +
  "(from the last read), text (+roles like btn,input and exact), or x and y (screen point).";

/** Which app or window, and the deadline: every live operation takes these. */
export const SCOPE_PARAMS: readonly ParamSpec[] = [
  {
    name: "app",
    type: "string",
    shared: true,
    doc: "app name or unique part (default: focused app)",
  },
  // 0 and negative numbers name process groups for kill(2), never an app.
  { name: "pid", type: "int", shared: true, min: 1, doc: "app process id" },
  { name: "window", type: "string", shared: true, doc: "window title part" },
  { name: "window_id", type: "int", shared: true, min: 0, doc: "window id from list" },
  {
    name: "timeout",
    shared: true,
    type: "int",
    min: 1,
    max: 600_000,
    default: DEFAULT_TIMEOUT_MS,
    doc: "deadline ms",
  },
];

/** Arguments of {@link targetParams}. */
export interface TargetArgs {
  /** Element ref (exact, or a unique suffix). */
  ref?: string;
  /** Element id from the last read. */
  id?: number;
  /** Text of the element (label, value, description); `target` on `type`. */
  text?: string;
  /** Roles to restrict text matching to. */
  roles?: string;
  /** Text must equal the label. */
  exact?: boolean;
  /** Screen x. */
  x?: number;
  /** Screen y. */
  y?: number;
}

/**
 * How an operation names its element: ref, id, text (+roles, exact) or x/y.
 *
 * @param textName the name of the text selector (`type` calls it `target`,
 *   since its `text` is the text to type)
 * @returns the parameters
 */
export function targetParams(textName = "text"): ParamSpec[] {
  return [
    { shared: true, name: "ref", type: "string", doc: "element ref from read" },
    { shared: true, name: "id", type: "int", min: 0, doc: "element id from last read" },
    { shared: true, name: textName, type: "string", doc: "element with this text" },
    { shared: true, name: "roles", type: "string", doc: `roles for ${textName}: btn,input` },
    { shared: true, name: "exact", type: "boolean", doc: `${textName} equals the label` },
    { shared: true, name: "x", type: "int", min: -1e9, doc: "screen x, with y" },
    { shared: true, name: "y", type: "int", min: -1e9, doc: "screen y" },
  ];
}

/**
 * The scope the arguments name.
 *
 * @param args scope arguments
 * @returns the scope (empty: the focused app)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toScope } from "./params.ts";
 * assert.deepEqual(toScope({ app: "gedit", window_id: 3 }), { app: "gedit", windowId: 3 });
 * ```
 */
export function toScope(args: ScopeArgs): Scope {
  return {
    ...(args.app !== undefined ? { app: args.app } : {}),
    ...(args.pid !== undefined ? { pid: args.pid } : {}),
    ...(args.window !== undefined ? { window: args.window } : {}),
    ...(args.window_id !== undefined ? { windowId: args.window_id } : {}),
  };
}

/**
 * Parses an optional roles list, with `interactive` adding the interactive
 * roles: the union of both, on every face.
 *
 * @param roles a roles list (`btn,input`, `interactive`), or undefined
 * @param interactive whether only elements an agent can act on are wanted
 * @returns the role set, or undefined for no role filter
 * @throws DesktopError INVALID_ARGS for an unknown role
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rolesFilter } from "./params.ts";
 * assert.ok(rolesFilter("txt", true)!.has("txt"));
 * assert.ok(rolesFilter("txt", true)!.has("btn"));
 * assert.equal(rolesFilter(undefined, false), undefined);
 * ```
 */
export function rolesFilter(roles?: string, interactive?: boolean): Set<Role> | undefined {
  if (roles === undefined && !interactive) return undefined;
  const list = [roles, interactive ? "interactive" : undefined].filter(Boolean).join(",");
  return parseRoles(list);
}

/**
 * The target the arguments name, checking that at most one way was used.
 *
 * @param args target arguments
 * @param textName the text selector's name (see {@link targetParams})
 * @returns the target; empty when none was given
 * @throws DesktopError INVALID_ARGS on conflicting or half-given targets
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toTarget } from "./params.ts";
 * assert.deepEqual(toTarget({ ref: "form/email" }), { ref: "form/email" });
 * assert.throws(() => toTarget({ ref: "a", id: 2 }), /cannot be used together/);
 * ```
 */
export function toTarget(args: TargetArgs, textName = "text"): Target {
  const text = (args as Record<string, unknown>)[textName] as string | undefined;
  const given = [
    args.ref !== undefined && "ref",
    args.id !== undefined && "id",
    text !== undefined && textName,
    (args.x !== undefined || args.y !== undefined) && "x/y",
  ].filter((x): x is string => typeof x === "string");
  if (given.length > 1) {
    throw new DesktopError("INVALID_ARGS", `${given.join(" and ")} cannot be used together`, {
      suggestion: `Target the element one way: ref, id, ${textName} or x/y`,
    });
  }
  if ((args.x === undefined) !== (args.y === undefined)) {
    throw new DesktopError("INVALID_ARGS", "x and y go together", {
      suggestion: "Pass both x and y",
    });
  }
  if (text === "") {
    throw new DesktopError("INVALID_ARGS", `the target ${textName} is empty`, {
      suggestion: `Pass a non-empty ${textName}`,
    });
  }
  return {
    ...(args.ref !== undefined ? { ref: args.ref } : {}),
    ...(args.id !== undefined ? { id: args.id } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(args.roles !== undefined ? { roles: parseRoles(args.roles) } : {}),
    ...(args.exact ? { exact: true } : {}),
    ...(args.x !== undefined && args.y !== undefined ? { point: { x: args.x, y: args.y } } : {}),
  };
}

/**
 * Whether a target names anything.
 *
 * @param t the target
 * @returns true when one of ref, id, text, point is set
 */
export function hasTarget(t: Target): boolean {
  return t.ref !== undefined || t.id !== undefined || t.text !== undefined ||
    t.point !== undefined;
}

/**
 * Throws unless the target names something (an element, or also a point).
 *
 * @param verb the operation, for the message
 * @param t the target
 * @param elementOnly whether a point is refused
 * @throws DesktopError INVALID_ARGS
 */
export function requireTarget(verb: string, t: Target, elementOnly = false): void {
  if (hasTarget(t) && !(elementOnly && t.point)) return;
  throw new DesktopError(
    "INVALID_ARGS",
    `${verb} needs ${elementOnly ? "an element target" : "a target"}`,
    {
      suggestion: elementOnly
        ? "Pass ref (from read), id or text"
        : "Pass ref (from read), id, text, or x and y",
    },
  );
}
