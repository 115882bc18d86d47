/**
 * `desktop list`: running apps with an accessible UI, or their windows.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { AppInfo, WindowInfo } from "../model/element.ts";
import type { Scope } from "../platform/provider.ts";
import { addScopeOptions, choiceOption, runCommand, withDesktop } from "./_shared.ts";

type ListFormat = "agent" | "json";

/**
 * One line per app: `Chromium pid=4242 windows=1 focused` (`unresponsive` when it did not
 * answer in time).
 *
 * @param apps the apps
 * @returns the text
 */
export function formatApps(apps: AppInfo[]): string {
  return apps.map((a) =>
    [
      JSON.stringify(a.name),
      `pid=${a.pid}`,
      a.windows !== undefined ? `windows=${a.windows}` : "",
      a.id ? `id=${a.id}` : "",
      a.focused ? "focused" : "",
      a.unresponsive ? "unresponsive" : "",
    ].filter(Boolean).join(" ")
  ).join("\n");
}

/**
 * One line per window: `[3] "Checkout - Chromium" app="Chromium" pid=4242 (0,0,1280,800) focused`.
 *
 * @param windows the windows
 * @returns the text
 */
export function formatWindows(windows: WindowInfo[]): string {
  return windows.map((w) =>
    [
      `[${w.id}]`,
      JSON.stringify(w.title),
      `app=${JSON.stringify(w.app)}`,
      `pid=${w.pid}`,
      w.b ? `(${w.b.join(",")})` : "",
      w.focused ? "focused" : "",
    ].filter(Boolean).join(" ")
  ).join("\n");
}

/**
 * The apps `--app`/`--pid` name (all when neither is given).
 *
 * @param apps running apps
 * @param scope the scope options
 * @returns the matching apps
 * @throws DesktopError APP_NOT_FOUND, with the running apps as candidates, when none matches
 */
export function filterApps(apps: AppInfo[], scope: Scope): AppInfo[] {
  if (scope.app === undefined && scope.pid === undefined) return apps;
  const want = scope.app?.toLowerCase();
  const hits = apps.filter((a) =>
    (scope.pid === undefined || a.pid === scope.pid) &&
    (want === undefined || a.name.toLowerCase().includes(want))
  );
  if (hits.length) return hits;
  throw new DesktopError("APP_NOT_FOUND", "no running app matches --app/--pid", {
    suggestion: "Run `desktop list` and pass one of the names",
    candidates: apps.map((a) => ({ name: a.name, pid: a.pid })),
  });
}

/**
 * The `list` command.
 *
 * @returns the commander command
 */
export function listCommand(): CommandUnknownOpts {
  return addScopeOptions(
    new Command("list").description("List running apps with an accessible UI, or their windows"),
  )
    .option("--windows", "list top-level windows (of --app/--pid, else of every app)")
    .option(
      "--format <format>",
      "agent (one line each) or json",
      choiceOption<ListFormat>("--format", ["agent", "json"]),
      "agent" as ListFormat,
    )
    .addHelpText(
      "after",
      `
Examples:
  $ desktop list
  $ desktop list --windows --app Chromium
  $ desktop list --windows --format json`,
    )
    .action(runCommand(async (opts) => {
      await withDesktop(opts, async (desktop, scope) => {
        if (opts.windows) {
          const windows = await desktop.listWindows(scope);
          const text = opts.format === "json" ? JSON.stringify(windows) : formatWindows(windows);
          if (text) console.log(text);
          return;
        }
        const apps = filterApps(await desktop.listApps(), scope);
        const text = opts.format === "json" ? JSON.stringify(apps) : formatApps(apps);
        if (text) console.log(text);
      });
    }));
}
