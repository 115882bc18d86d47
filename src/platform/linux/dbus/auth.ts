/**
 * The SASL handshake that opens a D-Bus connection: a NUL byte, then
 * `AUTH EXTERNAL <uid in hex>`, the server's `OK <guid>`, then `BEGIN`.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";

/** A parsed server line of the handshake. */
export type AuthReply =
  | { kind: "ok"; guid: string }
  | { kind: "rejected"; mechanisms: string[] }
  | { kind: "data"; data: string }
  | { kind: "error"; message: string }
  | { kind: "agree-unix-fd" }
  | { kind: "unknown"; line: string };

const encoder = new TextEncoder();

/**
 * Hex-encodes the ASCII decimal uid, as the EXTERNAL mechanism wants it.
 *
 * @param uid the numeric user id
 * @returns e.g. "31303030" for uid 1000
 * @example
 * ```ts
 * import { hexUid } from "./auth.ts";
 * hexUid(0); // "30"
 * ```
 */
export function hexUid(uid: number): string {
  return [...String(uid)].map((c) => c.charCodeAt(0).toString(16)).join("");
}

/**
 * The bytes the client sends first: NUL and the AUTH command.
 *
 * @param uid the numeric user id
 * @returns the wire bytes
 */
export function authRequest(uid: number): Uint8Array {
  return encoder.encode(`\0AUTH EXTERNAL ${hexUid(uid)}\r\n`);
}

/** The bytes that end the handshake. */
export const BEGIN: Uint8Array = encoder.encode("BEGIN\r\n");

/**
 * Parses one server line (without the trailing CRLF).
 *
 * @param line the line
 * @returns what the server said
 */
export function parseAuthLine(line: string): AuthReply {
  const sp = line.indexOf(" ");
  const cmd = sp < 0 ? line : line.slice(0, sp);
  const arg = sp < 0 ? "" : line.slice(sp + 1).trim();
  switch (cmd) {
    case "OK":
      return { kind: "ok", guid: arg };
    case "REJECTED":
      return { kind: "rejected", mechanisms: arg ? arg.split(/\s+/) : [] };
    case "DATA":
      return { kind: "data", data: arg };
    case "ERROR":
      return { kind: "error", message: arg };
    case "AGREE_UNIX_FD":
      return { kind: "agree-unix-fd" };
    default:
      return { kind: "unknown", line };
  }
}

/**
 * Turns a server line into the guid on success, or a DesktopError.
 *
 * @param line the first server line of the handshake
 * @returns the server guid
 * @throws DesktopError PERMISSION_DENIED when EXTERNAL is rejected, INTERNAL otherwise
 */
export function expectOk(line: string): string {
  const r = parseAuthLine(line);
  if (r.kind === "ok") return r.guid;
  if (r.kind === "rejected") {
    return fail(
      "PERMISSION_DENIED",
      `D-Bus refused EXTERNAL authentication (offers: ${r.mechanisms.join(", ") || "none"})`,
      "Run as the user that owns the desktop session",
    );
  }
  return fail(
    "INTERNAL",
    `unexpected D-Bus authentication reply "${line}"`,
    "Check that the address points at a D-Bus daemon",
  );
}

function fail(code: "PERMISSION_DENIED" | "INTERNAL", message: string, suggestion: string): never {
  throw new DesktopError(code, message, { suggestion });
}

/**
 * Accumulates handshake bytes and splits off complete CRLF lines.
 */
export class LineBuffer {
  #pending = "";

  /**
   * Adds bytes and returns the complete lines they finish.
   *
   * @param chunk bytes read from the socket
   * @returns complete lines without CRLF
   * @throws DesktopError INTERNAL when a line grows beyond 16 KiB
   */
  push(chunk: Uint8Array): string[] {
    this.#pending += String.fromCharCode(...chunk);
    const lines: string[] = [];
    let i: number;
    while ((i = this.#pending.indexOf("\r\n")) >= 0) {
      lines.push(this.#pending.slice(0, i));
      this.#pending = this.#pending.slice(i + 2);
    }
    if (this.#pending.length > 16384) {
      fail("INTERNAL", "D-Bus authentication line too long", "Check the D-Bus address");
    }
    return lines;
  }
}
