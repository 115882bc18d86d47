/**
 * The `desktop` command: read native app UIs through the accessibility tree
 * and act on their elements by stable ref.
 *
 * Every failure prints one JSON object on stderr (`{"error":true,"code":...}`)
 * and exits with 1, or 2 for bad arguments.
 *
 * @example
 * ```sh
 * deno run -A cli.ts read --app Chromium --interactive
 * deno run -A cli.ts click --app Chromium --ref form/submit
 * ```
 *
 * @module
 */

import { Command, CommanderError, type CommandUnknownOpts } from "commander";
import config from "./deno.json" with { type: "json" };
import { DesktopError } from "./src/errors.ts";
import { printError, writeAllSync } from "./src/commands/_shared.ts";
import { allOps } from "./src/ops/mod.ts";
import { addOpCommands } from "./src/commands/_generate.ts";
import { mcpCommand } from "./src/commands/mcp.ts";
import { daemonChoice } from "./src/daemon/client.ts";

/** The version `--version` prints. */
export const VERSION: string = config.version;

/**
 * Builds the whole command tree: one command per operation of the table, and `mcp`.
 *
 * @returns the program
 */
export function buildProgram(): CommandUnknownOpts {
  const program = new Command("desktop")
    .description(
      "Eyes and hands on native app UIs through the accessibility tree: read elements with " +
        "stable refs, act on them, watch them change",
    )
    .version(VERSION, "-V, --version", "print the version")
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
  addOpCommands(program, allOps());
  program.addCommand(mcpCommand());
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

/** Set in the background process itself: the command lines it runs never go to a daemon. */
let serving = false;

/** A variable of the environment, or undefined (also without --allow-env). */
function envVar(k: string): string | undefined {
  try {
    return Deno.env.get(k);
  } catch {
    return undefined;
  }
}

/** Commander codes that are not errors (help and version were printed). */
const NOT_ERRORS = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

/**
 * Runs the CLI with `args` (without the program name) and sets `Deno.exitCode`.
 *
 * @param args command-line arguments
 */
export async function main(args: string[]): Promise<void> {
  const choice = daemonChoice(args, envVar);
  args = choice.argv;
  if (choice.use && !serving) {
    const { runThroughDaemon } = await import("./src/daemon/client.ts");
    const outcome = await runThroughDaemon(choice);
    if ("ran" in outcome) {
      writeOut(outcome.ran.stdout);
      writeErr(outcome.ran.stderr);
      Deno.exitCode = outcome.ran.code;
      return;
    }
    if (outcome.fallback) writeErr(`note: ${outcome.fallback}; reading in this process\n`);
  }
  if (args[0] === "daemon") {
    // Not a verb of the faces: the background process of this desktop.
    serving ||= args[1] === "serve";
    const { daemonAction } = await import("./src/daemon/command.ts");
    return await daemonAction(args[1], main);
  }
  const program = buildProgram();
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

if (import.meta.main) {
  await main(Deno.args);
}
