/**
 * The `scroll` verb: scroll an element or the view.
 *
 * @module
 */

import { MAX_SCROLL_STEPS } from "../../act/policy.ts";
import { DesktopError } from "../../errors.ts";
import type { ScrollDirection } from "../../platform/provider.ts";
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

/** Arguments of `scroll`. */
export interface ScrollArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Direction. */
  direction?: ScrollDirection;
  /** Steps. */
  amount?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `scroll` operation. */
export const scroll: Op<ScrollArgs, ActReport> = defineOp<ScrollArgs, ActReport>({
  name: "scroll",
  doc: "Scroll amount steps in a direction, or without one scroll the element into view.",
  examples: [
    "desktop scroll --app Chromium --ref invoices/invoice-2024-01/delete   # into view",
    "desktop scroll --app Chromium --ref invoices --direction down --amount 5",
  ],
  hints: { ...ACT, destructive: false },
  params: [
    ...LIVE,
    ...targetParams(),
    {
      name: "direction",
      type: "enum",
      choices: ["up", "down", "left", "right"],
      doc: "direction",
    },
    { name: "amount", type: "int", min: 1, max: MAX_SCROLL_STEPS, doc: "steps (default 3)" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("scroll", target);
    if (args.amount !== undefined && args.direction === undefined) {
      throw new DesktopError("INVALID_ARGS", "amount needs direction", {
        suggestion: "Pass direction up|down|left|right",
      });
    }
    if (args.direction === undefined && target.point) {
      throw new DesktopError("INVALID_ARGS", "scrolling a point needs a direction", {
        suggestion: "Pass direction (and amount), or target an element to scroll it into view",
      });
    }
    return act(ctx, "scroll", args, target, {
      kind: "scroll",
      ...(args.direction !== undefined ? { direction: args.direction } : {}),
      ...(args.direction !== undefined ? { amount: args.amount ?? 3 } : {}),
    });
  },
  render: renderAct,
  data: actData,
});
