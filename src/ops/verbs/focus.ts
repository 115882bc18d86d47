/**
 * The `focus` verb: move the keyboard focus.
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

/** Arguments of `focus`. */
export interface FocusArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `focus` operation. */
export const focus: Op<FocusArgs, ActReport> = defineOp<FocusArgs, ActReport>({
  name: "focus",
  doc: "Give an element keyboard focus and raise its window.",
  examples: ["desktop focus --app Chromium --ref form/email"],
  hints: { ...ACT, destructive: false, idempotent: true },
  params: [...LIVE, ...targetParams(), DIFF, BOUNDS_CHANGES, ACT_FORMAT],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("focus", target);
    return act(ctx, "focus", args, target, { kind: "focus" });
  },
  render: renderAct,
  data: actData,
});
