/**
 * `desktop clipboard get` and `desktop clipboard set TEXT`: the system
 * clipboard's text.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DEFAULT_TIMEOUT_MS } from "../desktop.ts";
import { intOption, runCommand, withDesktop } from "./_shared.ts";

/**
 * The `clipboard` command with its `get` and `set` subcommands.
 *
 * @returns the commander command
 */
export function clipboardCommand(): CommandUnknownOpts {
  const get = new Command("get")
    .description("Print the clipboard's text (nothing when it is empty)")
    .option("--timeout <ms>", "deadline in ms", intOption("--timeout", 1), DEFAULT_TIMEOUT_MS)
    .action(runCommand(async (opts: { timeout: number }) => {
      await withDesktop({ timeout: opts.timeout }, async (desktop) => {
        const text = await desktop.clipboardGet();
        await Deno.stdout.write(new TextEncoder().encode(text));
      });
    }));
  const set = new Command("set")
    .description("Put text on the clipboard; it stays there after this command exits")
    .argument("<text>", "the text")
    .option("--timeout <ms>", "deadline in ms", intOption("--timeout", 1), DEFAULT_TIMEOUT_MS)
    .action(runCommand(async (text: string, opts: { timeout: number }) => {
      await withDesktop({ timeout: opts.timeout }, async (desktop) => {
        await desktop.clipboardSet(text);
        console.log(`ok clipboard set (${[...text].length} characters)`);
      });
    }));
  return new Command("clipboard")
    .description("Read or set the system clipboard's text")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop clipboard set "ada@example.com"
  $ desktop clipboard get`,
    )
    .addCommand(get)
    .addCommand(set) as unknown as CommandUnknownOpts;
}
