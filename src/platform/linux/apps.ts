/**
 * Live apps and windows on the AT-SPI desktop (as discovery found them, see
 * discover.ts), and their public descriptions.
 *
 * @module
 */

import type { AppInfo, WindowInfo } from "../../model/element.ts";
import type { BusApp, BusWindow } from "./discover.ts";
import { type SilentFacts, silentFacts } from "./hung.ts";
import { windowId } from "./scope.ts";

/**
 * A registered app. One that did not answer is named after what can be read
 * of it without asking it (see hung.ts): its windows' `WM_CLASS`, the script
 * an interpreter runs, its process name.
 */
export interface LiveApp extends BusApp {
  /** Whether one of its windows is active (for a silent app: has the X keyboard focus). */
  focused: boolean;
  /** Every name a silent app may go by, its `name` first. */
  aliases?: string[];
}

/** A top-level window of a live app. */
export interface LiveWindow extends BusWindow {
  /** Id from {@link windowId}. */
  id: number;
}

/**
 * Apps as discovery returned them, an app that did not answer named after
 * what /proc and X11 tell of it, so that it can still be listed and matched;
 * when no app that answers is focused, a silent app whose window has the
 * keyboard focus is the focused one.
 *
 * @param apps discovered apps
 * @param facts reads what is known of silent apps (for tests; default {@link silentFacts})
 * @returns the live apps, in the same order
 */
export function liveApps(
  apps: readonly BusApp[],
  facts: (pids: number[]) => SilentFacts = silentFacts,
): LiveApp[] {
  const out: LiveApp[] = apps.map((a) => ({ ...a }));
  const silent = out.filter((a) => !a.responsive);
  if (silent.length === 0) return out;
  const known = facts(silent.map((a) => a.pid));
  const anyFocused = out.some((a) => a.responsive && a.focused);
  for (const app of silent) {
    const names = known.names.get(app.pid) ?? [];
    if (!app.name) app.name = names[0] ?? "";
    app.aliases = [app.name, ...names.filter((n) => n !== app.name)].filter(Boolean);
    if (!anyFocused && known.focusPid > 0 && known.focusPid === app.pid) app.focused = true;
  }
  return out;
}

/**
 * Windows of an app with their ids.
 *
 * @param app the app
 * @param windows its windows as discovery read them
 * @returns the live windows
 */
export function liveWindows(app: LiveApp, windows: readonly BusWindow[]): LiveWindow[] {
  return windows.map((w) => ({ ...w, id: windowId(app.bus, w.path) }));
}

/** The public AppInfo of a live app. */
export function appInfo(app: LiveApp): AppInfo {
  const info: AppInfo = { name: app.name, pid: app.pid, id: app.bus };
  // An app that did not answer has no known window count.
  if (app.responsive) info.windows = app.windowCount;
  else info.unresponsive = true;
  if (app.focused) info.focused = true;
  const started = processStart(app.pid);
  if (started !== undefined) info.started = started;
  return info;
}

/** The public WindowInfo of a live window. */
export function windowInfo(app: LiveApp, w: LiveWindow): WindowInfo {
  const info: WindowInfo = { id: w.id, title: w.title, app: app.name, pid: app.pid };
  if (w.b) info.b = w.b;
  if (w.focused) info.focused = true;
  return info;
}

let bootTimeMs: number | undefined;
/** Kernel clock ticks per second (USER_HZ is 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * Process start time in ms since the epoch, from /proc (to tell a restarted
 * app from the one a ref was read in), or undefined when unreadable.
 */
export function processStart(pid: number): number | undefined {
  try {
    if (bootTimeMs === undefined) {
      const stat = Deno.readTextFileSync("/proc/stat");
      const m = /^btime (\d+)/m.exec(stat);
      if (!m) return undefined;
      bootTimeMs = Number(m[1]) * 1000;
    }
    const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Field 22 (starttime) counts after the ")" that closes the command name.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    if (!Number.isFinite(ticks)) return undefined;
    return bootTimeMs + Math.round((ticks * 1000) / CLOCK_TICKS);
  } catch {
    return undefined;
  }
}
