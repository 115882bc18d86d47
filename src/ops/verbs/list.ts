/**
 * The `list` verb: running apps and their windows.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { AppInfo, WindowInfo } from "../../model/element.ts";
import { appMatches } from "../../model/scope.ts";
import { type ScopeArgs, toScope } from "../params.ts";
import { formatApps, formatWindows } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, ARR, LIVE, READ } from "./_shared.ts";

const LIST_OUT = { type: "object", properties: { apps: ARR, windows: ARR } };

/** Arguments of `list`. */
export interface ListArgs extends ScopeArgs {
  /** List windows instead of apps. */
  windows?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `list`. */
export interface ListResult {
  /** Apps (without `windows`). */
  apps?: AppInfo[];
  /** Windows (with `windows`). */
  windows?: WindowInfo[];
}

/**
 * The apps `app`/`pid` name (all when neither is given).
 *
 * @param apps running apps
 * @param args the scope arguments
 * @returns the matching apps
 * @throws DesktopError APP_NOT_FOUND, with the running apps as candidates, when none matches
 */
export function filterApps(apps: AppInfo[], args: ScopeArgs): AppInfo[] {
  if (args.app === undefined && args.pid === undefined) return apps;
  const hits = apps.filter((a) => appMatches(a, args));
  if (hits.length) return hits;
  throw new DesktopError("APP_NOT_FOUND", "no running app matches app/pid", {
    suggestion: "Run list and pass one of the names",
    candidates: apps.map((a) => ({ name: a.name, pid: a.pid })),
  });
}

/** The `list` operation. */
export const list: Op<ListArgs, ListResult> = defineOp<ListArgs, ListResult>({
  name: "list",
  doc: "List apps with an accessible UI (and apps showing windows off the accessibility bus, " +
    "with what turns it on), or (windows) their windows with ids.",
  examples: ["desktop list", "desktop list --windows --app Chromium"],
  hints: READ,
  params: [
    ...LIVE,
    { name: "windows", type: "boolean", doc: "list windows instead of apps" },
    { ...ACT_FORMAT, doc: "output: agent (one line each) or json" },
  ],
  output: LIST_OUT,
  async run(ctx, args) {
    const desktop = await ctx.desktop();
    if (args.windows) return { windows: await desktop.listWindows(toScope(args)) };
    return { apps: filterApps(await desktop.listApps(), args) };
  },
  render(r, args) {
    if (args.format === "json") return JSON.stringify(r.windows ?? r.apps);
    return r.windows ? formatWindows(r.windows) : formatApps(r.apps ?? []);
  },
});
