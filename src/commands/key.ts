/**
 * `desktop key <combo>`: press a key combo in an app (to an element when
 * targeted, else to the focused element).
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
  runCommand,
  targetFromOptions,
} from "./_shared.ts";

/**
 * The `key` command.
 *
 * @returns the commander command
 */
export function keyCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("key")
      .description("Press a key combo (`Return`, `ctrl+s`, `shift+Tab`) in an app")
      .argument("<combo>", "keys joined with +, e.g. ctrl+shift+t"),
  )))
    .addHelpText(
      "after",
      `
Examples:
  $ desktop key Return --app Chromium
  $ desktop key ctrl+a --app Chromium --ref form/email
  $ desktop key Escape --app Chromium`,
    )
    .action(runCommand(async (combo, opts) => {
      if (!/^[^\s+]+(\+[^\s+]+)*$/.test(combo)) {
        throw new DesktopError("INVALID_ARGS", `"${combo}" is not a key combo`, {
          suggestion: "Join keys with +, e.g. ctrl+s, shift+Tab, Return",
        });
      }
      await actAndPrint("key", opts, targetFromOptions(opts), { kind: "key", combo });
    }));
}
