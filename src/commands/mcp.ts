/**
 * `desktop mcp`: the tools of the CLI as an MCP server on stdio.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DEFAULT_TIMEOUT_MS } from "../desktop.ts";
import { createMemoryRefStore, validateSession } from "../state/ref_store.ts";
import { intOption, openDesktopFromOptions, runCommand } from "./_shared.ts";

/**
 * The `mcp` command.
 *
 * @returns the commander command
 */
export function mcpCommand(): CommandUnknownOpts {
  return new Command("mcp")
    .description(
      "Serve the desktop tools (list_apps, read, find, click, type, observe_changes...) " +
        "as an MCP server on stdin/stdout",
    )
    .option("--from <file>", "serve a saved snapshot instead of the live desktop (read-only)")
    .option(
      "--timeout <ms>",
      "deadline per operation in ms",
      intOption("--timeout"),
      DEFAULT_TIMEOUT_MS,
    )
    .option(
      "--session <name>",
      "share the ids of this named session with the CLI (default: a private session " +
        "per connection)",
    )
    .addHelpText(
      "after",
      `
Each connection has its own session: ids from its reads are its own, and no
CLI command or other connection changes them (unless --session names a shared one).
stdout carries the protocol; errors before the server starts go to stderr as JSON.

Client configuration example:
  {"mcpServers": {"desktop": {"command": "desktop", "args": ["mcp"]}}}

Examples:
  $ desktop mcp
  $ desktop mcp --from tests/fixtures/browser_form.json`,
    )
    .action(runCommand(async (opts: { from?: string; timeout?: number; session?: string }) => {
      // Loaded here: the MCP SDK is most of the module graph, and no other command needs it.
      const { serveStdio } = await import("../mcp/server.ts");
      // stdio serves one connection: a store in memory is that connection's own session.
      const session = opts.session === undefined ? undefined : validateSession(opts.session);
      const desktop = await openDesktopFromOptions(
        { from: opts.from, timeout: opts.timeout, session },
        session === undefined ? createMemoryRefStore() : undefined,
      );
      await serveStdio(desktop);
    }));
}
