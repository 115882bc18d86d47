/**
 * The MCP server: the table of operations (src/ops) as MCP tools on stdio,
 * with deadlines that hold on hung apps, bounded requests, and observe
 * cursors.
 *
 * @module
 */

export * from "./server.ts";
export * from "./tools.ts";
export * from "./transport.ts";
export * from "./executor.ts";
export * from "./cursors.ts";
