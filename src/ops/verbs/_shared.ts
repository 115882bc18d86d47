/**
 * What the verbs share: the MCP hints, the parameters every live verb takes
 * besides its scope (`--from`, `--session`), the output formats, the loose
 * output schemas, and how an action is carried out and reported.
 *
 * @module
 */

import type { ActOptions, Target } from "../../desktop.ts";
import type { Action } from "../../platform/provider.ts";
import { SCOPE_PARAMS, type ScopeArgs, toScope } from "../params.ts";
import { type ActReport, actReport, actText, withChanges } from "../render.ts";
import type { OpContext, OpHints, ParamSpec } from "../types.ts";

/** Reading: changes nothing. */
export const READ: OpHints = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};
/** Acting on an app: a click may press "Delete" or "Send". */
export const ACT: OpHints = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
};

/** `--from`: a saved snapshot instead of the live desktop (the MCP server takes it at start). */
export const FROM: ParamSpec = {
  name: "from",
  type: "string",
  face: "cli",
  doc: "read a saved snapshot instead of the live desktop (read-only)",
};

/** Whether an action reports the changes it caused: MCP by default, the CLI with --diff. */
export const DIFF: ParamSpec = {
  name: "diff",
  type: "boolean",
  default: false,
  faceDefault: { mcp: true },
  doc: "report the changes it caused",
};

/** Whether an action's changes list moves and resizes (a scroll's boxes are noise otherwise). */
export const BOUNDS_CHANGES: ParamSpec = {
  name: "bounds",
  type: "boolean",
  doc: "list moves/resizes among the changes",
};

/** The CLI's output format of actions (MCP returns both text and data). */
export const ACT_FORMAT: ParamSpec = {
  name: "format",
  type: "enum",
  choices: ["agent", "json"],
  default: "agent",
  face: "cli",
  doc: "output: agent (one line) or json",
};

/** `--session`: whose ids (the MCP server has one per connection, or its own --session). */
export const SESSION: ParamSpec = {
  name: "session",
  type: "string",
  face: "cli",
  doc: "ids of this session's reads (default: $DESKTOP_SESSION, else the shared default)",
};

/** The scope parameters, then the CLI-only `--from` and `--session`: what every live verb takes. */
export const LIVE: readonly ParamSpec[] = [...SCOPE_PARAMS, FROM, SESSION];

/** The CLI-only parameters every live operation takes. */
export const CLI_ONLY: readonly ParamSpec[] = [FROM, SESSION];

/** The deadline parameter alone, for verbs that take no scope. */
export const TIMEOUT: readonly ParamSpec[] = SCOPE_PARAMS.filter((p) => p.name === "timeout");

// Output schemas: the top-level keys only, loose, so a richer result stays valid (and the
// tool list stays small).
/** Any object. */
export const OBJ = { type: "object" } as const;
/** Any array. */
export const ARR = { type: "array" } as const;
/** What an action returns. */
export const ACT_OUT = {
  type: "object",
  properties: { ok: { type: "boolean" }, element: OBJ, via: { type: "string" }, changes: ARR },
};

/** Carries out an action and reports it. */
export async function act(
  ctx: OpContext,
  verb: string,
  args: ScopeArgs & { bounds?: boolean; diff?: boolean },
  target: Target,
  action: Action,
): Promise<ActReport> {
  const desktop = await ctx.desktop();
  return actReport(verb, await desktop.act(toScope(args), target, action, actOptions(ctx, args)));
}

/**
 * The library's options of an action called from a face: boxes when asked,
 * and whether the face shows the changes (the CLI lists them with `--diff`,
 * MCP unless `diff` is false).
 */
export function actOptions(
  ctx: OpContext,
  args: { bounds?: boolean; diff?: boolean },
): ActOptions {
  const changesShown = ctx.face === "cli" ? args.diff === true : args.diff !== false;
  return { changesShown, ...(args.bounds ? { bounds: true } : {}) };
}

/** An action's text: one line, or JSON. */
export function renderAct(r: ActReport, args: { format?: string; diff?: boolean }): string {
  const show = args.diff === true;
  return args.format === "json" ? JSON.stringify(withChanges(r, show)) : actText(r, show);
}

/** An action's data: the report, with its changes unless they were turned off. */
export function actData(r: ActReport, args: { diff?: boolean }): Record<string, unknown> {
  return withChanges(r, args.diff !== false);
}

/** What every action takes besides its target. */
export interface ActArgs {
  /** Report the changes the action caused (MCP: default true). */
  diff?: boolean;
  /** List moves and resizes among the changes (default false). */
  bounds?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Arguments of `click`. */
