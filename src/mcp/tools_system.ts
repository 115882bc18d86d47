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
import { guard, ok, type ToolResult } from "./result.ts";
import type { WindowOp } from "../platform/provider.ts";
import { DesktopError } from "../errors.ts";
import { loadRunFile } from "../run/run.ts";
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

  addTool(
    server,
    "launch",
    'Start an app by name ("Calculator"), desktop file id (org.gnome.Calculator) or command ' +
      "line, and wait until its window is on the accessibility bus. Returns its name, pid and " +
      "windows: then read it with app set to that name.",
    {
      app: z.string().describe("App name, desktop file id, or a command line"),
      timeout_ms: z.number().int().positive().max(300_000).optional().describe(
        "How long to wait for its window (default 30000)",
      ),
    },
    async (args) =>
      ok(await desktop.launch(args.app, args.timeout_ms ? { timeoutMs: args.timeout_ms } : {})),
  );

  addTool(
    server,
    "quit",
    "Quit an app: its windows are asked to close as their close button does (it may ask to " +
      "save: then read it and answer); force ends the process instead.",
    {
      app: scopeShape.app,
      pid: scopeShape.pid,
      force: z.boolean().optional().describe("End the process instead of asking"),
    },
    async (args) => {
      if (args.app === undefined && args.pid === undefined) {
        throw new DesktopError("INVALID_ARGS", "quit needs app or pid", {
          suggestion: "Name the app to quit",
        });
      }
      const res = await desktop.quit(toScope(args), args.force ? { force: true } : {});
      return ok({ ok: true, app: res.app.name, pid: res.app.pid, via: res.via });
    },
  );

  addTool(
    server,
    "window",
    "Move, resize, raise, minimize, maximize, restore or close an app's window (app, or " +
      "window/window_id for one of several). Several operations apply in this order: restore, " +
      "maximize, move, resize, minimize, raise, close. Returns the window's new box and state.",
    {
      ...scopeShape,
      move: z.object({ x: z.number().int(), y: z.number().int() }).optional().describe(
        "New top-left corner",
      ),
      resize: z.object({ w: z.number().int().positive(), h: z.number().int().positive() })
        .optional().describe("New size"),
      raise: z.boolean().optional().describe("Bring to the front and focus"),
      minimize: z.boolean().optional().describe("Minimize"),
      maximize: z.boolean().optional().describe("Maximize"),
      restore: z.boolean().optional().describe("Undo minimize or maximize"),
      close: z.boolean().optional().describe("Ask the window to close"),
    },
    async (args) => {
      const ops: WindowOp[] = [];
      if (args.restore) ops.push({ kind: "restore" });
      if (args.maximize) ops.push({ kind: "maximize" });
      if (args.move) ops.push({ kind: "move", x: args.move.x, y: args.move.y });
      if (args.resize) ops.push({ kind: "resize", w: args.resize.w, h: args.resize.h });
      if (args.minimize) ops.push({ kind: "minimize" });
      if (args.raise) ops.push({ kind: "raise" });
      if (args.close) ops.push({ kind: "close" });
      const res = await desktop.window(toScope(args), ops);
      return ok({ ok: true, window: res.window, state: res.state });
    },
  );

  addTool(
    server,
    "clipboard_get",
    "Read the system clipboard's text (empty when it holds none), e.g. after the app copied " +
      "something.",
    {},
    async () => ok(await desktop.clipboardGet()),
  );

  addTool(
    server,
    "clipboard_set",
    "Put text on the system clipboard (it stays there), e.g. to paste it into an app with " +
      "key ctrl+v.",
    { text: z.string().describe("The text to copy") },
    async (args) => {
      await desktop.clipboardSet(args.text);
      return ok({ ok: true });
    },
  );

  addTool(
    server,
    "fill",
    "Fill many form fields in one call: fields maps each field's ref (from read) to its new " +
      "value (text, number, true/false for check boxes, an option's label). All refs are " +
      "resolved from one read before anything is set; returns what each field holds afterwards.",
    {
      ...scopeShape,
      fields: z.record(z.string(), z.string()).describe(
        'Ref to value, e.g. {"form/email": "ada@example.com", "form/agree": "true"}',
      ),
    },
    async (args) => {
      const fields = Object.entries(args.fields).map(([ref, value]) => ({
        target: /^#\d+$/.test(ref) ? { id: Number(ref.slice(1)) } : { ref },
        value,
      }));
      const res = await desktop.fill(toScope(args), fields);
      return ok({ ok: res.every((f) => f.ok), fields: res });
    },
  );

  addTool(
    server,
    "run",
    "Run a list of steps by refs, stopping at the first failing step (its number and error " +
      "code are reported). Steps are one-verb objects: click, type, key, action, set-value, " +
      "scroll, focus, drag, fill, wait, expect, screenshot, launch, quit, window, clipboard-set; " +
      'e.g. [{"fill": {"fields": {"form/email": "a@b.c"}}}, {"click": "form/submit"}, ' +
      '{"wait": {"text": "Saved"}}, {"expect": {"ref": "form/email", "value": "a@b.c"}}]. ' +
      "dry_run resolves every target without acting.",
    {
      ...scopeShape,
      steps: z.array(z.record(z.string(), z.unknown())).optional().describe("The steps"),
      file: z.string().optional().describe("Or a JSON/YAML file of steps"),
      dry_run: z.boolean().optional().describe("Resolve every target, act on nothing"),
    },
    async (args) => {
      if ((args.steps === undefined) === (args.file === undefined)) {
        throw new DesktopError("INVALID_ARGS", "run takes steps or file", {
          suggestion: "Pass the steps inline, or the path of a steps file",
        });
      }
      const doc = args.steps ?? await loadRunFile(args.file!);
      const report = await desktop.run(doc, {
        scope: toScope(args),
        ...(args.dry_run ? { dryRun: true } : {}),
      });
      return { ...ok(report), ...(report.ok ? {} : { isError: true }) };
    },
  );
}
