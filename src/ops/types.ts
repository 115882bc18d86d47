/**
 * The shape of one operation of the table: its parameters (typed, with
 * defaults and docs), its hints (read-only, destructive...), its handler and
 * its text rendering. The CLI, the MCP server and the library are generated
 * from values of these types (see ./mod.ts for how to add a verb).
 *
 * @module
 */

import type { Desktop } from "../desktop.ts";

/**
 * A parameter's value type. `int` is a whole number; `enum` takes one of
 * `choices`; `list` is strings (a repeated CLI option, an MCP array); `json`
 * is any JSON value (a JSON string on the CLI).
 */
export type ParamType = "string" | "int" | "number" | "boolean" | "enum" | "list" | "json";

/** A face of the tool: the command line, the MCP server, or the library's typed methods. */
export type Face = "cli" | "mcp" | "lib";

/** A parameter of an operation, in snake_case (`scope_ref`; the CLI flag is `--scope-ref`). */
export interface ParamSpec {
  /** Name on every face: `scope_ref` is `--scope-ref` on the CLI and `scope_ref` in MCP. */
  readonly name: string;
  /** Value type. */
  readonly type: ParamType;
  /** One short line: what it means. */
  readonly doc: string;
  /** Accepted values of an `enum`. */
  readonly choices?: readonly string[];
  /** Value when not given (also shown in the docs of both faces). */
  readonly default?: string | number | boolean;
  /**
   * A boolean whose default depends on other arguments: the CLI has both
   * `--name` and `--no-name`, and leaving both out means "the default".
   */
  readonly negatable?: boolean;
  /** On the CLI, `-` reads the value from standard input (text too large for an argument). */
  readonly stdin?: boolean;
  /** A different default on one face (a stream that runs until Ctrl+C cannot on MCP). */
  readonly faceDefault?: Partial<Record<Face, string | number | boolean>>;
  /** Smallest accepted number. */
  readonly min?: number;
  /** Largest accepted number. */
  readonly max?: number;
  /** Must be given. */
  readonly required?: boolean;
  /**
   * One of the parameters many operations share (scope, target): MCP
   * describes it once, in the server's instructions, not in every tool.
   */
  readonly shared?: boolean;
  /**
   * On the CLI an argument (`desktop key ctrl+s`) rather than an option;
   * `"or-flag"`: either (`desktop type --ref x "hi"` or `--text "hi"`).
   */
  readonly positional?: boolean | "or-flag";
  /**
   * Only on this face: presentation that has no meaning on the other (the
   * CLI's output format of actions, `--save`, MCP's observe cursor). The
   * parity test allows exactly these. The library has only the others.
   */
  readonly face?: Face;
}

/** Hints clients use to decide what needs a confirmation (MCP tool annotations). */
export interface OpHints {
  /** Changes nothing in any app. */
  readonly readOnly: boolean;
  /** May destroy or overwrite what the user made (a click can press "Delete"). */
  readonly destructive: boolean;
  /** Repeating the call with the same arguments has no further effect. */
  readonly idempotent: boolean;
  /** Reaches beyond the machine's apps' state (an app may send what it is told to). */
  readonly openWorld: boolean;
}

/** What a handler receives besides its arguments. */
export interface OpContext {
  /** The session for the call's scope and timeout (opened on first use). */
  desktop(): Promise<Desktop>;
  /** Aborted when the caller cancels (Ctrl+C, an MCP cancellation, a deadline). */
  readonly signal: AbortSignal;
  /** Streams one event as it happens (observe); the CLI prints it, MCP sends progress. */
  emit(event: unknown): void;
  /** Which face called: only for what is printed, never for what is done. */
  readonly face: Face;
}

/** Validated arguments: parameter name to value (defaults applied). */
export type Args = Record<string, unknown>;

/**
 * One operation.
 *
 * @typeParam A the arguments' type (the library's typed method takes it)
 * @typeParam R the result's type (data; the faces render it)
 */
export interface Op<A = Args, R = unknown> {
  /** snake_case name: the MCP tool; the CLI command has dashes; the library method is camelCase. */
  readonly name: string;
  /** The MCP tool's name when it differs from `name` (kept for clients that know it). */
  readonly mcpName?: string;
  /** The CLI's name when it differs: `clipboard get` is the subcommand get of clipboard. */
  readonly cliName?: string;
  /** The CLI prints the rendering exactly, with no newline added (clipboard text). */
  readonly raw?: boolean;
  /** One or two short sentences, shown by both faces. */
  readonly doc: string;
  /** CLI help examples (`$ desktop ...` lines). */
  readonly examples?: readonly string[];
  /** Client hints. */
  readonly hints: OpHints;
  /** Parameters, in the order the CLI help shows them. */
  readonly params: readonly ParamSpec[];
  /**
   * JSON Schema of the result's data when it is data (MCP `outputSchema` and
   * `structuredContent`); absent when the result is text (a rendered tree).
   */
  readonly output?: Record<string, unknown>;
  /** More CLI help, after the examples (what the output looks like). */
  readonly notes?: string;
  /**
   * How long the call may take, given its arguments and the per-operation
   * timeout (default: the timeout): a caller's deadline for the whole call.
   */
  readonly deadlineMs?: (args: A, timeoutMs: number) => number;
  /** Does the work; throws DesktopError on failure. */
  run(ctx: OpContext, args: A): Promise<R>;
  /** The result as text for a person or an agent (`format` and friends applied). */
  render(result: R, args: A): string;
  /**
   * The result as data (MCP `structuredContent`) when it differs from the
   * result itself.
   */
  data?(result: R, args: A): Record<string, unknown>;
  /**
   * The error a result stands for, when it reports a failure as data (fill,
   * run): the CLI prints the result, then the error; MCP returns it with `isError`.
   */
  failure?(result: R): Error | undefined;
  /** Images the result carries (MCP image content; the CLI writes files instead). */
  images?(result: R): Array<{ data: string; mimeType: string }>;
}

/**
 * Declares an operation with its argument and result types (the table keeps
 * them for the library's typed methods).
 *
 * @param op the operation
 * @returns the same operation
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineOp } from "./types.ts";
 * const ping = defineOp<{ word?: string }, { word: string }>({
 *   name: "ping",
 *   doc: "Echo a word.",
 *   hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
 *   params: [{ name: "word", type: "string", doc: "the word", default: "pong" }],
 *   output: { type: "object", properties: { word: { type: "string" } } },
 *   run: (_ctx, args) => Promise.resolve({ word: args.word ?? "pong" }),
 *   render: (r) => r.word,
 * });
 * assert.equal(ping.name, "ping");
 * ```
 */
export function defineOp<A, R>(op: Op<A, R>): Op<A, R> {
  return op;
}

/** An operation of any argument and result type, as the faces iterate them. */
// deno-lint-ignore no-explicit-any
export type AnyOp = Op<any, any>;
