/**
 * Scope resolution for the Linux backend: which app and which window an
 * operation means. Pure: it works on plain lists the provider has read.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Scope } from "../provider.ts";

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
 * import { matchApp } from "./scope.ts";
 * const apps = [{ name: "gedit", pid: 1 }, { name: "gtk3-widget-factory", pid: 2 }];
 * console.log(matchApp(apps, { app: "widget" })); // 1
 * ```
 */
export function matchApp(apps: readonly AppEntry[], scope: Scope): number {
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
    if (scope.app !== undefined && !apps[i].name.toLowerCase().includes(scope.app.toLowerCase())) {
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
export function matchWindow(windows: readonly WindowEntry[], scope: Scope): number {
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

/**
 * A window's id: a positive 31-bit FNV-1a hash of its bus name and object
 * path. It stays the same for as long as the app keeps its bus connection, so
 * ids from `list` still work in the next CLI process.
 *
 * @param bus unique bus name of the app
 * @param path object path of the window
 * @returns a number in 1..2^31-1
 */
export function windowId(bus: string, path: string): number {
  let h = 0x811c9dc5;
  const s = `${bus}${path}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h & 0x7fffffff) || 1;
}
