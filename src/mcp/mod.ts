/**
 * The MCP server: the CLI's commands as MCP tools over a Desktop session.
 *
 * @module
 */

export * from "./server.ts";
export * from "./tools.ts";
export * from "./params.ts";
export * from "./result.ts";
