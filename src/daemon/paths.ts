/**
 * Where the background process of one user and one desktop listens: a unix
 * socket (mode 0600) and a token file (mode 0600) in the user's runtime
 * directory (`XDG_RUNTIME_DIR` when it is the user's own, else
 * `/tmp/desktop-<uid>`, made 0700). The file names carry a key of the
 * display, the buses and the state directory, so two desktops never share a
 * process, and another user can neither reach the socket nor read the token.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";

/** The variables that tell desktops (and ref stores) apart. */
export const KEY_VARIABLES: readonly string[] = [
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "AT_SPI_BUS_ADDRESS",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "DESKTOP_STATE_DIR",
  "HOME",
];

/** Where one background process listens. */
export interface DaemonPaths {
  /** The directory (the user's, mode 0700). */
  dir: string;
  /** The unix socket. */
  socket: string;
  /** The token a client must send (readable by the user only). */
  token: string;
  /** The key (hex) of this desktop. */
  key: string;
}

/**
 * A short stable key of a desktop: FNV-1a over its variables.
 *
 * @param env reads a variable
 * @returns 12 hex digits
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { desktopKey } from "./paths.ts";
 * const a = desktopKey((k) => ({ DISPLAY: ":1" } as Record<string, string>)[k]);
 * const b = desktopKey((k) => ({ DISPLAY: ":2" } as Record<string, string>)[k]);
 * assert.notEqual(a, b);
 * assert.match(a, /^[0-9a-f]{12}$/);
 * ```
 */
export function desktopKey(env: (k: string) => string | undefined): string {
  const text = KEY_VARIABLES.map((k) => `${k}=${env(k) ?? ""}`).join("\n");
  // FNV-1a, 64 bits, in two 32-bit halves: BigInt arithmetic costs a millisecond of a CLI call
  // that takes fifty. The prime is 2^40 + 0x1b3.
  let hi = 0xcbf29ce4, lo = 0x84222325;
  for (const c of new TextEncoder().encode(text)) {
    lo = (lo ^ c) >>> 0;
    const low = lo * 0x1b3; // below 2^41: exact
    const carry = Math.floor(low / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = low >>> 0;
  }
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  return (hex(hi) + hex(lo)).slice(0, 12);
}

/** This process's user id. */
function uid(): number {
  return Deno.uid() ?? 0;
}

/** Whether `dir` is a directory of this user that nobody else can enter. */
function ownPrivateDir(dir: string): boolean {
  try {
    const st = Deno.statSync(dir);
    return st.isDirectory && st.uid === uid() && ((st.mode ?? 0) & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The paths of this desktop's background process, the directory made when
 * needed.
 *
 * @returns the paths
 * @throws DesktopError PERMISSION_DENIED when no private directory can be had
 */
export function daemonPaths(): DaemonPaths {
  const env = (k: string) => Deno.env.get(k);
  let dir = env("XDG_RUNTIME_DIR") ?? "";
  if (!dir || !ownPrivateDir(dir)) {
    dir = `/tmp/desktop-${uid()}`;
    try {
      Deno.mkdirSync(dir, { mode: 0o700 });
    } catch {
      // Exists: checked below.
    }
    if (!ownPrivateDir(dir)) {
      throw new DesktopError(
        "PERMISSION_DENIED",
        `${dir} is not a private directory of this user`,
        {
          suggestion: "Set XDG_RUNTIME_DIR to a directory only you can enter, or pass --no-daemon",
        },
      );
    }
  }
  const key = desktopKey(env);
  return {
    dir,
    key,
    socket: `${dir}/desktop-daemon-${key}.sock`,
    token: `${dir}/desktop-daemon-${key}.token`,
  };
}
