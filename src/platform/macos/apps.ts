/**
 * Apps and windows from `CGWindowListCopyWindowInfo` (layer-0 windows: no
 * NSWorkspace needed), with window titles from AX where the window list has
 * none (macOS hides other apps' window names without Screen Recording).
 *
 * @module
 */

import type { AppInfo, Bounds, WindowInfo } from "../../model/element.ts";
import type { CFOwned } from "../../ffi/macos/cf.ts";
import { CG_WINDOW_LIST } from "../../ffi/macos/core_graphics.ts";
import type { AxSession } from "./session.ts";

/** One window-list entry. */
export interface CgWindow {
  /** kCGWindowNumber. */
  number: number;
  /** kCGWindowOwnerPID. */
  pid: number;
  /** kCGWindowOwnerName. */
  owner: string;
  /** kCGWindowName ("" when hidden or absent). */
  name: string;
  /** kCGWindowBounds, rounded. */
  bounds: Bounds;
  /** kCGWindowLayer. */
  layer: number;
}

/**
 * On-screen windows, front to back, of every layer.
 *
 * @param s the session
 * @returns window-list entries
 */
export function cgWindows(s: AxSession): CgWindow[] {
  const { cg, statics } = s.libs;
  const list = cg.CGWindowListCopyWindowInfo(
    CG_WINDOW_LIST.OnScreenOnly | CG_WINDOW_LIST.ExcludeDesktopElements,
    0,
  );
  if (list === null) return [];
  using arr = s.cf.own(list);
  const k = statics.window;
  const out: CgWindow[] = [];
  const rect = new Uint8Array(32);
  const view = new DataView(rect.buffer);
  for (const d of s.cf.arrayItems(arr.ptr)) {
    if (d === null) continue;
    const boundsDict = s.cf.dictGet(d, k.bounds);
    let bounds: Bounds = [0, 0, 0, 0];
    if (boundsDict !== null && cg.CGRectMakeWithDictionaryRepresentation(boundsDict, rect)) {
      bounds = [0, 8, 16, 24].map((o) => Math.round(view.getFloat64(o, true))) as Bounds;
    }
    out.push({
      number: s.cf.readNumber(s.cf.dictGet(d, k.number)) ?? 0,
      pid: s.cf.readNumber(s.cf.dictGet(d, k.ownerPid)) ?? 0,
      owner: s.cf.readString(s.cf.dictGet(d, k.ownerName)),
      name: s.cf.readString(s.cf.dictGet(d, k.name)),
      bounds,
      layer: s.cf.readNumber(s.cf.dictGet(d, k.layer)) ?? 0,
    });
  }
  return out;
}

/** The pid of the app that has keyboard focus (AXFocusedApplication), if any. */
export function focusedPid(s: AxSession): number | undefined {
  const { err, value } = s.copy(s.systemWide, "AXFocusedApplication");
  if (err !== 0 || value === null) return undefined;
  using app = value;
  return s.pidOf(app.ptr);
}

/**
 * Running apps with a normal (layer 0) window, in front-to-back order.
 *
 * @param s the session
 * @param windows from {@link cgWindows}
 * @returns app infos
 */
export function appsFrom(s: AxSession, windows: readonly CgWindow[]): AppInfo[] {
  const focus = focusedPid(s);
  const apps = new Map<number, AppInfo>();
  for (const w of windows) {
    if (w.layer !== 0) continue;
    const app = apps.get(w.pid);
    if (app) app.windows = (app.windows ?? 0) + 1;
    else apps.set(w.pid, { name: w.owner, pid: w.pid, focused: w.pid === focus, windows: 1 });
  }
  return [...apps.values()];
}

/** An AX window of an app, with what matching needs. */
export interface AxWindow {
  /** The owned window element. */
  ref: CFOwned;
  /** AXTitle. */
  title: string;
  /** AXPosition + AXSize, rounded. */
  bounds?: Bounds;
}

/**
 * The AX windows of an app element (owned: dispose each `ref`). Empty on any
 * error: callers fall back to the window list.
 */
export function axWindows(s: AxSession, app: CFOwned): { err: number; windows: AxWindow[] } {
  const { err, value } = s.copy(app.ptr, "AXWindows");
  if (err !== 0 || value === null) return { err, windows: [] };
  using arr = value;
  const windows: AxWindow[] = [];
  for (const w of s.cf.arrayItems(arr.ptr)) {
    if (w === null) continue;
    const ref = s.cf.retain(w);
    const r = s.copyMany(ref.ptr, ["AXTitle", "AXPosition", "AXSize"], (slots) => {
      const [title, pos, size] = slots.map((sl) => "ptr" in sl ? s.toJs(sl.ptr) : null);
      const bounds: Bounds | undefined =
        pos && typeof pos === "object" && "type" in pos && pos.type === "point" &&
          size && typeof size === "object" && "type" in size && size.type === "size"
          ? [Math.round(pos.x), Math.round(pos.y), Math.round(size.w), Math.round(size.h)]
          : undefined;
      return { title: typeof title === "string" ? title : "", bounds };
    });
    windows.push({ ref, title: r.result?.title ?? "", bounds: r.result?.bounds });
  }
  return { err, windows };
}

/** Whether two bounds are the same rectangle. */
export function sameBounds(a: Bounds | undefined, b: Bounds | undefined): boolean {
  return a !== undefined && b !== undefined && a.every((v, i) => v === b[i]);
}

/**
 * Window infos of one app: window-list entries titled from AX where possible.
 *
 * @param cg the app's layer-0 window-list entries
 * @param ax the app's AX windows
 * @param focused whether the app is focused (its frontmost window is then focused)
 */
export function windowInfos(
  cg: readonly CgWindow[],
  ax: readonly AxWindow[],
  focused: boolean,
): WindowInfo[] {
  return cg.map((w, i) => {
    const match = ax.find((a) => sameBounds(a.bounds, w.bounds));
    return {
      id: w.number,
      title: match?.title || w.name,
      app: w.owner,
      pid: w.pid,
      b: w.bounds,
      ...(focused && i === 0 ? { focused: true } : {}),
    };
  });
}
