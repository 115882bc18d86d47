/**
 * Screenshots on X11: `XGetImage` of the root window, which shows what is on
 * screen (windows on top included), clipped to the screen. In a Wayland
 * session with no X display the compositor alone holds the pixels: a
 * wlroots compositor gives them through its screencopy protocol
 * (wayland/wlroots.ts), GNOME's mutter through a ScreenCast stream over
 * PipeWire (wayland/mutter_screencast.ts); what other compositors lack for
 * this tool is said clearly (see {@link waylandScreenshotError}).
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Bounds } from "../../model/element.ts";
import type { ScreenCapture } from "../provider.ts";
import { type WaylandSession, waylandSession } from "./wayland/mod.ts";
import { X11 } from "./x11.ts";
import { wlrootsCapture } from "./wayland/wlroots.ts";
import { mutterCapture } from "./wayland/mutter_screencast.ts";
import { swayWindowOrigin } from "./wayland/sway_ipc.ts";

/**
 * Captures a rectangle of the screen, or the whole screen.
 *
 * @param rect global pixels; absent for the whole screen
 * @param timeoutMs how long a Wayland compositor may take to give the pixels
 * @returns the pixels, the region they cover and scale 1
 * @throws DesktopError PLATFORM_NOT_SUPPORTED without an X display (on Wayland, naming what
 *   the compositor lacks), INVALID_ARGS off screen
 */
export function captureScreen(rect?: Bounds, timeoutMs?: number): ScreenCapture {
  const wayland = waylandSession();
  if (wayland?.compositor === "wlroots") return wlrootsCapture(rect, timeoutMs);
  if (wayland?.compositor === "mutter") return mutterCapture(rect, timeoutMs);
  if (wayland) throw waylandScreenshotError(wayland);
  using x = X11.open();
  const { image, region } = x.capture(rect);
  return { image, region, scale: 1 };
}

/**
 * What to add to a window's boxes, as its app reports them, to place them
 * on the screen a capture shows: nothing under X11 (windows are listed at
 * their screen place); under Wayland, where an app's boxes are relative to
 * its window, the window's place as the compositor tells it (sway's IPC),
 * or null where the compositor tells no client (mutter, KWin): a window or
 * element is then never cropped at a guessed place.
 *
 * @param window the window (its app's pid and its title), asked for only under Wayland
 * @returns the offset, or null when it is unknown
 */
export async function windowOriginOnScreen(
  window: () => Promise<{ pid: number; title: string }>,
): Promise<{ x: number; y: number } | null> {
  const wayland = waylandSession();
  if (!wayland) return { x: 0, y: 0 };
  if (wayland.compositor !== "wlroots" || !Deno.env.get("SWAYSOCK")) return null;
  const w = await window();
  return (await swayWindowOrigin(w.pid, w.title)) ?? null;
}

/**
 * Why a screenshot cannot be taken in a Wayland session whose compositor
 * offers this tool no capture: KDE's KWin gives its ScreenShot2 interface
 * only to apps it allows; a wlroots compositor without screencopy, or an
 * unknown one, gives none. (wlroots with screencopy and GNOME's mutter are
 * captured.)
 *
 * @param s the session
 * @returns PLATFORM_NOT_SUPPORTED naming the compositor, what it lacks and the way round
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waylandScreenshotError } from "./screen.ts";
 * const e = waylandScreenshotError({ display: "wayland-0", compositor: "kde" });
 * assert.equal(e.code, "PLATFORM_NOT_SUPPORTED");
 * assert.match(e.message, /KWin/);
 * ```
 */
export function waylandScreenshotError(s: WaylandSession): DesktopError {
  const lacks = s.compositor === "kde"
    ? "KDE's KWin gives screenshots (org.kde.KWin.ScreenShot2) only to apps it allows"
    : s.compositor === "wlroots"
    ? "the wlroots screencopy protocol is not reachable here"
    : "this Wayland compositor gives clients no screenshot (no wlroots screencopy, no " +
      "GNOME ScreenCast)";
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `no screenshot on Wayland display ${s.display}: ${lacks}`,
    {
      suggestion: "Use read (the accessibility tree) to see the window, or run the app under " +
        "X11 or Xwayland (DISPLAY set) to take screenshots",
      details: { compositor: s.compositor, wayland: s.display },
    },
  );
}
