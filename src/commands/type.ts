/**
 * `desktop type`: type text (or press a key) into an element, by default the
 * focused one.
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
 * The `type` command. Its `--text` is the text to type; text targeting uses `--target`.
 *
 * @returns the commander command
 */
export function typeCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(
    addScopeOptions(
      new Command("type").description(
        "Type text (--text) or press a key combo (--key) into an element; default: the focused element",
      ),
    ),
    "--target",
  ))
    .option("--text <text>", "the text to type")
    .option("--key <combo>", "a key combo to press instead (`Return`, `ctrl+a`)")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop type --app Chromium --ref form/email --text "ada@example.com"
  $ desktop type --app Chromium --target "Full Name" --text "Ada Lovelace"
  $ desktop type --app Chromium --ref form/email --key ctrl+a
  $ desktop type --app Chromium --text "typed into the focused field"`,
    )
    .action(runCommand(async (opts) => {
      if ((opts.text === undefined) === (opts.key === undefined)) {
        throw new DesktopError("INVALID_ARGS", "type takes exactly one of --text and --key", {
          suggestion: 'Pass --text "words" or --key Return',
        });
      }
      // The text target arrives as --target (see addTargetOptions).
      const textTarget = (opts as { target?: string }).target;
      const target = targetFromOptions({ ...opts, text: textTarget });
      const action = opts.key !== undefined
        ? { kind: "key" as const, combo: opts.key }
        : { kind: "type" as const, text: opts.text! };
      await actAndPrint("type", opts, target, action);
    }));
}
