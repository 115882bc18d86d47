/**
 * One table of operations: the CLI's commands (src/commands/_generate.ts),
 * the MCP server's tools (src/mcp/tools.ts) and the library's typed methods
 * (`connect()` → `desktop.ops`) are all generated from {@link OPS}, so a verb
 * or a parameter cannot exist on one face only (tests/integration/parity_test.ts
 * checks it).
 *
 * ## Adding a verb
 *
 * One entry in `table.ts` (and, if the verb needs new library calls, those in
 * src/desktop.ts): `defineOp<Args, Result>({ name, doc, hints, params, output,
 * run, render })`, then add it to `OPS`. That is all:
 *
 * - `name` is snake_case: the MCP tool (`set_value`), the CLI command with
 *   dashes (`set-value`), the library method in camelCase (`setValue`).
 * - `params`: spread `SCOPE_PARAMS` (app, pid, window, window_id, timeout) and
 *   `targetParams()` (ref, id, text, roles, exact, x, y) when they apply; each
 *   parameter is one name on every face (`scope_ref` is `--scope-ref`).
 *   Mark CLI-only presentation (`format` of actions, `save`) with `face: "cli"`.
 * - `hints`: read-only / destructive / idempotent / open-world (MCP annotations).
 * - `run(ctx, args)` gets validated arguments (defaults applied) and
 *   `ctx.desktop()`; it calls the library (src/desktop.ts), never a backend,
 *   and throws DesktopError for bad input.
 * - `render(result, args)` is the text both faces show; `output` is the JSON
 *   Schema of the result when it is data (MCP `structuredContent`), and
 *   `data` (optional) maps the result to that data.
 *
 * @module
 */

import type { Desktop } from "../desktop.ts";
import { toDesktopError } from "../errors.ts";
import { OPS } from "./table.ts";
import type { AnyOp, Args, Face, Op, OpContext } from "./types.ts";
import { validateArgs } from "./validate.ts";

export * from "./types.ts";
export * from "./params.ts";
export * from "./render.ts";
export * from "./validate.ts";
export * from "./table.ts";
export * from "./system.ts";

/** The names of the operations. */
export type OpName = keyof typeof OPS;

/**
 * Every operation, in table order.
 *
 * @returns the operations
 */
export function allOps(): AnyOp[] {
  return Object.values(OPS) as AnyOp[];
}

/**
 * An operation's name on a face: `set-value` on the CLI, `set_value` (or its
 * `mcpName`) in MCP.
 *
 * @param op the operation
 * @param face the face
 * @returns the name
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nameOn, OPS } from "./mod.ts";
 * assert.equal(nameOn(OPS.set_value, "cli"), "set-value");
 * assert.equal(nameOn(OPS.observe, "mcp"), "observe_changes");
 * ```
 */
export function nameOn(op: AnyOp, face: Face): string {
  if (face === "cli") return op.cliName ?? op.name.replaceAll("_", "-");
  if (face === "lib") return op.name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  return op.mcpName ?? op.name;
}

/**
 * The operation with this name on a face.
 *
 * @param name the name there
 * @param face the face
 * @returns the operation, or undefined
 */
export function opNamed(name: string, face: Face): AnyOp | undefined {
  return allOps().find((op) => nameOn(op, face) === name);
}

/**
 * Validates the arguments and runs an operation.
 *
 * @param op the operation
 * @param raw the arguments as the face received them (typed)
 * @param ctx the call's context
 * @returns the result (data)
 * @throws DesktopError from validation or the handler
 */
export async function invoke(op: AnyOp, raw: Args, ctx: OpContext): Promise<unknown> {
  const args = validateArgs(op, raw, ctx.face);
  try {
    return await op.run(ctx, args);
  } catch (err) {
    throw toDesktopError(err);
  }
}

/**
 * The data form of a result (MCP `structuredContent`).
 *
 * @param op the operation
 * @param result what `run` returned
 * @param args the validated arguments
 * @returns the data
 */
export function dataOf(op: AnyOp, result: unknown, args: Args): Record<string, unknown> {
  return op.data ? op.data(result, args) : result as Record<string, unknown>;
}

/** `set_value` → `setValue`. */
export type Camel<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<Camel<T>>}`
  : S;

/** Options of a library call besides its arguments. */
export interface CallOptions {
  /** Ends the call (observe stops with its `done` event). */
  signal?: AbortSignal;
  /** Receives streamed events (observe) as they happen. */
  onEvent?: (event: unknown) => void;
}

/**
 * The table's operations as typed methods (`setValue` for `set_value`),
 * taking the same arguments as the MCP tools and returning the results as
 * data: what `connect()` exposes as `desktop.ops`.
 */
export type OpMethods = {
  [K in keyof typeof OPS as Camel<K & string>]: (typeof OPS)[K] extends Op<infer A, infer R>
    ? (args?: A, opts?: CallOptions) => Promise<R>
    : never;
};

/**
 * The typed methods over a session.
 *
 * @param desktop the session the operations act through
 * @returns the methods
 * @example
 * ```ts ignore
 * import { connect } from "@x/desktop";
 * const desktop = await connect({ from: "tests/fixtures/browser_form.json" });
 * const { elements } = await desktop.ops.find({ ref: "form/email" });
 * console.log(elements[0].t); // "Email"
 * ```
 */
export function opMethods(desktop: Desktop): OpMethods {
  const methods: Record<string, (args?: Args, opts?: CallOptions) => Promise<unknown>> = {};
  for (const op of allOps()) {
    methods[nameOn(op, "lib")] = (args = {}, opts = {}) =>
      invoke(op, args, {
        face: "lib",
        signal: opts.signal ?? new AbortController().signal,
        desktop: () => Promise.resolve(desktop),
        emit: (ev) => opts.onEvent?.(ev),
      });
  }
  return methods as unknown as OpMethods;
}
