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
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  PingRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { OPS, SHARED_DOC } from "../ops/mod.ts";
import { Cursors } from "./cursors.ts";
import { createMemoryRefStore, stateDir } from "../state/ref_store.ts";
import { type Executor, inProcessExecutor, processExecutor, workerCommand } from "./executor.ts";
import { defaultOutputDir, OutputDir } from "./output_dir.ts";
import { callTool, toolList } from "./tools.ts";
import { LineTransport, type LineTransportOptions } from "./transport.ts";

/** Name the server reports in the MCP handshake. */
export const SERVER_NAME = "desktop";

/** What the server tells the agent once, at `initialize`. */
export const INSTRUCTIONS = "Accessibility-tree access to desktop apps. read (or find) once; " +
  "every element has a stable ref such as form/email; act (click, type, set_value...) by that " +
  "ref, or by the id of the last read. A line prints [id|ref], or [id] alone when the ref is " +
  "the label's slug ([15] chk \"Remember me\": remember-me; a row's: its first text's) or, " +
  "with no label, the role. Use " +
  "observe_changes or wait to see effects instead of re-reading. Errors carry a code " +
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
  /** The only folder tools write files in (default: a new one, see {@link defaultOutputDir}). */
  outputDir?: string;
  /** Most worker processes at once (default: the executor's). */
  maxWorkers?: number;
}

/** JSON-RPC's code for a request whose params do not fit its method. */
export const INVALID_PARAMS = -32602;

/** The requests the server answers, by method: their params are checked before the SDK's. */
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
} as const;

/**
 * Why a request's params do not fit its method, in one short line, or
 * undefined when they fit (or the method is not one the server answers: the
 * SDK says so).
 *
 * @param message a JSON-RPC message
 * @returns the reason, at most 200 characters
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramsProblem } from "./server.ts";
 * const call = { jsonrpc: "2.0" as const, id: 1, method: "tools/call" };
 * assert.match(
 *   paramsProblem({ ...call, params: { name: "read", arguments: [1] } })!,
 *   /^params\.arguments: .*record/,
 * );
 * assert.equal(paramsProblem({ ...call, params: { name: "read", arguments: {} } }), undefined);
 * ```
 */
export function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || !("id" in message)) return undefined;
  const schema = REQUEST_SCHEMAS[message.method as keyof typeof REQUEST_SCHEMAS];
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  const text = `${where}${issue?.message ?? "invalid"}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * Makes a transport answer a request whose params do not fit its method
 * with -32602 (invalid params) and a one-line reason, before the SDK sees
 * it: the SDK parses params in its dispatcher and answers -32603 (internal
 * error) with the whole validation dump.
 *
 * @param transport a transport the server is connected to
 */
function checkParams(transport: Transport): void {
  const inner = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const problem = paramsProblem(message);
    if (problem === undefined || !("id" in message)) return inner?.(message, extra);
    void transport.send({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: INVALID_PARAMS, message: `invalid params: ${problem}` },
    }).catch(() => {});
  };
}

/**
 * Creates the server (not yet connected).
 *
 * @param opts version, snapshot file, executor, output folder
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
        const { connect } = await import("../connect.ts");
        return await connect({
          from: opts.from,
          timeoutMs,
          persistRefs: true,
          ...(memory ? { store: memory } : { session }),
        });
      })
      : processExecutor(
        workerCommand(session),
        opts.maxWorkers !== undefined ? { maxWorkers: opts.maxWorkers } : {},
      ));
  const cursors = new Cursors(executor, OPS.observe);
  const outputs = new OutputDir(opts.outputDir ?? defaultOutputDir());
  const server = new Server(
    { name: SERVER_NAME, version: opts.version ?? "0.1.0" },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    checkParams(transport);
  };
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
      outputs,
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
