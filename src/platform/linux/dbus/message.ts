/**
 * D-Bus messages: the fixed header, the header fields, and framing (how long
 * a message in a byte stream is).
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import { Writer } from "./marshal.ts";
import { parseSignature } from "./signature.ts";
import { Reader } from "./unmarshal.ts";
import type { DBusValue } from "./value.ts";

/** Message types. */
export const MessageType = {
  METHOD_CALL: 1,
  METHOD_RETURN: 2,
  ERROR: 3,
  SIGNAL: 4,
} as const;

/** Header flags. */
export const Flags = {
  NO_REPLY_EXPECTED: 1,
  NO_AUTO_START: 2,
} as const;

/** Header field codes. */
const Field = {
  PATH: 1,
  INTERFACE: 2,
  MEMBER: 3,
  ERROR_NAME: 4,
  REPLY_SERIAL: 5,
  DESTINATION: 6,
  SENDER: 7,
  SIGNATURE: 8,
  UNIX_FDS: 9,
} as const;

/** One D-Bus message. */
export interface Message {
  /** One of {@link MessageType}. */
  type: number;
  /** Bitwise OR of {@link Flags}. */
  flags: number;
  /** Serial of this message (non-zero). */
  serial: number;
  /** Object path. */
  path?: string;
  /** Interface name. */
  interface?: string;
  /** Member (method or signal) name. */
  member?: string;
  /** Error name (ERROR messages). */
  errorName?: string;
  /** Serial of the call this message answers. */
  replySerial?: number;
  /** Destination bus name. */
  destination?: string;
  /** Sender bus name. */
  sender?: string;
  /** Body signature ("" for no body). */
  signature: string;
  /** Body values. */
  body: DBusValue[];
}

/** Size of the fixed part of the header. */
export const FIXED_HEADER = 16;
/** Largest message the specification allows (128 MiB). */
const MAX_MESSAGE = 134217728;

function malformed(why: string): DesktopError {
  return new DesktopError("INTERNAL", `malformed D-Bus message: ${why}`, {
    suggestion: "The app sent a message we cannot read; read it again or restart the app",
  });
}

/**
 * Encodes a message in little-endian byte order.
 *
 * @param m the message (serial must be set)
 * @returns the wire bytes
 * @example
 * ```ts
 * import { encodeMessage, MessageType } from "./message.ts";
 * const bytes = encodeMessage({
 *   type: MessageType.METHOD_CALL, flags: 0, serial: 1, signature: "", body: [],
 *   path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello",
 *   destination: "org.freedesktop.DBus",
 * });
 * bytes[0]; // 108 ("l")
 * ```
 */
export function encodeMessage(m: Message): Uint8Array {
  const w = new Writer(0, 256);
  encodeMessageInto(w, m);
  return w.take();
}

/**
 * Appends a message to a writer that may already hold other messages.
 *
 * @param head the writer
 * @param m the message (serial must be set)
 */
export function encodeMessageInto(head: Writer, m: Message): void {
  // Header fields are written directly (not as variant objects): calls are
  // encoded thousands of times per read.
  head.startMessage();
  const msgStart = head.length;
  head.writeByte(0x6c);
  head.writeByte(m.type);
  head.writeByte(m.flags);
  head.writeByte(1);
  head.writeUint32(0); // body length, patched below
  head.writeUint32(m.serial);
  const lenAt = head.length;
  head.writeUint32(0); // header fields array length, patched below
  head.align(8);
  const fieldsStart = head.length;
  const str = (code: number, sig: "s" | "o", value: string | undefined) => {
    if (value === undefined) return;
    head.align(8);
    head.writeByte(code);
    head.writeSignature(sig);
    head.writeString(value);
  };
  str(Field.PATH, "o", m.path);
  str(Field.INTERFACE, "s", m.interface);
  str(Field.MEMBER, "s", m.member);
  str(Field.ERROR_NAME, "s", m.errorName);
  if (m.replySerial !== undefined) {
    head.align(8);
    head.writeByte(Field.REPLY_SERIAL);
    head.writeSignature("u");
    head.writeUint32(m.replySerial);
  }
  str(Field.DESTINATION, "s", m.destination);
  str(Field.SENDER, "s", m.sender);
  if (m.signature) {
    head.align(8);
    head.writeByte(Field.SIGNATURE);
    head.writeSignature("g");
    head.writeSignature(m.signature);
  }
  head.patchUint32(lenAt, head.length - fieldsStart);
  head.align(8);
  const bodyStart = head.length;
  if (m.signature) head.writeAll(m.signature, m.body);
  head.patchUint32(msgStart + 4, head.length - bodyStart);
}

