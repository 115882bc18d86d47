/**
 * Unmarshalling of D-Bus values from the wire format, either byte order,
 * checking bounds and alignment so that a malformed message becomes a
 * DesktopError rather than garbage.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import { alignOf, type DType, parseSignature } from "./signature.ts";
import type { DBusValue } from "./value.ts";

const decoder = new TextDecoder("utf-8", { fatal: false });

function malformed(why: string): DesktopError {
  return new DesktopError("INTERNAL", `malformed D-Bus message: ${why}`, {
    suggestion: "The app sent a message we cannot read; read it again or restart the app",
  });
}

/** Shared strings by hash, for {@link Reader.readString} with interning. */
const INTERN = new Map<number, string>();

/** Reads D-Bus values from a byte array. */
export class Reader {
  readonly #buf: Uint8Array;
  readonly #view: DataView;
  readonly #le: boolean;
  readonly #base: number;
  #pos: number;

  /**
   * @param buf the bytes
   * @param littleEndian byte order of the message
   * @param base message offset of `buf[0]` (alignment counts from the message start)
   */
  constructor(buf: Uint8Array, littleEndian = true, base = 0) {
    this.#buf = buf;
    this.#view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.#le = littleEndian;
    this.#base = base;
    this.#pos = 0;
  }

  /** Current read position within `buf`. */
  get position(): number {
    return this.#pos;
  }

  /** Bytes left to read. */
  get remaining(): number {
    return this.#buf.length - this.#pos;
  }

  /**
   * Skips padding up to a multiple of `n` (message-relative).
   *
   * @param n alignment in bytes
   */
  align(n: number): void {
    const pad = (n - ((this.#base + this.#pos) % n)) % n;
    this.#need(pad);
    this.#pos += pad;
  }

  /**
   * Skips bytes.
   *
   * @param n how many
   */
  skip(n: number): void {
    this.#need(n);
    this.#pos += n;
  }

  /** Reads one byte. */
  readByte(): number {
    this.#need(1);
    return this.#buf[this.#pos++];
  }

  /** Reads a signature (type g). */
  readSignature(): string {
    this.#need(1);
    return this.#str(this.#buf[this.#pos++]);
  }

  #need(n: number): void {
    if (this.#pos + n > this.#buf.length) {
      throw malformed(`needs ${n} bytes at ${this.#pos}, has ${this.#buf.length - this.#pos}`);
    }
  }

  #u32(): number {
    this.align(4);
    this.#need(4);
    const v = this.#view.getUint32(this.#pos, this.#le);
    this.#pos += 4;
    return v;
  }

  /** Reads an aligned u32. */
  readUint32(): number {
    return this.#u32();
  }

  /** Reads an aligned i32. */
  readInt32(): number {
    this.align(4);
    this.#need(4);
    const v = this.#view.getInt32(this.#pos, this.#le);
    this.#pos += 4;
    return v;
  }

  /**
   * Reads a string (type s or o).
   *
   * @param intern share one string object per distinct short value (for
   *   values that repeat thousands of times, like interface names)
   * @returns the string
   */
  readString(intern = false): string {
    const len = this.#u32();
    return intern && len <= 64 ? this.#interned(len) : this.#str(len);
  }

  /** Skips a string (type s or o) without decoding it. */
  skipString(): void {
    const len = this.#u32();
    this.#need(len + 1);
    this.#pos += len + 1;
  }

  #interned(len: number): string {
    this.#need(len + 1);
    const b = this.#buf;
    const start = this.#pos;
    let h = 2166136261;
    for (let i = start; i < start + len; i++) h = Math.imul(h ^ b[i], 16777619);
    h = (h ^ len) >>> 0;
    const hit = INTERN.get(h);
    if (hit !== undefined && hit.length === len) {
      let same = true;
      for (let i = 0; i < len; i++) {
        if (hit.charCodeAt(i) !== b[start + i]) {
          same = false;
          break;
        }
      }
      if (same && b[start + len] === 0) {
        this.#pos += len + 1;
        return hit;
      }
    }
    const s = this.#str(len);
    if (INTERN.size > 4096) INTERN.clear();
    INTERN.set(h, s);
    return s;
  }

