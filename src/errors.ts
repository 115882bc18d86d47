/**
 * Structured errors. Every failure the tool reports is a {@link DesktopError}
 * with a stable code, a message, and a suggestion an agent can act on.
 *
 * @module
 */

import type { ElementBrief } from "./model/element.ts";

/** Stable error codes. Agents branch on these, so they never change meaning. */
export type ErrorCode =
  | "INVALID_ARGS"
  | "APP_NOT_FOUND"
  | "WINDOW_NOT_FOUND"
  | "ELEMENT_NOT_FOUND"
  | "AMBIGUOUS_TARGET"
  | "STALE_REF"
  | "ACTION_NOT_SUPPORTED"
  | "ACTION_FAILED"
  | "PERMISSION_DENIED"
  | "PLATFORM_NOT_SUPPORTED"
  | "APP_UNRESPONSIVE"
  | "TIMEOUT"
  | "SNAPSHOT_INVALID"
  /** A `run` file's expect step found the UI otherwise. */
  | "EXPECT_FAILED"
  | "INTERNAL";

/** A candidate element offered when a target is missing or ambiguous: its brief. */
export type Candidate = ElementBrief;

/** Optional details carried by a {@link DesktopError}. */
export interface ErrorDetails {
  /** What the agent should do next. */
  suggestion?: string;
  /** Elements (or apps) the agent may have meant, nearest first. */
  candidates?: Candidate[] | Array<{ name: string; pid: number }>;
  /** Anything else machine-readable (what changed for STALE_REF, etc.). */
  details?: Record<string, unknown>;
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/** Exit code for bad arguments; every other error exits with 1. */
export const EXIT_INVALID_ARGS = 2;

/**
 * An error with a stable code. Thrown by every layer; printed by the CLI as
 * one JSON object on stderr.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DesktopError } from "./errors.ts";
 * const err = new DesktopError("ELEMENT_NOT_FOUND", "no element matches ref \"ok\"", {
 *   suggestion: "Run read again and use one of the candidates' refs",
 * });
 * assert.deepEqual(err.toJSON().code, "ELEMENT_NOT_FOUND");
 * ```
 */
export class DesktopError extends Error {
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** What the agent should do next. */
  readonly suggestion?: string;
  /** Candidates for ambiguous or missing targets. */
  readonly candidates?: ErrorDetails["candidates"];
  /** Extra machine-readable details. */
  readonly details?: Record<string, unknown>;

  /**
   * Creates an error with a stable code.
   *
   * @param code stable error code
   * @param message human-readable explanation
   * @param extra suggestion, candidates, details, cause
   */
  constructor(code: ErrorCode, message: string, extra: ErrorDetails = {}) {
    super(
      capMessage(wholeMilliseconds(message)),
      extra.cause === undefined ? undefined : { cause: extra.cause },
    );
    this.name = "DesktopError";
    this.code = code;
    this.suggestion = extra.suggestion === undefined
      ? undefined
      : wholeMilliseconds(extra.suggestion);
    this.candidates = extra.candidates;
    this.details = extra.details;
  }

  /** Process exit code for this error: 2 for bad arguments, else 1. */
  get exitCode(): number {
    return this.code === "INVALID_ARGS" ? EXIT_INVALID_ARGS : 1;
  }

  /** The JSON shape printed on stderr. */
  toJSON(): {
    error: true;
    code: ErrorCode;
    message: string;
    suggestion?: string;
    candidates?: ErrorDetails["candidates"];
    details?: Record<string, unknown>;
  } {
    return {
      error: true,
      code: this.code,
      message: this.message,
      ...(this.suggestion ? { suggestion: this.suggestion } : {}),
      ...(this.candidates?.length ? { candidates: this.candidates } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/**
 * Durations in a text rounded to whole milliseconds: a time computed from a
 * sub-millisecond clock (`performance`) prints as `2916 ms`, not
 * `2915.69189453125 ms`.
 *
 * @param text a message
 * @returns the message with every `<number> ms` rounded
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wholeMilliseconds } from "./errors.ts";
 * assert.equal(wholeMilliseconds("not met within 2915.69189453125 ms"), "not met within 2916 ms");
 * ```
 */
export function wholeMilliseconds(text: string): string {
  return text.replace(/\b(\d+)\.\d+(\s?ms)\b/g, (m, int: string, unit: string) => {
    const n = Math.round(Number(m.slice(0, m.length - unit.length)));
    return Number.isFinite(n) ? `${n}${unit}` : `${int}${unit}`;
  });
}

/** Longest error message kept; a longer one keeps its start and end. */
export const MAX_MESSAGE_CHARS = 600;

/**
 * Shortens a message longer than {@link MAX_MESSAGE_CHARS} in the middle:
 * a path 2000 levels deep, or a pasted text, says what it is about at its
 * ends.
 *
 * @param message the message
 * @returns it, or its start and end around an ellipsis
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { capMessage } from "./errors.ts";
 * const long = capMessage("root" + ".c[0]".repeat(2000) + " is nested too deeply");
 * assert.ok(long.length <= 600);
 * assert.match(long, /^root\.c\[0\].*….* is nested too deeply$/);
 * ```
 */
export function capMessage(message: string): string {
  if (message.length <= MAX_MESSAGE_CHARS) return message;
  const head = Math.floor(MAX_MESSAGE_CHARS * 0.6);
  const tail = MAX_MESSAGE_CHARS - head - 1;
  return `${message.slice(0, head)}…${message.slice(message.length - tail)}`;
}

/**
 * Wraps anything thrown into a DesktopError, keeping DesktopErrors as they are.
 *
 * @param err whatever was thrown
 * @returns a DesktopError (code INTERNAL for unknown errors)
 */
export function toDesktopError(err: unknown): DesktopError {
  if (err instanceof DesktopError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DesktopError("INTERNAL", message, {
    cause: err,
    suggestion: "This is a bug in desktop; please report it with the command you ran",
  });
}
