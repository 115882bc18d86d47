/**
 * The one scope matcher: which app and which window a scope (`--app`,
 * `--pid`, `--window`, `--window-id`) means, for every backend. An app
 * matches by pid exactly and by name case-insensitively (exact, then a
 * unique substring); a window by id exactly, or by title the same way. Pure:
 * it works on plain lists a backend has read.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";

/** What a scope names: an app by name or pid, a window by title or id (the provider's `Scope`). */
export interface ScopeQuery {
  /** Part of the app's name, case-insensitive. */
  app?: string;
  /** The app's process id. */
  pid?: number;
  /** Part of the window's title, case-insensitive. */
  window?: string;
  /** The window's id. */
  windowId?: number;
}

/**
 * Whether a name contains what a scope asks for, case-insensitively (an
 * empty query matches every name).
 *
 * @param name an app name or window title
 * @param query the scope's text
 * @returns true when the name holds the query
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nameMatches } from "./scope.ts";
 * assert.ok(nameMatches("gtk3-widget-factory", "Widget"));
 * assert.ok(!nameMatches("gedit", "widget"));
 * ```
 */
export function nameMatches(name: string, query: string): boolean {
  return name.toLowerCase().includes(query.trim().toLowerCase());
}

/**
 * Whether an app is one a scope allows: its pid when one is given, a name
 * that holds `app` when one is given.
 *
 * @param app the app's name and pid
 * @param scope the scope
 * @returns true when nothing in the scope rules the app out
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appMatches } from "./scope.ts";
 * assert.ok(appMatches({ name: "gedit", pid: 7 }, { app: "GEDIT" }));
 * assert.ok(!appMatches({ name: "gedit", pid: 7 }, { app: "gedit", pid: 8 }));
 * ```
 */
export function appMatches(app: { name: string; pid: number }, scope: ScopeQuery): boolean {
  if (scope.pid !== undefined && scope.pid !== app.pid) return false;
  return scope.app === undefined || nameMatches(app.name, scope.app);
}

/** What scope matching needs to know about an app. */
export interface AppEntry {
  /** Accessible name (or the process name when the app did not answer). */
  name: string;
  /** Process id. */
  pid: number;
  /** Whether one of its windows is active. */
  focused?: boolean;
}

/** What scope matching needs to know about a window. */
export interface WindowEntry {
  /** Window id (see {@link windowId}). */
  id: number;
  /** Title. */
  title: string;
}

/**
 * Picks the app a scope means: `pid` exactly; else `app` by case-insensitive
 * exact name, then unique substring; else (empty scope) the focused app, or
 * the only app. Throws APP_NOT_FOUND listing running apps as candidates.
 *
 * @param apps running apps
 * @param scope the scope
 * @returns the index of the chosen app
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchApp } from "./scope.ts";
 * const apps = [{ name: "gedit", pid: 1 }, { name: "gtk3-widget-factory", pid: 2 }];
 * assert.equal(matchApp(apps, { app: "widget" }), 1);
 * assert.equal(matchApp(apps, { pid: 1 }), 0);
 * ```
 */
export function matchApp(apps: readonly AppEntry[], scope: ScopeQuery): number {
  const candidates = apps.map((a) => ({ name: a.name, pid: a.pid }));
  const notFound = (what: string) =>
    new DesktopError("APP_NOT_FOUND", `no running app matches ${what}`, {
      suggestion: apps.length
        ? "Pass --app with one of the candidates' names (or --pid)"
        : "No app is registered on the accessibility bus; start one with accessibility enabled",
      candidates,
      details: { reason: "noMatch" },
    });
  if (scope.pid !== undefined) {
    const i = apps.findIndex((a) => a.pid === scope.pid);
    if (i < 0) throw notFound(`pid ${scope.pid}`);
    if (!appMatches(apps[i], scope)) {
      throw notFound(`--app "${scope.app}" with pid ${scope.pid}`);
    }
    return i;
  }
  if (scope.app !== undefined) {
    const q = scope.app.trim().toLowerCase();
    if (!q) throw notFound('an empty --app ""');
    const exact = apps.flatMap((a, i) => (a.name.toLowerCase() === q ? [i] : []));
    if (exact.length === 1) return exact[0];
    const pool = exact.length > 1
      ? exact
      : apps.flatMap((a, i) => a.name.toLowerCase().includes(q) ? [i] : []);
    if (pool.length === 1) return pool[0];
    if (pool.length > 1) {
      throw new DesktopError("APP_NOT_FOUND", `--app "${scope.app}" matches ${pool.length} apps`, {
        suggestion: "Pass --pid with one of the candidates' pids, or a more specific --app",
        candidates: pool.map((i) => candidates[i]),
      });
    }
    throw notFound(`--app "${scope.app}"`);
  }
  const focused = apps.flatMap((a, i) => (a.focused ? [i] : []));
  if (focused.length === 1) return focused[0];
  if (apps.length === 1) return 0;
  throw new DesktopError("APP_NOT_FOUND", "no app is focused; say which app to use", {
    suggestion: "Pass --app with one of the candidates' names (or --pid)",
    candidates,
  });
}

/**
 * Picks the window a scope means (`windowId`, else `window` title: exact,
 * then unique substring, case-insensitive). Returns -1 when the scope names
 * no window. Throws WINDOW_NOT_FOUND listing the app's windows.
 *
 * @param windows the app's windows
 * @param scope the scope
 * @returns index of the window, or -1 for "whole app"
 */
export function matchWindow(windows: readonly WindowEntry[], scope: ScopeQuery): number {
  if (scope.windowId === undefined && scope.window === undefined) return -1;
  const listing = windows.map((w) => `${w.id} "${w.title}"`).join(", ") || "none";
  const fail = (what: string) =>
    new DesktopError("WINDOW_NOT_FOUND", `no window matches ${what}; windows: ${listing}`, {
      suggestion: "Run `desktop list --windows` and pass one of the ids with --window-id",
      details: { windows: windows.map((w) => ({ id: w.id, title: w.title })) },
    });
  if (scope.windowId !== undefined) {
    const i = windows.findIndex((w) => w.id === scope.windowId);
    if (i < 0) throw fail(`id ${scope.windowId}`);
    return i;
  }
  const q = (scope.window ?? "").toLowerCase();
  const exact = windows.flatMap((w, i) => (w.title.toLowerCase() === q ? [i] : []));
  if (exact.length === 1) return exact[0];
  const sub = windows.flatMap((w, i) => (w.title.toLowerCase().includes(q) ? [i] : []));
  if (sub.length === 1) return sub[0];
  throw fail(
    sub.length > 1 ? `"${scope.window}" uniquely (${sub.length} match)` : `"${scope.window}"`,
  );
}
