/**
 * Repeated input within a deadline, once for every backend: text is typed in
 * small chunks, each checked before the next (the app still answers, the
 * keys still go where they should), and wheel steps are sent one by one; the
 * loop stops when the deadline passes and says how far it got. Nothing is
 * left queued to arrive after the command has answered: a 120 kB string
 * handed whole to the key synthesizer kept typing for minutes after the
 * command had exited, into whatever had the focus by then. Pure: the backend
 * passes the primitives.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";

/** Characters per chunk of typed text: small enough that one chunk lands well within a second. */
export const TYPE_CHUNK_CHARS = 32;

/**
 * Splits text into chunks of at most `size` characters (code points: a
 * character outside the Basic Multilingual Plane is never split).
 *
 * @param text the text
 * @param size characters per chunk
 * @returns the chunks, in order ([] for "")
 * @example
 * ```ts
 * import { chunkText } from "./bounded.ts";
 * console.log(chunkText("abcde", 2)); // ["ab", "cd", "e"]
 * console.log(chunkText("a😀b", 2)); // ["a😀", "b"]
 * ```
 */
export function chunkText(text: string, size: number = TYPE_CHUNK_CHARS): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** What {@link typeInChunks} needs from the backend. */
export interface ChunkedTyping {
  /** The text to type. */
  text: string;
  /** The command's deadline (ms since the epoch). */
  deadline: number;
  /** Characters per chunk (default {@link TYPE_CHUNK_CHARS}). */
  chunkChars?: number;
  /** Sends one chunk as key events, returning when they are sent. */
  send: (chunk: string) => void;
  /**
   * Runs after each chunk: waits for the chunk to land and, when more is to
   * be sent, throws (APP_UNRESPONSIVE, ACTION_FAILED...) when the app stopped
   * answering or the next keys would go elsewhere.
   *
   * @param typed characters sent so far
   * @param chunk the chunk just sent
   * @param more whether another chunk follows (a field may rightly pass the
   *   focus on once it is full: a date's month part moves to the day)
   */
  check?: (typed: number, chunk: string, more: boolean) => void;
  /** Milliseconds now (tests pass a fake clock). */
  now?: () => number;
}

/**
 * Types text in chunks until it is all typed or the deadline passes.
 *
 * @param o the text, the deadline and the backend's primitives
 * @returns the number of characters typed (all of them)
 * @throws DesktopError TIMEOUT when the deadline passes first, and whatever
 *   `send` or `check` throws; either way the message says how many characters
 *   were typed, and `details` carries `typed` and `total`
 * @example
 * ```ts
 * import { typeInChunks } from "./bounded.ts";
 * const sent: string[] = [];
 * typeInChunks({ text: "hello world", deadline: Infinity, chunkChars: 4, send: (c) => sent.push(c) });
 * console.log(sent); // ["hell", "o wo", "rld"]
 * ```
 */
export function typeInChunks(o: ChunkedTyping): number {
  const now = o.now ?? Date.now;
  const chunks = chunkText(o.text, o.chunkChars ?? TYPE_CHUNK_CHARS);
  const total = [...o.text].length;
  let typed = 0;
  for (const [i, chunk] of chunks.entries()) {
    if (now() >= o.deadline) {
      throw new DesktopError(
        "TIMEOUT",
        `the deadline passed after typing ${typed} of ${total} characters; the rest was not sent`,
        {
          suggestion: "Read the field to see what it holds; type the rest with a longer " +
            "--timeout, or set the whole text with set-value",
          details: { typed, total },
        },
      );
    }
    try {
      o.send(chunk);
      typed += [...chunk].length;
      o.check?.(typed, chunk, i < chunks.length - 1);
    } catch (e) {
      throw partly(e, typed, total);
    }
  }
  return typed;
}

/** An error from the middle of typing, saying how much was typed before it. */
function partly(e: unknown, typed: number, total: number): unknown {
  if (!(e instanceof DesktopError) || typed === 0) return e;
  return new DesktopError(
    e.code,
    `${e.message} (after typing ${typed} of ${total} characters; the rest was not sent)`,
    {
      suggestion: e.suggestion,
      candidates: e.candidates,
      details: { ...e.details, typed, total },
      cause: e,
    },
  );
}

/** What {@link repeatSteps} needs from the backend. */
export interface RepeatedSteps {
  /** How many steps. */
  count: number;
  /** The command's deadline (ms since the epoch). */
  deadline: number;
  /** Sends step `i` (0-based). */
  step: (i: number) => void;
  /** What one step is, for the message ("wheel steps"). */
  what: string;
  /** Milliseconds now (tests pass a fake clock). */
  now?: () => number;
}

/**
 * Sends `count` steps (wheel clicks) one by one until all are sent or the
 * deadline passes.
 *
 * @param o the count, the deadline and the step
 * @throws DesktopError TIMEOUT when the deadline passes first, saying how many steps were sent
 * @example
 * ```ts
 * import { repeatSteps } from "./bounded.ts";
 * let n = 0;
 * repeatSteps({ count: 3, deadline: Infinity, what: "wheel steps", step: () => n++ });
 * console.log(n); // 3
 * ```
 */
export function repeatSteps(o: RepeatedSteps): void {
  const now = o.now ?? Date.now;
  for (let i = 0; i < o.count; i++) {
    if (now() >= o.deadline) {
      throw new DesktopError(
        "TIMEOUT",
        `the deadline passed after ${i} of ${o.count} ${o.what}; the rest were not sent`,
        {
          suggestion: "Read the app to see where it is now; send fewer steps or raise --timeout",
          details: { sent: i, total: o.count },
        },
      );
    }
    o.step(i);
  }
}
