/**
 * One input queue per display, shared by every process of the user: an
 * action holds an exclusive lock for its whole key and pointer sequence
 * (focus, keys, clicks), so two commands acting at once take turns instead
 * of mixing their keys (two concurrent `type`s into two fields of one app
 * left `AAAA...bbbb` in one and `AA` in the other, both reported ok).
 *
 * The lock is a `flock` on a file in the user's runtime directory
 * (`$XDG_RUNTIME_DIR/desktop`, else the state directory), named for the
 * display: the kernel releases it when its holder exits, however it exits,
 * so a crashed command never leaves the display locked. The file holds who
 * has the lock (pid, action, since when), for the error of a command that
 * could not get it within its deadline.
 *
 * @module
 */

import { sleepSync } from "./sleep_sync.ts";
import { DesktopError } from "../errors.ts";
import { cstr } from "../ffi/cstring.ts";
import { LIBC_LIBRARY, LIBC_SYMBOLS, LOCK, O_CLOEXEC, O_RDWR } from "../ffi/libc.ts";
import { stateDir } from "../state/ref_store.ts";

/** Who holds the input lock, as its file says. */
export interface InputHolder {
  /** The holder's process id. */
  pid: number;
  /** The action it carries out (type, click...). */
  action: string;
  /** When it took the lock (ms since the epoch). */
  since: number;
}

/** Options of {@link holdInput}, for tests. */
export interface HoldOptions {
  /** The lock file (default: named for the display, in the runtime directory). */
  path?: string;
  /** Milliseconds now. */
  now?: () => number;
}

/** Pause between two tries while another process holds the lock (ms). */
const RETRY_MS = 10;

let lib: Deno.DynamicLibrary<typeof LIBC_SYMBOLS> | null | undefined;

/** The C library, or null where it cannot be loaded (no lock then). */
function libc(): Deno.DynamicLibrary<typeof LIBC_SYMBOLS> | null {
  if (lib !== undefined) return lib;
  try {
    lib = Deno.dlopen(LIBC_LIBRARY, LIBC_SYMBOLS);
  } catch {
    lib = null;
  }
  return lib;
}

/** This process's hold: the descriptor and how many nested holds share it. */
let held: { fd: number; depth: number } | null = null;

/**
 * Takes the display's input lock for one action, waiting for another holder
 * until `deadline`. Holds nest within one process (an action that carries
 * out another takes the lock once). Where no lock file can be kept (no
 * runtime or state directory, a read-only one), input is not serialised.
 *
 * @param action what the lock is taken for (named to a command that waits)
 * @param deadline the command's deadline (ms since the epoch)
 * @param opts the lock file and clock (tests)
 * @returns the hold: dispose it (`using`) to release the lock
 * @throws DesktopError TIMEOUT when another process holds the lock past the
 *   deadline, naming it
 * @example
 * ```ts ignore
 * import { holdInput } from "./input_lock.ts";
 * {
 *   using _input = holdInput("type", Date.now() + 5000);
 *   // focus the field, send the keys
 * } // released here, also when an error is thrown
 * ```
 */
export function holdInput(action: string, deadline: number, opts: HoldOptions = {}): Disposable {
  if (held) {
    held.depth++;
    return { [Symbol.dispose]: release };
  }
  const path = opts.path ?? lockPath();
  const c = path ? libc() : null;
  if (!path || !c) return { [Symbol.dispose]: () => {} };
  const fd = openLockFile(c, path);
  if (fd < 0) return { [Symbol.dispose]: () => {} };
  const now = opts.now ?? Date.now;
  while (c.symbols.flock(fd, LOCK.EX | LOCK.NB) !== 0) {
    if (now() >= deadline) {
      c.symbols.close(fd);
      throw busy(path, readHolder(path), now());
    }
    sleepSync(RETRY_MS);
  }
  held = { fd, depth: 1 };
  try {
    const holder: InputHolder = { pid: Deno.pid, action, since: Date.now() };
    Deno.writeTextFileSync(path, JSON.stringify(holder));
  } catch {
    // The lock holds without its note; a waiting command then names no holder.
  }
  return { [Symbol.dispose]: release };
}

/** Ends one hold; the last one closes the file, which releases the lock. */
function release(): void {
  if (!held || --held.depth > 0) return;
  const fd = held.fd;
  held = null;
  libc()?.symbols.close(fd);
}

/** Opens (creating when missing) the lock file; -1 when it cannot be kept. */
function openLockFile(c: Deno.DynamicLibrary<typeof LIBC_SYMBOLS>, path: string): number {
  try {
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
    Deno.openSync(path, { create: true, write: true, mode: 0o600 }).close();
  } catch {
    return -1;
  }
  return c.symbols.open(cstr(path), O_RDWR | O_CLOEXEC);
}

/**
 * The lock file of this display: `input-<display>.lock` in
 * `$XDG_RUNTIME_DIR/desktop`, else in the state directory; null when there
 * is neither (or no permission to read the environment).
 *
 * @returns the path, or null
 */
export function lockPath(): string | null {
  try {
    const runtime = Deno.env.get("XDG_RUNTIME_DIR");
    const dir = runtime ? `${runtime}/desktop` : stateDir();
    if (!dir) return null;
    return `${dir}/input-${displayKey(Deno.build.os, Deno.env.get("DISPLAY"))}.lock`;
  } catch {
    return null;
  }
}

/**
 * The part of the lock file's name that names the display: the X display
 * without its screen number (`:1.0` and `:1` are one keyboard), or
 * `console` on macOS.
 *
 * @param os the platform
 * @param display the DISPLAY variable
 * @returns a file-name-safe key
 * @example
 * ```ts
 * import { displayKey } from "./input_lock.ts";
 * console.log(displayKey("linux", ":1.0"), displayKey("darwin", undefined)); // "_1" "console"
 * ```
 */
export function displayKey(os: string, display: string | undefined): string {
  if (os === "darwin" || !display) return "console";
  return display.replace(/\.\d+$/, "").replace(/[^A-Za-z0-9._-]/g, "_");
}

/** Who holds the lock, as its file says; null when it says nothing readable. */
function readHolder(path: string): InputHolder | null {
  try {
    const v = JSON.parse(Deno.readTextFileSync(path));
    return typeof v?.pid === "number" && typeof v?.since === "number"
      ? { pid: v.pid, action: String(v.action ?? ""), since: v.since }
      : null;
  } catch {
    return null;
  }
}

/** The TIMEOUT of a command that waited its deadline out for the input. */
function busy(path: string, holder: InputHolder | null, now: number): DesktopError {
  const who = holder
    ? `another desktop command (pid ${holder.pid}, ${holder.action || "an action"}, for ${
      ((now - holder.since) / 1000).toFixed(1)
    } s)`
    : "another desktop command";
  return new DesktopError(
    "TIMEOUT",
    `${who} held the keyboard and pointer until the deadline; nothing was sent`,
    {
      suggestion: "Commands act one at a time, so their keys never mix: retry when it is done, " +
        "or raise --timeout to wait longer",
      details: { lock: path, ...(holder ? { holder } : {}) },
    },
  );
}