  #str(len: number): string {
    this.#need(len + 1);
    const start = this.#pos;
    const end = start + len;
    if (this.#buf[end] !== 0) throw malformed("string is not NUL-terminated");
    this.#pos = end + 1;
    // ASCII strings (most names and paths) are built in one step: building
    // them a character at a time leaves kilobytes of garbage per string.
    const b = this.#buf;
    for (let i = start; i < end; i++) {
      if (b[i] > 0x7f) return decoder.decode(b.subarray(start, end));
    }
    if (len === 0) return "";
    if (len <= 1024) {
      return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
    }
    return decoder.decode(b.subarray(start, end));
  }

  /**
   * Reads the values of a signature.
   *
   * @param sig the signature
   * @returns one value per complete type
   * @throws DesktopError INTERNAL for truncated or malformed data
   */
  readAll(sig: string): DBusValue[] {
    const types = parseSignature(sig);
    const out: DBusValue[] = new Array(types.length);
    for (let i = 0; i < types.length; i++) out[i] = this.read(types[i]);
    return out;
  }

  /**
   * Reads one value of one type.
   *
   * @param t the type
   * @returns the value
   * @throws DesktopError INTERNAL for truncated or malformed data
   */
  read(t: DType): DBusValue {
    const view = this.#view;
    switch (t.code) {
      case "y":
        this.#need(1);
        return this.#buf[this.#pos++];
      case "b": {
        const v = this.#u32();
        if (v > 1) throw malformed(`boolean value ${v}`);
        return v === 1;
      }
      case "n":
      case "q": {
        this.align(2);
        this.#need(2);
        const v = t.code === "n"
          ? view.getInt16(this.#pos, this.#le)
          : view.getUint16(this.#pos, this.#le);
        this.#pos += 2;
        return v;
      }
      case "i": {
        this.align(4);
        this.#need(4);
        const v = view.getInt32(this.#pos, this.#le);
        this.#pos += 4;
        return v;
      }
      case "u":
      case "h":
        return this.#u32();
      case "x":
      case "t": {
        this.align(8);
        this.#need(8);
        const v = t.code === "x"
          ? view.getBigInt64(this.#pos, this.#le)
          : view.getBigUint64(this.#pos, this.#le);
        this.#pos += 8;
        return v;
      }
      case "d": {
        this.align(8);
        this.#need(8);
        const v = view.getFloat64(this.#pos, this.#le);
        this.#pos += 8;
        return v;
      }
      case "s":
      case "o":
        return this.#str(this.#u32());
      case "g": {
        this.#need(1);
        return this.#str(this.#buf[this.#pos++]);
      }
      case "v": {
        this.#need(1);
        const sig = this.#str(this.#buf[this.#pos++]);
        const inner = parseSignature(sig);
        if (inner.length !== 1) throw malformed(`variant signature "${sig}"`);
        return { signature: sig, value: this.read(inner[0]) };
      }
      case "a": {
        const len = this.#u32();
        if (len > 67108864) throw malformed(`array of ${len} bytes`);
        this.align(alignOf(t.elem));
        this.#need(len);
        const end = this.#pos + len;
        const out: DBusValue[] = [];
        while (this.#pos < end) out.push(this.read(t.elem));
        if (this.#pos !== end) throw malformed("array elements overrun the array length");
        return out;
      }
      case "(": {
        this.align(8);
        const out: DBusValue[] = new Array(t.fields.length);
        for (let i = 0; i < t.fields.length; i++) out[i] = this.read(t.fields[i]);
        return out;
      }
      case "{": {
        this.align(8);
        const k = this.read(t.key);
        return [k, this.read(t.value)];
      }
    }
  }
}

/**
 * Unmarshals a standalone byte array (offset 0 of a message body).
 *
 * @param sig signature of the values
 * @param bytes the wire bytes
 * @param littleEndian byte order
 * @returns one value per complete type
 * @throws DesktopError INTERNAL for truncated, malformed or trailing data
 * @example
 * ```ts
 * import { unmarshal } from "./unmarshal.ts";
 * unmarshal("u", new Uint8Array([1, 0, 0, 0])); // [1]
 * ```
 */
export function unmarshal(sig: string, bytes: Uint8Array, littleEndian = true): DBusValue[] {
  const r = new Reader(bytes, littleEndian, 0);
  const out = r.readAll(sig);
  if (r.remaining !== 0) throw malformed(`${r.remaining} bytes after the values`);
  return out;
}
