/**
 * MCP tools beyond the accessibility tree: screenshots (as image content),
 * with the same names and parameters as the CLI commands and library methods.
 *
 * @module
 */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { encodeBase64 } from "../output/base64.ts";
import { scopeShape, toScope, toTarget } from "./params.ts";
import { guard, type ToolResult } from "./result.ts";
import type { ToolContext } from "./tools.ts";

/** Registers one tool with its zod shape, every throw turned into an error result. */
function addTool<S extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  description: string,
  shape: S,
  run: (args: z.infer<z.ZodObject<S>>) => Promise<ToolResult> | ToolResult,
): void {
  server.registerTool(
    name,
    { description, inputSchema: shape },
    (args: z.infer<z.ZodObject<S>>) => guard(() => run(args)),
  );
}

/**
 * Registers the screenshot tool (and the other system tools) on a server.
 *
 * @param server the MCP server
 * @param ctx the session
 */
export function registerSystemTools(server: McpServer, ctx: ToolContext): void {
  const { desktop } = ctx;

  addTool(
    server,
    "screenshot",
    "Take a PNG screenshot of an app's window (app/window), of one element (ref/id/text) or " +
      "of the whole screen. Use it when the tree is thin or ambiguous (canvas, images, custom " +
      "widgets) or to check what the user sees. With marks, each interactive element is outlined " +
      "and labelled `<id> <ref>`: act on what you see with that ref (or id). scale (e.g. 0.5) " +
      "keeps the image small.",
    {
      ...scopeShape,
      ref: z.string().optional().describe("Capture only this element (ref from read/find)"),
      id: z.number().int().positive().optional().describe("Capture only this element (id)"),
      text: z.string().optional().describe("Capture only the element with this text"),
      scale: z.number().positive().max(1).optional().describe("Shrink by this factor, e.g. 0.5"),
      marks: z.boolean().optional().describe("Outline interactive elements, label id and ref"),
      out: z.string().optional().describe("Also write the PNG to this file"),
    },
    async (args) => {
      const named = args.ref !== undefined || args.id !== undefined || args.text !== undefined;
      const shot = await desktop.screenshot(toScope(args), {
        ...(named ? { target: toTarget(args) } : {}),
        ...(args.scale !== undefined ? { scale: args.scale } : {}),
        ...(args.marks ? { marks: true } : {}),
      });
      if (args.out) await Deno.writeFile(args.out, shot.png);
      const legend = {
        width: shot.width,
        height: shot.height,
        of: shot.of,
        region: shot.region,
        scale: shot.scale,
        ...(args.out ? { path: args.out } : {}),
        ...(shot.marks.length
          ? { marks: shot.marks.map((m) => ({ i: m.i, ref: m.ref, r: m.r, t: m.t })) }
          : {}),
      };
      return {
        content: [
          { type: "image", data: encodeBase64(shot.png), mimeType: "image/png" },
          { type: "text", text: JSON.stringify(legend) },
        ],
      };
    },
  );
}
