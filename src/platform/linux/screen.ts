/**
 * Screenshots on X11: `XGetImage` of the root window, which shows what is on
 * screen (windows on top included), clipped to the screen. In a Wayland
 * session with no X display the compositor alone holds the pixels: a
 * wlroots compositor gives them through its screencopy protocol
 * (wayland/wlroots.ts); what other compositors lack for this tool is said
 * clearly (see {@link waylandScreenshotError}).
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Bounds } from "../../model/element.ts";
import type { ScreenCapture } from "../provider.ts";
import { SyncBus } from "./dbus/gio_sync.ts";
import { type WaylandSession, waylandSession } from "./wayland/mod.ts";
import { X11 } from "./x11.ts";
import { wlrootsCapture } from "./wayland/wlroots.ts";

/**
 * Captures a rectangle of the screen, or the whole screen.
 *
 * @param rect global pixels; absent for the whole screen
 * @returns the pixels, the region they cover and scale 1
 * @throws DesktopError PLATFORM_NOT_SUPPORTED without an X display (on Wayland, naming what
 *   the compositor lacks), INVALID_ARGS off screen
 */
export function captureScreen(rect?: Bounds): ScreenCapture {
  const wayland = waylandSession();
  if (wayland?.compositor === "wlroots") return wlrootsCapture(rect);
  if (wayland) throw waylandScreenshotError(wayland, shellScreenshotRuns());
  using x = X11.open();
  const { image, region } = x.capture(rect);
  return { image, region, scale: 1 };
}

/** Whether gnome-shell's Screenshot interface is on the session bus. */
function shellScreenshotRuns(): boolean {
  try {
    using bus = SyncBus.open();
    return bus.hasOwner("org.gnome.Shell.Screenshot");
  } catch {
    return false;
  }
}

/**
 * Why a screenshot cannot be taken in a Wayland session: mutter alone has
 * no screenshot interface (gnome-shell's `org.gnome.Shell.Screenshot` is
 * allowed only to GNOME's own screenshot tools since GNOME 41, and
 * mutter's ScreenCast delivers frames over PipeWire); wlroots compositors
 * offer the screencopy protocol; KDE's KWin its ScreenShot2 interface to
 * allowed apps.
 *
 * @param s the session
 * @param shell whether gnome-shell's Screenshot interface is on the bus
 * @returns PLATFORM_NOT_SUPPORTED naming the compositor, what it lacks and the way round
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waylandScreenshotError } from "./screen.ts";
 * const e = waylandScreenshotError({ display: "wayland-0", compositor: "mutter" }, false);
 * assert.equal(e.code, "PLATFORM_NOT_SUPPORTED");
 * assert.match(e.message, /GNOME's mutter/);
 * ```
 */
export function waylandScreenshotError(s: WaylandSession, shell: boolean): DesktopError {
  const lacks = s.compositor === "mutter"
    ? shell
      ? "on GNOME's gnome-shell, org.gnome.Shell.Screenshot answers only GNOME's own " +
        "screenshot tools, and ScreenCast frames come over PipeWire, which this tool does not read"
      : "GNOME's mutter runs without gnome-shell, so org.gnome.Shell.Screenshot is absent, and " +
        "its ScreenCast frames come over PipeWire, which this tool does not read"
    : s.compositor === "kde"
    ? "KDE's KWin gives screenshots (org.kde.KWin.ScreenShot2) only to apps it allows"
    : s.compositor === "wlroots"
    ? "the wlroots screencopy protocol is not reachable here"
    : "this Wayland compositor gives clients no screenshot (no wlroots screencopy)";
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `no screenshot on Wayland display ${s.display}: ${lacks}`,
    {
      suggestion: "Use read (the accessibility tree) to see the window, or run the app under " +
        "X11 or Xwayland (DISPLAY set) to take screenshots",
      details: { compositor: s.compositor, wayland: s.display, shell },
    },
  );
}
