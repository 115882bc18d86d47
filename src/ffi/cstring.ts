/**
 * Small marshalling helpers for C strings and out-parameters. No library is
 * opened here: callers pass the functions they need (e.g. `g_free`).
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Encodes a string as a NUL-terminated UTF-8 buffer for a `"buffer"` parameter.
 *
 * @param s the string
 * @returns the bytes plus a trailing NUL
 * @example
 * ```ts
 * import { cstr } from "./cstring.ts";
 * console.log(cstr("ab").length); // 3
 * ```
 */
export function cstr(s: string): Uint8Array<ArrayBuffer> {
  const bytes = encoder.encode(s);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/**
 * Reads a NUL-terminated UTF-8 string; a null pointer reads as "".
 *
 * @param ptr pointer to the first byte
 * @returns the decoded string
 */
export function readCString(ptr: Deno.PointerValue): string {
  if (ptr === null) return "";
  return Deno.UnsafePointerView.getCString(ptr);
}

/**
 * Reads a caller-owned C string and frees it with `free` (e.g. `g_free`).
 *
 * @param ptr the owned string (null reads as "")
 * @param free the deallocator
 * @returns the decoded string
 */
export function takeCString(ptr: Deno.PointerValue, free: (p: Deno.PointerValue) => void): string {
  if (ptr === null) return "";
  try {
    return Deno.UnsafePointerView.getCString(ptr);
  } finally {
    free(ptr);
  }
}

/** The fields of a GError: `{ u32 domain; i32 code; char *message }`. */
export interface GErrorInfo {
  /** GQuark of the error domain. */
  domain: number;
  /** Error code within the domain. */
  code: number;
  /** Message text. */
  message: string;
}

/**
 * A `GError**` out-parameter: an 8-byte buffer that receives a `GError*`.
 * Call {@link GErrorOut.take} after the C call to read and free the error.
 */
export class GErrorOut {
  /** The buffer to pass as the `GError**` argument. */
  readonly buf: Uint8Array<ArrayBuffer> = new Uint8Array(8);
  readonly #free: (p: Deno.PointerValue) => void;

  /** @param free `g_error_free` */
  constructor(free: (p: Deno.PointerValue) => void) {
    this.#free = free;
  }

  /**
   * Reads the GError set by the last call, frees it, and clears the slot.
   *
   * @returns the error's fields, or null when no error was set
   */
  take(): GErrorInfo | null {
    const view = new BigUint64Array(this.buf.buffer, 0, 1);
    const addr = view[0];
    if (addr === 0n) return null;
    view[0] = 0n;
    const ptr = Deno.UnsafePointer.create(addr);
    if (ptr === null) return null;
    const pv = new Deno.UnsafePointerView(ptr);
    const info: GErrorInfo = {
      domain: pv.getUint32(0),
      code: pv.getInt32(4),
      message: readCString(pv.getPointer(8)),
    };
    this.#free(ptr);
    return info;
  }
}

/**
 * Reads the element pointers of a `GArray` of pointers (`{ gchar *data; guint len }`).
 *
 * @param array the GArray (null reads as empty)
 * @returns the element pointers
 */
export function readPointerArray(array: Deno.PointerValue): Deno.PointerValue[] {
  if (array === null) return [];
  const view = new Deno.UnsafePointerView(array);
  const data = view.getPointer(0);
  const len = view.getUint32(8);
  if (data === null || len === 0) return [];
  const items = new Deno.UnsafePointerView(data);
  const out: Deno.PointerValue[] = [];
  for (let i = 0; i < len; i++) out.push(items.getPointer(i * 8));
  return out;
}
