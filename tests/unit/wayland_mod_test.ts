/**
 * The Wayland integration's pure parts: which compositor a session is, the
 * keysyms mutter is sent, and the errors a compositor without an input
 * path, a screenshot or a window operation gives.
 */

import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import {
  compositorFromEnv,
  noInputOn,
  waylandInput,
} from "../../src/platform/linux/wayland/mod.ts";
import {
  charKeysym,
  chordKeysyms,
  mutterInput,
  mutterPointerError,
} from "../../src/platform/linux/wayland/mutter.ts";
import { modifiersOf } from "../../src/platform/linux/input.ts";
import { waylandScreenshotError } from "../../src/platform/linux/screen.ts";
import { gvString, printedStrings } from "../../src/platform/linux/dbus/gio_sync.ts";

Deno.test("compositorFromEnv tells wlroots, KDE and GNOME apart", () => {
  assert.equal(compositorFromEnv({ SWAYSOCK: "/run/user/1000/sway-ipc.sock" }), "wlroots");
  assert.equal(compositorFromEnv({ HYPRLAND_INSTANCE_SIGNATURE: "x" }), "wlroots");
  assert.equal(compositorFromEnv({ XDG_CURRENT_DESKTOP: "sway" }), "wlroots");
  assert.equal(compositorFromEnv({ XDG_CURRENT_DESKTOP: "KDE" }), "kde");
  assert.equal(compositorFromEnv({ KDE_FULL_SESSION: "true" }), "kde");
  assert.equal(compositorFromEnv({ XDG_CURRENT_DESKTOP: "ubuntu:GNOME" }), "mutter");
  assert.equal(compositorFromEnv({ XDG_SESSION_DESKTOP: "gnome" }), "mutter");
  assert.equal(compositorFromEnv({ XDG_CURRENT_DESKTOP: "XFCE" }), "unknown");
});

Deno.test("a compositor with no input path is named with what it lacks and the way round", () => {
  // No WAYLAND_DISPLAY here: an unnamed compositor offers no wlroots devices either.
  const saved = Deno.env.get("WAYLAND_DISPLAY");
  Deno.env.delete("WAYLAND_DISPLAY");
  for (const compositor of ["kde", "unknown"] as const) {
    assert.throws(() => waylandInput({ display: "wayland-1", compositor }));
    try {
      waylandInput({ display: "wayland-1", compositor });
    } catch (e) {
      assert.ok(e instanceof DesktopError);
      assert.equal(e.code, "PLATFORM_NOT_SUPPORTED");
      assert.match(e.message, /wayland-1/);
      assert.match(e.suggestion ?? "", /click by ref/);
      assert.equal(e.details?.compositor, compositor);
    }
  }
  if (saved !== undefined) Deno.env.set("WAYLAND_DISPLAY", saved);
  assert.throws(() => waylandInput(null), /no Wayland session/);
  assert.match(noInputOn({ display: "w", compositor: "kde" }, "x").message, /KDE's KWin/);
});

Deno.test("mutter is sent keysyms: characters, line breaks, chords", () => {
  assert.equal(charKeysym("A"), 0x41);
  assert.equal(charKeysym(" "), 0x20);
  assert.equal(charKeysym("\t"), 0xff09);
  assert.equal(charKeysym("\n"), 0xff0d);
  assert.equal(charKeysym("é"), 0xe9);
  assert.equal(charKeysym("α"), 0x010003b1);
  assert.deepEqual(chordKeysyms({ mods: ["ctrl", "shift"], key: "Tab" }), {
    mods: [0xffe3, 0xffe1],
    key: 0xff09,
  });
  assert.throws(() => chordKeysyms({ mods: ["fn"], key: "a" }), /fn is a macOS modifier/);
  assert.throws(() => chordKeysyms({ mods: [], key: "nosuchkey" }), /no such key/);
  assert.deepEqual(modifiersOf(1 | 4 | 8 | 64), ["shift", "ctrl", "alt", "super"]);
  assert.deepEqual(modifiersOf(0), []);
});

Deno.test("mutter's pointer is refused with an error naming mutter, before anything is sent", () => {
  const input = mutterInput();
  for (
    const run of [
      () => input.click({ x: 5, y: 5 }, "left", 1),
      () => input.move({ x: 5, y: 5 }),
      () => input.wheel({ x: 5, y: 5 }, "down", 3),
      () => input.drag({ x: 5, y: 5 }, { x: 9, y: 9 }),
    ]
  ) {
    assert.throws(run, (e) =>
      e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED" &&
      /GNOME's mutter/.test(e.message) && e.details?.compositor === "mutter");
  }
  assert.match(mutterPointerError("click").suggestion ?? "", /accessible action/);
});

Deno.test("screenshots on Wayland say what each compositor lacks", () => {
  assert.match(waylandScreenshotError({ display: "w", compositor: "kde" }).message, /KWin/);
  assert.match(
    waylandScreenshotError({ display: "w", compositor: "wlroots" }).message,
    /screencopy/,
  );
  assert.match(
    waylandScreenshotError({ display: "w", compositor: "unknown" }).message,
    /no wlroots screencopy, no GNOME ScreenCast/,
  );
});

Deno.test("GVariant text: strings quoted and read back", () => {
  assert.equal(gvString("a'b\\c"), "'a\\'b\\\\c'");
  assert.deepEqual(printedStrings("(objectpath '/org/x/Session/u1',)"), ["/org/x/Session/u1"]);
  assert.deepEqual(printedStrings(`('it\\'s', "q")`), ["it's", "q"]);
  assert.deepEqual(printedStrings("(true,)"), []);
});
