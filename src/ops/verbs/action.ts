/**
 * The `action` verb: an accessibility action by name.
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

/** Arguments of `action`. */
export interface ActionArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** The action's name. */
  name: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** The `action` operation. */
export const action: Op<ActionArgs, ActReport> = defineOp<ActionArgs, ActReport>({
  name: "action",
  doc: "Perform a named action the element lists (press, expand...).",
  examples: ["desktop action --app Chromium --ref toolbar/back --name press"],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    { name: "name", type: "string", required: true, doc: "the action name" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("action", target, true);
    return act(ctx, "action", args, target, { kind: "action", name: args.name });
  },
  render: renderAct,
  data: actData,
});
