/**
 * `desktop scroll`: scroll an element or point, or bring an element into view.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { ScrollDirection } from "../platform/provider.ts";
import { actAndPrint } from "./_act.ts";
import {
  addActFormatOption,
  addScopeOptions,
  addTargetOptions,
  choiceOption,
  hasTarget,
  intOption,
  runCommand,
  targetFromOptions,
} from "./_shared.ts";

/**
 * The `scroll` command.
 *
 * @returns the commander command
 */
export function scrollCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("scroll").description(
      "Scroll by --amount steps in --direction, or without --amount bring the element into view",
    ),
  )))
    .option(
      "--direction <dir>",
      "up, down, left or right",
      choiceOption<ScrollDirection>("--direction", ["up", "down", "left", "right"]),
    )
    .option("--amount <n>", "number of scroll steps", intOption("--amount", 1))
    .addHelpText(
      "after",
      `
Examples:
  $ desktop scroll --app Chromium --ref invoices/invoice-2024-01/delete   # into view
  $ desktop scroll --app Chromium --ref invoices --direction down --amount 5
  $ desktop scroll --x 640 --y 400 --direction up --amount 3`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      if (!hasTarget(target)) {
        throw new DesktopError("INVALID_ARGS", "scroll needs a target", {
          suggestion: "Pass --ref, --id, --text or --x/--y",
        });
      }
      if (opts.amount !== undefined && opts.direction === undefined) {
        throw new DesktopError("INVALID_ARGS", "--amount needs --direction", {
          suggestion: "Pass --direction up|down|left|right",
        });
      }
      if (opts.amount === undefined && target.point) {
        throw new DesktopError("INVALID_ARGS", "scrolling a point needs --direction and --amount", {
          suggestion: "Pass --direction and --amount, or target an element to scroll it into view",
        });
      }
      await actAndPrint("scroll", opts, target, {
        kind: "scroll",
        ...(opts.direction !== undefined ? { direction: opts.direction } : {}),
        ...(opts.amount !== undefined ? { amount: opts.amount } : {}),
      });
    }));
}
