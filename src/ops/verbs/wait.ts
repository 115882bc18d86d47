/**
 * The `wait` verb: until a text or ref shows, or goes.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS } from "../../desktop.ts";
import { DesktopError } from "../../errors.ts";
import { rolesFilter, type ScopeArgs, toScope } from "../params.ts";
import { elementLine, type ElementSummary, summary } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { spelling } from "../validate.ts";
import { ACT_FORMAT, LIVE, OBJ, READ } from "./_shared.ts";

const WAIT_OUT = { type: "object", properties: { ok: { type: "boolean" }, element: OBJ } };

/** Arguments of `wait`. */
export interface WaitArgs extends ScopeArgs {
  /** Wait for an element with this text. */
  for_text?: string;
  /** Wait until no element has this text. */
  gone?: string;
  /** Wait for an element with this ref. */
  for_ref?: string;
  /** Restrict for_text/gone to roles. */
  roles?: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `wait`. */
export interface WaitResult {
  /** Always true: a timeout is an error. */
  ok: true;
  /** The element that appeared (not for gone). */
  element?: ElementSummary;
  /** The text that is gone. */
  gone?: string;
}

/** The `wait` operation. */
export const wait: Op<WaitArgs, WaitResult> = defineOp<WaitArgs, WaitResult>({
  name: "wait",
  doc: "Wait until for_text appears, gone text is gone, or for_ref exists; else TIMEOUT.",
  examples: [
    'desktop wait --app Chromium --for-text "Payment received" --timeout 30000',
    'desktop wait --app Chromium --gone "Loading"',
  ],
  hints: READ,
  params: [
    ...LIVE,
    { name: "for_text", type: "string", doc: "text to appear" },
    { name: "gone", type: "string", doc: "text to disappear" },
    { name: "for_ref", type: "string", doc: "ref to appear" },
    { name: "roles", type: "string", doc: "roles for the text" },
    ACT_FORMAT,
  ],
  output: WAIT_OUT,
  deadlineMs: (_args, timeoutMs) => timeoutMs * 2,
  async run(ctx, args) {
    const given = [args.for_text, args.gone, args.for_ref].filter((x) => x !== undefined);
    if (given.length !== 1) {
      throw new DesktopError("INVALID_ARGS", "wait takes exactly one condition", {
        suggestion: `Pass one of ${
          ["for_text", "gone", "for_ref"].map((n) => spelling(n, ctx.face)).join(", ")
        }`,
      });
    }
    const roles = rolesFilter(args.roles);
    const desktop = await ctx.desktop();
    const el = await desktop.wait(toScope(args), {
      ...(args.for_text !== undefined ? { text: args.for_text } : {}),
      ...(args.gone !== undefined ? { gone: args.gone } : {}),
      ...(args.for_ref !== undefined ? { ref: args.for_ref } : {}),
      ...(roles ? { roles } : {}),
    }, args.timeout ?? DEFAULT_TIMEOUT_MS);
    return el ? { ok: true, element: summary(el) } : { ok: true, gone: args.gone };
  },
  render(r, args) {
    if (args.format === "json") {
      return JSON.stringify({ ok: true, ...(r.element ? { element: r.element } : {}) });
    }
    return r.element ? `ok wait ${elementLine(r.element)}` : `ok wait gone "${r.gone}"`;
  },
});
