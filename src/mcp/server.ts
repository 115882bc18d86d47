/**
 * The MCP server: the operations' tools (tools.ts) served on stdio through
 * the bounded line transport (transport.ts). It starts and lists its tools
 * with no desktop present: sessions open on the first call, whose failure
 * (no accessibility bus) is that call's structured error.
 *
 * @module
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { OPS, SHARED_DOC } from "../ops/mod.ts";
import { Cursors } from "./cursors.ts";
import { createMemoryRefStore, stateDir } from "../state/ref_store.ts";
import { type Executor, inProcessExecutor, processExecutor, workerCommand } from "./executor.ts";
import { callTool, toolList } from "./tools.ts";
import { LineTransport, type LineTransportOptions } from "./transport.ts";

/** Name the server reports in the MCP handshake. */
export const SERVER_NAME = "desktop";

/** What the server tells the agent once, at `initialize`. */
export const INSTRUCTIONS = "Accessibility-tree access to desktop apps. read (or find) once; " +
  "every element has a stable ref such as form/email; act (click, type, set_value...) by that " +
  "ref; use observe_changes or wait to see effects instead of re-reading. Errors carry a code " +
  "and candidates (with refs) to retry with. " + SHARED_DOC;

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Version reported in the handshake. */
  version?: string;
  /** Serve a saved snapshot (in-process) instead of the live desktop (in worker processes). */
  from?: string;
  /** Where calls run (default: by `from`). */
  executor?: Executor;
  /** A named session shared with the CLI (default: a private one for this connection). */
  session?: string;
}

/**
 * Creates the server (not yet connected).
 *
 * @param opts version, snapshot file, executor
 * @returns the server and a function that stops its calls and watches
 * @example
 * ```ts ignore
 * import { createMcpServer } from "./server.ts";
 * const { server } = createMcpServer({ from: "tests/fixtures/mcp_checkout.json" });
 * await server.connect(transport);
 * ```
 */
export function createMcpServer(
  opts: McpServerOptions = {},
): { server: Server; close: () => void } {
  // One connection, one session: ids from its reads are its own unless a shared one is named.
  const privateSession = opts.session === undefined && opts.from === undefined && !opts.executor
    ? `mcp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`
    : undefined;
  const session = opts.session ?? privateSession;
  const memory = opts.session === undefined ? createMemoryRefStore() : undefined;
  const executor = opts.executor ??
    (opts.from !== undefined
      ? inProcessExecutor(async (timeoutMs) => {
        const { connect } = await import("../../mod.ts");
        return await connect({
          from: opts.from,
          timeoutMs,
          persistRefs: true,
          ...(memory ? { store: memory } : { session }),
        });
      })
      : processExecutor(workerCommand(session)));
  const cursors = new Cursors(executor, OPS.observe);
  const server = new Server(
    { name: SERVER_NAME, version: opts.version ?? "0.1.0" },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (
    request: CallToolRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ) => {
    const token = request.params._meta?.progressToken;
    let n = 0;
    const progress = token === undefined ? undefined : (message: string) => {
      void extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: ++n, message },
      }).catch(() => {});
    };
    return callTool(request.params.name, request.params.arguments, {
      executor,
      cursors,
      signal: extra.signal,
      progress,
    });
  });
  return {
    server,
    close: () => {
      cursors.close();
      executor.close();
      if (privateSession) removeSession(privateSession);
    },
  };
}

/**
 * Serves on stdin/stdout until the client goes away. Nothing else may write
 * to stdout meanwhile: it is the protocol channel.
 *
 * @param opts version, snapshot file, line bound
 * @returns when the input ends
 */
export async function serveStdio(
  opts: McpServerOptions & LineTransportOptions = {},
): Promise<void> {
  const { server, close } = createMcpServer(opts);
  const transport = new LineTransport(Deno.stdin.readable, async (bytes) => {
    for (let off = 0; off < bytes.length;) off += await Deno.stdout.write(bytes.subarray(off));
  }, opts);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  close();
}

/** Removes a private session's files when its connection ends. */
function removeSession(name: string): void {
  try {
    const dir = stateDir();
    if (dir) Deno.removeSync(`${dir}/sessions/${name}`, { recursive: true });
  } catch {
    // Never written, or already gone.
  }
}
