/**
 * The `launch` verb: start an app and wait for its window.
 *
 * @module
 */

import type { Launched } from "../../apps/apps.ts";
import { formatWindows } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT } from "./_shared.ts";

/** Arguments of `launch`. */
export interface LaunchArgs {
  /** App name, desktop file id, or a command line. */
  app: string;
  /** ms to wait for its window. */
  timeout?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `launch`. */
export interface LaunchResult extends Launched {
  /** Always true. */
  ok: true;
}

/** The `launch` operation. */
export const launch: Op<LaunchArgs, LaunchResult> = defineOp<LaunchArgs, LaunchResult>({
  name: "launch",
  doc:
    "Start an app (name, desktop file id, macOS bundle id or .app, or a command) and wait for its window.",
  examples: [
    "desktop launch mousepad",
    "desktop launch org.gnome.Calculator",
    'desktop launch "zenity --info --text Hello"',
  ],
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  params: [
    {
      name: "app",
      type: "string",
      required: true,
      positional: true,
      doc: "name, desktop file id, or command",
    },
    { name: "timeout", type: "int", min: 1, default: 30_000, doc: "ms to wait for its window" },
    ACT_FORMAT,
  ],
  output: { type: "object", properties: { app: { type: "object" }, windows: { type: "array" } } },
  deadlineMs: (args, timeoutMs) => (args.timeout ?? timeoutMs) + 5000,
  async run(ctx, args) {
    const desktop = await ctx.desktop();
    return { ok: true, ...await desktop.launch(args.app, { timeoutMs: args.timeout ?? 30_000 }) };
  },
  render(r, args) {
    if (args.format === "json") return JSON.stringify(r);
    return [`ok launch ${JSON.stringify(r.app.name)} pid=${r.app.pid}`, formatWindows(r.windows)]
      .filter(Boolean).join("\n");
  },
});
