/**
 * `desktop mcp`: the tools of the CLI as an MCP server on stdio.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DEFAULT_TIMEOUT_MS } from "../desktop.ts";
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
    .addHelpText(
      "after",
      `
stdout carries the protocol; errors before the server starts go to stderr as JSON.

Client configuration example:
  {"mcpServers": {"desktop": {"command": "desktop", "args": ["mcp"]}}}

Examples:
  $ desktop mcp
  $ desktop mcp --from tests/fixtures/browser_form.json`,
    )
    .action(runCommand(async (opts: { from?: string; timeout?: number }) => {
      // Loaded here: the MCP SDK is most of the module graph, and no other command needs it.
      const { serveStdio } = await import("../mcp/server.ts");
      const desktop = await openDesktopFromOptions({ from: opts.from, timeout: opts.timeout });
      await serveStdio(desktop);
    }));
}
