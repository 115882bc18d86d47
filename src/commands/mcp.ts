/**
 * `desktop mcp`: the tools of the CLI as an MCP server on stdio.
 *
 * @module
 */

import { Command, type CommandUnknownOpts, Option } from "commander";
import { validateSession } from "../state/ref_store.ts";
import { intOption, runCommand } from "./_shared.ts";
import config from "../../deno.json" with { type: "json" };
import { MAX_WORKERS } from "../mcp/executor.ts";

/** The options of `mcp`. */
interface McpOptions {
  from?: string;
  session?: string;
  outputDir?: string;
  maxRequestBytes?: number;
  worker?: boolean;
}

/**
 * The `mcp` command.
 *
 * @returns the commander command
 */
export function mcpCommand(): CommandUnknownOpts {
  return new Command("mcp")
    .description(
      "Serve the desktop tools (list, read, find, click, type, observe_changes...) " +
        "as an MCP server on stdin/stdout",
    )
    .option("--from <file>", "serve a saved snapshot instead of the live desktop (read-only)")
    .option(
      "--session <name>",
      "share the ids of this named session with the CLI (default: a private session " +
        "per connection)",
      (v: string) => validateSession(v),
    )
    .option(
      "--output-dir <dir>",
      "the only folder tools write files in (screenshot out, run steps' screenshots); " +
        "default: a new folder under the state directory",
    )
    .option(
      "--max-request-bytes <n>",
      "largest request line accepted (larger ones get a JSON-RPC error)",
      intOption("--max-request-bytes", 1024),
    )
    // The server's own worker processes (see src/mcp/executor.ts).
    .addOption(new Option("--worker").hideHelp())
    .addHelpText(
      "after",
      `
Each connection has its own session: ids from its reads are its own, and no
CLI command or other connection changes them (unless --session names a shared one).
Each call has a timeout parameter (ms, default 10000) that holds even on a hung app.
Calls run in at most ${MAX_WORKERS} worker processes; more calls at once wait for one.
Tools write files only in the output folder, as new files (paths relative to it).
stdout carries the protocol; errors before the server starts go to stderr as JSON.

Client configuration example:
  {"mcpServers": {"desktop": {"command": "desktop", "args": ["mcp"]}}}

Examples:
  $ desktop mcp
  $ desktop mcp --from tests/fixtures/browser_form.json`,
    )
    .action(
      runCommand(async (opts: McpOptions) => {
        if (opts.worker) {
          const { serveWorker } = await import("../mcp/worker.ts");
          await serveWorker(Deno.stdin.readable, async (line) => {
            const bytes = new TextEncoder().encode(line);
            for (let off = 0; off < bytes.length;) {
              off += await Deno.stdout.write(bytes.subarray(off));
            }
          }, { ...(opts.session !== undefined ? { session: opts.session } : {}) });
          Deno.exit(0);
        }
        // Loaded here: the MCP SDK is most of the module graph, and no other command needs it.
        const { serveStdio } = await import("../mcp/server.ts");
        if (opts.from !== undefined) {
          // A bad file is an error before serving, like on every command.
          const { readSnapshotFile } = await import("../platform/replay/snapshot_file.ts");
          await readSnapshotFile(opts.from);
        }
        await serveStdio({
          version: config.version,
          from: opts.from,
          maxLineBytes: opts.maxRequestBytes,
          // Without it each connection gets a private session (see createMcpServer).
          ...(opts.session !== undefined ? { session: opts.session } : {}),
          ...(opts.outputDir !== undefined ? { outputDir: opts.outputDir } : {}),
        });
        // A worker stuck in a native call on a hung app must not keep the process alive.
        Deno.exit(0);
      }),
    );
}
