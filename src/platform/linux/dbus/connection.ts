/**
 * A D-Bus connection over a unix socket: handshake, Hello, and method calls
 * matched to replies by serial. Any number of calls may be in flight; calls
 * made in the same tick go out in one socket write. Every call has a deadline,
 * so an app that stops answering cannot hang the caller.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import { socketPaths } from "./address.ts";
import { authRequest, BEGIN, expectOk, LineBuffer } from "./auth.ts";
import { connectionError, errorFromReply, noReplyError } from "./errors.ts";
import { decodeHeader, encodeMessageInto, Flags, messageLength, MessageType } from "./message.ts";
import { Reader } from "./unmarshal.ts";
import { Writer } from "./marshal.ts";
import type { DBusValue } from "./value.ts";

/** One method call. */
export interface MethodCall {
  /** Bus name to call. */
  destination: string;
  /** Object path. */
  path: string;
  /** Interface of the method. */
  interface: string;
  /** Method name. */
  member: string;
  /** Signature of the arguments ("" or omitted for none). */
  signature?: string;
  /** Arguments. */
  body?: DBusValue[];
}

/** Decodes a reply body its own way (see {@link DBusConnection.callWith}). */
export type BodyDecoder<T> = (body: Reader, signature: string) => T;

interface Pending {
  // deno-lint-ignore no-explicit-any
  resolve: (body: any) => void;
  // deno-lint-ignore no-explicit-any
  decode?: BodyDecoder<any>;
  reject: (e: DesktopError) => void;
  deadline: number;
  call: MethodCall;
}

/** Counters for profiling: how much went over the wire. */
export interface WireStats {
  /** Method calls sent. */
  calls: number;
  /** Socket writes made (calls are batched). */
  writes: number;
  /** Bytes sent. */
  bytesOut: number;
  /** Bytes received. */
  bytesIn: number;
  /** Milliseconds spent decoding messages. */
  decodeMs: number;
}

const READ_CHUNK = 256 * 1024;

