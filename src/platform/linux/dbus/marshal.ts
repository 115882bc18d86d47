/**
 * Marshalling of D-Bus values into the wire format (little-endian), with the
 * alignment rules of the specification: every value starts at a multiple of
 * its type's alignment, counted from the start of the message.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import { alignOf, type DType, parseSignature, signatureOf } from "./signature.ts";
import { type DBusValue, isVariant } from "./value.ts";

const encoder = new TextEncoder();

function badValue(t: DType, v: unknown): DesktopError {
  return new DesktopError(
    "INTERNAL",
    `cannot marshal ${JSON.stringify(v, (_k, x) => typeof x === "bigint" ? String(x) : x)} ` +
      `as D-Bus type "${signatureOf(t)}"`,
    { suggestion: "This is a bug in desktop; please report it with the command you ran" },
  );
}

/**
 * A growable little-endian buffer that writes D-Bus values. Offsets (and so
 * alignment) count from `base`, the position of this buffer in the message.
 */
export class Writer {
  #buf: Uint8Array;
  #view: DataView;
  #len = 0;
  /** Message offset of byte 0 minus where the current message starts. */
  #base: number;

  /**
   * @param base offset of the first byte within the whole message (for alignment)
   * @param capacity initial size
   */
  constructor(base = 0, capacity = 256) {
    this.#base = base;
    this.#buf = new Uint8Array(capacity);
    this.#view = new DataView(this.#buf.buffer);
  }

  /** Number of bytes written. */
  get length(): number {
    return this.#len;
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }

  /**
   * Starts a new message at the current position: alignment counts from here.
   * Lets one buffer collect many messages without a copy each.
   */
  startMessage(): void {
    this.#base = -this.#len;
  }

  /** Empties the buffer, keeping its memory. */
  clear(): void {
    this.#len = 0;
    this.#base = 0;
  }

  /**
   * Returns a copy of everything written and empties the buffer.
   *
   * @returns the bytes
   */
  take(): Uint8Array {
    const out = this.#buf.slice(0, this.#len);
    this.#len = 0;
    this.#base = 0;
    return out;
  }

