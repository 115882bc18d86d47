/**
 * The MCP tools: the CLI's commands over one Desktop session. Each
 * description teaches the ref workflow in a line or two, because the
 * description is all an agent reads before calling.
 *
 * @module
 */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ActResult, Desktop, Target } from "../desktop.ts";
import { diffTrees } from "../diff/diff.ts";
import { DesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import { assignIds, windowBoundsOf } from "../model/tree.ts";
import { foldLabels } from "../model/semantics.ts";
import { observe } from "../observe/observe.ts";
import { DEFAULT_MCP_BUDGET, fitBudget, o200kCounter } from "../output/budget.ts";
import { renderChanges, renderElements } from "../output/render.ts";
import type { Action, Scope } from "../platform/provider.ts";
import { assignRefs } from "../refs/generate.ts";
import {
  filterShape,
  scopeShape,
  type TargetArgs,
  targetShape,
  toReadRequest,
  toRoles,
  toScope,
  toTarget,
} from "./params.ts";
import { guard, ok, type ToolResult } from "./result.ts";

/** Loads a saved snapshot's tree (ids and refs assigned), for the diff tool. */
export type SnapshotLoader = (path: string) => Promise<Element>;

/** What the tools need besides the session. */
export interface ToolContext {
  /** The session every tool acts through. */
  desktop: Desktop;
  /** Loads snapshot files for `diff`. */
  loadSnapshot: SnapshotLoader;
}

const WORKFLOW = "Workflow: read once, then act by the ref each element line shows " +
  "(e.g. form/email); refs stay valid while the UI changes. Under a `rows:` header, a row's " +
  "`[40]` cell is element 40 with ref <row ref>/<the header's suffix>. On ELEMENT_NOT_FOUND or " +
  "AMBIGUOUS_TARGET the error lists candidates with refs: retry with one of them.";

const ACT_HINT = "Name the element by ref (preferred), id, text (+roles, exact) or x/y. " +
  "After acting, call observe_changes or wait instead of a full re-read.";

/** The compact view of an element in action and find results. */
function brief(el: Element): Record<string, unknown> {
  return {
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    ...(el.i ? { i: el.i } : {}), // 0: not in the last read, no id to reuse
    r: el.r,
    ...(el.t !== undefined ? { t: el.t } : {}),
    ...(el.v !== undefined ? { v: el.v } : {}),
    ...(el.b !== undefined ? { b: el.b } : {}),
  };
}

/** What an action reports back. */
function actResult(res: ActResult): Record<string, unknown> {
  return {
    ok: true,
    via: res.via,
    ...(res.detail ? { detail: res.detail } : {}),
    ...(res.element ? { element: brief(res.element) } : {}),
  };
}

/** A target when one was given, else the focused element (keys, typing). */
function optionalTarget(args: TargetArgs): Target {
  const any = args.ref !== undefined || args.id !== undefined || args.text !== undefined ||
    args.x !== undefined || args.y !== undefined;
  return any ? toTarget(args) : {};
}

async function act(
  ctx: ToolContext,
  scope: Scope,
  target: Target,
  action: Action,
): Promise<ToolResult> {
  return ok(actResult(await ctx.desktop.act(scope, target, action)));
}

/** What a tool body receives besides its arguments. */
interface ToolExtra {
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
}

/**
 * Registers one tool whose arguments are typed from its zod shape (the SDK's
 * own inference degrades to `any` under Deno's npm type resolution), with
 * every throw turned into an error result.
 */
function addTool<S extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  description: string,
  shape: S,
  run: (args: z.infer<z.ZodObject<S>>, extra: ToolExtra) => Promise<ToolResult> | ToolResult,
): void {
  server.registerTool(
    name,
    { description, inputSchema: shape },
    (args: z.infer<z.ZodObject<S>>, extra: ToolExtra) => guard(() => run(args, extra)),
  );
}

