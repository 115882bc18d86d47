/**
 * A minimal Wayland client over libwayland-client by FFI: connect, list the
 * registry's globals, bind them, send requests (`wl_proxy_marshal_array_flags`)
 * and receive events through one proxy dispatcher, always within a
 * deadline (the display's socket is polled, never read blocking).
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import {
  MFD_CLOEXEC,
  POLLIN,
  WAYLAND_CLIENT_LIBRARY,
  WAYLAND_LIBC_LIBRARY,
  WAYLAND_LIBC_SYMBOLS,
  WAYLAND_SYMBOLS,
  WL_DISPATCHER,
} from "../../../ffi/wayland.ts";

/** One request argument: a number (uint, int, fixed as its raw 24.8 value, fd) or a pointer (object, string, null). */
export type WlArg = number | Deno.PointerValue;

/** A global the registry advertised. */
export interface WlGlobal {
  /** Its numeric name. */
  name: number;
  /** Its interface name. */
  iface: string;
  /** Its highest version. */
  version: number;
}

/** What a proxy's events are handed to: the opcode and a view of its `wl_argument`s. */
export type EventHandler = (opcode: number, args: Deno.UnsafePointerView) => void;

type WaylandLib = Deno.DynamicLibrary<typeof WAYLAND_SYMBOLS>["symbols"];
type LibcLib = Deno.DynamicLibrary<typeof WAYLAND_LIBC_SYMBOLS>["symbols"];

let wl: WaylandLib | undefined;
let libc: LibcLib | undefined;

function libs(): { wl: WaylandLib; libc: LibcLib } {
  if (!wl) {
    try {
      wl = Deno.dlopen(WAYLAND_CLIENT_LIBRARY, WAYLAND_SYMBOLS).symbols;
    } catch (e) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        `cannot load ${WAYLAND_CLIENT_LIBRARY}: ${(e as Error).message}`,
        {
          suggestion: "install libwayland-client0 (Debian, Ubuntu) or wayland (Fedora)",
        },
      );
    }
  }
  libc ??= Deno.dlopen(WAYLAND_LIBC_LIBRARY, WAYLAND_LIBC_SYMBOLS).symbols;
  return { wl, libc };
}

function ptrKey(p: Deno.PointerValue): bigint {
  return BigInt(Deno.UnsafePointer.value(p));
}

/**
 * The libc side of shared memory: an anonymous file of a given size, filled
 * or read back.
 */
export const shm = {
  /**
   * Creates an anonymous memory file holding `bytes` (or `size` zero bytes).
   *
   * @param size its size
   * @param bytes optional contents
   * @returns its file descriptor (close it with {@link shm.close})
   */
  create(size: number, bytes?: Uint8Array): number {
    const { libc } = libs();
    const fd = libc.memfd_create(new TextEncoder().encode("desktop-wayland\0"), MFD_CLOEXEC);
    if (fd < 0) throw new DesktopError("ACTION_FAILED", "memfd_create failed");
    if (libc.ftruncate(fd, BigInt(size)) !== 0) {
      libc.close(fd);
      throw new DesktopError("ACTION_FAILED", "ftruncate of a shared memory file failed");
    }
    if (bytes && bytes.length > 0) {
      const n = Number(libc.pwrite(fd, bytes as Uint8Array<ArrayBuffer>, BigInt(bytes.length), 0n));
      if (n !== bytes.length) {
        libc.close(fd);
        throw new DesktopError("ACTION_FAILED", "writing a shared memory file failed");
      }
    }
    return fd;
  },
  /**
   * Reads a memory file's first `size` bytes.
   *
   * @param fd the file
   * @param size how many bytes
   * @returns them
   */
  read(fd: number, size: number): Uint8Array {
    const { libc } = libs();
    const out = new Uint8Array(size);
    let done = 0;
    while (done < size) {
      const n = Number(libc.pread(fd, out.subarray(done), BigInt(size - done), BigInt(done)));
      if (n <= 0) throw new DesktopError("ACTION_FAILED", "reading a shared memory file failed");
      done += n;
    }
    return out;
  },
  /**
   * Closes a file descriptor.
   *
   * @param fd it
   */
  close(fd: number): void {
    libs().libc.close(fd);
  },
};

