/**
 * `desktop action --name N`: perform a named accessibility action.
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
 * The `action` command.
 *
 * @returns the commander command
 */
export function actionCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("action").description(
      "Perform a named accessibility action (`press`, `activate`, `expand`...; read shows them)",
    ),
  )))
    .requiredOption("--name <action>", "the action name")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop action --app Chromium --ref toolbar/back --name press
  $ desktop action --app Files --text Documents --roles treeitem --name expand`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      if (!hasTarget(target) || target.point) {
        throw new DesktopError("INVALID_ARGS", "action needs an element target", {
          suggestion: "Pass --ref, --id or --text",
        });
      }
      await actAndPrint("action", opts, target, { kind: "action", name: opts.name });
    }));
}
