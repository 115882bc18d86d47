/**
 * The `observe` verb: what changes while it watches.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { ObserveEvent } from "../../observe/events.ts";
import { observe } from "../../observe/observe.ts";
import { rolesFilter, SCOPE_PARAMS, type ScopeArgs, toScope } from "../params.ts";
import { defineOp, type Op } from "../types.ts";
import { ARR, READ } from "./_shared.ts";

const OBSERVE_OUT = {
  type: "object",
  properties: { events: ARR, cursor: { type: "string" } },
};

/** Arguments of `observe`. */
export interface ObserveArgs extends ScopeArgs {
  /** Seconds to observe (0: until interrupted). */
  duration?: number;
  /** ms between reads without notifications. */
  interval?: number;
  /** Roles list. */
  roles?: string;
  /** Depth limit. */
  depth?: number;
  /** Only this ref's subtree. */
  scope_ref?: string;
  /** Report moves and resizes (default: left out). */
  bounds?: boolean;
  /** Ignore moves and resizes (the default; kept for existing scripts). */
  ignore_bounds?: boolean;
  /** Ignore focus changes. */
  ignore_focus?: boolean;
  /** MCP: the cursor of a previous call, to get the events since. */
  cursor?: string;
}

/** Result of `observe`. */
export interface ObserveResult {
  /** The events, in order. */
  events: ObserveEvent[];
  /** MCP: pass it back to get the events after these. */
  cursor?: string;
}

/** The `observeOp` operation. */
export const observeOp: Op<ObserveArgs, ObserveResult> = defineOp<ObserveArgs, ObserveResult>({
  name: "observe",
  mcpName: "observe_changes",
  doc: "Watch an app; report only changes by ref (snapshot, added, removed, changed, done). " +
    "Pass back cursor for the events since.",
  examples: [
    "desktop observe --app Chromium --duration 10",
    "desktop observe --app Chromium --roles btn,lnk | jq 'select(.type==\"added\")'",
    "desktop observe --app Chromium --bounds                # moves and resizes too",
  ],
  notes: `Output is always JSONL (--format does not apply): one event per line, e.g.
  {"type":"snapshot","ts":1767261600000,"count":42}
  {"type":"added","ts":...,"el":{"i":43,"ref":"form/submit","r":"btn","t":"Submit"},"p":"form","ref":"form/submit"}
  (a new subtree, e.g. a dialog, is one added event with its descendants in el.c)
  {"type":"removed","ts":...,"ref":"dialog/loading","i":15,"r":"txt","t":"Loading..."}
  {"type":"changed","ts":...,"ref":"form/email","i":5,"changes":{"v":["old","new"]}}
  {"type":"error","ts":...,"code":"APP_UNRESPONSIVE","error":"..."}
  {"type":"done","ts":...,"elapsed":"10.0s","events":3}
ts is milliseconds since the epoch. Ctrl+C ends the stream with its done event.
Events are keyed by ref; i is the element's position in the stream's own read,
not an --id target: act on what you see by its ref.`,
  hints: READ,
  params: [
    ...SCOPE_PARAMS.map((p) => p.name === "timeout" ? { ...p, doc: "deadline per read in ms" } : p),
    {
      name: "duration",
      type: "number",
      min: 0,
      max: 86_400,
      default: 0,
      faceDefault: { mcp: 3 },
      doc: "seconds (CLI: 0 = until Ctrl+C)",
    },
    {
      name: "interval",
      type: "int",
      min: 1,
      default: 1000,
      doc: "poll ms if no notifications",
    },
    { name: "roles", type: "string", doc: "only these roles" },
    { name: "depth", type: "int", min: 0, doc: "maximum depth" },
    { name: "scope_ref", type: "string", doc: "only this ref's subtree" },
    { name: "bounds", type: "boolean", doc: "report moves/resizes too" },
    { name: "ignore_bounds", type: "boolean", doc: "ignore moves/resizes (the default)" },
    { name: "ignore_focus", type: "boolean", doc: "ignore focus" },
    {
      name: "cursor",
      type: "string",
      face: "mcp",
      doc: "from the last call",
    },
  ],
  output: OBSERVE_OUT,
  deadlineMs: (args, timeoutMs) => (args.duration ?? 0) * 1000 + timeoutMs,
  async run(ctx, args) {
    const scope = toScope(args);
    if (Object.keys(scope).length === 0) {
      throw new DesktopError(
        "INVALID_ARGS",
        "observe needs a scope: app, pid, window or window_id",
        {
          suggestion: 'Run list to see apps, then e.g. observe with app "gedit"',
        },
      );
    }
    const roles = rolesFilter(args.roles);
    const stream = observe(await ctx.desktop(), scope, {
      duration: args.duration ?? 0,
      interval: args.interval,
      ...(roles ? { roles } : {}),
      ...(args.depth !== undefined ? { depth: args.depth } : {}),
      ...(args.scope_ref !== undefined ? { scopeRef: args.scope_ref } : {}),
      // Boxes move with every scroll and resize: they are noise unless asked for.
      ...(args.bounds && !args.ignore_bounds ? {} : { ignoreBounds: true }),
      ...(args.ignore_focus ? { ignoreFocus: true } : {}),
      signal: ctx.signal,
    });
    const events: ObserveEvent[] = [];
    for await (const ev of stream) {
      ctx.emit(ev);
      // The CLI prints as they come; keeping them all would grow without end.
      if (ctx.face !== "cli") events.push(ev);
    }
    return { events };
  },
  render: (r) =>
    [...r.events, ...(r.cursor ? [{ cursor: r.cursor }] : [])].map((e) => JSON.stringify(e))
      .join("\n"),
});