  #ensure(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    let cap = this.#buf.length * 2;
    while (cap < this.#len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }

  /**
   * Pads with zero bytes up to a multiple of `n` (message-relative).
   *
   * @param n alignment in bytes
   */
  align(n: number): void {
    const pad = (n - ((this.#base + this.#len) % n)) % n;
    if (pad === 0) return;
    this.#ensure(pad);
    const buf = this.#buf;
    for (let i = 0; i < pad; i++) buf[this.#len++] = 0;
  }

  /**
   * Writes one byte.
   *
   * @param v 0..255
   */
  writeByte(v: number): void {
    this.#u8(v);
  }

  /**
   * Writes an aligned u32.
   *
   * @param v the value
   */
  writeUint32(v: number): void {
    this.#u32(v);
  }

  /**
   * Overwrites a u32 written earlier.
   *
   * @param at byte position within this buffer
   * @param v the value
   */
  patchUint32(at: number, v: number): void {
    this.#view.setUint32(at, v, true);
  }

  /**
   * Writes a string (type s or o) without checks.
   *
   * @param s the string
   */
  writeString(s: string): void {
    this.#str(s, 4);
  }

  /**
   * Writes a signature (type g) without checks.
   *
   * @param s the signature
   */
  writeSignature(s: string): void {
    this.#str(s, 1);
  }

  #u8(v: number): void {
    this.#ensure(1);
    this.#buf[this.#len++] = v;
  }

  #u32(v: number): void {
    this.align(4);
    this.#ensure(4);
    this.#view.setUint32(this.#len, v, true);
    this.#len += 4;
  }

  /** Overwrites a u32 at an earlier position (array lengths are known afterwards). */
  #patch32(at: number, v: number): void {
    this.#view.setUint32(at, v, true);
  }

  #str(s: string, lenBytes: 1 | 4): void {
    // ASCII (nearly every path, interface and member name) is copied as is.
    const n = s.length;
    let ascii = true;
    for (let i = 0; i < n; i++) {
      if (s.charCodeAt(i) > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      if (lenBytes === 4) this.#u32(n);
      else this.#u8(n);
      this.#ensure(n + 1);
      const buf = this.#buf;
      let at = this.#len;
      for (let i = 0; i < n; i++) buf[at++] = s.charCodeAt(i);
      buf[at++] = 0;
      this.#len = at;
      return;
    }
    const b = encoder.encode(s);
    if (lenBytes === 4) this.#u32(b.length);
    else this.#u8(b.length);
    this.#ensure(b.length + 1);
    this.#buf.set(b, this.#len);
    this.#len += b.length;
    this.#buf[this.#len++] = 0;
  }

  /**
   * Writes the values of a signature.
   *
   * @param sig signature of the values
   * @param values one value per complete type
   * @throws DesktopError INTERNAL when a value does not fit its type
   */
  writeAll(sig: string, values: readonly DBusValue[]): void {
    const types = parseSignature(sig);
    if (types.length !== values.length) {
      throw new DesktopError(
        "INTERNAL",
        `signature "${sig}" has ${types.length} types but ${values.length} values were given`,
        { suggestion: "This is a bug in desktop; please report it with the command you ran" },
      );
    }
    for (let i = 0; i < types.length; i++) this.write(types[i], values[i]);
  }

  /**
   * Writes one value of one type.
   *
   * @param t the type
   * @param v the value
   * @throws DesktopError INTERNAL when the value does not fit the type
   */
  write(t: DType, v: DBusValue): void {
    switch (t.code) {
      case "y":
        if (typeof v !== "number" || v < 0 || v > 255) throw badValue(t, v);
        return this.#u8(v);
      case "b":
        if (typeof v !== "boolean") throw badValue(t, v);
        return this.#u32(v ? 1 : 0);
      case "n":
      case "q":
        if (typeof v !== "number") throw badValue(t, v);
        this.align(2);
        this.#ensure(2);
        if (t.code === "n") this.#view.setInt16(this.#len, v, true);
        else this.#view.setUint16(this.#len, v, true);
        this.#len += 2;
        return;
      case "i":
      case "u":
      case "h":
        if (typeof v !== "number") throw badValue(t, v);
        this.align(4);
        this.#ensure(4);
        if (t.code === "i") this.#view.setInt32(this.#len, v, true);
        else this.#view.setUint32(this.#len, v, true);
        this.#len += 4;
        return;
      case "x":
      case "t":
        if (typeof v !== "bigint") throw badValue(t, v);
        this.align(8);
        this.#ensure(8);
        if (t.code === "x") this.#view.setBigInt64(this.#len, v, true);
        else this.#view.setBigUint64(this.#len, v, true);
        this.#len += 8;
        return;
      case "d":
        if (typeof v !== "number") throw badValue(t, v);
        this.align(8);
        this.#ensure(8);
        this.#view.setFloat64(this.#len, v, true);
        this.#len += 8;
        return;
      case "s":
      case "o":
        if (typeof v !== "string") throw badValue(t, v);
        return this.#str(v, 4);
      case "g":
        if (typeof v !== "string") throw badValue(t, v);
        parseSignature(v);
        return this.#str(v, 1);
      case "v":
        if (!isVariant(v)) throw badValue(t, v);
        {
          const inner = parseSignature(v.signature);
          if (inner.length !== 1) throw badValue(t, v);
          this.#str(v.signature, 1);
          this.write(inner[0], v.value);
        }
        return;
      case "a": {
        if (!Array.isArray(v)) throw badValue(t, v);
        this.#u32(0);
        const lenAt = this.#len - 4;
        // Padding before the first element is not counted in the length.
        this.align(alignOf(t.elem));
        const start = this.#len;
        for (const e of v) this.write(t.elem, e);
        this.#patch32(lenAt, this.#len - start);
        return;
      }
      case "(":
        if (!Array.isArray(v) || v.length !== t.fields.length) throw badValue(t, v);
        this.align(8);
        for (let i = 0; i < t.fields.length; i++) this.write(t.fields[i], v[i]);
        return;
      case "{":
        if (!Array.isArray(v) || v.length !== 2) throw badValue(t, v);
        this.align(8);
        this.write(t.key, v[0]);
        this.write(t.value, v[1]);
        return;
    }
  }
}

/**
 * Marshals values into a standalone byte array (offset 0 of a message body).
 *
 * @param sig signature of the values
 * @param values one value per complete type
 * @returns the wire bytes
 * @example
 * ```ts
 * import { marshal } from "./marshal.ts";
 * marshal("u", [1]).length; // 4
 * ```
 */
export function marshal(sig: string, values: readonly DBusValue[]): Uint8Array {
  const w = new Writer(0);
  w.writeAll(sig, values);
  return w.bytes().slice();
}
