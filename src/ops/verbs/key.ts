/**
 * The `key` verb: keys and shortcuts.
 *
 * @module
 */

import { MAX_KEY_REPEAT } from "../../act/policy.ts";
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

/** Arguments of `key`. */
export interface KeyArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Keys joined with +. */
  combo: string;
  /** How many times to press it (1..100). */
  repeat?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `key` operation. */
export const key: Op<KeyArgs, ActReport> = defineOp<KeyArgs, ActReport>({
  name: "key",
  doc: "Press a key combo (Return, ctrl+s) in the focused element or a target.",
  examples: [
    "desktop key Return --app Chromium",
    "desktop key ctrl+a --app Chromium --ref form/email",
    "desktop key Right --repeat 7 --app Chromium --ref volume",
  ],
  hints: ACT,
  params: [
    { name: "combo", type: "string", required: true, positional: true, doc: "keys joined with +" },
    {
      name: "repeat",
      type: "int",
      min: 1,
      max: MAX_KEY_REPEAT,
      default: 1,
      doc: "press it this many times, each once",
    },
    ...LIVE,
    ...targetParams(),
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    if (!/^[^\s+]+(\+[^\s+]+)*$/.test(args.combo)) {
      throw new DesktopError("INVALID_ARGS", `"${args.combo}" is not a key combo`, {
        suggestion: "Join keys with +, e.g. ctrl+s, shift+Tab, Return",
      });
    }
    const repeat = args.repeat ?? 1;
    return act(ctx, "key", args, toTarget(args), {
      kind: "key",
      combo: args.combo,
      ...(repeat !== 1 ? { repeat } : {}),
    });
  },
  render: renderAct,
  data: actData,
});
