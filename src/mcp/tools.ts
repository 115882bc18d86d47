/**
 * The MCP tools, generated from the table of operations: one tool per
 * operation with its parameters as a JSON Schema, its hints as annotations
 * and, where the result is data, an output schema and `structuredContent`.
 * Failures are tool results with `isError` and the DesktopError's JSON (code,
 * suggestion, candidates), so the agent can retry.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS } from "../desktop.ts";
import type { Change } from "../diff/diff.ts";
import { trimChanges } from "../diff/noise.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import {
  allOps,
  type AnyOp,
  type Args,
  dataOf,
  defaultOn,
  nameOn,
  opNamed,
  paramsOn,
  type ParamSpec,
  validateArgs,
} from "../ops/mod.ts";
import type { Cursors } from "./cursors.ts";
import type { Executor } from "./executor.ts";
import { defaultOutputDir, OutputDir, planWrites, WRITING_TOOLS } from "./output_dir.ts";

/** A tool as `tools/list` describes it. */
export interface ToolInfo {
  /** Tool name. */
  name: string;
  /** What it does. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  /** JSON Schema of `structuredContent`, when the result is data. */
  outputSchema?: Record<string, unknown>;
  /** Hints for clients. */
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** A `tools/call` result. */
export interface ToolResult {
  /** Text (and images) for the agent. */
  content: Array<
    { type: "text"; text: string } | { type: "image"; data: string; mimeType: string }
  >;
  /** The data, matching the tool's output schema. */
  structuredContent?: Record<string, unknown>;
  /** Set on failure. */
  isError?: boolean;
  /** Index signature the SDK's result type requires. */
  [key: string]: unknown;
}

function schemaOf(p: ParamSpec): Record<string, unknown> {
  const d = defaultOn(p, "mcp");
  if (p.type === "json") return { description: p.doc };
  if (p.type === "list") return { type: "array", items: { type: "string" }, description: p.doc };
  const type = p.type === "int" ? "integer" : p.type === "enum" ? "string" : p.type;
  // Shared parameters are described once (the server's instructions); ranges are checked
  // on the server and said in the error, not spelt out in every tool.
  if (p.shared) return { type };
  return {
    type,
    description: p.doc,
    ...(p.choices ? { enum: p.choices } : {}),
    ...(d !== undefined && d !== false ? { default: d } : {}),
  };
}

/**
 * The tool of an operation.
 *
 * @param op the operation
 * @returns its description for `tools/list`
 */
export function toolOf(op: AnyOp): ToolInfo {
  const params = paramsOn(op, "mcp");
  const required = params.filter((p) => p.required).map((p) => p.name);
  const properties = Object.fromEntries(params.map((p) => [p.name, schemaOf(p)]));
  if (WRITING_TOOLS.has(op.name) && properties.out) {
    properties.out = {
      ...properties.out,
      description: "write the PNG to this new file in the server's output folder (a path " +
        "relative to it); existing files are refused",
    };
  }
  return {
    name: nameOn(op, "mcp"),
    description: op.doc,
    inputSchema: {
      type: "object",
      properties,
      ...(required.length ? { required } : {}),
    },
    ...(op.output ? { outputSchema: op.output } : {}),
    annotations: {
      // A tool that writes files is not read-only, whatever it does to the UI; it writes new
      // files in the output folder (or its own again), so it is not destructive for that.
      readOnlyHint: op.hints.readOnly && !WRITING_TOOLS.has(op.name),
      destructiveHint: op.hints.destructive,
      idempotentHint: op.hints.idempotent,
      openWorldHint: op.hints.openWorld,
    },
  };
}

/**
 * Every tool.
 *
 * @returns the tools, in table order
 */
export function toolList(): ToolInfo[] {
  return allOps().map(toolOf);
}

/**
 * A failed result: the DesktopError's JSON.
 *
 * @param err whatever was thrown
 * @returns the tool result with `isError`
 */
export function fail(err: unknown): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(toDesktopError(err).toJSON()) }],
    isError: true,
  };
}

