/**
 * Keys on GNOME's compositor (mutter) through its RemoteDesktop D-Bus API
 * (`org.gnome.Mutter.RemoteDesktop`): one session per process, created and
 * started on first use, fed `NotifyKeyboardKeysym` presses and releases.
 * Mutter ends the session when this process's bus connection closes.
 *
 * The pointer is not offered: absolute motion needs a ScreenCast stream
 * linked to the session, and even then a Wayland client is never told where
 * a window is on screen, while AT-SPI boxes are relative to their window. A
 * pointer route fails with a clear error instead of clicking a guessed
 * point; the executor's accessible routes need no pointer.
 *
 * @module
 */

import { sleepSync } from "../../sleep_sync.ts";
import { DesktopError } from "../../../errors.ts";
import type { InputDelegate } from "../../../act/delegates.ts";

/**
 * A compositor's input delegate, which also presses a key by its X keysym
 * (what src/platform/linux/input.ts is given).
 */
export interface WaylandInput extends InputDelegate {
  /** Presses one keysym once with modifiers held around it. */
  pressKeysym(mods: Modifier[], keysym: number): void;
}
import type { KeyChord, Modifier } from "../../../act/keys.ts";
import { badCombo } from "../../../act/keys.ts";
import { printedStrings, SyncBus } from "../dbus/gio_sync.ts";
import { keysymFor } from "../keys.ts";

/** Mutter's RemoteDesktop bus name. */
export const MUTTER_REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop";
const RD_PATH = "/org/gnome/Mutter/RemoteDesktop";
const SESSION_IFACE = "org.gnome.Mutter.RemoteDesktop.Session";

/** The left-hand keysym of each modifier. */
const MODIFIER_KEYSYMS: Readonly<Record<Exclude<Modifier, "fn">, number>> = {
  shift: 0xffe1,
  ctrl: 0xffe3,
  alt: 0xffe9,
  super: 0xffeb,
};

/**
 * The keysym of one typed character: Return and Tab for line breaks and
 * tabs, Latin-1 as its code point, anything else as 0x01000000 + code point.
 *
 * @param ch one character (one code point)
 * @returns its X keysym
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { charKeysym } from "./mutter.ts";
 * assert.equal(charKeysym("a"), 0x61);
 * assert.equal(charKeysym("\n"), 0xff0d);
 * assert.equal(charKeysym("€"), 0x010020ac);
 * ```
 */
export function charKeysym(ch: string): number {
  if (ch === "\n" || ch === "\r") return 0xff0d;
  if (ch === "\t") return 0xff09;
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) ? cp : 0x01000000 + cp;
}

/**
 * The keysyms a chord holds and presses: modifiers first, then the key.
 *
 * @param chord the chord
 * @returns modifier keysyms and the key's keysym
 * @throws DesktopError INVALID_ARGS for fn or an unknown key
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chordKeysyms } from "./mutter.ts";
 * assert.deepEqual(chordKeysyms({ mods: ["ctrl"], key: "a" }), { mods: [0xffe3], key: 0x61 });
 * ```
 */
export function chordKeysyms(chord: KeyChord): { mods: number[]; key: number } {
  const mods: number[] = [];
  for (const m of chord.mods) {
    if (m === "fn") throw badCombo(`fn+${chord.key}`, "fn is a macOS modifier with no Linux key");
    mods.push(MODIFIER_KEYSYMS[m]);
  }
  const key = keysymFor(chord.key);
  if (key === undefined) throw badCombo(chord.key, "no such key");
  return { mods, key };
}

/**
 * The error of a pointer route on mutter: it tells no client where a window
 * is, so no element point can be mapped to the screen.
 *
 * @param what the pointer verb ("click", "scroll"...)
 * @returns PLATFORM_NOT_SUPPORTED naming mutter, what it lacks and the way round
 */
export function mutterPointerError(what: string): DesktopError {
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `no pointer ${what} on GNOME's mutter (Wayland): mutter does not tell a client where a ` +
      "window is on screen, and element boxes are relative to their window",
    {
      suggestion: "Act through the element: click by ref (its accessible action), set-value, " +
        "type, key, focus and scroll by ref need no pointer",
      details: { compositor: "mutter" },
    },
  );
}

/** A started RemoteDesktop session on this process's own bus connection. */
class MutterSession {
  constructor(readonly bus: SyncBus, readonly path: string) {}

  keysym(keysym: number, down: boolean): void {
    this.bus.call(
      MUTTER_REMOTE_DESKTOP,
      this.path,
      SESSION_IFACE,
      "NotifyKeyboardKeysym",
      `(uint32 ${keysym}, ${down})`,
    );
  }
}

