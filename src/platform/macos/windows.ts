/**
 * Window management on macOS through the window's AX element: AXPosition and
 * AXSize (an AXSize that is not settable means the window cannot be resized),
 * AXMinimized, AXRaise, and the window's own close and zoom buttons.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { createAxValue } from "../../ffi/macos/ax_value.ts";
import type { WindowInfo } from "../../model/element.ts";
import type { WindowOp, WindowState } from "../provider.ts";
import { type AxWindow, axWindows } from "./apps.ts";
import type { AxSession } from "./session.ts";

function failed(what: string, err: number): DesktopError {
  return new DesktopError("ACTION_FAILED", `the window did not ${what} (AXError ${err})`, {
    suggestion: "The app refused; check that the window is not in full screen or a sheet",
    details: { axError: err },
  });
}

/** The AX window that shows `info`: same title, else the nearest box. */
function pick(windows: AxWindow[], info: WindowInfo): AxWindow {
  if (windows.length === 0) {
    throw new DesktopError("WINDOW_NOT_FOUND", `${info.app} has no window`, {
      suggestion: "Run list --windows",
    });
  }
  const distance = (w: AxWindow) =>
    w.bounds && info.b ? w.bounds.reduce((s, v, i) => s + Math.abs(v - info.b![i]), 0) : 1e9;
  const titled = windows.filter((w) => w.title === info.title);
  const pool = titled.length ? titled : windows;
  return pool.reduce((best, w) => (distance(w) < distance(best) ? w : best));
}

/** Presses one of the window's buttons (AXCloseButton, AXZoomButton). */
function pressButton(s: AxSession, win: AxWindow, attr: string, what: string): void {
  const { err, value } = s.copy(win.ref.ptr, attr);
  if (err !== 0 || value === null) {
    throw new DesktopError(
      "ACTION_NOT_SUPPORTED",
      `the window "${win.title}" has no ${what} button`,
      {
        suggestion: "Use the app's own menu instead",
      },
    );
  }
  using button = value;
  const e = s.perform(button.ptr, "AXPress");
  if (e !== 0) throw failed(what, e);
}

function stateOf(s: AxSession, pid: number, title: string): WindowState {
  using app = s.appElement(pid);
  const { windows } = axWindows(s, app);
  try {
    const w = windows.find((x) => x.title === title);
    if (!w) return { exists: false };
    const min = s.copy(w.ref.ptr, "AXMinimized");
    let minimized = false;
    if (min.err === 0 && min.value) {
      using v = min.value;
      minimized = s.cf.readBoolean(v.ptr) ?? false;
    }
    return { ...(w.bounds ? { b: w.bounds } : {}), minimized, exists: true };
  } finally {
    for (const w of windows) w.ref[Symbol.dispose]();
  }
}

/**
 * Carries out one window operation on the window `info` names.
 *
 * @param s the session
 * @param info the window (from listWindows)
 * @param op what to do
 * @returns the window's state afterwards
 * @throws DesktopError ACTION_NOT_SUPPORTED (a window that cannot be resized, no such
 *   button), ACTION_FAILED (the app refused), WINDOW_NOT_FOUND
 */
export function macWindowAction(s: AxSession, info: WindowInfo, op: WindowOp): WindowState {
  using app = s.appElement(info.pid);
  const { windows } = axWindows(s, app);
  try {
    const win = pick(windows, info);
    const set = (attr: string, value: Deno.PointerValue, what: string) => {
      if (value === null) throw failed(what, -25201);
      using v = s.cf.own(value, attr);
      const err = s.set(win.ref.ptr, attr, v.ptr);
      if (err !== 0) throw failed(what, err);
    };
    switch (op.kind) {
      case "move":
        set("AXPosition", createAxValue(s.libs.ax, { type: "point", x: op.x, y: op.y }), "move");
        break;
      case "resize": {
        if (!s.settable(win.ref.ptr, "AXSize").settable) {
          throw new DesktopError(
            "ACTION_NOT_SUPPORTED",
            `the window "${win.title}" cannot be resized`,
            {
              suggestion: "Its size is fixed by the app; move it instead",
            },
          );
        }
        set("AXSize", createAxValue(s.libs.ax, { type: "size", w: op.w, h: op.h }), "resize");
        break;
      }
      case "raise": {
        s.set(app.ptr, "AXFrontmost", s.cf.boolean(true));
        const err = s.perform(win.ref.ptr, "AXRaise");
        if (err !== 0) throw failed("raise", err);
        break;
      }
      case "minimize":
      case "restore": {
        const err = s.set(win.ref.ptr, "AXMinimized", s.cf.boolean(op.kind === "minimize"));
        if (err !== 0) throw failed(op.kind, err);
        break;
      }
      case "maximize":
        pressButton(s, win, "AXZoomButton", "zoom");
        break;
      case "close":
        pressButton(s, win, "AXCloseButton", "close");
        break;
    }
    return stateOf(s, info.pid, win.title);
  } finally {
    for (const w of windows) w.ref[Symbol.dispose]();
  }
}
