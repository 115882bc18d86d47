/**
 * The `click` verb: press an element or a point.
 *
 * @module
 */

import type { MouseButton } from "../../platform/provider.ts";
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

/** Arguments of `click`. */
export interface ClickArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Mouse button. */
  button?: MouseButton;
  /** Double-click. */
  double?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `click` operation. */
export const click: Op<ClickArgs, ActReport> = defineOp<ClickArgs, ActReport>({
  name: "click",
  doc: "Click an element (its press action, else a real click) or a point.",
  examples: [
    "desktop click --app Chromium --ref form/submit",
    "desktop click --app Chromium --ref submit              # unique suffix",
    'desktop click --app Chromium --text "Delete" --roles btn --exact',
    "desktop click --app Chromium --id 42                   # id from the last read",
    "desktop click --x 640 --y 400 --button right",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    {
      name: "button",
      type: "enum",
      choices: ["left", "right", "middle"],
      default: "left",
      doc: "button",
    },
    { name: "double", type: "boolean", doc: "double-click" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("click", target);
    return act(ctx, "click", args, target, {
      kind: "click",
      button: args.button ?? "left",
      count: args.double ? 2 : 1,
    });
  },
  render: renderAct,
  data: actData,
});
