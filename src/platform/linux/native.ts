/**
 * The loaded libatspi and the small helpers every Linux module uses to call
 * it: GError checking, owned-object wrappers, main-context pumping, and
 * reading the bus name / object path of an accessible. Pointers stay inside
 * src/platform/linux.
 *
 * @module
 */

import {
  ATSPI_CACHE_ALL,
  ATSPI_CACHE_CHILDREN,
  ATSPI_LIBRARY,
  ATSPI_SYMBOLS,
} from "../../ffi/atspi.ts";
import { cstr, GErrorOut, readCString, takeCString } from "../../ffi/cstring.ts";
import { DesktopError, type ErrorCode } from "../../errors.ts";
import { nativeError, noBusError } from "./errors.ts";

/** The callable libatspi symbols. */
export type AtspiSymbols = Deno.DynamicLibrary<typeof ATSPI_SYMBOLS>["symbols"];

/** A non-null native pointer. */
export type Ptr = NonNullable<Deno.PointerValue>;

/**
 * A GObject reference the caller owns; `using` releases it on every path.
 * `ptr` must not outlive the wrapper.
 */
export class Owned implements Disposable {
  /** The referenced object. */
  readonly ptr: Ptr;
  #sym: AtspiSymbols;
  #live = true;

  /**
   * @param sym the library symbols
   * @param ptr an owned reference (transfer full)
   */
  constructor(sym: AtspiSymbols, ptr: Ptr) {
    this.#sym = sym;
    this.ptr = ptr;
  }

  /** Drops the reference (idempotent). */
  [Symbol.dispose](): void {
    if (!this.#live) return;
    this.#live = false;
    this.#sym.g_object_unref(this.ptr);
  }
}

/** The process-wide libatspi session (the library keeps global state). */
export class Native {
  /** Library symbols. */
  readonly sym: AtspiSymbols;
  /** Shared `GError**` slot (FFI calls are synchronous, so one is enough). */
  readonly err: GErrorOut;
  #lib: Deno.DynamicLibrary<typeof ATSPI_SYMBOLS>;
  #gfree: (p: Deno.PointerValue) => void;

  private constructor(lib: Deno.DynamicLibrary<typeof ATSPI_SYMBOLS>) {
    this.#lib = lib;
    this.sym = lib.symbols;
    this.err = new GErrorOut((p) => this.sym.g_error_free(p));
    this.#gfree = (p) => this.sym.g_free(p);
  }

  static #instance: Native | null = null;

  /**
   * Opens libatspi once per process and connects to the accessibility bus.
   * The caller first sets `AT_SPI_BUS_ADDRESS` and `DBUS_SESSION_BUS_ADDRESS`
   * (see discover.ts): libatspi then never autolaunches a bus. Throws
   * PLATFORM_NOT_SUPPORTED when the library is missing and PERMISSION_DENIED
   * when no bus is reachable.
   */
  static open(): Native {
    if (Native.#instance) return Native.#instance;
    let lib: Deno.DynamicLibrary<typeof ATSPI_SYMBOLS>;
    try {
      lib = Deno.dlopen(ATSPI_LIBRARY, ATSPI_SYMBOLS);
    } catch (e) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", `cannot load ${ATSPI_LIBRARY}: ${e}`, {
        suggestion:
          "Install the AT-SPI client library (Debian: apt-get install libatspi2.0-0 at-spi2-core)",
        cause: e,
      });
    }
    const rc = lib.symbols.atspi_init();
    if (rc !== 0 && rc !== 1) {
      lib.close();
      throw noBusError(`atspi_init returned ${rc}`);
    }
    Native.#instance = new Native(lib);
    return Native.#instance;
  }

  /**
   * Throws the pending GError (if the last call set one) as a DesktopError.
   *
   * @param op what was being done, for the message
   * @param fallback code for unrecognised errors
   */
  check(op: string, fallback: ErrorCode = "INTERNAL"): void {
    const info = this.err.take();
    if (info) throw nativeError(op, info.message, fallback);
  }

  /** Reads and frees an owned string result, then checks the GError slot. */
  str(ptr: Deno.PointerValue, op: string): string {
    const s = takeCString(ptr, this.#gfree);
    this.check(op);
    return s;
  }

  /** Frees memory allocated by GLib. */
  free(ptr: Deno.PointerValue): void {
    if (ptr !== null) this.sym.g_free(ptr);
  }

  /** Wraps an owned object pointer (null stays null). */
  own(ptr: Deno.PointerValue): Owned | null {
    return ptr === null ? null : new Owned(this.sym, ptr);
  }

  /**
   * Runs pending main-context work (cache updates, events) without blocking.
   *
   * @param max at most this many iterations
   * @returns how many iterations dispatched something
   */
  pump(max = 1000): number {
    let n = 0;
    while (n < max && this.sym.g_main_context_iteration(null, 0) !== 0) n++;
    return n;
  }

  /**
   * Bounds every D-Bus call libatspi makes from now on.
   *
   * @param ms per-call timeout
   */
  setTimeout(ms: number): void {
    const t = Math.max(50, Math.floor(ms));
    this.sym.atspi_set_timeout(t, t);
  }

  /** The desktop object (its children are the registered apps). Owned. */
  desktop(): Owned {
    const d = this.sym.atspi_get_desktop(0);
    if (d === null) throw noBusError("the registry returned no desktop");
    // Everything but child lists: libatspi 2.46 builds cached child lists from
    // the app's bulk cache in an order that can differ from the app's own
    // (GTK3 puts a window's header bar second), so children come from the app.
    this.sym.atspi_accessible_set_cache_mask(d, ATSPI_CACHE_ALL & ~ATSPI_CACHE_CHILDREN);
    return new Owned(this.sym, d);
  }

  /**
   * A new reference to object `path` of the app with unique bus name `bus`,
   * or null when the app is unknown.
   */
  lookup(bus: string, path: string): Owned | null {
    return this.own(this.sym._atspi_ref_accessible(cstr(bus), cstr(path)));
  }
}

/**
 * The bus name and object path of an accessible, read from libatspi's
 * structs (`AtspiObject { GObject; AtspiApplication *app; char *path }`,
 * `AtspiApplication { GObject; GHashTable *hash; char *bus_name; ... }`): no
 * public getter exists and both are needed for stable node identity.
 */
export function objectId(acc: Ptr): { bus: string; path: string } {
  const view = new Deno.UnsafePointerView(acc);
  const app = view.getPointer(24);
  const path = readCString(view.getPointer(32));
  const bus = app === null ? "" : readCString(new Deno.UnsafePointerView(app).getPointer(32));
  return { bus, path };
}

/**
 * The 64-bit state bitfield of an `AtspiStateSet { GObject; AtspiAccessible *; gint64 states }`
 * as (low, high) 32-bit words.
 */
export function stateWords(set: Ptr): [number, number] {
  const view = new Deno.UnsafePointerView(set);
  return [view.getUint32(32), view.getUint32(36)];
}
