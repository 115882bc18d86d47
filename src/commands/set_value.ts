/**
 * `desktop set-value --value V`: set an element's value directly.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import { actAndPrint } from "./_act.ts";
import {
  addActFormatOption,
  addScopeOptions,
  addTargetOptions,
  hasTarget,
  runCommand,
  targetFromOptions,
} from "./_shared.ts";

/**
 * The `set-value` command.
 *
 * @returns the commander command
 */
export function setValueCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("set-value").description(
      "Set an element's value: text, a number (sliders), true/false (check boxes) or a selection",
    ),
  )))
    .requiredOption("--value <value>", "the new value")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop set-value --app Chromium --ref form/email --value "ada@example.com"
  $ desktop set-value --app Chromium --ref form/subscribe --value true`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      if (!hasTarget(target) || target.point) {
        throw new DesktopError("INVALID_ARGS", "set-value needs an element target", {
          suggestion: "Pass --ref, --id or --text",
        });
      }
      await actAndPrint("set-value", opts, target, { kind: "set-value", value: opts.value });
    }));
}
