/**
 * `desktop focus`: give an element keyboard focus (and raise its window).
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
 * The `focus` command.
 *
 * @returns the commander command
 */
export function focusCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("focus").description("Give an element keyboard focus and raise its window"),
  )))
    .addHelpText(
      "after",
      `
Examples:
  $ desktop focus --app Chromium --ref form/email
  $ desktop focus --app Chromium --text Password --roles input`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      if (!hasTarget(target)) {
        throw new DesktopError("INVALID_ARGS", "focus needs a target", {
          suggestion: "Pass --ref, --id, --text or --x/--y",
        });
      }
      await actAndPrint("focus", opts, target, { kind: "focus" });
    }));
}
