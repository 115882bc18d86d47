/**
 * The MCP server: the tools of {@link registerTools} over one Desktop
 * session, served on stdio.
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Desktop } from "../desktop.ts";
import { loadSnapshotTree, registerTools, type SnapshotLoader } from "./tools.ts";
import { registerSystemTools } from "./tools_system.ts";

/** Name the server reports in the MCP handshake. */
export const SERVER_NAME = "desktop";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Version reported in the handshake. */
  version?: string;
  /** Loads snapshot files for the diff tool (default: through the replay backend). */
  loadSnapshot?: SnapshotLoader;
}

/**
 * Creates an MCP server whose tools act through a Desktop session.
 *
 * @param desktop the session (live or replay)
 * @param opts version and snapshot loader
 * @returns the server, not yet connected
 * @example
 * ```ts ignore
 * import { createMcpServer } from "./server.ts";
 * const server = createMcpServer(desktop);
 * await server.connect(transport);
 * ```
 */
export function createMcpServer(desktop: Desktop, opts: McpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: opts.version ?? "0.1.0" },
    {
      instructions: "Accessibility-tree access to desktop apps. Call read (or find) once; " +
        "every element has a stable ref such as form/email; act with click/type/set_value " +
        "by that ref; use observe_changes or wait to see the effect instead of re-reading. " +
        "Errors carry a code and candidates to retry with.",
    },
  );
  const ctx = { desktop, loadSnapshot: opts.loadSnapshot ?? loadSnapshotTree };
  registerTools(server, ctx);
  registerSystemTools(server, ctx);
  return server;
}

/**
 * Serves the tools on stdin/stdout until the client disconnects. Nothing
 * else may write to stdout meanwhile: it is the protocol channel.
 *
 * @param desktop the session (closed when the client goes away)
 * @param opts version and snapshot loader
 * @returns a promise that settles when the connection closes
 */
export async function serveStdio(desktop: Desktop, opts: McpServerOptions = {}): Promise<void> {
  const server = createMcpServer(desktop, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  // stdin reaching its end means the client is gone.
  const { stdin } = await import("node:process");
  stdin.once("end", () => void server.close());
  await closed;
  desktop.close();
}