/**
 * Registers every tool on a server.
 *
 * @param server the MCP server
 * @param ctx the session and the snapshot loader
 */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  const { desktop } = ctx;
  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    shape: S,
    run: (args: z.infer<z.ZodObject<S>>, extra: ToolExtra) => Promise<ToolResult> | ToolResult,
  ) => addTool(server, name, description, shape, run);

  tool(
    "list_apps",
    "List running apps with an accessible UI (name, pid). Start here to pick the app to " +
      "pass as `app` to the other tools.",
    {},
    async () => ok(await desktop.listApps()),
  );

  tool(
    "list_windows",
    "List top-level windows (id, title, app, pid), optionally of one app. Pass a window's " +
      "id as window_id to scope other tools to it.",
    { app: scopeShape.app, pid: scopeShape.pid },
    async (args) => ok(await desktop.listWindows(toScope(args))),
  );

  tool(
    "read",
    "Read an app's UI as an accessibility tree. Every element line carries a stable ref to " +
      "act on. " + WORKFLOW + " Narrow big trees with roles, text, scope_ref, interactive " +
      "or max_elements.",
    {
      ...scopeShape,
      ...filterShape,
      format: z.enum(["agent", "yaml", "json"]).optional().describe(
        "Output format: agent (compact text, default), yaml or json",
      ),
      flat: z.boolean().optional().describe("A flat list with landmark paths instead of a tree"),
      bounds: z.boolean().optional().describe(
        "Include the boxes of on-screen elements (default true); false saves tokens",
      ),
      budget: z.number().int().min(0).optional().describe(
        `Agent format: at most about this many tokens (default ${DEFAULT_MCP_BUDGET}; 0: no ` +
          "limit). Over it, the largest repeated regions collapse into summary lines saying " +
          "how to see them (scope_ref)",
      ),
    },
    async (args) => {
      const { snapshot, view } = await desktop.read(toScope(args), toReadRequest(args));
      if (!view.root) {
        return ok(`no element matched the filters (${view.total} elements read)`);
      }
      const text = renderElements(view.root, {
        format: args.format ?? "agent",
        flat: args.flat,
        bounds: args.bounds,
        viewport: windowBoundsOf(snapshot.root, view.root.i),
        refsFrom: snapshot.root,
        shortRefs: true,
        meta: {
          app: snapshot.app.name,
          ...(snapshot.window ? { window: snapshot.window.title } : {}),
          ...(view.truncated ? { truncated: view.truncated } : {}),
        },
      });
      const budget = args.budget ?? DEFAULT_MCP_BUDGET;
      const agent = (args.format ?? "agent") === "agent";
      return ok(agent && budget > 0 ? fitBudget(text, budget, await o200kCounter()) : text);
    },
  );

  tool(
    "find",
    "Find elements by text (label, value, description) and/or roles without printing the " +
      "whole tree. Returns each match's ref, id, role, label and bounds: act on it by ref. " +
      WORKFLOW,
    {
      ...scopeShape,
      text: z.string().optional().describe("Text to look for (case-insensitive substring)"),
      roles: z.string().optional().describe('Roles to keep: "btn,lnk" or "interactive"'),
      exact: z.boolean().optional().describe("Text must equal the label (case-insensitive)"),
    },
    async (args) => {
      const roles = toRoles(args.roles);
      if (args.text === undefined && !roles) {
        throw new DesktopError("INVALID_ARGS", "find needs text, roles or both", {
          suggestion: 'Pass text (e.g. "Save") and/or roles (e.g. "btn")',
        });
      }
      // Not a read: ids are those of this session's last read, which find leaves as it is.
      const matches = await desktop.find(toScope(args), {
        text: args.text,
        roles,
        exact: args.exact,
      });
      return ok(matches.map(brief));
    },
  );

  tool(
    "click",
    "Click an element (its own press action first, else a real mouse click at its centre) " +
      "or a point. " + ACT_HINT,
    {
      ...scopeShape,
      ...targetShape,
      button: z.enum(["left", "right", "middle"]).optional().describe("Mouse button"),
      count: z.number().int().min(1).max(3).optional().describe("2 for a double click"),
    },
    (args) =>
      act(ctx, toScope(args), toTarget(args), {
        kind: "click",
        ...(args.button ? { button: args.button } : {}),
        ...(args.count ? { count: args.count } : {}),
      }),
  );

  tool(
    "type",
    "Type text into an element (focused first) or, with no target, into the focused " +
      "element. " + ACT_HINT,
    { ...scopeShape, ...targetShape, value: z.string().describe("Text to type") },
    (args) => act(ctx, toScope(args), optionalTarget(args), { kind: "type", text: args.value }),
  );

  tool(
    "key",
    "Press a key combo such as Return, ctrl+a or shift+Tab, in the focused element or in a " +
      "target element. " + ACT_HINT,
    {
      ...scopeShape,
      ...targetShape,
      combo: z.string().describe("Key combo: Return, Escape, ctrl+s, shift+Tab..."),
    },
    (args) => act(ctx, toScope(args), optionalTarget(args), { kind: "key", combo: args.combo }),
  );

  tool(
    "action",
    "Perform a named accessibility action the element lists (press, activate, expand...). " +
      ACT_HINT,
    { ...scopeShape, ...targetShape, name: z.string().describe("Action name") },
    (args) => act(ctx, toScope(args), toTarget(args), { kind: "action", name: args.name }),
  );

  tool(
    "set_value",
    "Set an element's value directly: text of a field, number of a slider or spin button, " +
      "true/false of a check box. " + ACT_HINT,
    { ...scopeShape, ...targetShape, value: z.string().describe("New value") },
    (args) => act(ctx, toScope(args), toTarget(args), { kind: "set-value", value: args.value }),
  );

  tool(
    "scroll",
    "Scroll an element by steps in a direction, or (without direction) bring it into view. " +
      ACT_HINT,
    {
      ...scopeShape,
      ...targetShape,
      direction: z.enum(["up", "down", "left", "right"]).optional().describe("Direction"),
      amount: z.number().int().positive().optional().describe("Steps to scroll (default 3)"),
    },
    (args) =>
      act(ctx, toScope(args), toTarget(args), {
        kind: "scroll",
        ...(args.direction ? { direction: args.direction, amount: args.amount ?? 3 } : {}),
      }),
  );

  tool(
    "drag",
    "Drag from an element (or point) to a screen point. " + ACT_HINT,
    {
      ...scopeShape,
      ...targetShape,
      to_x: z.number().describe("Destination screen x"),
      to_y: z.number().describe("Destination screen y"),
    },
    (args) =>
      act(ctx, toScope(args), toTarget(args), {
        kind: "drag",
        to: { x: args.to_x, y: args.to_y },
      }),
  );

  tool(
    "focus",
    "Give keyboard focus to an element and raise its window. " + ACT_HINT,
    { ...scopeShape, ...targetShape },
    (args) => act(ctx, toScope(args), toTarget(args), { kind: "focus" }),
  );

  tool(
    "wait",
    "Wait until an element with some text appears, some text is gone, or a ref exists; " +
      "TIMEOUT otherwise. Returns the element found (act on its ref).",
    {
      ...scopeShape,
      text: z.string().optional().describe("Wait for an element with this text"),
      gone: z.string().optional().describe("Wait until no element has this text"),
      ref: z.string().optional().describe("Wait for an element with this ref"),
      roles: z.string().optional().describe('Restrict to roles: "btn,txt"'),
      timeout_ms: z.number().int().positive().max(300_000).optional().describe(
        "Give up after this many milliseconds (default 10000)",
      ),
    },
    async (args) => {
      const given = [args.text, args.gone, args.ref].filter((v) => v !== undefined).length;
      if (given !== 1) {
        throw new DesktopError("INVALID_ARGS", "wait needs exactly one of text, gone, ref", {
          suggestion: 'Pass e.g. text: "Saved" or gone: "Loading"',
        });
      }
      const roles = toRoles(args.roles);
      const el = await desktop.wait(toScope(args), {
        ...(args.text !== undefined ? { text: args.text } : {}),
        ...(args.gone !== undefined ? { gone: args.gone } : {}),
        ...(args.ref !== undefined ? { ref: args.ref } : {}),
        ...(roles ? { roles } : {}),
      }, args.timeout_ms ?? 10_000);
      return ok(el ? { ok: true, element: brief(el) } : { ok: true });
    },
  );

  tool(
    "diff",
    "Compare two saved snapshot files (from read --save) and list what was added, removed " +
      "and changed, matched by ref.",
    {
      before: z.string().describe("Path of the earlier snapshot file"),
      after: z.string().describe("Path of the later snapshot file"),
      ignore_bounds: z.boolean().optional().describe("Ignore moves and resizes"),
      ignore_focus: z.boolean().optional().describe("Ignore focus changes"),
      format: z.enum(["agent", "jsonl"]).optional().describe("agent (default) or jsonl"),
    },
    async (args) => {
      const [before, after] = await Promise.all([
        ctx.loadSnapshot(args.before),
        ctx.loadSnapshot(args.after),
      ]);
      const changes = diffTrees(before, after, {
        ignoreBounds: args.ignore_bounds,
        ignoreFocus: args.ignore_focus,
      });
      if (changes.length === 0) return ok("no changes");
      return ok(renderChanges(changes, args.format ?? "agent"));
    },
  );

  tool(
    "observe_changes",
    "Watch an app for a few seconds and return only what changed, as JSONL events " +
      "(snapshot, added, removed, changed, error, done), each with the element's ref; a new " +
      "dialog is one added event listing its elements and their refs. Far cheaper than " +
      "reading again after an action.",
    {
      ...scopeShape,
      seconds: z.number().positive().max(120).optional().describe("How long to watch (default 3)"),
      interval: z.number().int().positive().optional().describe(
        "Polling interval in ms when the platform cannot notify changes (default 1000)",
      ),
      roles: z.string().optional().describe('Only these roles: "btn,txt"'),
      depth: z.number().int().nonnegative().optional().describe("Maximum depth"),
      scope_ref: z.string().optional().describe("Only the subtree of this ref (e.g. a dialog)"),
      ignore_bounds: z.boolean().optional().describe("Ignore moves and resizes"),
      ignore_focus: z.boolean().optional().describe("Ignore focus changes"),
    },
    async (args, extra) => {
      const lines: string[] = [];
      const stream = observe(desktop, toScope(args), {
        duration: args.seconds ?? 3,
        interval: args.interval,
        roles: toRoles(args.roles),
        depth: args.depth,
        scopeRef: args.scope_ref,
        ignoreBounds: args.ignore_bounds,
        ignoreFocus: args.ignore_focus,
        signal: extra.signal,
      });
      for await (const ev of stream) lines.push(JSON.stringify(ev));
      return ok(lines.join("\n"));
    },
  );
}

/**
 * Loads a snapshot file and numbers it, so a saved file diffs exactly like
 * a live read.
 *
 * @param path snapshot file path
 * @returns the snapshot's root with ids and refs
 * @throws DesktopError SNAPSHOT_INVALID for a missing or bad file
 */
export async function loadSnapshotTree(path: string): Promise<Element> {
  // Loaded on demand: reading files is a platform concern, not the server's.
  const { readSnapshotFile } = await import("../platform/replay/snapshot_file.ts");
  const { root } = await readSnapshotFile(path);
  foldLabels(root);
  assignIds(root);
  assignRefs(root);
  return root;
}
