/**
 * sway's IPC (`SWAYSOCK`, i3's protocol: `i3-ipc`, a little-endian length
 * and type, then JSON) for what a Wayland client is never told: where each
 * window is on the screen. Element boxes of a Wayland app are relative to
 * its window; {@link swayWindowOrigin} gives the offset that maps them to
 * the layout.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import {
  AF_UNIX,
  POLLIN,
  SOCK_STREAM_CLOEXEC,
  WAYLAND_LIBC_LIBRARY,
  WAYLAND_LIBC_SYMBOLS,
} from "../../../ffi/wayland.ts";
import type { Bounds } from "../../../model/element.ts";

/** One window sway manages. */
export interface SwayWindow {
  /** sway's container id. */
  id: number;
  /** The app's process id. */
  pid: number;
  /** The window's title. */
  title: string;
  /** The Wayland app id (or X11 class under Xwayland), "" when none. */
  appId: string;
  /** The window's content (its surface's visible part) in layout pixels. */
  rect: Bounds;
  /** Where the client's surface starts, in layout pixels: add it to window-relative boxes. */
  origin: { x: number; y: number };
  /** Whether it has the focus. */
  focused: boolean;
}

/** i3-ipc message types used. */
const GET_TREE = 4;
const MAGIC = new TextEncoder().encode("i3-ipc");

/**
 * One IPC request and its JSON answer.
 *
 * @param type the message type
 * @param timeoutMs how long it may take
 * @param socket the socket path (`SWAYSOCK` by default)
 * @returns the parsed answer
 * @throws DesktopError PLATFORM_NOT_SUPPORTED without SWAYSOCK, TIMEOUT past the deadline
 */
export async function swayRequest(
  type: number,
  timeoutMs = 5_000,
  socket = Deno.env.get("SWAYSOCK"),
): Promise<unknown> {
  if (!socket) {
    throw new DesktopError("PLATFORM_NOT_SUPPORTED", "no sway IPC socket (SWAYSOCK is not set)", {
      suggestion:
        "run inside the sway session, or set SWAYSOCK to its socket ($XDG_RUNTIME_DIR/sway-ipc.*.sock)",
    });
  }
  const conn = await Deno.connect({ transport: "unix", path: socket }).catch((e) => {
    throw new DesktopError(
      "PLATFORM_NOT_SUPPORTED",
      `cannot reach sway's IPC at ${socket}: ${(e as Error).message}`,
      {
        suggestion: "check sway runs and SWAYSOCK names its socket",
      },
    );
  });
  const timer = setTimeout(() => conn.close(), timeoutMs);
  try {
    const head = new Uint8Array(14);
    head.set(MAGIC);
    new DataView(head.buffer).setUint32(6, 0, true);
    new DataView(head.buffer).setUint32(10, type, true);
    await conn.write(head);
    const reply = await readExactly(conn, 14);
    const len = new DataView(reply.buffer).getUint32(6, true);
    const body = await readExactly(conn, len);
    return JSON.parse(new TextDecoder().decode(body));
  } catch (e) {
    if (e instanceof DesktopError) throw e;
    throw new DesktopError(
      "TIMEOUT",
      `sway's IPC at ${socket} did not answer: ${(e as Error).message}`,
      {
        suggestion: "check sway is not stuck",
      },
    );
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed by the timer */ }
  }
}

async function readExactly(conn: Deno.Conn, n: number): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const k = await conn.read(out.subarray(got));
    if (k === null) throw new Error("connection closed");
    got += k;
  }
  return out;
}

interface SwayNode {
  id: number;
  type?: string;
  name?: string | null;
  pid?: number;
  app_id?: string | null;
  focused?: boolean;
  rect?: { x: number; y: number; width: number; height: number };
  window_rect?: { x: number; y: number; width: number; height: number };
  geometry?: { x: number; y: number; width: number; height: number };
  window_properties?: { class?: string };
  nodes?: SwayNode[];
  floating_nodes?: SwayNode[];
}

/**
 * The windows of a sway tree (`GET_TREE`'s answer), leaves with a pid, in
 * tree order.
 *
 * @param tree the parsed tree
 * @returns its windows
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { windowsOfTree } from "./sway_ipc.ts";
 * const tree = { id: 1, nodes: [{ id: 2, nodes: [{ id: 3, pid: 42, name: "Form", app_id: "form", focused: true,
 *   rect: { x: 0, y: 0, width: 640, height: 480 }, window_rect: { x: 2, y: 2, width: 636, height: 476 },
 *   geometry: { x: 0, y: 0, width: 636, height: 476 } }] }] };
 * assert.deepEqual(windowsOfTree(tree), [{ id: 3, pid: 42, title: "Form", appId: "form",
 *   rect: [2, 2, 636, 476], origin: { x: 2, y: 2 }, focused: true }]);
 * ```
 */
export function windowsOfTree(tree: unknown): SwayWindow[] {
  const out: SwayWindow[] = [];
  const walk = (n: SwayNode) => {
    if (typeof n.pid === "number" && n.rect && n.window_rect) {
      const x = n.rect.x + n.window_rect.x;
      const y = n.rect.y + n.window_rect.y;
      out.push({
        id: n.id,
        pid: n.pid,
        title: n.name ?? "",
        appId: n.app_id ?? n.window_properties?.class ?? "",
        rect: [x, y, n.window_rect.width, n.window_rect.height],
        origin: { x: x - (n.geometry?.x ?? 0), y: y - (n.geometry?.y ?? 0) },
        focused: n.focused === true,
      });
    }
    for (const c of [...(n.nodes ?? []), ...(n.floating_nodes ?? [])]) walk(c);
  };
  walk(tree as SwayNode);
  return out;
}

