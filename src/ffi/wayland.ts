/**
 * libwayland-client's symbol table, the libc calls a Wayland client needs
 * (memfd, poll, pread; a unix socket for sway's IPC from synchronous code), and a builder of protocol interface descriptions
 * (`struct wl_interface` with its `struct wl_message` arrays) in memory, for
 * protocols the library does not ship (wlroots' virtual pointer and
 * screencopy, the virtual keyboard).
 *
 * ABI (libwayland 1.21, 64-bit): `wl_message { const char *name; const char
 * *signature; const struct wl_interface **types; }` is 24 bytes;
 * `wl_interface { const char *name; int version; int method_count; const
 * wl_message *methods; int event_count; const wl_message *events; }` is 40
 * bytes (name 0, version 8, method_count 12, methods 16, event_count 24,
 * events 32). A `union wl_argument` is 8 bytes.
 *
 * @module
 */

/** The library's soname. */
export const WAYLAND_CLIENT_LIBRARY = "libwayland-client.so.0";

/** libwayland-client functions and the core interfaces it exports. */
export const WAYLAND_SYMBOLS = {
  wl_display_connect: { parameters: ["buffer"], result: "pointer" },
  wl_display_disconnect: { parameters: ["pointer"], result: "void" },
  wl_display_get_fd: { parameters: ["pointer"], result: "i32" },
  wl_display_flush: { parameters: ["pointer"], result: "i32" },
  wl_display_dispatch_pending: { parameters: ["pointer"], result: "i32" },
  wl_display_prepare_read: { parameters: ["pointer"], result: "i32" },
  wl_display_read_events: { parameters: ["pointer"], result: "i32" },
  wl_display_cancel_read: { parameters: ["pointer"], result: "void" },
  wl_display_get_error: { parameters: ["pointer"], result: "i32" },
  // proxy, opcode, interface of a created object (or null), version, flags, union wl_argument *args
  wl_proxy_marshal_array_flags: {
    parameters: ["pointer", "u32", "pointer", "u32", "u32", "buffer"],
    result: "pointer",
  },
  // proxy, dispatcher, implementation, data
  wl_proxy_add_dispatcher: {
    parameters: ["pointer", "function", "pointer", "pointer"],
    result: "i32",
  },
  wl_proxy_destroy: { parameters: ["pointer"], result: "void" },
  wl_registry_interface: { type: "pointer" },
  wl_callback_interface: { type: "pointer" },
  wl_seat_interface: { type: "pointer" },
  wl_output_interface: { type: "pointer" },
  wl_shm_interface: { type: "pointer" },
  wl_shm_pool_interface: { type: "pointer" },
  wl_buffer_interface: { type: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** The C library on Linux. */
export const WAYLAND_LIBC_LIBRARY = "libc.so.6";

/** libc calls for shared-memory files and waiting on the display's socket. */
export const WAYLAND_LIBC_SYMBOLS = {
  memfd_create: { parameters: ["buffer", "u32"], result: "i32" },
  ftruncate: { parameters: ["i32", "i64"], result: "i32" },
  pwrite: { parameters: ["i32", "buffer", "usize", "i64"], result: "isize" },
  pread: { parameters: ["i32", "buffer", "usize", "i64"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32" },
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
} as const satisfies Deno.ForeignLibraryInterface;

/** `MFD_CLOEXEC`. */
export const MFD_CLOEXEC = 1;

/** `AF_UNIX`. */
export const AF_UNIX = 1;

/** `SOCK_STREAM | SOCK_CLOEXEC`. */
export const SOCK_STREAM_CLOEXEC: number = 1 | 0o2000000;

/** `POLLOUT`. */
export const POLLOUT = 4;

/** `POLLIN`. */
export const POLLIN = 1;

/** `WL_MARSHAL_FLAG_DESTROY`: the proxy is destroyed with the request. */
export const WL_MARSHAL_FLAG_DESTROY = 1;

/** The signature of a proxy dispatcher: implementation, proxy, opcode, message, arguments. */
export const WL_DISPATCHER = {
  parameters: ["pointer", "pointer", "u32", "pointer", "pointer"],
  result: "i32",
} as const satisfies Deno.UnsafeCallbackDefinition;

/**
 * One request or event of a protocol interface: its name, its signature
 * (`u` uint, `i` int, `f` fixed, `s` string, `o` object, `n` new id, `a`
 * array, `h` fd; `?` nullable, a leading number the version it came in) and,
 * per argument, the interface of an object or new id argument (null for the
 * others).
 */
export interface MessageSpec {
  /** The message's name. */
  name: string;
  /** Its wire signature. */
  signature: string;
  /** One entry per argument: the interface pointer of `o` and `n` arguments, else null. */
  types?: (Deno.PointerValue | null)[];
}

/** A protocol interface to describe in memory. */
export interface InterfaceSpec {
  /** The interface's name, as the registry advertises it. */
  name: string;
  /** Its version. */
  version: number;
  /** Its requests, by opcode. */
  requests: MessageSpec[];
  /** Its events, by opcode. */
  events: MessageSpec[];
}

/** Buffers the described interfaces point into: kept for the life of the process. */
const KEPT: Uint8Array[] = [];

function keep(bytes: Uint8Array): Deno.PointerValue {
  KEPT.push(bytes);
  return Deno.UnsafePointer.of(bytes as Uint8Array<ArrayBuffer>);
}

function cString(s: string): Deno.PointerValue {
  return keep(new TextEncoder().encode(`${s}\0`));
}

/**
 * Number of arguments in a wire signature (`?` and version digits are not
 * arguments).
 *
 * @param signature a wire signature
 * @returns how many arguments it holds
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signatureArity } from "./wayland.ts";
 * assert.equal(signatureArity("2?on"), 2);
 * assert.equal(signatureArity(""), 0);
 * ```
 */
export function signatureArity(signature: string): number {
  return [...signature].filter((c) => "uifsonah".includes(c)).length;
}

function messages(specs: MessageSpec[]): Deno.PointerValue {
  if (specs.length === 0) return null;
  const buf = new Uint8Array(24 * specs.length);
  const view = new DataView(buf.buffer);
  specs.forEach((m, i) => {
    const arity = signatureArity(m.signature);
    const types = m.types ?? [];
    if (types.length > arity) throw new Error(`${m.name}: more types than arguments`);
    const typeBuf = new Uint8Array(8 * Math.max(1, arity));
    const tv = new DataView(typeBuf.buffer);
    for (let a = 0; a < arity; a++) {
      tv.setBigUint64(8 * a, BigInt(Deno.UnsafePointer.value(types[a] ?? null)), true);
    }
    view.setBigUint64(24 * i, BigInt(Deno.UnsafePointer.value(cString(m.name))), true);
    view.setBigUint64(24 * i + 8, BigInt(Deno.UnsafePointer.value(cString(m.signature))), true);
    view.setBigUint64(24 * i + 16, BigInt(Deno.UnsafePointer.value(keep(typeBuf))), true);
  });
  return keep(buf);
}

/**
 * Lays out a `struct wl_interface` (with its messages) in memory that lives
 * as long as the process, for `wl_proxy_marshal_array_flags` and registry
 * binds.
 *
 * @param spec the interface
 * @returns a pointer to the struct
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeInterface } from "./wayland.ts";
 * const p = describeInterface({ name: "test_v1", version: 2, requests: [{ name: "destroy", signature: "" }], events: [] });
 * const view = new Deno.UnsafePointerView(p!);
 * assert.equal(view.getInt32(8), 2);
 * assert.equal(view.getInt32(12), 1);
 * assert.equal(Deno.UnsafePointerView.getCString(view.getPointer(0)!), "test_v1");
 * ```
 */
export function describeInterface(spec: InterfaceSpec): Deno.PointerValue {
  const buf = new Uint8Array(40);
  const view = new DataView(buf.buffer);
  view.setBigUint64(0, BigInt(Deno.UnsafePointer.value(cString(spec.name))), true);
  view.setInt32(8, spec.version, true);
  view.setInt32(12, spec.requests.length, true);
  view.setBigUint64(16, BigInt(Deno.UnsafePointer.value(messages(spec.requests))), true);
  view.setInt32(24, spec.events.length, true);
  view.setBigUint64(32, BigInt(Deno.UnsafePointer.value(messages(spec.events))), true);
  return keep(buf);
}