/** What a call needs besides its arguments. */
export interface CallContext {
  /** Where operations run. */
  executor: Executor;
  /** The observe watches. */
  cursors: Cursors;
  /** The client's cancellation. */
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them. */
  progress?: (message: string) => void;
  /** Where tools may write files (default: a new folder, see {@link defaultOutputDir}). */
  outputs?: OutputDir;
}

let fallbackOutputs: OutputDir | undefined;

/**
 * Handles one `tools/call`.
 *
 * @param name the tool
 * @param raw its arguments
 * @param ctx executor, cursors, cancellation, progress
 * @returns the result (an error result on failure; never throws)
 */
export async function callTool(
  name: string,
  raw: Args | undefined,
  ctx: CallContext,
): Promise<ToolResult> {
  try {
    const op = opNamed(name, "mcp");
    if (!op) {
      return fail(
        new DesktopError("INVALID_ARGS", `no tool ${name}`, {
          suggestion: `Tools: ${allOps().map((o) => nameOn(o, "mcp")).join(", ")}`,
        }),
      );
    }
    const args = validateArgs(op, raw ?? {}, "mcp");
    const plan = await planWrites(
      op,
      args,
      ctx.outputs ?? (fallbackOutputs ??= new OutputDir(defaultOutputDir())),
    );
    const onEvent = ctx.progress
      ? (ev: unknown) => ctx.progress!(JSON.stringify(ev).slice(0, 300))
      : undefined;
    let beat: ReturnType<typeof setInterval> | undefined;
    if (ctx.progress) {
      const started = Date.now();
      beat = setInterval(
        () => ctx.progress!(`running ${((Date.now() - started) / 1000).toFixed(0)} s`),
        1000,
      );
    }
    try {
      const timeout = (args.timeout as number | undefined) ?? DEFAULT_TIMEOUT_MS;
      let result: unknown;
      try {
        result = op.name === "observe"
          ? await ctx.cursors.call(args, ctx.signal, onEvent)
          : await ctx.executor.run(op, plan.args, {
            signal: ctx.signal,
            onEvent,
            deadlineMs: op.deadlineMs ? op.deadlineMs(args, timeout) : timeout,
          });
      } finally {
        await plan.finish(result);
      }
      // The text and the data of an action come from one trimmed list of changes.
      // (`diff` compares two files and keeps boxes unless told to ignore them.)
      const bounds = op.name === "diff" ? args.ignore_bounds !== true : args.bounds === true;
      result = trimmedResult(result, bounds);
      const images = op.images ? op.images(result) : [];
      const failed = op.failure?.(result);
      return {
        ...(failed ? { isError: true } : {}),
        content: [
          ...images.map((img) => ({ type: "image" as const, ...img })),
          { type: "text", text: op.render(result, args) },
        ],
        ...(op.output ? { structuredContent: dataOf(op, result, args) } : {}),
      };
    } finally {
      clearInterval(beat);
    }
  } catch (err) {
    return fail(err);
  }
}

/**
 * A result whose `changes` (an action's, or a diff's) are trimmed as its text
 * is: no box unless asked for, no change that shows nothing new (see
 * {@link trimChanges}). Any other result is returned as it is.
 *
 * @param result an operation's result
 * @param bounds keep moves and resizes
 * @returns the result with its changes trimmed
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trimmedResult } from "./tools.ts";
 * const r = trimmedResult({
 *   ok: true,
 *   changes: [
 *     { type: "changed", ref: "list/row.2", i: 7, changes: { ref: ["list/row.3", "list/row.2"] } },
 *     { type: "changed", ref: "list/row.4", i: 9, changes: { b: [[0, 0, 5, 5], [0, 5, 5, 5]] } },
 *   ],
 * }, false) as { changes: unknown[] };
 * assert.deepEqual(r.changes, []);
 * ```
 */
export function trimmedResult(result: unknown, bounds: boolean): unknown {
  if (typeof result !== "object" || result === null) return result;
  const changes = (result as { changes?: unknown }).changes;
  if (!Array.isArray(changes)) return result;
  return {
    ...result,
    changes: trimChanges(changes as Change[], { bounds }),
  };
}
