/**
 * The `set_value` verb: a field's, slider's or choice's value.
 *
 * @module
 */

import {
  requireTarget,
  type ScopeArgs,
  type TargetArgs,
  targetParams,
  toTarget,
} from "../params.ts";
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

/** Arguments of `set_value`. */
export interface SetValueArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** The new value. */
  value: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `setValue` operation. */
export const setValue: Op<SetValueArgs, ActReport> = defineOp<SetValueArgs, ActReport>({
  name: "set_value",
  doc: "Set an element's value: text, number (slider), true/false (check box).",
  examples: [
    'desktop set-value --app Chromium --ref form/email --value "ada@example.com"',
    "desktop set-value --app Chromium --ref form/subscribe true",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    {
      name: "value",
      type: "string",
      required: true,
      positional: "or-flag",
      doc: "the new value",
    },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("set-value", target, true);
    return act(ctx, "set-value", args, target, { kind: "set-value", value: args.value });
  },
  render: renderAct,
  data: actData,
});
