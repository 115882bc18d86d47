/**
 * CoreFoundation marshalling: an owned-reference wrapper that releases
 * exactly once, and conversions between CF objects (CFString, CFArray,
 * CFNumber, CFBoolean, CFDictionary) and JS values.
 *
 * Ownership rule (Create/Copy vs Get): wrap what a Create/Copy call returns
 * in {@link CFOwned} (`using s = cf.own(ptr)`), never what a Get call returns.
 *
 * @module
 */

import { CF_NUMBER_TYPE, CF_STRING_ENCODING_UTF8 } from "./core_foundation.ts";
import type { CfSymbols, MacosLibraries, MacosStatics } from "./libraries.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The kinds of CF object the backend distinguishes. */
export type CfKind =
  | "string"
  | "number"
  | "boolean"
  | "array"
  | "dictionary"
  | "element"
  | "axvalue"
  | "null"
  | "other";

/** A non-null CF object pointer. */
export type CFRef = Deno.PointerObject;

/**
 * One owned CF reference (from a Create or Copy call). Disposing it calls
 * `CFRelease` once; {@link CFOwned.take} hands ownership to the caller instead.
 */
export class CFOwned implements Disposable {
  #ptr: CFRef | null;
  readonly #release: (p: CFRef) => void;

  /**
   * @param ptr the owned reference
   * @param release `CFRelease`
   */
  constructor(ptr: CFRef, release: (p: CFRef) => void) {
    this.#ptr = ptr;
    this.#release = release;
  }

  /** The reference; throws once released or taken. */
  get ptr(): CFRef {
    if (this.#ptr === null) throw new Error("CF reference used after release");
    return this.#ptr;
  }

  /** Whether this wrapper still owns its reference. */
  get alive(): boolean {
    return this.#ptr !== null;
  }

  /** Gives up ownership: the caller now releases the returned reference. */
  take(): CFRef {
    const p = this.ptr;
    this.#ptr = null;
    return p;
  }

  /** Releases the reference (once; later calls do nothing). */
  [Symbol.dispose](): void {
    const p = this.#ptr;
    if (p === null) return;
    this.#ptr = null;
    this.#release(p);
  }
}

/**
 * Reads a pointer written into an 8-byte out-parameter buffer.
 *
 * @param buf the buffer passed as `CFTypeRef *`
 * @returns the pointer, or null
 */
export function readOutPointer(buf: Uint8Array<ArrayBuffer>): Deno.PointerValue {
  const v = new DataView(buf.buffer, buf.byteOffset, 8).getBigUint64(0, true);
  return Deno.UnsafePointer.create(v);
}

/** Numeric key of a pointer, for maps and equality. */
export function pointerKey(p: Deno.PointerValue): bigint {
  return Deno.UnsafePointer.value(p) as bigint;
}

/** Type ids the backend compares against (from the *GetTypeID functions). */
export interface CfTypeIds {
  /** CFStringGetTypeID. */
  string: number;
  /** CFNumberGetTypeID. */
  number: number;
  /** CFBooleanGetTypeID. */
  boolean: number;
  /** CFArrayGetTypeID. */
  array: number;
  /** CFDictionaryGetTypeID. */
  dictionary: number;
  /** AXUIElementGetTypeID. */
  element: number;
  /** AXValueGetTypeID. */
  axvalue: number;
  /** CFNullGetTypeID (kCFNull marks an empty slot of a batched read). */
  null: number;
}

/**
 * CoreFoundation calls with JS-friendly signatures. Holds no CF objects of
 * its own.
 */
export class CoreFoundation {
  /** Raw symbols. */
  readonly sym: CfSymbols;
  /** Framework statics. */
  readonly statics: MacosStatics;
  readonly #kinds: Map<number, CfKind>;
  readonly #release: (p: CFRef) => void;