/** A connection to one D-Bus daemon. */
export class DBusConnection {
  readonly #conn: Deno.UnixConn;
  #serial = 0;
  readonly #pending = new Map<number, Pending>();
  /** Encoded calls waiting for the next socket write. */
  #out = new Writer(0, 64 * 1024);
  /** The other output buffer, written to the socket while `#out` fills. */
  #spare = new Writer(0, 64 * 1024);
  #flushing = false;
  #closed: DesktopError | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  /** Our unique name on the bus (from Hello). */
  uniqueName = "";
  /** When each peer last answered one of our calls (ms since epoch), by its bus name. */
  readonly answeredAt = new Map<string, number>();
  /** Wire counters since the connection opened. */
  readonly stats: WireStats = { calls: 0, writes: 0, bytesOut: 0, bytesIn: 0, decodeMs: 0 };

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
  }

  /**
   * Connects, authenticates and says Hello (not on a peer-to-peer connection,
   * where no bus daemon is there to answer it).
   *
   * @param address a D-Bus address string (`unix:path=...`)
   * @param timeoutMs limit for the whole opening
   * @param peer true for a direct connection to an app rather than a bus daemon
   * @returns the open connection
   * @throws DesktopError PLATFORM_NOT_SUPPORTED (address), PERMISSION_DENIED (auth),
   *   TIMEOUT (no answer in time), INTERNAL (cannot connect)
   */
  static async open(address: string, timeoutMs: number, peer = false): Promise<DBusConnection> {
    const deadline = Date.now() + timeoutMs;
    const paths = socketPaths(address);
    let conn: Deno.UnixConn | undefined;
    let lastErr: unknown;
    for (const path of paths) {
      try {
        conn = await Deno.connect({ transport: "unix", path });
        break;
      } catch (e) {
        lastErr = e;
      }
    }
    if (!conn) {
      throw connectionError(
        `cannot connect to ${address}: ${(lastErr as Error)?.message ?? "no address"}`,
        lastErr,
      );
    }
    try {
      await withDeadline(handshake(conn), deadline, `D-Bus handshake with ${address}`);
    } catch (e) {
      conn.close();
      throw e;
    }
    const c = new DBusConnection(conn);
    c.#readLoop();
    if (peer) return c;
    try {
      const [name] = await c.call({
        destination: "org.freedesktop.DBus",
        path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus",
        member: "Hello",
      }, deadline);
      c.uniqueName = name as string;
    } catch (e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * Calls a method and resolves with the reply's body.
   *
   * @param m the call
   * @param deadline absolute time (ms since epoch) after which the call fails
   * @returns the reply's values
   * @throws DesktopError from the error reply, APP_UNRESPONSIVE past the deadline,
   *   INTERNAL when the connection is lost
   */
  call(m: MethodCall, deadline: number): Promise<DBusValue[]> {
    return this.#start(m, deadline);
  }

  #start<T>(m: MethodCall, deadline: number, decode?: BodyDecoder<T>): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    const serial = this.#nextSerial();
    encodeMessageInto(this.#out, {
      type: MessageType.METHOD_CALL,
      flags: Flags.NO_AUTO_START,
      serial,
      destination: m.destination,
      path: m.path,
      interface: m.interface,
      member: m.member,
      signature: m.signature ?? "",
      body: m.body ?? [],
    });
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(serial, { resolve, reject, deadline, call: m, decode });
      this.#armTimer(deadline);
      this.#send();
    });
  }

  /**
   * Calls a method and decodes the reply body with `decode`, straight from the
   * receive buffer: for large replies whose generic form would cost many
   * short-lived objects.
   *
   * @param m the call
   * @param deadline absolute time (ms since epoch) after which the call fails
   * @param decode reads the body (called with a null-safe empty reader for no body)
   * @returns what `decode` returns
   * @throws DesktopError as {@link call}, or what `decode` throws
   */
  callWith<T>(m: MethodCall, deadline: number, decode: BodyDecoder<T>): Promise<T> {
    return this.#start(m, deadline, decode);
  }

  /** Calls currently waiting for a reply. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Closes the socket and fails every pending call. */
  close(): void {
    this.#fail(connectionError("closed"));
  }

  #nextSerial(): number {
    this.#serial = this.#serial >= 0xfffffffe ? 1 : this.#serial + 1;
    return this.#serial;
  }

  #send(): void {
    this.stats.calls++;
    if (!this.#flushing) {
      this.#flushing = true;
      // Let more calls join this write. With replies still to come, wait for
      // the next macrotask: calls made from reply handlers then go out together
      // (fewer writes here, fewer wake-ups in the app). Otherwise only let the
      // current microtasks add theirs, to keep a lone call's latency low.
      if (this.#pending.size > 1) setTimeout(() => this.#flush(), 0);
      else queueMicrotask(() => this.#flush());
    }
  }

  async #flush(): Promise<void> {
    try {
      while (this.#out.length > 0 && !this.#closed) {
        const w = this.#out;
        this.#out = this.#spare;
        this.#spare = w;
        const buf = w.bytes();
        const total = buf.length;
        this.stats.writes++;
        this.stats.bytesOut += total;
        let done = 0;
        while (done < total) done += await this.#conn.write(buf.subarray(done));
        w.clear();
      }
    } catch (e) {
      this.#fail(connectionError(`write failed: ${(e as Error).message}`, e));
    } finally {
      this.#flushing = false;
    }
  }

  async #readLoop(): Promise<void> {
    // One buffer, reused: compacted in place and grown only for a message
    // larger than it. Allocating large buffers per read costs full GCs.
    let buf = new Uint8Array(READ_CHUNK);
    let start = 0;
    let end = 0;
    try {
      while (!this.#closed) {
        if (end === buf.length) {
          if (start > 0) {
            buf.copyWithin(0, start, end);
            end -= start;
            start = 0;
          } else {
            const next = new Uint8Array(buf.length * 2);
            next.set(buf);
            buf = next;
          }
        }
        const n = await this.#conn.read(buf.subarray(end));
        if (n === null) throw connectionError("the bus closed the connection");
        end += n;
        this.stats.bytesIn += n;
        const t0 = performance.now();
        for (;;) {
          const len = messageLength(buf, start, end);
          if (len < 0 || end - start < len) {
            // Make room for a large message that is still arriving.
            if (len > buf.length) {
              const next = new Uint8Array(len + READ_CHUNK);
              next.set(buf.subarray(start, end));
              buf = next;
              end -= start;
              start = 0;
            } else if (start + len > buf.length) {
              buf.copyWithin(0, start, end);
              end -= start;
              start = 0;
            }
            break;
          }
          this.#dispatch(buf.subarray(start, start + len));
          start += len;
        }
        if (start === end) start = end = 0;
        this.stats.decodeMs += performance.now() - t0;
      }
    } catch (e) {
      this.#fail(
        e instanceof DesktopError ? e : connectionError(`read failed: ${(e as Error).message}`, e),
      );
    }
  }

  #dispatch(bytes: Uint8Array): void {
    const { msg, body } = decodeHeader(bytes);
    if (msg.type !== MessageType.METHOD_RETURN && msg.type !== MessageType.ERROR) return;
    const p = msg.replySerial === undefined ? undefined : this.#pending.get(msg.replySerial);
    if (!p) return;
    this.#pending.delete(msg.replySerial!);
    if (p.call.destination) this.answeredAt.set(p.call.destination, Date.now());
    try {
      if (msg.type === MessageType.METHOD_RETURN) {
        const reader = body ?? new Reader(new Uint8Array(0));
        if (p.decode) {
          p.resolve(p.decode(reader, msg.signature));
        } else {
          const values = reader.readAll(msg.signature);
          if (reader.remaining !== 0) throw connectionError("trailing bytes after a reply body");
          p.resolve(values);
        }
      } else {
        const first = body?.readAll(msg.signature)[0];
        const text = typeof first === "string" ? first : "";
        p.reject(
          errorFromReply(msg.errorName ?? "", text, `${p.call.interface}.${p.call.member}`),
        );
      }
    } catch (e) {
      // A reply we cannot read fails its call, not the connection.
      p.reject(e instanceof DesktopError ? e : connectionError(String(e), e));
    }
  }

  #armTimer(deadline: number): void {
    if (deadline >= this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = deadline;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, deadline - Date.now()));
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [serial, p] of this.#pending) {
      if (p.deadline <= now) {
        this.#pending.delete(serial);
        p.reject(noReplyError(`${p.call.interface}.${p.call.member}`, p.call.destination));
      } else if (p.deadline < next) {
        next = p.deadline;
      }
    }
    if (next < Infinity) this.#armTimer(next);
  }

  #fail(err: DesktopError): void {
    if (this.#closed) return;
    this.#closed = err;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
    for (const p of this.#pending.values()) p.reject(err);
    this.#pending.clear();
  }
}

async function handshake(conn: Deno.UnixConn): Promise<void> {
  await writeAll(conn, authRequest(Deno.uid() ?? 0));
  const lines = new LineBuffer();
  const chunk = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(chunk);
    if (n === null) throw connectionError("the bus closed the connection during authentication");
    const got = lines.push(chunk.subarray(0, n));
    if (got.length > 0) {
      expectOk(got[0]);
      break;
    }
  }
  await writeAll(conn, BEGIN);
}

async function writeAll(conn: Deno.UnixConn, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) done += await conn.write(bytes.subarray(done));
}

function withDeadline<T>(p: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new DesktopError("TIMEOUT", `${what} did not finish in time`, {
          suggestion: "Check that the D-Bus daemon is running and not stopped, then retry",
        }),
      );
    }, Math.max(0, deadline - Date.now()));
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
