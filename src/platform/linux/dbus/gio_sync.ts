/**
 * Blocking D-Bus method calls through GLib's GDBus (`libgio-2.0`), for
 * callers that must finish a call before they return: the action executor's
 * input delegate is synchronous (a key must reach the compositor before the
 * executor looks for its effect), while the project's own client
 * (connection.ts) answers with promises. Arguments are written and replies
 * read in GVariant's text format, so one small FFI surface serves every
 * signature.
 *
 * @module
 */

import { sleepSync } from "../../sleep_sync.ts";
import { DesktopError } from "../../../errors.ts";
import { cstr, takeCString } from "../../../ffi/cstring.ts";

const GIO_LIBRARY = "libgio-2.0.so.0";

const SYMBOLS = {
  g_dbus_connection_new_for_address_sync: {
    parameters: ["buffer", "i32", "pointer", "pointer", "buffer"],
    result: "pointer",
  },
  g_dbus_connection_call_sync: {
    parameters: [
      "pointer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "pointer",
      "pointer",
      "i32",
      "i32",
      "pointer",
      "buffer",
    ],
    result: "pointer",
  },
  g_dbus_connection_close_sync: {
    parameters: ["pointer", "pointer", "pointer"],
    result: "i32",
  },
  g_variant_parse: {
    parameters: ["pointer", "buffer", "pointer", "pointer", "buffer"],
    result: "pointer",
  },
  g_variant_print: { parameters: ["pointer", "i32"], result: "pointer" },
  g_variant_unref: { parameters: ["pointer"], result: "void" },
  g_object_unref: { parameters: ["pointer"], result: "void" },
  g_free: { parameters: ["pointer"], result: "void" },
  g_error_free: { parameters: ["pointer"], result: "void" },
  // connection, sender, interface, member, path, arg0, flags, callback, user data, free function
  g_dbus_connection_signal_subscribe: {
    parameters: [
      "pointer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "pointer",
      "i32",
      "function",
      "pointer",
      "pointer",
    ],
    result: "u32",
  },
  g_dbus_connection_signal_unsubscribe: { parameters: ["pointer", "u32"], result: "void" },
  g_main_context_iteration: { parameters: ["pointer", "i32"], result: "i32" },
} as const;

type Gio = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let gio: Gio | null = null;

function lib(): Gio {
  if (gio) return gio;
  try {
    gio = Deno.dlopen(GIO_LIBRARY, SYMBOLS).symbols;
  } catch (e) {
    throw new DesktopError("PLATFORM_NOT_SUPPORTED", `cannot load ${GIO_LIBRARY}: ${e}`, {
      suggestion: "Install GLib's GIO library (Debian: libglib2.0-0)",
    });
  }
  return gio;
}

/** Reads and frees the GError a failed call left, as its message. */
function takeError(slot: BigUint64Array<ArrayBuffer>): string {
  const raw = slot[0];
  slot[0] = 0n;
  if (raw === 0n) return "unknown error";
  const p = Deno.UnsafePointer.create(raw)!;
  const view = new Deno.UnsafePointerView(p);
  const msgPtr = view.getPointer(8);
  const message = msgPtr ? Deno.UnsafePointerView.getCString(msgPtr) : "unknown error";
  lib().g_error_free(p);
  return message;
}

/**
 * Quotes a string as a GVariant text literal.
 *
 * @param s any string
 * @returns the literal, in single quotes
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gvString } from "./gio_sync.ts";
 * assert.equal(gvString("it's"), "'it\\'s'");
 * ```
 */
