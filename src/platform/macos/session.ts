/**
 * One open AX session: the libraries, cached attribute-name CFStrings, the
 * system-wide element with its messaging timeout, the nid table, and AX calls
 * with JS-friendly results and DesktopError mapping at the boundary.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { AX_ERROR, axError, type AxErrorContext } from "../../ffi/macos/ax_error.ts";
import { type AxValue, readAxValue } from "../../ffi/macos/ax_value.ts";
import { type CFOwned, type CFRef, CoreFoundation, readOutPointer } from "../../ffi/macos/cf.ts";
import { CG_WINDOW_LIST } from "../../ffi/macos/core_graphics.ts";
import type { MacosLibraries } from "../../ffi/macos/libraries.ts";
import { NidTable } from "./nids.ts";
import { grantHolder, permissionDenied, safeEnv } from "./permission.ts";

/** One slot of a batched read: a borrowed CF object, or the AXError of that attribute. */
export type Slot = { ptr: CFRef } | { error: number };

/** A JS value converted from a CF object. */
export type AxJs =
  | string
  | number
  | boolean
  | AxValue
  | { element: CFRef }
  | { array: CFRef[] }
  | null;

/** Messaging timeout bounds (seconds) set on the system-wide element. */
const MESSAGING_TIMEOUT_MIN = 0.25;
const MESSAGING_TIMEOUT_MAX = 1;

/** The per-provider AX session. */
export class AxSession {
  /** The opened frameworks. */
  readonly libs: MacosLibraries;
  /** CoreFoundation helper. */
  readonly cf: CoreFoundation;
  /** Per-operation deadline length. */
  readonly timeoutMs: number;
  /** Retained element references behind nids. */
  readonly nids: NidTable;
  /** Who to tell the user to allow in System Settings. */
  readonly holder: string;
  readonly #names = new Map<string, CFOwned>();
  readonly #systemWide: CFOwned;
  #closed = false;

