/**
 * The command tree of the `desktop` CLI (commander): one command per
 * operation of the table, and `mcp`; and running a command line through it,
 * with every failure printed as one JSON error. cli.ts loads this module
 * only for a command that does not go to the background process, so that a
 * read answered there starts nothing of it.
 *
 * @module
 */

import { Command, CommanderError, type CommandUnknownOpts } from "commander";
import config from "../../deno.json" with { type: "json" };
import { DesktopError } from "../errors.ts";
import { writeAllSync } from "../io/write_all.ts";
import { printError } from "./_shared.ts";
import { allOps, nameOn } from "../ops/mod.ts";
import { addOpCommands } from "./_generate.ts";
import { mcpCommand } from "./mcp.ts";

/**
 * Builds the command tree: one command per operation of the table, and
 * `mcp`; or, given the verb of a command line, that verb's command alone
 * (a read answered by the background process builds one command, not the
 * whole tree). An unknown verb gets the whole tree, whose errors name the
 * commands there are.
 *
 * @param verb the command line's first word, when it is to be run
 * @returns the program
 */
export function buildProgram(verb?: string): CommandUnknownOpts {
  const program = new Command("desktop")
    .description(
      "Eyes and hands on native app UIs through the accessibility tree: read elements with " +
        "stable refs, act on them, watch them change",
    )
    .version(config.version, "-V, --version", "print the version")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop list
  $ desktop read --app Chromium --interactive
  $ desktop click --app Chromium --ref form/submit
  $ desktop type --app Chromium --ref form/email --text "ada@example.com"
  $ desktop read --from tests/fixtures/browser_form.json
  $ desktop daemon status              # the background process reads reuse

A read goes through this desktop's background process when one runs (DESKTOP_DAEMON=1 starts
one on demand); --no-daemon or DESKTOP_NO_DAEMON=1 reads in this process.

Errors are one JSON object on stderr: {"error":true,"code":"...","message":"...","suggestion":"..."}`,
    );
  const ops = allOps();
  const own = verb === undefined
    ? []
    : ops.filter((op) => nameOn(op, "cli").split(" ")[0] === verb);
  if (own.length > 0) addOpCommands(program, own);
  else {
    addOpCommands(program, ops);
    program.addCommand(mcpCommand());
  }
  routeErrors(program);
  return program as unknown as CommandUnknownOpts;
}

/** Makes commander throw instead of exiting, and stay quiet: errors are printed as JSON. */
function routeErrors(cmd: CommandUnknownOpts): void {
  cmd.exitOverride().configureOutput({ outputError: () => {}, writeOut, writeErr });
  for (const sub of cmd.commands) routeErrors(sub);
}

const writeOut = (text: string) => void writeAllSync(Deno.stdout, text);
const writeErr = (text: string) => void writeAllSync(Deno.stderr, text);

/** Commander codes that are not errors (help and version were printed). */
const NOT_ERRORS = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

/**
 * Runs one command line through the command tree and sets `Deno.exitCode`.
 *
 * @param args command-line arguments (without the program name)
 */
export async function runProgram(args: string[]): Promise<void> {
  const program = buildProgram(args[0]);
  if (args.length === 0) {
    program.outputHelp();
    return;
  }
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (NOT_ERRORS.has(err.code)) {
        Deno.exitCode = err.exitCode;
        return;
      }
      const command = args.find((a) => !a.startsWith("-")) ?? "";
      printError(
        new DesktopError("INVALID_ARGS", err.message.replace(/^error:\s*/, ""), {
          suggestion: `Run \`desktop ${command ? `${command} ` : ""}--help\` for the options`,
          details: { reason: err.code.replace(/^commander\./, "") },
        }),
      );
      return;
    }
    printError(err);
  }
}
