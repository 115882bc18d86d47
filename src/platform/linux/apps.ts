/**
 * Live apps and windows on the AT-SPI desktop: the desktop's children are the
 * registered apps, an app's children are its top-level windows.
 *
 * @module
 */

import { ATSPI_COORD_TYPE_SCREEN, ATSPI_STATE } from "../../ffi/atspi.ts";
import type { AppInfo, Bounds, WindowInfo } from "../../model/element.ts";
import { hasState } from "./convert.ts";
import { type Native, objectId, type Owned, stateWords } from "./native.ts";
import { type AppEntry, windowId } from "./scope.ts";

/** A registered app with its accessible held for the current operation. */
export interface LiveApp extends AppEntry {
  /** The app's root accessible (owned by the operation's DisposableStack). */
  acc: Owned;
  /** Unique bus name. */
  bus: string;
  /** Object path of the root. */
  path: string;
  /** Number of top-level windows the app reports. */
  windowCount: number;
  /** False when the app did not answer its name query in time. */
  responsive: boolean;
}

/** A top-level window with its accessible held for the current operation. */
export interface LiveWindow {
  /** Id from {@link windowId}. */
  id: number;
  /** Title (accessible name). */
  title: string;
  /** The window's accessible. */
  acc: Owned;
  /** Object path. */
  path: string;
  /** Bounds, when the window reports them. */
  b?: Bounds;
  /** ACTIVE state. */
  focused: boolean;
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
 * Every app registered on the desktop. Each `acc` is pushed onto `stack`.
 *
 * @param n the native session
 * @param stack owner of the returned references
 * @returns apps in desktop order
 */
export function listLiveApps(n: Native, stack: DisposableStack): LiveApp[] {
  const desktop = stack.use(n.desktop());
  n.pump();
  const count = n.sym.atspi_accessible_get_child_count(desktop.ptr, n.err.buf);
  n.check("list apps");
  const apps: LiveApp[] = [];
  for (let i = 0; i < count; i++) {
    const ptr = n.sym.atspi_accessible_get_child_at_index(desktop.ptr, i, n.err.buf);
    if (n.err.take() || ptr === null) continue;
    const acc = stack.use(n.own(ptr)!);
    const { bus, path } = objectId(acc.ptr);
    const pid = n.sym.atspi_accessible_get_process_id(acc.ptr, n.err.buf);
    if (n.err.take()) continue; // gone between the listing and now
    let name = "";
    let responsive = true;
    let windowCount = 0;
    let focused = false;
    try {
      name = n.str(n.sym.atspi_accessible_get_name(acc.ptr, n.err.buf), "read app name");
      windowCount = Math.max(0, n.sym.atspi_accessible_get_child_count(acc.ptr, n.err.buf));
      n.check("read window count");
      focused = windowStates(n, acc.ptr, windowCount).some((s) => hasState(s, ATSPI_STATE.ACTIVE));
    } catch {
      responsive = false;
    }
    if (!name) {
      // A stopped app answers nothing; its process name still identifies it.
      name = processName(pid);
      if (windowCount === 0) responsive = false;
    }
    apps.push({ acc, bus, path, pid, name, windowCount, responsive, focused });
  }
  return apps;
}

function windowStates(n: Native, app: Deno.PointerObject, count: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    using w = n.own(n.sym.atspi_accessible_get_child_at_index(app, i, n.err.buf));
    n.check("read window");
    if (!w) continue;
    using set = n.own(n.sym.atspi_accessible_get_state_set(w.ptr));
    if (set) out.push(stateWords(set.ptr));
  }
  return out;
}

/**
 * The top-level windows of an app. Each `acc` is pushed onto `stack`.
 *
 * @param n the native session
 * @param app the app
 * @param stack owner of the returned references
 * @param bounds read window bounds
 * @returns windows in the app's order
 */
export function liveWindows(
  n: Native,
  app: LiveApp,
  stack: DisposableStack,
  bounds = true,
): LiveWindow[] {
  const count = n.sym.atspi_accessible_get_child_count(app.acc.ptr, n.err.buf);
  n.check("list windows");
  const out: LiveWindow[] = [];
  for (let i = 0; i < count; i++) {
    const ptr = n.sym.atspi_accessible_get_child_at_index(app.acc.ptr, i, n.err.buf);
    n.check("read window");
    if (ptr === null) continue;
    const acc = stack.use(n.own(ptr)!);
    const { path } = objectId(acc.ptr);
    const title = n.str(n.sym.atspi_accessible_get_name(acc.ptr, n.err.buf), "read window title");
    let focused = false;
    {
      using set = n.own(n.sym.atspi_accessible_get_state_set(acc.ptr));
      if (set) focused = hasState(stateWords(set.ptr), ATSPI_STATE.ACTIVE);
    }
    const win: LiveWindow = { id: windowId(app.bus, path), title, acc, path, focused };
    if (bounds) {
      using comp = n.own(n.sym.atspi_accessible_get_component_iface(acc.ptr));
      if (comp) {
        const rect = n.sym.atspi_component_get_extents(
          comp.ptr,
          ATSPI_COORD_TYPE_SCREEN,
          n.err.buf,
        );
        n.check("read window bounds");
        if (rect !== null) {
          const v = new Deno.UnsafePointerView(rect);
          const b: Bounds = [v.getInt32(0), v.getInt32(4), v.getInt32(8), v.getInt32(12)];
          n.free(rect);
          if (b[2] > 0 && b[3] > 0) win.b = b;
        }
      }
    }
    out.push(win);
  }
  return out;
}

/** The public AppInfo of a live app. */
export function appInfo(app: LiveApp): AppInfo {
  const info: AppInfo = { name: app.name, pid: app.pid, id: app.bus, windows: app.windowCount };
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