  /**
   * @param libs opened frameworks (the session closes them)
   * @param timeoutMs per-operation deadline
   */
  constructor(libs: MacosLibraries, timeoutMs: number) {
    this.libs = libs;
    this.cf = CoreFoundation.fromLibraries(libs);
    this.timeoutMs = timeoutMs;
    this.nids = new NidTable(this.cf);
    this.holder = grantHolder(safeEnv);
    this.#systemWide = this.cf.own(libs.ax.AXUIElementCreateSystemWide(), "system-wide element");
    // Process-wide: a hung app then costs at most this per call instead of ~6 s.
    const seconds = Math.min(
      MESSAGING_TIMEOUT_MAX,
      Math.max(MESSAGING_TIMEOUT_MIN, timeoutMs / 4000),
    );
    libs.ax.AXUIElementSetMessagingTimeout(this.#systemWide.ptr, seconds);
  }

  /** The system-wide element (borrowed). */
  get systemWide(): CFRef {
    return this.#systemWide.ptr;
  }

  /** A cached CFString for an attribute, action or notification name (borrowed). */
  name(s: string): CFRef {
    let owned = this.#names.get(s);
    if (!owned) {
      owned = this.cf.string(s);
      this.#names.set(s, owned);
    }
    return owned.ptr;
  }

  /** Turns an AXError into a DesktopError (permission errors name the app to allow). */
  error(code: number, ctx: AxErrorContext): DesktopError {
    if (code === AX_ERROR.APIDisabled) return permissionDenied(this.holder, `${ctx.op}: -25211`);
    return axError(code, ctx);
  }

  /** Copies one attribute. Returns the AXError and, on success, the owned value. */
  copy(el: CFRef, attr: string): { err: number; value: CFOwned | null } {
    const out = new Uint8Array(8);
    const err = this.libs.ax.AXUIElementCopyAttributeValue(el, this.name(attr), out);
    return { err, value: err === 0 ? this.cf.ownOrNull(readOutPointer(out)) : null };
  }

  /**
   * Reads a scalar attribute (string, number, boolean, AXValue). The CF object
   * is released before returning, so element and array results read as null:
   * use {@link copy} for those.
   *
   * @param maxUnits longest string kept (UTF-16 units), cut before copying
   * @returns the AXError and the JS value
   */
  read(
    el: CFRef,
    attr: string,
    maxUnits?: number,
  ): { err: number; value: string | number | boolean | AxValue | null } {
    const { err, value } = this.copy(el, attr);
    if (err !== 0 || value === null) return { err, value: null };
    using v = value;
    const js = this.toJs(v.ptr, maxUnits);
    return { err, value: js !== null && typeof js === "object" && !("type" in js) ? null : js };
  }

  /**
   * Batched read (`AXUIElementCopyMultipleAttributeValues`, options 0): each
   * slot is a value or that attribute's error placeholder. `use` runs while
   * the result array is alive; retain anything it must keep.
   *
   * @returns the call's AXError, and `use`'s result when it succeeded
   */
  copyMany<T>(el: CFRef, attrs: readonly string[], use: (slots: Slot[]) => T): {
    err: number;
    result?: T;
  } {
    using names = this.cf.array(attrs.map((a) => this.name(a)));
    const out = new Uint8Array(8);
    const err = this.libs.ax.AXUIElementCopyMultipleAttributeValues(el, names.ptr, 0, out);
    if (err !== 0) return { err };
    using arr = this.cf.own(readOutPointer(out), "attribute values");
    const items = this.cf.arrayItems(arr.ptr);
    const slots: Slot[] = attrs.map((_, i) => {
      const p = items[i] ?? null;
      // Apple documents either an AXError placeholder or kCFNull in a slot that failed.
      if (p === null || this.cf.kind(p) === "null") return { error: AX_ERROR.NoValue };
      if (this.cf.kind(p) === "axvalue") {
        const v = readAxValue(this.libs.ax, p);
        if (v?.type === "error") return { error: v.code };
      }
      return { ptr: p };
    });
    return { err, result: use(slots) };
  }

  /**
   * Converts a borrowed CF object to JS. Elements and arrays stay borrowed
   * pointers: valid only while their container lives.
   */
  toJs(p: CFRef, maxUnits?: number): AxJs {
    switch (this.cf.kind(p)) {
      case "string":
        return this.cf.readString(p, maxUnits);
      case "number":
        return this.cf.readNumber(p) ?? null;
      case "boolean":
        return this.cf.readBoolean(p) ?? null;
      case "axvalue":
        return readAxValue(this.libs.ax, p) ?? null;
      case "element":
        return { element: p };
      case "array":
        return { array: this.cf.arrayItems(p).filter((x): x is CFRef => x !== null) };
      default:
        return null;
    }
  }

  /** Action names of an element (empty on error). */
  actionNames(el: CFRef): { err: number; names: string[] } {
    const out = new Uint8Array(8);
    const err = this.libs.ax.AXUIElementCopyActionNames(el, out);
    if (err !== 0) return { err, names: [] };
    using arr = this.cf.own(readOutPointer(out), "action names");
    return { err, names: this.cf.arrayItems(arr.ptr).map((p) => this.cf.readString(p)) };
  }

  /** Whether an attribute can be set; the AXError when the question itself failed. */
  settable(el: CFRef, attr: string): { err: number; settable: boolean } {
    const out = new Uint8Array(8);
    const err = this.libs.ax.AXUIElementIsAttributeSettable(el, this.name(attr), out);
    return { err, settable: err === 0 && out[0] !== 0 };
  }

  /** Sets an attribute to a CF value (borrowed). Returns the AXError. */
  set(el: CFRef, attr: string, value: CFRef): number {
    return this.libs.ax.AXUIElementSetAttributeValue(el, this.name(attr), value);
  }

  /** Performs an action. Returns the AXError. */
  perform(el: CFRef, action: string): number {
    return this.libs.ax.AXUIElementPerformAction(el, this.name(action));
  }

  /** The pid an element belongs to, or undefined. */
  pidOf(el: CFRef): number | undefined {
    const out = new Uint8Array(8);
    if (this.libs.ax.AXUIElementGetPid(el, out) !== 0) return undefined;
    return new DataView(out.buffer).getInt32(0, true);
  }

  /** Creates the application element of a pid (owned). */
  appElement(pid: number): CFOwned {
    return this.cf.own(this.libs.ax.AXUIElementCreateApplication(pid), "application element");
  }

  /** Whether a process still has any window (on screen or not). */
  processAlive(pid: number): boolean {
    const list = this.libs.cg.CGWindowListCopyWindowInfo(CG_WINDOW_LIST.ExcludeDesktopElements, 0);
    if (list === null) return false;
    using arr = this.cf.own(list);
    const key = this.libs.statics.window.ownerPid;
    return this.cf.arrayItems(arr.ptr).some((d) =>
      d !== null && this.cf.readNumber(this.cf.dictGet(d, key)) === pid
    );
  }

  /**
   * The error for a failed call on an app's element: a process that is gone
   * is APP_NOT_FOUND, else the AXError's own mapping.
   */
  appError(code: number, pid: number, ctx: AxErrorContext): DesktopError {
    if (
      (code === AX_ERROR.CannotComplete || code === AX_ERROR.InvalidUIElement) &&
      !this.processAlive(pid)
    ) {
      return new DesktopError("APP_NOT_FOUND", `${ctx.app ?? `pid ${pid}`} is no longer running`, {
        suggestion: "Run `desktop list` to see running apps",
        details: { pid, axError: code },
      });
    }
    if (code === AX_ERROR.CannotComplete) {
      return new DesktopError(
        "APP_UNRESPONSIVE",
        `${ctx.app ?? `pid ${pid}`} did not answer (${ctx.op})`,
        {
          suggestion: "The app is busy or hung; wait and retry, or raise --timeout",
          details: { pid, axError: code },
        },
      );
    }
    return this.error(code, ctx);
  }

  /** Whether {@link close} ran. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Releases everything the session holds and closes the libraries. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.nids.clear();
    for (const s of this.#names.values()) s[Symbol.dispose]();
    this.#names.clear();
    this.#systemWide[Symbol.dispose]();
    this.libs.close();
  }
}

/** The deadline error: our own wall clock ran out while the app kept answering slowly. */
export function deadlineError(app: string, timeoutMs: number, op: string): DesktopError {
  return new DesktopError(
    "APP_UNRESPONSIVE",
    `${app} did not finish ${op} within ${timeoutMs} ms`,
    {
      suggestion: "The app answers slowly; narrow the read (--window, --depth) or raise --timeout",
      details: { timeoutMs },
    },
  );
}
