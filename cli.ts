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

// Only what a read answered by the background process needs is imported here: the command
// tree and everything under it load on demand (src/commands/program.ts).
import config from "./deno.json" with { type: "json" };
import { daemonChoice, runThroughDaemon } from "./src/daemon/client.ts";
import { writeAllSync } from "./src/io/write_all.ts";

/** The version `--version` prints. */
export const VERSION: string = config.version;

const writeOut = (text: string) => void writeAllSync(Deno.stdout, text);
const writeErr = (text: string) => void writeAllSync(Deno.stderr, text);

/** Set in the background process itself: the command lines it runs never go to a daemon. */
let serving = false;

/**
 * Set once a command line was sent to the background process: the deadline of that exchange
 * cannot be cleared ({@link runThroughDaemon}), so the process ends by `Deno.exit`.
 */
let askedDaemon = false;

/**
 * A module's address as an expression: Deno loads every module a literal
 * `import("...")` names before the script starts (the whole command tree,
 * some 300 modules, about 25 ms to load and as much to tear down), which a
 * read answered by the background process never runs.
 */
function lazily(path: string): string {
  return new URL(path, import.meta.url).href;
}

/** A variable of the environment, or undefined (also without --allow-env). */
function envVar(k: string): string | undefined {
  try {
    return Deno.env.get(k);
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI with `args` (without the program name) and sets `Deno.exitCode`.
 *
 * @param args command-line arguments
 */
export async function main(args: string[]): Promise<void> {
  const choice = daemonChoice(args, envVar);
  args = choice.argv;
  if (choice.use && !serving) {
    askedDaemon = true;
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
    const { daemonAction }: typeof import("./src/daemon/command.ts") = await import(
      lazily("./src/daemon/command.ts")
    );
    return await daemonAction(args[1], main);
  }
  const { runProgram }: typeof import("./src/commands/program.ts") = await import(
    lazily("./src/commands/program.ts")
  );
  await runProgram(args);
}

if (import.meta.main) {
  await main(Deno.args);
  // Output is written synchronously: nothing is lost.
  if (askedDaemon) Deno.exit(Deno.exitCode);
}
