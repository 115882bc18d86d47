/**
 * `desktop click`: press an element (its accessible action first, else a
 * synthesized click at its centre) or click a screen point.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { MouseButton } from "../platform/provider.ts";
import { actAndPrint } from "./_act.ts";
import {
  addActFormatOption,
  addScopeOptions,
  addTargetOptions,
  choiceOption,
  hasTarget,
  runCommand,
  targetFromOptions,
} from "./_shared.ts";

/**
 * The `click` command.
 *
 * @returns the commander command
 */
export function clickCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("click").description(
      "Click an element (accessible press action first, else a real click) or a screen point",
    ),
  )))
    .option(
      "--button <button>",
      "left, right or middle",
      choiceOption<MouseButton>("--button", ["left", "right", "middle"]),
      "left" as MouseButton,
    )
    .option("--double", "double-click")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop click --app Chromium --ref form/submit
  $ desktop click --app Chromium --ref submit              # unique suffix
  $ desktop click --app Chromium --text "Delete" --roles btn --exact
  $ desktop click --app Chromium --id 42                   # id from the last read
  $ desktop click --x 640 --y 400 --button right`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      if (!hasTarget(target)) {
        throw new DesktopError("INVALID_ARGS", "click needs a target", {
          suggestion: "Pass --ref, --id, --text or --x/--y",
        });
      }
      await actAndPrint("click", opts, target, {
        kind: "click",
        button: opts.button,
        count: opts.double ? 2 : 1,
      });
    }));
}
