/**
 * Tool results: text for successes, and DesktopError JSON with `isError` for
 * failures, so an agent sees the code, suggestion and candidates instead of a
 * protocol error.
 *
 * @module
 */

import { toDesktopError } from "../errors.ts";

/** The result shape an MCP tool returns. */
export interface ToolResult {
  /** Text and image blocks shown to the agent. */
  content: Array<
    { type: "text"; text: string } | { type: "image"; data: string; mimeType: string }
  >;
  /** Set when the tool failed. */
  isError?: boolean;
  /** Index signature the SDK's result type requires. */
  [key: string]: unknown;
}

/**
 * A successful result carrying text (strings as they are, anything else as JSON).
 *
 * @param value what to show the agent
 * @returns the tool result
 */
export function ok(value: unknown): ToolResult {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return { content: [{ type: "text", text }] };
}

/**
 * A failed result: the DesktopError's JSON (code, message, suggestion, candidates).
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

/**
 * Runs a tool body, turning any throw into a {@link fail} result.
 *
 * @param body the tool's work
 * @returns its result, or the error result
 */
export async function guard(body: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  try {
    return await body();
  } catch (err) {
    return fail(err);
  }
}
