/**
 * The `find` verb: elements by text, role or ref.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Element } from "../../model/element.ts";
import { withoutChildren } from "../../model/tree.ts";
import {
  requireTarget,
  type ScopeArgs,
  type TargetArgs,
  targetParams,
  toScope,
  toTarget,
} from "../params.ts";
import { foundLines, summary } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, ARR, LIVE, READ } from "./_shared.ts";

const FIND_OUT = { type: "object", properties: { elements: ARR } };

/** Arguments of `find`. */
export interface FindArgs extends ScopeArgs, TargetArgs {
  /** List every text/roles match instead of requiring one. */
  all?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `find`. */
export interface FindResult {
  /** The elements found (without children). */
  elements: Element[];
}

/** The `find` operation. */
export const find: Op<FindArgs, FindResult> = defineOp<FindArgs, FindResult>({
  name: "find",
  doc: "Resolve a target to one element as an action would, or (all) list every text/roles " +
    "match; returns refs.",
  examples: [
    "desktop find --app Chromium --ref submit",
    "desktop find --app Chromium --text Email --roles input",
    "desktop find --app Chromium --text delete --all",
  ],
  hints: READ,
  params: [
    ...LIVE,
    ...targetParams(),
    { name: "all", type: "boolean", doc: "every text/roles match" },
    { ...ACT_FORMAT, doc: "output: agent (one line per element) or json" },
  ],
  output: FIND_OUT,
  async run(ctx, args) {
    const target = toTarget(args);
    const desktop = await ctx.desktop();
    if (args.all) {
      if (target.ref !== undefined || target.id !== undefined || target.point) {
        throw new DesktopError("INVALID_ARGS", "all lists text/roles matches only", {
          suggestion: "Use all with text and/or roles",
        });
      }
      if (target.text === undefined && !target.roles) {
        throw new DesktopError("INVALID_ARGS", "all needs text, roles or both", {
          suggestion: 'Pass text (e.g. "Save") and/or roles (e.g. "btn")',
        });
      }
      // Not a read: the ids printed are the last read's, and it stays the last read.
      const hits = await desktop.find(toScope(args), {
        text: target.text,
        exact: target.exact,
        roles: target.roles,
      });
      if (hits.length === 0) {
        throw new DesktopError("ELEMENT_NOT_FOUND", "no element matches", {
          suggestion: "Loosen text or roles, or read to see the tree",
        });
      }
      return { elements: hits.map(withoutChildren) };
    }
    requireTarget("find", target);
    return { elements: [withoutChildren(await desktop.resolve(toScope(args), target))] };
  },
  render(r, args) {
    return args.format === "json"
      ? JSON.stringify(r.elements.map(summary))
      : foundLines(r.elements);
  },
  data: (r) => ({ elements: r.elements.map(summary) }),
});
