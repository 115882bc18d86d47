/**
 * The `type` verb: text into a field.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { type ScopeArgs, type TargetArgs, targetParams, toTarget } from "../params.ts";
import type { ActReport } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import {
  ACT,
  act,
  ACT_FORMAT,
  ACT_OUT,
  type ActArgs,
  actData,
  BOUNDS_CHANGES,
  DIFF,
  LIVE,
  renderAct,
} from "./_shared.ts";

/** Arguments of `type`. */
export interface TypeArgs extends ScopeArgs, Omit<TargetArgs, "text">, ActArgs {
  /** The text to type. */
  text?: string;
  /** CLI: a file (or `-`, standard input) holding the text, kept out of the command line. */
  text_file?: string;
  /** A key combo to press instead. */
  key?: string;
  /** Clear the field before typing. */
  replace?: boolean;
  /** The element whose label/value/description has this (text targeting). */
  target?: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `type` operation. */
export const typeOp: Op<TypeArgs, ActReport> = defineOp<TypeArgs, ActReport>({
  name: "type",
  doc: "Type text (or press key) into an element, default the focused one.",
  examples: [
    'desktop type --app Chromium --ref form/email --text "ada@example.com"',
    'desktop type --app Chromium --target "Full Name" --text "Ada Lovelace"',
    'desktop type --app Chromium --ref toolbar/address --replace "chrome://settings"',
    'desktop type --app mousepad --ref text "Dear Ada,"',
    "desktop type --app Chromium --ref form/email --key ctrl+a",
    "desktop type --app Chromium --ref form/password --text-file - < secret.txt",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams("target"),
    { name: "text", type: "string", positional: "or-flag", doc: "the text to type" },
    {
      name: "text_file",
      type: "string",
      face: "cli",
      doc: "read the text from this file (- for stdin), not the command line (one final " +
        "newline dropped)",
    },
    { name: "key", type: "string", doc: "key combo instead (ctrl+a)" },
    {
      name: "replace",
      type: "boolean",
      doc: "clear the field first (default: type at the end of its text)",
    },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  async run(ctx, args) {
    const given = [args.text, args.text_file, args.key].filter((x) => x !== undefined);
    if (given.length !== 1) {
      const text = ctx.face === "cli" ? "text, --text-file" : "text";
      throw new DesktopError("INVALID_ARGS", `type takes exactly one of ${text} and key`, {
        suggestion: 'Pass text "words" or key Return' +
          (ctx.face === "cli" ? " (or --text-file FILE for text kept off the command line)" : ""),
      });
    }
    const target = toTarget(args as TargetArgs, "target");
    let text = args.text;
    if (args.text_file !== undefined) {
      // Loaded on demand: reading files is a platform concern.
      const { readTextArgument } = await import("../../io/bounded_read.ts");
      text = await readTextArgument(args.text_file, "--text-file");
    }
    return await act(
      ctx,
      "type",
      args,
      target,
      args.key !== undefined
        ? { kind: "key", combo: args.key }
        : { kind: "type", text: text!, ...(args.replace ? { replace: true } : {}) },
    );
  },
  render: renderAct,
  data: actData,
});