  /**
   * @param sym CoreFoundation symbols
   * @param statics the framework's exported variables
   * @param ids type ids, including the AX ones
   */
  constructor(sym: CfSymbols, statics: MacosStatics, ids: CfTypeIds) {
    this.sym = sym;
    this.statics = statics;
    this.#kinds = new Map<number, CfKind>(
      (Object.entries(ids) as [Exclude<CfKind, "other">, number][]).map(([k, v]) => [v, k]),
    );
    this.#release = (p) => sym.CFRelease(p);
  }

  /**
   * Builds the helper from opened libraries (asks each GetTypeID once).
   *
   * @param libs the opened frameworks
   * @returns the helper
   */
  static fromLibraries(libs: MacosLibraries): CoreFoundation {
    const c = libs.cf;
    return new CoreFoundation(c, libs.statics, {
      string: Number(c.CFStringGetTypeID()),
      number: Number(c.CFNumberGetTypeID()),
      boolean: Number(c.CFBooleanGetTypeID()),
      array: Number(c.CFArrayGetTypeID()),
      dictionary: Number(c.CFDictionaryGetTypeID()),
      element: Number(libs.ax.AXUIElementGetTypeID()),
      axvalue: Number(libs.ax.AXValueGetTypeID()),
      null: Number(c.CFNullGetTypeID()),
    });
  }

