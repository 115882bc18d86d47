/**
 * The `window` verb: move, resize, minimize, maximize, close.
 *
 * @module
 */

import type { WindowResult } from "../../apps/apps.ts";
import { DesktopError } from "../../errors.ts";
import type { WindowOp } from "../../platform/provider.ts";
import { SCOPE_PARAMS, type ScopeArgs, toScope } from "../params.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, CLI_ONLY } from "./_shared.ts";

/** Arguments of `window`. */
export interface WindowArgs extends ScopeArgs {
  /** New top-left corner, `x,y`. */
  move?: string;
  /** New size, `w,h`. */
  resize?: string;
  /** Bring to the front. */
  raise?: boolean;
  /** Minimize. */
  minimize?: boolean;
  /** Maximize. */
  maximize?: boolean;
  /** Undo minimize or maximize. */
  restore?: boolean;
  /** Ask it to close. */
  close?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `window`. */
export interface WindowOpResult extends WindowResult {
  /** Always true. */
  ok: true;
  /** The operations applied, in order. */
  ops: string[];
}

/**
 * Parses `x,y` (or `WxH`).
 *
 * @param name the parameter, for messages
 * @param value its text
 * @param min smallest value of each number
 * @returns the pair
 * @throws DesktopError INVALID_ARGS
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePair } from "./window.ts";
 * assert.deepEqual(parsePair("move", "30,40", -1e5), [30, 40]);
 * assert.throws(() => parsePair("resize", "big", 1));
 * ```
 */
export function parsePair(name: string, value: string, min: number): [number, number] {
  const m = /^\s*(-?\d+)\s*[,x]\s*(-?\d+)\s*$/.exec(value);
  const pair = m ? [Number(m[1]), Number(m[2])] as [number, number] : null;
  if (!pair || pair[0] < min || pair[1] < min) {
    throw new DesktopError(
      "INVALID_ARGS",
      `${name} takes two integers like 100,200, got "${value}"`,
      {
        suggestion: `Pass e.g. ${name} ${Math.max(min, 100)},${Math.max(min, 100)}`,
      },
    );
  }
  return pair;
}

/** The `windowOp` operation. */
export const windowOp: Op<WindowArgs, WindowOpResult> = defineOp<WindowArgs, WindowOpResult>({
  name: "window",
  doc: "Move, resize, raise, minimize, maximize, restore or close a window.",
  examples: [
    "desktop window --app mousepad --move 0,0 --resize 800,600",
    'desktop window --app mousepad --window "Untitled" --maximize',
  ],
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  params: [
    ...SCOPE_PARAMS,
    CLI_ONLY[1],
    { name: "move", type: "string", doc: "new top-left corner: x,y" },
    { name: "resize", type: "string", doc: "new size: w,h" },
    { name: "raise", type: "boolean", doc: "to the front, focused" },
    { name: "minimize", type: "boolean", doc: "minimize" },
    { name: "maximize", type: "boolean", doc: "maximize" },
    { name: "restore", type: "boolean", doc: "unminimize/unmaximize" },
    { name: "close", type: "boolean", doc: "ask it to close" },
    ACT_FORMAT,
  ],
  output: { type: "object", properties: { window: { type: "object" }, state: { type: "object" } } },
  async run(ctx, args) {
    const scope = toScope(args);
    if (Object.keys(scope).length === 0) {
      throw new DesktopError("INVALID_ARGS", "window needs app, pid, window or window_id", {
        suggestion: "Name the window: e.g. app mousepad",
      });
    }
    const ops: WindowOp[] = [];
    if (args.restore) ops.push({ kind: "restore" });
    if (args.maximize) ops.push({ kind: "maximize" });
    if (args.move !== undefined) {
      const [x, y] = parsePair("move", args.move, -100_000);
      ops.push({ kind: "move", x, y });
    }
    if (args.resize !== undefined) {
      const [w, h] = parsePair("resize", args.resize, 1);
      ops.push({ kind: "resize", w, h });
    }
    if (args.minimize) ops.push({ kind: "minimize" });
    if (args.raise) ops.push({ kind: "raise" });
    if (args.close) ops.push({ kind: "close" });
    const desktop = await ctx.desktop();
    const res = await desktop.window(scope, ops);
    return { ok: true, ...res, ops: ops.map((o) => o.kind) };
  },
  render(r, args) {
    if (args.format === "json") {
      return JSON.stringify({ ok: true, window: r.window, state: r.state });
    }
    const s = r.state;
    const flags = [
      s.b ? `(${s.b.join(",")})` : "",
      s.minimized ? "minimized" : "",
      s.maximized ? "maximized" : "",
      s.exists === false ? "closed" : "",
    ].filter(Boolean).join(" ");
    return `ok window [${r.window.id}] ${JSON.stringify(r.window.title)} ${r.ops.join(",")}` +
      (flags ? ` -> ${flags}` : "");
  },
});