/**
 * Length of the message starting at `buf[start]`, or -1 when fewer than 16
 * bytes are there to tell.
 *
 * @param buf bytes from the stream
 * @param start where a message begins
 * @param end end of the bytes received so far
 * @returns total message length in bytes, or -1
 * @throws DesktopError INTERNAL for a bad byte-order mark or an oversized message
 */
export function messageLength(buf: Uint8Array, start = 0, end: number = buf.length): number {
  if (end - start < FIXED_HEADER) return -1;
  const le = endianOf(buf[start]);
  const u32 = (at: number) => {
    const o = start + at;
    return le
      ? (buf[o] | (buf[o + 1] << 8) | (buf[o + 2] << 16) | (buf[o + 3] << 24)) >>> 0
      : ((buf[o] << 24) | (buf[o + 1] << 16) | (buf[o + 2] << 8) | buf[o + 3]) >>> 0;
  };
  const bodyLen = u32(4);
  const fieldsLen = u32(12);
  const headerLen = FIXED_HEADER + fieldsLen + ((8 - (fieldsLen % 8)) % 8);
  const total = headerLen + bodyLen;
  if (total > MAX_MESSAGE) throw malformed(`message of ${total} bytes`);
  return total;
}

function endianOf(b: number): boolean {
  if (b === 0x6c) return true;
  if (b === 0x42) return false;
  throw malformed(`byte-order mark ${b}`);
}

/**
 * Decodes one complete message.
 *
 * @param buf exactly one message's bytes
 * @returns the message with its body unmarshalled
 * @throws DesktopError INTERNAL for malformed data
 */
export function decodeMessage(buf: Uint8Array): Message {
  const { msg, body } = decodeHeader(buf);
  if (body) {
    msg.body = body.readAll(msg.signature);
    if (body.remaining !== 0) throw malformed(`${body.remaining} bytes after the body`);
  }
  return msg;
}

/**
 * Decodes a message's header and returns a reader positioned on its body
 * (null when there is none), so a caller can decode a large body its own way.
 *
 * @param buf exactly one message's bytes
 * @returns the message with an empty `body`, and the body reader
 * @throws DesktopError INTERNAL for malformed data
 */
export function decodeHeader(buf: Uint8Array): { msg: Message; body: Reader | null } {
  const le = endianOf(buf[0]);
  if (buf[3] !== 1) throw malformed(`protocol version ${buf[3]}`);
  // One reader for header and body: the body starts 8-aligned, so alignment
  // counted from the message start is the same as from the body start.
  const r = new Reader(buf, le, 0);
  r.skip(4);
  const bodyLen = r.readUint32();
  const m: Message = {
    type: buf[1],
    flags: buf[2],
    serial: r.readUint32(),
    signature: "",
    body: [],
  };
  // Header fields read one by one (a(yv) with known value types), which is
  // much cheaper than building variant objects for every reply.
  const fieldsEnd = 16 + r.readUint32();
  while (r.position < fieldsEnd) {
    r.align(8);
    const code = r.readByte();
    const sig = r.readSignature();
    const inner = parseSignature(sig);
    if (inner.length !== 1) throw malformed(`header field signature "${sig}"`);
    const value = r.read(inner[0]);
    switch (code) {
      case Field.PATH:
        m.path = value as string;
        break;
      case Field.INTERFACE:
        m.interface = value as string;
        break;
      case Field.MEMBER:
        m.member = value as string;
        break;
      case Field.ERROR_NAME:
        m.errorName = value as string;
        break;
      case Field.REPLY_SERIAL:
        m.replySerial = value as number;
        break;
      case Field.DESTINATION:
        m.destination = value as string;
        break;
      case Field.SENDER:
        m.sender = value as string;
        break;
      case Field.SIGNATURE:
        m.signature = value as string;
        break;
    }
  }
  if (r.position !== fieldsEnd) throw malformed("header fields overrun their length");
  r.align(8);
  const bodyStart = r.position;
  if (bodyStart + bodyLen !== buf.length) throw malformed("body length does not match");
  if (m.signature) {
    parseSignature(m.signature);
    return { msg: m, body: r };
  }
  if (bodyLen !== 0) throw malformed("body without a signature");
  return { msg: m, body: null };
}
