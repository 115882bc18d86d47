/**
 * Live apps and windows on the AT-SPI desktop (as discovery found them, see
 * discover.ts), and their public descriptions.
 *
 * @module
 */

import type { AppInfo, WindowInfo } from "../../model/element.ts";
import type { BusApp, BusWindow } from "./discover.ts";
import { windowId } from "./scope.ts";

/** A registered app; a stopped one carries its process name. */
export interface LiveApp extends BusApp {
  /** Whether one of its windows is active. */
  focused: boolean;
}

/** A top-level window of a live app. */
export interface LiveWindow extends BusWindow {
  /** Id from {@link windowId}. */
  id: number;
}

/** The process name from /proc, the fallback name of an app that does not answer. */
function processName(pid: number): string {
  try {
    // argv[0]'s basename: /proc/PID/comm is cut at 15 characters.
    // Chromium rewrites its argv into one space-separated string: cut at the first space.
    const argv0 = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0")[0].split(" ")[0];
    const base = argv0.slice(argv0.lastIndexOf("/") + 1);
    if (base) return base;
    return Deno.readTextFileSync(`/proc/${pid}/comm`).trim();
  } catch {
    return "";
  }
}

/**
 * Apps as discovery returned them, an app that did not answer named after its
 * process so that it can still be listed and matched.
 *
 * @param apps discovered apps
 * @returns the live apps, in the same order
 */
export function liveApps(apps: readonly BusApp[]): LiveApp[] {
  return apps.map((a) => {
    const app: LiveApp = { ...a };
    if (!app.name) app.name = processName(a.pid);
    return app;
  });
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
