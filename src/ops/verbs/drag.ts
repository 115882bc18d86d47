/**
 * The `drag` verb: from an element or point to another.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Element, Point } from "../../model/element.ts";
import {
  requireTarget,
  type ScopeArgs,
  type TargetArgs,
  targetParams,
  toScope,
  toTarget,
} from "../params.ts";
import { type ActReport, actReport } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import {
  ACT,
  ACT_FORMAT,
  ACT_OUT,
  type ActArgs,
  actData,
  actOptions,
  BOUNDS_CHANGES,
  DIFF,
  LIVE,
  renderAct,
} from "./_shared.ts";

/** Arguments of `drag`. */
export interface DragArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Destination element ref. */
  to_ref?: string;
  /** Destination element id. */
  to_id?: number;
  /** Destination x. */
  to_x?: number;
  /** Destination y. */
  to_y?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

/**
 * The centre of an element's bounds.
 *
 * @param el the element
 * @returns the point
 * @throws DesktopError ACTION_FAILED when the element has no bounds
 */
export function centreOf(el: Element): Point {
  if (!el.b) {
    throw new DesktopError("ACTION_FAILED", `${el.ref ?? el.r} has no bounds to drag to`, {
      suggestion: "Drag to a point with to_x/to_y",
    });
  }
  return { x: Math.round(el.b[0] + el.b[2] / 2), y: Math.round(el.b[1] + el.b[3] / 2) };
}

/** The `drag` operation. */
export const drag: Op<DragArgs, ActReport> = defineOp<DragArgs, ActReport>({
  name: "drag",
  doc: "Drag from an element or point (the target) to to_ref, to_id or to_x/to_y.",
  examples: [
    "desktop drag --app Files --ref files/report-pdf --to-ref sidebar/trash",
    "desktop drag --app Files --id 12 --to-x 900 --to-y 300",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    { name: "to_ref", type: "string", doc: "destination ref" },
    { name: "to_id", type: "int", min: 0, doc: "destination id" },
    { name: "to_x", type: "int", min: -1e9, doc: "destination x" },
    { name: "to_y", type: "int", min: -1e9, doc: "destination y" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  async run(ctx, args) {
    const source = toTarget(args);
    requireTarget("drag", source);
    const dests = [
      args.to_ref !== undefined,
      args.to_id !== undefined,
      args.to_x !== undefined || args.to_y !== undefined,
    ].filter(Boolean).length;
    if (dests !== 1 || (args.to_x === undefined) !== (args.to_y === undefined)) {
      throw new DesktopError("INVALID_ARGS", "drag needs exactly one destination", {
        suggestion: "Pass to_ref, to_id, or both to_x and to_y",
      });
    }
    const desktop = await ctx.desktop();
    const to: Point = args.to_x !== undefined && args.to_y !== undefined
      ? { x: args.to_x, y: args.to_y }
      : centreOf(
        await desktop.resolve(
          toScope(args),
          args.to_ref !== undefined ? { ref: args.to_ref } : { id: args.to_id },
        ),
      );
    return actReport(
      "drag",
      await desktop.act(
        toScope(args),
        source,
        { kind: "drag", to },
        actOptions(ctx, args),
      ),
    );
  },
  render: renderAct,
  data: actData,
});