  /**
   * Wraps an owned reference (Create/Copy result).
   *
   * @param ptr the reference; null throws
   * @param what what was being created, for the error message
   * @returns the wrapper
   */
  own(ptr: Deno.PointerValue, what = "CF object"): CFOwned {
    if (ptr === null) throw new Error(`creating ${what} returned NULL`);
    return new CFOwned(ptr, this.#release);
  }

  /** Wraps an owned reference that may be null. */
  ownOrNull(ptr: Deno.PointerValue): CFOwned | null {
    return ptr === null ? null : new CFOwned(ptr, this.#release);
  }

  /** Takes an extra reference on a borrowed object (CFRetain) and wraps it. */
  retain(ptr: CFRef): CFOwned {
    return this.own(this.sym.CFRetain(ptr));
  }

  /** The kind of a CF object, from its type id. */
  kind(ptr: CFRef): CfKind {
    return this.#kinds.get(Number(this.sym.CFGetTypeID(ptr))) ?? "other";
  }

  /** CFEqual. */
  equal(a: CFRef, b: CFRef): boolean {
    return this.sym.CFEqual(a, b) !== 0;
  }

  /** CFHash, as a number-safe bigint. */
  hash(p: CFRef): bigint {
    return BigInt(this.sym.CFHash(p));
  }

  /**
   * Creates a CFString (owned).
   *
   * @param s the text (any Unicode)
   * @returns the owned CFString
   */
  string(s: string): CFOwned {
    const bytes = encoder.encode(s);
    return this.own(
      this.sym.CFStringCreateWithBytes(
        null,
        bytes,
        BigInt(bytes.length),
        CF_STRING_ENCODING_UTF8,
        0,
      ),
      "CFString",
    );
  }

  /**
   * Reads a CFString (borrowed) as a JS string; anything else reads as "".
   *
   * @param ptr the CFStringRef
   * @param maxUnits read at most this many UTF-16 units (a huge text area's
   *   value is cut on the CF side, before any copy)
   * @returns the text
   */
  readString(ptr: Deno.PointerValue, maxUnits?: number): string {
    if (ptr === null || this.kind(ptr) !== "string") return "";
    const len = Number(this.sym.CFStringGetLength(ptr));
    if (len === 0) return "";
    if (maxUnits !== undefined && len > maxUnits) {
      const range = new BigInt64Array([0n, BigInt(maxUnits)]);
      const sub = this.sym.CFStringCreateWithSubstring(null, ptr, new Uint8Array(range.buffer));
      using part = this.own(sub, "CFString substring");
      return this.readString(part.ptr);
    }
    const size =
      Number(this.sym.CFStringGetMaximumSizeForEncoding(BigInt(len), CF_STRING_ENCODING_UTF8)) +
      1;
    const buf = new Uint8Array(size);
    if (!this.sym.CFStringGetCString(ptr, buf, BigInt(size), CF_STRING_ENCODING_UTF8)) return "";
    const end = buf.indexOf(0);
    return decoder.decode(buf.subarray(0, end < 0 ? size : end));
  }

  /**
   * The items of a CFArray (borrowed: valid while the array lives).
   *
   * @param ptr the CFArrayRef
   * @returns item pointers (null items are kept as null)
   */
  arrayItems(ptr: CFRef): Deno.PointerValue[] {
    const n = Number(this.sym.CFArrayGetCount(ptr));
    const out: Deno.PointerValue[] = [];
    for (let i = 0; i < n; i++) out.push(this.sym.CFArrayGetValueAtIndex(ptr, BigInt(i)));
    return out;
  }

  /**
   * Creates a CFArray that retains its items (kCFTypeArrayCallBacks).
   *
   * @param items CF objects (the array takes its own references)
   * @returns the owned array
   */
  array(items: readonly CFRef[]): CFOwned {
    const values = new BigUint64Array(Math.max(1, items.length));
    items.forEach((p, i) => values[i] = pointerKey(p));
    return this.own(
      this.sym.CFArrayCreate(
        null,
        new Uint8Array(values.buffer),
        BigInt(items.length),
        this.statics.arrayCallBacks,
      ),
      "CFArray",
    );
  }

  /**
   * Creates a CFDictionary that retains keys and values.
   *
   * @param entries key/value pairs of CF objects
   * @returns the owned dictionary
   */
  dictionary(entries: readonly [CFRef, CFRef][]): CFOwned {
    const keys = new BigUint64Array(Math.max(1, entries.length));
    const values = new BigUint64Array(Math.max(1, entries.length));
    entries.forEach(([k, v], i) => {
      keys[i] = pointerKey(k);
      values[i] = pointerKey(v);
    });
    return this.own(
      this.sym.CFDictionaryCreate(
        null,
        new Uint8Array(keys.buffer),
        new Uint8Array(values.buffer),
        BigInt(entries.length),
        this.statics.dictKeyCallBacks,
        this.statics.dictValueCallBacks,
      ),
      "CFDictionary",
    );
  }

  /** CFDictionaryGetValue (borrowed result). */
  dictGet(dict: CFRef, key: CFRef): Deno.PointerValue {
    return this.sym.CFDictionaryGetValue(dict, key);
  }

  /**
   * Creates a CFNumber: SInt64 for integers, Float64 otherwise.
   *
   * @param n the number
   * @returns the owned CFNumber
   */
  number(n: number): CFOwned {
    const buf = new Uint8Array(8);
    const view = new DataView(buf.buffer);
    const integer = Number.isSafeInteger(n);
    if (integer) view.setBigInt64(0, BigInt(n), true);
    else view.setFloat64(0, n, true);
    return this.own(
      this.sym.CFNumberCreate(
        null,
        BigInt(integer ? CF_NUMBER_TYPE.SInt64 : CF_NUMBER_TYPE.Float64),
        buf,
      ),
      "CFNumber",
    );
  }

  /**
   * Reads a CFNumber (borrowed) as a double.
   *
   * @param ptr the CFNumberRef
   * @returns the value, or undefined for a non-number
   */
  readNumber(ptr: Deno.PointerValue): number | undefined {
    if (ptr === null || this.kind(ptr) !== "number") return undefined;
    const buf = new Uint8Array(8);
    this.sym.CFNumberGetValue(ptr, BigInt(CF_NUMBER_TYPE.Float64), buf);
    return new DataView(buf.buffer).getFloat64(0, true);
  }

  /** Reads a CFBoolean (borrowed); undefined for anything else. */
  readBoolean(ptr: Deno.PointerValue): boolean | undefined {
    if (ptr === null || this.kind(ptr) !== "boolean") return undefined;
    return this.sym.CFBooleanGetValue(ptr) !== 0;
  }

  /** `kCFBooleanTrue` or `kCFBooleanFalse` (static: never released). */
  boolean(b: boolean): CFRef {
    return b ? this.statics.cfTrue : this.statics.cfFalse;
  }
}
