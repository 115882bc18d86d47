/**
 * `desktop drag`: drag from an element (or point) to another element or point.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import type { Target } from "../desktop.ts";
import { DesktopError } from "../errors.ts";
import type { Element, Point } from "../model/element.ts";
import {
  addActFormatOption,
  addScopeOptions,
  addTargetOptions,
  formatActResult,
  hasTarget,
  intOption,
  runCommand,
  targetFromOptions,
  withDesktop,
} from "./_shared.ts";

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
      suggestion: "Drag to a point with --to-x/--to-y",
    });
  }
  return { x: Math.round(el.b[0] + el.b[2] / 2), y: Math.round(el.b[1] + el.b[3] / 2) };
}

/**
 * The `drag` command.
 *
 * @returns the commander command
 */
export function dragCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("drag").description(
      "Drag from an element (--from-ref/--from-id, or any target option) to an element or point",
    ),
  )))
    .option("--from-ref <ref>", "source element ref")
    .option("--from-id <n>", "source element id from the last read", intOption("--from-id"))
    .option("--to-ref <ref>", "destination element ref (dropped on its centre)")
    .option("--to-id <n>", "destination element id from the last read", intOption("--to-id"))
    .option("--to-x <px>", "destination screen x", intOption("--to-x", -1e9))
    .option("--to-y <px>", "destination screen y", intOption("--to-y", -1e9))
    .addHelpText(
      "after",
      `
Examples:
  $ desktop drag --app Files --from-ref files/report-pdf --to-ref sidebar/trash
  $ desktop drag --app Files --from-id 12 --to-x 900 --to-y 300`,
    )
    .action(runCommand(async (opts) => {
      const source: Target = targetFromOptions({
        ...opts,
        ref: opts.fromRef ?? opts.ref,
        id: opts.fromId ?? opts.id,
      });
      const sourceFlags = [opts.fromRef, opts.fromId, opts.ref, opts.id].filter((x) =>
        x !== undefined
      );
      if (sourceFlags.length > 1 || !hasTarget(source)) {
        throw new DesktopError("INVALID_ARGS", "drag needs exactly one source", {
          suggestion: "Pass one of --from-ref, --from-id, --ref, --id, --text, --x/--y",
        });
      }
      const destFlags = [
        opts.toRef !== undefined,
        opts.toId !== undefined,
        opts.toX !== undefined || opts.toY !== undefined,
      ].filter(Boolean).length;
      if (destFlags !== 1 || (opts.toX === undefined) !== (opts.toY === undefined)) {
        throw new DesktopError("INVALID_ARGS", "drag needs exactly one destination", {
          suggestion: "Pass --to-ref, --to-id, or both --to-x and --to-y",
        });
      }
      await withDesktop(opts, async (desktop, scope) => {
        const to: Point = opts.toX !== undefined && opts.toY !== undefined
          ? { x: opts.toX, y: opts.toY }
          : centreOf(
            await desktop.resolve(
              scope,
              opts.toRef !== undefined ? { ref: opts.toRef } : { id: opts.toId },
            ),
          );
        const result = await desktop.act(scope, source, { kind: "drag", to });
        console.log(formatActResult("drag", result, opts.format, opts.diff ?? false));
      });
    }));
}