/**
 * Every window sway manages, with its app's pid, title and place.
 *
 * @param timeoutMs how long the IPC call may take
 * @returns the windows
 */
export async function swayWindows(timeoutMs = 5_000): Promise<SwayWindow[]> {
  return windowsOfTree(await swayRequest(GET_TREE, timeoutMs));
}

/**
 * Where a window's surface starts on the layout: add it to the window-
 * relative boxes of its app's elements. The window is found by pid and,
 * when the app has several, by title.
 *
 * @param pid the app's process id
 * @param title the window's title (as its accessible frame names it)
 * @param timeoutMs how long the IPC call may take
 * @returns the origin, or undefined when sway shows no such window
 */
export async function swayWindowOrigin(
  pid: number,
  title?: string,
  timeoutMs = 5_000,
): Promise<{ x: number; y: number } | undefined> {
  return pickWindow(await swayWindows(timeoutMs), pid, title)?.origin;
}

/** The app's one window, or the one with that title. */
function pickWindow(all: SwayWindow[], pid: number, title?: string): SwayWindow | undefined {
  const mine = all.filter((w) => w.pid === pid);
  if (mine.length === 1) return mine[0];
  return mine.find((w) => w.title === title) ?? (title === undefined ? mine[0] : undefined);
}

let libc: Deno.DynamicLibrary<typeof WAYLAND_LIBC_SYMBOLS>["symbols"] | undefined;

function noSocket(): DesktopError {
  return new DesktopError("PLATFORM_NOT_SUPPORTED", "no sway IPC socket (SWAYSOCK is not set)", {
    suggestion:
      "run inside the sway session, or set SWAYSOCK to its socket ($XDG_RUNTIME_DIR/sway-ipc.*.sock)",
  });
}

/**
 * One IPC request and its JSON answer, blocking (for synchronous callers
 * such as an element's point on screen): a unix socket through libc, each
 * wait bounded by the deadline.
 *
 * @param type the message type (4 is GET_TREE)
 * @param timeoutMs how long it may take
 * @param socket the socket path (`SWAYSOCK` by default)
 * @returns the parsed answer
 * @throws DesktopError PLATFORM_NOT_SUPPORTED without SWAYSOCK or when it cannot be reached, TIMEOUT past the deadline
 */
export function swayRequestSync(
  type: number,
  timeoutMs = 5_000,
  socket = Deno.env.get("SWAYSOCK"),
): unknown {
  if (!socket) throw noSocket();
  libc ??= Deno.dlopen(WAYLAND_LIBC_LIBRARY, WAYLAND_LIBC_SYMBOLS).symbols;
  const c = libc;
  const deadline = Date.now() + timeoutMs;
  const path = new TextEncoder().encode(socket);
  if (path.length >= 108) {
    throw new DesktopError("INVALID_ARGS", `SWAYSOCK is too long for a unix socket: ${socket}`);
  }
  const addr = new Uint8Array(110);
  new DataView(addr.buffer).setUint16(0, AF_UNIX, true);
  addr.set(path, 2);
  const fd = c.socket(AF_UNIX, SOCK_STREAM_CLOEXEC, 0);
  if (fd < 0) throw new DesktopError("ACTION_FAILED", "cannot open a unix socket");
  const timeout = () =>
    new DesktopError("TIMEOUT", `sway's IPC at ${socket} did not answer in time`, {
      suggestion: "check sway is not stuck",
    });
  const wait = () => {
    const pfd = new Uint8Array(8);
    const v = new DataView(pfd.buffer);
    v.setInt32(0, fd, true);
    v.setInt16(4, POLLIN, true);
    const left = deadline - Date.now();
    if (left <= 0 || c.poll(pfd, 1n, left) <= 0) throw timeout();
  };
  const readN = (n: number): Uint8Array<ArrayBuffer> => {
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      wait();
      const k = Number(c.read(fd, out.subarray(got), BigInt(n - got)));
      if (k <= 0) {
        throw new DesktopError("ACTION_FAILED", `sway's IPC at ${socket} closed the connection`);
      }
      got += k;
    }
    return out;
  };
  try {
    if (c.connect(fd, addr, 110) !== 0) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", `cannot reach sway's IPC at ${socket}`, {
        suggestion: "check sway runs and SWAYSOCK names its socket",
      });
    }
    const head = new Uint8Array(14);
    head.set(MAGIC);
    new DataView(head.buffer).setUint32(10, type, true);
    if (Number(c.write(fd, head, 14n)) !== 14) {
      throw new DesktopError("ACTION_FAILED", `cannot write to sway's IPC at ${socket}`);
    }
    const reply = readN(14);
    const body = readN(new DataView(reply.buffer).getUint32(6, true));
    return JSON.parse(new TextDecoder().decode(body));
  } finally {
    c.close(fd);
  }
}

/**
 * {@link swayWindowOrigin}, blocking: where a window's surface starts on the
 * layout, for synchronous callers.
 *
 * @param pid the app's process id
 * @param title the window's title, when the app has several
 * @param timeoutMs how long the IPC call may take
 * @returns the origin, or undefined when sway shows no such window
 */
export function swayWindowOriginSync(
  pid: number,
  title?: string,
  timeoutMs = 5_000,
): { x: number; y: number } | undefined {
  return pickWindow(windowsOfTree(swayRequestSync(GET_TREE, timeoutMs)), pid, title)?.origin;
}