export function gvString(s: string): string {
  return `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/**
 * The string values (strings and object paths) of a printed GVariant, in order.
 *
 * @param printed GVariant text, as {@link SyncBus.call} returns it
 * @returns the unquoted strings
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { printedStrings } from "./gio_sync.ts";
 * assert.deepEqual(printedStrings("(objectpath '/a/b', 'x\\'y')"), ["/a/b", "x'y"]);
 * ```
 */
export function printedStrings(printed: string): string[] {
  const out: string[] = [];
  for (const m of printed.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) {
    out.push((m[1] ?? m[2]).replace(/\\(.)/g, "$1"));
  }
  return out;
}

/** A blocking connection to one message bus (the D-Bus session bus by default). */
export class SyncBus implements Disposable {
  #conn: Deno.PointerValue;

  private constructor(conn: Deno.PointerValue) {
    this.#conn = conn;
  }

  /**
   * Connects to a bus.
   *
   * @param address a D-Bus address; the session bus's by default
   * @returns the connection
   * @throws DesktopError PLATFORM_NOT_SUPPORTED without a session bus or GIO
   */
  static open(address = Deno.env.get("DBUS_SESSION_BUS_ADDRESS") ?? ""): SyncBus {
    if (!address) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", "DBUS_SESSION_BUS_ADDRESS is not set", {
        suggestion: "Run inside the desktop session (its D-Bus session bus)",
      });
    }
    const g = lib();
    const err = new BigUint64Array(1);
    // AUTHENTICATION_CLIENT | MESSAGE_BUS_CONNECTION
    const conn = g.g_dbus_connection_new_for_address_sync(cstr(address), 1 | 8, null, null, err);
    if (!conn) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        `cannot connect to the session bus: ${takeError(err)}`,
        { suggestion: "Run inside the desktop session (its D-Bus session bus)" },
      );
    }
    return new SyncBus(conn);
  }

  /**
   * Calls a method and waits for its reply.
   *
   * @param dest bus name
   * @param path object path
   * @param iface interface
   * @param member method
   * @param args the arguments as one GVariant tuple in text form (`(uint32 65, true)`), or "" for none
   * @param timeoutMs how long to wait for the reply
   * @returns the reply printed as GVariant text
   * @throws Error with the D-Bus error's message when the call fails
   */
  call(
    dest: string,
    path: string,
    iface: string,
    member: string,
    args = "",
    timeoutMs = 5000,
  ): string {
    if (!this.#conn) throw new Error("the bus connection is closed");
    const g = lib();
    const err = new BigUint64Array(1);
    let params: Deno.PointerValue = null;
    if (args) {
      params = g.g_variant_parse(null, cstr(args), null, null, err);
      if (!params) throw new Error(`bad arguments ${args}: ${takeError(err)}`);
    }
    const reply = g.g_dbus_connection_call_sync(
      this.#conn,
      cstr(dest),
      cstr(path),
      cstr(iface),
      cstr(member),
      params,
      null,
      0,
      Math.max(1, Math.round(timeoutMs)),
      null,
      err,
    );
    if (!reply) throw new Error(takeError(err));
    const printed = takeCString(g.g_variant_print(reply, 1), g.g_free);
    g.g_variant_unref(reply);
    return printed;
  }

  /**
   * Runs `cause` (a call that makes a peer send a signal) and waits for the
   * signal's first emission. The subscription is made before `cause` runs,
   * so an answer sent at once is not missed; GDBus hands signals to GLib's
   * default main context, which this waits on from the calling thread.
   *
   * @param match who sends it: bus name, interface, member and object path
   * @param cause what makes it come (called once, after subscribing)
   * @param timeoutMs how long to wait after `cause` returned
   * @returns the signal's arguments printed as GVariant text, or null when none came in time
   */
  awaitSignal(
    match: { sender: string; iface: string; member: string; path: string },
    cause: () => void,
    timeoutMs: number,
  ): string | null {
    if (!this.#conn) throw new Error("the bus connection is closed");
    const g = lib();
    let got: string | null = null;
    const callback = new Deno.UnsafeCallback(
      {
        parameters: ["pointer", "pointer", "pointer", "pointer", "pointer", "pointer", "pointer"],
        result: "void",
      } as const,
      (_conn, _sender, _path, _iface, _member, params) => {
        if (got !== null || !params) return;
        got = takeCString(g.g_variant_print(params, 1), g.g_free);
      },
    );
    const id = g.g_dbus_connection_signal_subscribe(
      this.#conn,
      cstr(match.sender),
      cstr(match.iface),
      cstr(match.member),
      cstr(match.path),
      null,
      0,
      callback.pointer,
      null,
      null,
    );
    try {
      cause();
      const until = Date.now() + timeoutMs;
      while (got === null && Date.now() < until) {
        // Dispatch what is ready; between tries, let the GDBus thread deliver.
        if (!g.g_main_context_iteration(null, 0)) sleepSync(2);
      }
      return got;
    } finally {
      g.g_dbus_connection_signal_unsubscribe(this.#conn, id);
      // A dispatch already queued still holds the callback: drain it before closing (bounded:
      // another library's source that is always ready must not hold this call).
      for (let i = 0; i < 64 && g.g_main_context_iteration(null, 0); i++) { /* drain */ }
      callback.close();
    }
  }

  /**
   * Whether a name has an owner on this bus.
   *
   * @param name a well-known bus name
   * @returns true when some client owns it
   */
  hasOwner(name: string): boolean {
    try {
      const r = this.call(
        "org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus",
        "NameHasOwner",
        `(${gvString(name)},)`,
        2000,
      );
      return r.includes("true");
    } catch {
      return false;
    }
  }

  /** Closes the connection (what the bus tied to it, such as sessions, ends). */
  close(): void {
    if (!this.#conn) return;
    const g = lib();
    g.g_dbus_connection_close_sync(this.#conn, null, null);
    g.g_object_unref(this.#conn);
    this.#conn = null;
  }

  /** Closes the connection (see {@link SyncBus.close}). */
  [Symbol.dispose](): void {
    this.close();
  }
}