let session: MutterSession | null = null;

/** X keysym of the left Shift key. */
const SHIFT_L = 0xffe1;
/** How long mutter takes to add a new session's keyboard to its seat (ms). */
const SEAT_PAUSE_MS = 100;

function openSession(): MutterSession {
  if (session) return session;
  const bus = SyncBus.open();
  try {
    const created = bus.call(
      MUTTER_REMOTE_DESKTOP,
      RD_PATH,
      MUTTER_REMOTE_DESKTOP,
      "CreateSession",
    );
    const path = printedStrings(created)[0];
    if (!path) throw new Error(`CreateSession answered ${created}`);
    bus.call(MUTTER_REMOTE_DESKTOP, path, SESSION_IFACE, "Start");
    const started = new MutterSession(bus, path);
    // Mutter adds the session's virtual keyboard to its seat as the first event arrives, and
    // that event is lost (seen: "abc" typed as "bc"): a lone Shift goes first, then a pause.
    started.keysym(SHIFT_L, true);
    started.keysym(SHIFT_L, false);
    sleepSync(SEAT_PAUSE_MS);
    session = started;
    return session;
  } catch (e) {
    bus.close();
    throw new DesktopError(
      "PERMISSION_DENIED",
      `GNOME's mutter refused a remote desktop session: ${(e as Error).message}`,
      {
        suggestion: "Allow remote input in this GNOME session (org.gnome.Mutter.RemoteDesktop " +
          "on the session bus), or act through the element (click by ref, set-value, type)",
        details: { compositor: "mutter" },
      },
    );
  }
}

/** Runs one session call; a session mutter dropped is opened again once. */
function withSession(what: string, run: (s: MutterSession) => void): void {
  try {
    run(openSession());
  } catch (e) {
    if (e instanceof DesktopError) throw e;
    session?.bus.close();
    session = null;
    try {
      run(openSession());
    } catch (again) {
      if (again instanceof DesktopError) throw again;
      throw new DesktopError("ACTION_FAILED", `mutter did not take the ${what}: ${again}`, {
        suggestion: "Check that the GNOME session still runs, or act through the element",
        details: { compositor: "mutter" },
      });
    }
  }
}

/**
 * Presses a chord once: modifiers down, key down and up, modifiers up
 * (released even when a press fails).
 */
function pressChord(s: MutterSession, mods: number[], key: number): void {
  const down: number[] = [];
  try {
    for (const m of mods) {
      s.keysym(m, true);
      down.push(m);
    }
    s.keysym(key, true);
    s.keysym(key, false);
  } finally {
    for (const m of down.reverse()) {
      try {
        s.keysym(m, false);
      } catch {
        // the session is gone: mutter released what it held
      }
    }
  }
}

/**
 * Mutter's keyboard as the executor's input delegate. Keys and text go
 * through the RemoteDesktop session; every pointer method throws
 * {@link mutterPointerError}.
 *
 * @returns the delegate (the session opens on the first key)
 * @example The pointer is refused before anything is sent
 * ```ts
 * import assert from "node:assert/strict";
 * import { mutterInput } from "./mutter.ts";
 * const input = mutterInput();
 * assert.equal(input.name, "mutter");
 * assert.throws(() => input.click({ x: 1, y: 1 }, "left", 1), /no pointer click on GNOME's mutter/);
 * ```
 */
export function mutterInput(): WaylandInput {
  return {
    name: "mutter",
    primary: "ctrl",
    click: () => {
      throw mutterPointerError("click");
    },
    move: () => {
      throw mutterPointerError("motion");
    },
    wheel: () => {
      throw mutterPointerError("scroll");
    },
    drag: () => {
      throw mutterPointerError("drag");
    },
    key: (chord, repeat) => {
      const { mods, key } = chordKeysyms(chord);
      for (let i = 0; i < repeat; i++) withSession("key", (s) => pressChord(s, mods, key));
    },
    pressKeysym: (mods, keysym) => {
      const held = chordKeysyms({ mods, key: "a" }).mods;
      withSession("key", (s) => pressChord(s, held, keysym));
    },
    type: (text) => {
      for (const ch of text) {
        const k = charKeysym(ch);
        withSession("text", (s) => pressChord(s, [], k));
      }
    },
  };
}

/**
 * Whether mutter's RemoteDesktop API is on the session bus.
 *
 * @param bus a session bus connection
 * @returns true under GNOME's mutter (or gnome-shell)
 */
export function mutterRuns(bus: SyncBus): boolean {
  return bus.hasOwner(MUTTER_REMOTE_DESKTOP);
}
