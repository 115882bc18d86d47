/**
 * The `quit` verb: close an app.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { SCOPE_PARAMS, type ScopeArgs, toScope } from "../params.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, CLI_ONLY } from "./_shared.ts";

/** Arguments of `quit`. */
export interface QuitArgs extends ScopeArgs {
  /** End the process instead of asking. */
  force?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `quit`. */
export interface QuitResult {
  /** Always true. */
  ok: true;
  /** The app's name. */
  app: string;
  /** Its pid. */
  pid: number;
  /** `windows` (asked to close) or `signal` (ended). */
  via: string;
}

/** The `quit` operation. */
export const quit: Op<QuitArgs, QuitResult> = defineOp<QuitArgs, QuitResult>({
  name: "quit",
  doc:
    "Quit an app as a user does (Linux: close its windows; macOS: its Quit menu item); it may ask to save. --force ends it.",
  examples: ["desktop quit --app mousepad", "desktop quit --pid 4242 --force"],
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  params: [
    ...SCOPE_PARAMS.filter((p) => ["app", "pid", "timeout"].includes(p.name)),
    CLI_ONLY[1],
    { name: "force", type: "boolean", doc: "end the process (TERM, then KILL)" },
    ACT_FORMAT,
  ],
  output: { type: "object", properties: { app: { type: "string" }, pid: { type: "integer" } } },
  async run(ctx, args) {
    if (args.app === undefined && args.pid === undefined) {
      throw new DesktopError("INVALID_ARGS", "quit needs app or pid", {
        suggestion: "Name the app to quit: app NAME or pid N",
      });
    }
    const desktop = await ctx.desktop();
    const res = await desktop.quit(toScope(args), {
      ...(args.force ? { force: true } : {}),
      ...(args.timeout !== undefined ? { timeoutMs: args.timeout } : {}),
    });
    return { ok: true, app: res.app.name, pid: res.app.pid, via: res.via };
  },
  render(r, args) {
    return args.format === "json"
      ? JSON.stringify(r)
      : `ok quit ${JSON.stringify(r.app)} pid=${r.pid} via ${r.via}`;
  },
});
