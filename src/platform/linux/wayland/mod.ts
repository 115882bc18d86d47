/**
 * The Wayland session this process runs in, and the keyboard and pointer
 * its compositor gives a client: which compositor it is (GNOME's mutter by
 * its D-Bus names, wlroots compositors such as sway by `SWAYSOCK` or
 * `XDG_CURRENT_DESKTOP`, KDE's KWin), and the action executor's input
 * delegate for it. A compositor with no input path for this tool is a clear
 * PLATFORM_NOT_SUPPORTED naming it, what it lacks and the way round it.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import { SyncBus } from "../dbus/gio_sync.ts";
import { mutterInput, mutterRuns, type WaylandInput } from "./mutter.ts";
import { wlrootsInput } from "./wlroots.ts";

export type { WaylandInput };

/** Compositors told apart. */
export type Compositor = "mutter" | "wlroots" | "kde" | "unknown";

/** A Wayland session without an X display. */
export interface WaylandSession {
  /** The Wayland display's name (`WAYLAND_DISPLAY`). */
  display: string;
  /** Which compositor serves it. */
  compositor: Compositor;
}

/** Reads an environment variable ("" when unset or not allowed). */
function env(name: string): string {
  try {
    return Deno.env.get(name) ?? "";
  } catch {
    return "";
  }
}

/**
 * Names the compositor from what the environment says, without asking the
 * bus: `SWAYSOCK` or a wlroots desktop name, KDE, GNOME.
 *
 * @param vars the environment
 * @returns the compositor, or "unknown" when the environment does not say
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compositorFromEnv } from "./mod.ts";
 * assert.equal(compositorFromEnv({ SWAYSOCK: "/run/sway.sock" }), "wlroots");
 * assert.equal(compositorFromEnv({ XDG_CURRENT_DESKTOP: "KDE" }), "kde");
 * assert.equal(compositorFromEnv({ XDG_CURRENT_DESKTOP: "ubuntu:GNOME" }), "mutter");
 * assert.equal(compositorFromEnv({}), "unknown");
 * ```
 */
export function compositorFromEnv(vars: Record<string, string | undefined>): Compositor {
  if (vars.SWAYSOCK || vars.HYPRLAND_INSTANCE_SIGNATURE) return "wlroots";
  const desktop = `${vars.XDG_CURRENT_DESKTOP ?? ""}:${vars.XDG_SESSION_DESKTOP ?? ""}`
    .toLowerCase();
  if (/\b(sway|hyprland|river|wayfire|labwc|cage|wlroots)\b/.test(desktop)) return "wlroots";
  if (/\b(kde|plasma)\b/.test(desktop) || vars.KDE_FULL_SESSION) return "kde";
  if (/\bgnome\b/.test(desktop)) return "mutter";
  return "unknown";
}

/**
 * The Wayland session this process runs in: WAYLAND_DISPLAY set and no X
 * display (DISPLAY unset). Mutter is recognised by its RemoteDesktop name
 * on the session bus when the environment does not name the desktop.
 *
 * @returns the session, or null under X11 (or Xwayland) or with no display
 */
export function waylandSession(): WaylandSession | null {
  const display = env("WAYLAND_DISPLAY");
  if (!display || env("DISPLAY")) return null;
  let compositor = compositorFromEnv({
    SWAYSOCK: env("SWAYSOCK"),
    HYPRLAND_INSTANCE_SIGNATURE: env("HYPRLAND_INSTANCE_SIGNATURE"),
    XDG_CURRENT_DESKTOP: env("XDG_CURRENT_DESKTOP"),
    XDG_SESSION_DESKTOP: env("XDG_SESSION_DESKTOP"),
    KDE_FULL_SESSION: env("KDE_FULL_SESSION"),
  });
  if (compositor === "unknown" || compositor === "mutter") {
    try {
      using bus = SyncBus.open();
      compositor = mutterRuns(bus) ? "mutter" : compositor === "mutter" ? "unknown" : compositor;
    } catch {
      // no session bus: the environment's word stands
    }
  }
  return { display, compositor };
}

/**
 * The error for a compositor that gives this tool no keys or pointer.
 *
 * @param s the session
 * @param lacks what the compositor lacks
 * @returns PLATFORM_NOT_SUPPORTED naming the compositor and the way round it
 */
export function noInputOn(s: WaylandSession, lacks: string): DesktopError {
  const who = COMPOSITOR_NAMES[s.compositor];
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `no keys or pointer on ${who} (Wayland display ${s.display}): ${lacks}`,
    {
      suggestion: "Act through the element instead: click by ref (its accessible action), " +
        "set-value, type into a text field, focus and scroll by ref work without input; for " +
        "keys and the pointer, run the app under X11 or Xwayland (DISPLAY set)",
      details: { compositor: s.compositor, wayland: s.display },
    },
  );
}

const COMPOSITOR_NAMES: Record<Compositor, string> = {
  mutter: "GNOME's mutter",
  wlroots: "a wlroots compositor",
  kde: "KDE's KWin",
  unknown: "this Wayland compositor",
};

/**
 * The keyboard and pointer of the Wayland compositor this process runs
 * under, as the action executor's input delegate.
 *
 * @param s the session (found by {@link waylandSession} by default)
 * @returns mutter's RemoteDesktop keyboard on GNOME; the virtual keyboard
 *   and pointer of a wlroots compositor (src/platform/linux/wayland/wlroots.ts)
 * @throws DesktopError PLATFORM_NOT_SUPPORTED naming the compositor where
 *   there is no input path (KDE's fake-input, a compositor without wlroots'
 *   virtual devices, or no Wayland session at all)
 * @example KDE is named as unsupported
 * ```ts
 * import assert from "node:assert/strict";
 * import { waylandInput } from "./mod.ts";
 * assert.throws(
 *   () => waylandInput({ display: "wayland-0", compositor: "kde" }),
 *   /no keys or pointer on KDE's KWin/,
 * );
 * ```
 */
export function waylandInput(s: WaylandSession | null = waylandSession()): WaylandInput {
  if (!s) {
    throw new DesktopError(
      "PLATFORM_NOT_SUPPORTED",
      "no Wayland session (WAYLAND_DISPLAY is not set)",
      {
        suggestion: "Run inside the desktop session, or set DISPLAY for X11",
      },
    );
  }
  switch (s.compositor) {
    case "mutter":
      return mutterInput();
    case "kde":
      throw noInputOn(s, "its fake-input protocol is not spoken by this tool yet");
    case "wlroots":
      // Its own errors name the protocol it lacks and the way round.
      return wlrootsInput();
    default: {
      // An unnamed compositor may still offer wlroots' virtual keyboard and pointer.
      try {
        return wlrootsInput();
      } catch {
        throw noInputOn(
          s,
          "it is not GNOME's mutter (no org.gnome.Mutter.RemoteDesktop on the session bus) and " +
            "offers no wlroots virtual keyboard or pointer",
        );
      }
    }
  }
}