/** One connection to a Wayland compositor. */
export class WaylandClient {
  /** The `wl_display` proxy. */
  readonly display: NonNullable<Deno.PointerValue>;
  /** The socket it was reached at (for messages). */
  readonly socket: string;
  /** Globals the registry advertised. */
  readonly globals: WlGlobal[] = [];
  readonly #wl: WaylandLib;
  readonly #handlers = new Map<bigint, EventHandler>();
  readonly #dispatcher: Deno.UnsafeCallback<typeof WL_DISPATCHER>;
  #closed = false;

  private constructor(display: NonNullable<Deno.PointerValue>, socket: string, lib: WaylandLib) {
    this.display = display;
    this.socket = socket;
    this.#wl = lib;
    this.#dispatcher = new Deno.UnsafeCallback(
      WL_DISPATCHER,
      (_impl, target, opcode, _msg, args) => {
        const handler = this.#handlers.get(ptrKey(target));
        if (handler && args) handler(opcode, new Deno.UnsafePointerView(args));
        return 0;
      },
    );
  }

  /**
   * Connects to the compositor named by `WAYLAND_DISPLAY` (a name in
   * `XDG_RUNTIME_DIR` or an absolute path) and reads its globals.
   *
   * @param deadline the epoch milliseconds by which to be done
   * @returns the connection
   * @throws DesktopError PLATFORM_NOT_SUPPORTED when there is no compositor to reach
   */
  static connect(deadline: number): WaylandClient {
    const { wl } = libs();
    const name = Deno.env.get("WAYLAND_DISPLAY") ?? "";
    if (!name) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        "no Wayland compositor (WAYLAND_DISPLAY is not set)",
        {
          suggestion: "run inside the Wayland session, or set WAYLAND_DISPLAY to its socket",
        },
      );
    }
    const display = wl.wl_display_connect(new TextEncoder().encode(`${name}\0`));
    if (!display) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        `cannot connect to the Wayland compositor at ${name}`,
        {
          suggestion:
            "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR point at the running compositor's socket",
        },
      );
    }
    const client = new WaylandClient(display, name, wl);
    try {
      const registry = client.request(display, 1, [null], wl.wl_registry_interface, 1);
      client.listen(registry, (op, args) => {
        if (op !== 0) return;
        const iface = Deno.UnsafePointerView.getCString(args.getPointer(8)!);
        client.globals.push({ name: args.getUint32(0), iface, version: args.getUint32(16) });
      });
      client.registry = registry;
      client.roundtrip(deadline);
    } catch (e) {
      client.close();
      throw e;
    }
    return client;
  }

  /** The `wl_registry` proxy. */
  registry: Deno.PointerValue = null;

  /**
   * Sends a request.
   *
   * @param proxy the object
   * @param opcode the request's opcode
   * @param args its arguments, in signature order (null for a new id)
   * @param iface the interface of the object it creates, if any
   * @param version that object's version
   * @param flags `WL_MARSHAL_FLAG_DESTROY` to destroy the proxy with it
   * @returns the created object's proxy, when it creates one
   */
  request(
    proxy: Deno.PointerValue,
    opcode: number,
    args: WlArg[],
    iface: Deno.PointerValue = null,
    version = 1,
    flags = 0,
  ): Deno.PointerValue {
    const buf = new Uint8Array(8 * Math.max(1, args.length));
    const view = new DataView(buf.buffer);
    args.forEach((a, i) => {
      if (typeof a === "number") {
        if (a < 0) view.setInt32(8 * i, a, true);
        else view.setUint32(8 * i, a >>> 0, true);
      } else view.setBigUint64(8 * i, ptrKey(a), true);
    });
    const out = this.#wl.wl_proxy_marshal_array_flags(proxy, opcode, iface, version, flags, buf);
    if (iface !== null && out === null) {
      this.#broke = true;
      throw new DesktopError(
        "ACTION_FAILED",
        `the Wayland compositor at ${this.socket} closed the connection`,
        {
          suggestion: "check the compositor still runs",
        },
      );
    }
    return out;
  }

  /**
   * Hands a proxy's events to a handler.
   *
   * @param proxy the object
   * @param handler its handler
   */
  listen(proxy: Deno.PointerValue, handler: EventHandler): void {
    this.#handlers.set(ptrKey(proxy), handler);
    this.#wl.wl_proxy_add_dispatcher(proxy, this.#dispatcher.pointer, null, null);
  }

  /**
   * Forgets a proxy's handler and destroys the proxy locally.
   *
   * @param proxy the object
   */
  forget(proxy: Deno.PointerValue): void {
    this.#handlers.delete(ptrKey(proxy));
    this.#wl.wl_proxy_destroy(proxy);
  }

  /**
   * Binds a global.
   *
   * @param iface the interface's name
   * @param ifacePtr its description
   * @param maxVersion the highest version this client speaks
   * @returns the proxy, or null when the compositor does not offer it
   */
  bind(iface: string, ifacePtr: Deno.PointerValue, maxVersion: number): Deno.PointerValue {
    const g = this.globals.find((x) => x.iface === iface);
    if (!g) return null;
    const version = Math.min(g.version, maxVersion);
    const name = new TextEncoder().encode(`${iface}\0`);
    return this.request(
      this.registry,
      0,
      [g.name, Deno.UnsafePointer.of(name), version, null],
      ifacePtr,
      version,
    );
  }

  /**
   * Binds every global of an interface.
   *
   * @param iface the interface's name
   * @param ifacePtr its description
   * @param maxVersion the highest version this client speaks
   * @returns their proxies
   */
  bindAll(iface: string, ifacePtr: Deno.PointerValue, maxVersion: number): Deno.PointerValue[] {
    return this.globals.filter((x) => x.iface === iface).map((g) => {
      const version = Math.min(g.version, maxVersion);
      const name = new TextEncoder().encode(`${iface}\0`);
      return this.request(
        this.registry,
        0,
        [g.name, Deno.UnsafePointer.of(name), version, null],
        ifacePtr,
        version,
      );
    });
  }

  /**
   * Sends what is queued and waits until the compositor has handled it
   * (a `wl_display.sync` answered), dispatching events meanwhile.
   *
   * @param deadline epoch milliseconds
   * @throws DesktopError TIMEOUT past the deadline
   */
  roundtrip(deadline: number): void {
    let done = false;
    const cb = this.request(this.display, 0, [null], this.#wl.wl_callback_interface, 1);
    this.listen(cb, () => void (done = true));
    try {
      this.pump(() => done, deadline);
    } finally {
      this.forget(cb);
    }
  }

  /**
   * Sends what is queued and dispatches events until `until()` holds.
   *
   * @param until the condition
   * @param deadline epoch milliseconds
   * @throws DesktopError TIMEOUT past the deadline, ACTION_FAILED when the connection broke
   */
  pump(until: () => boolean, deadline: number): void {
    const wl = this.#wl;
    const { libc } = libs();
    const fd = wl.wl_display_get_fd(this.display);
    const pfd = new Uint8Array(8);
    const pv = new DataView(pfd.buffer);
    while (!until()) {
      wl.wl_display_flush(this.display);
      if (wl.wl_display_prepare_read(this.display) !== 0) {
        if (wl.wl_display_dispatch_pending(this.display) < 0) this.#broken();
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        wl.wl_display_cancel_read(this.display);
        throw new DesktopError(
          "TIMEOUT",
          `the Wayland compositor at ${this.socket} did not answer in time`,
          {
            suggestion: "check the compositor is not stuck, or raise --timeout",
          },
        );
      }
      pv.setInt32(0, fd, true);
      pv.setInt16(4, POLLIN, true);
      pv.setInt16(6, 0, true);
      const ready = libc.poll(pfd, 1n, Math.min(left, 200));
      if (ready > 0) {
        if (wl.wl_display_read_events(this.display) < 0) this.#broken();
      } else wl.wl_display_cancel_read(this.display);
      if (wl.wl_display_dispatch_pending(this.display) < 0) this.#broken();
    }
  }

  /**
   * Dispatches events for `ms` milliseconds (letting the compositor and its
   * clients take in what was sent), then returns.
   *
   * @param ms how long
   */
  settle(ms: number): void {
    const until = Date.now() + ms;
    const slack = until + 1_000;
    this.pump(() => Date.now() >= until, slack);
  }

  /** Whether the connection broke (a protocol error, a compositor that quit): open a new one. */
  get broken(): boolean {
    return this.#broke;
  }

  #broke = false;

  #broken(): never {
    this.#broke = true;
    const err = this.#wl.wl_display_get_error(this.display);
    throw new DesktopError(
      "ACTION_FAILED",
      `the Wayland connection to ${this.socket} broke (error ${err})`,
      {
        suggestion:
          "a protocol error or a compositor that quit; retry, and check the compositor's log",
      },
    );
  }

  /** Disconnects. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#wl.wl_display_disconnect(this.display);
    this.#dispatcher.close();
  }
}
