/**
 * The MCP stdio transport: one JSON-RPC message per line, with a bounded
 * line length. Every line gets an answer: a line that is not JSON is a
 * -32700 parse error, JSON that is not a JSON-RPC message is -32600, and a
 * line longer than the bound is -32600 too (with the request's id when its
 * start names one), after which reading goes on with the next line. Memory
 * stays bounded: an over-long line is skipped, not buffered.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** Default bound of one request line: 4 MiB (tool arguments are small; a typed text can be long). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** JSON-RPC error codes the transport answers with. */
export const PARSE_ERROR = -32700;
/** An invalid request (not JSON-RPC, or too large). */
export const INVALID_REQUEST = -32600;

/** Options of {@link LineTransport}. */
export interface LineTransportOptions {
  /** Largest accepted line in bytes (default {@link MAX_LINE_BYTES}). */
  maxLineBytes?: number;
}

/**
 * The id a request line names near its start, so an error about a line too
 * long to parse still answers that request.
 *
 * @param head the first bytes of the line, decoded
 * @returns the id, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { idNear } from "./transport.ts";
 * assert.equal(idNear('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"xxxx'), 7);
 * assert.equal(idNear('{"id":"a-1","method":"x"'), "a-1");
 * assert.equal(idNear('{"method":"x","params":{"text":"'), null);
 * ```
 */
export function idNear(head: string): string | number | null {
  // Only an id at the top level before params: `"id":` inside a value would be guessing.
  const before = head.split(/"params"\s*:/)[0];
  const m = before.match(/"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/);
  if (!m) return null;
  return m[1].startsWith('"') ? JSON.parse(m[1]) : Number(m[1]);
}

/**
 * A newline-delimited JSON-RPC transport over a byte stream.
 */
export class LineTransport implements Transport {
  /** Called when the input ends or the transport is closed. */
  onclose?: () => void;
  /** Called on transport errors. */
  onerror?: (error: Error) => void;
  /** Called with each well-formed message. */
  onmessage?: (message: JSONRPCMessage) => void;

  #input: ReadableStream<Uint8Array>;
  #write: (bytes: Uint8Array) => Promise<void>;
  #max: number;
  #closed = false;
  #writing: Promise<void> = Promise.resolve();
  #reader?: ReadableStreamDefaultReader<Uint8Array>;

  /**
   * @param input the request bytes (stdin)
   * @param write writes reply bytes (stdout)
   * @param opts the line bound
   */
  constructor(
    input: ReadableStream<Uint8Array>,
    write: (bytes: Uint8Array) => Promise<void>,
    opts: LineTransportOptions = {},
  ) {
    this.#input = input;
    this.#write = write;
    this.#max = opts.maxLineBytes ?? MAX_LINE_BYTES;
  }

  /** Starts reading; resolves at once (the loop runs in the background). */
  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    this.#loop().catch((err) => this.onerror?.(err instanceof Error ? err : new Error(String(err))))
      .finally(() => this.close());
    return Promise.resolve();
  }

  async #loop(): Promise<void> {
    const reader = this.#reader!;
    let parts: Uint8Array[] = [];
    let size = 0;
    /** Set while skipping an over-long line: the id its start named. */
    let skipping: { id: string | number | null } | null = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done || this.#closed) break;
      let chunk = value;
      while (chunk.length > 0) {
        const nl = chunk.indexOf(10);
        const piece = nl === -1 ? chunk : chunk.subarray(0, nl);
        if (skipping === null) {
          if (size + piece.length > this.#max) {
            const head = concat([...parts, piece]).subarray(0, 4096);
            skipping = { id: idNear(new TextDecoder().decode(head)) };
            parts = [];
            size = 0;
          } else {
            parts.push(piece.slice());
            size += piece.length;
          }
        }
        if (nl === -1) break;
        chunk = chunk.subarray(nl + 1);
        if (skipping !== null) {
          this.#reply(skipping.id, INVALID_REQUEST, `request larger than ${this.#max} bytes`);
          skipping = null;
        } else {
          this.#line(concat(parts));
        }
        parts = [];
        size = 0;
      }
    }
    if (skipping === null && size > 0) this.#line(concat(parts));
  }

  #line(bytes: Uint8Array): void {
    const text = new TextDecoder().decode(bytes).trim();
    if (text === "") return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.#reply(null, PARSE_ERROR, "parse error: the line is not JSON");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = typeof json === "object" && json !== null && "id" in json &&
          (typeof json.id === "string" || typeof json.id === "number")
        ? json.id
        : null;
      this.#reply(id, INVALID_REQUEST, "invalid request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  #reply(id: string | number | null, code: number, message: string): void {
    void this.#send({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /**
   * Sends one message (serialized: replies never interleave).
   *
   * @param message the message
   */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#send(message);
  }

  #send(message: unknown): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    this.#writing = this.#writing.then(() => this.#write(bytes)).catch((err) => {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    });
    return this.#writing;
  }

  /** Stops reading and reports the close once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#reader?.cancel();
    } catch {
      // Already closed.
    }
    await this.#writing;
    this.onclose?.();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
