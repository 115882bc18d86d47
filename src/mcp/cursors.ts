/**
 * `observe_changes` with a cursor, for clients that drop notifications: the
 * first call starts a watch that keeps running, and returns the events of
 * its first `duration` seconds with a cursor; each later call with that
 * cursor returns the events since the previous call (after waiting up to its
 * own `duration` for more). A watch nobody polls for {@link IDLE_MS} stops.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { ObserveEvent } from "../observe/events.ts";
import type { AnyOp, Args } from "../ops/mod.ts";
import type { Executor } from "./executor.ts";

/** A watch nobody asked about for this long is stopped. */
export const IDLE_MS = 10 * 60_000;
/**
 * At most this many watches at once (the oldest is stopped); fewer when the
 * executor's capacity is smaller, so one worker always stays for other calls.
 */
export const MAX_WATCHES = 8;
/** Events kept per watch between two calls (older ones are dropped, and a note says so). */
export const MAX_BUFFERED = 5000;

interface Watch {
  id: string;
  events: ObserveEvent[];
  dropped: number;
  ctrl: AbortController;
  ended: boolean;
  error?: DesktopError;
  lastPoll: number;
  /** Wakes a caller waiting for the watch to end. */
  wake?: () => void;
  /** The waiting caller's event listener (progress notifications). */
  listener?: (event: unknown) => void;
}

/** The result of one `observe_changes` call. */
export interface CursorResult {
  /** Events since the previous call. */
  events: ObserveEvent[];
  /** Pass it back for the next events; absent once the watch ended. */
  cursor?: string;
  /** Events dropped because nobody asked for them in time. */
  dropped?: number;
}

/** The watches of one server. */
export class Cursors {
  #watches = new Map<string, Watch>();
  #executor: Executor;
  #op: AnyOp;
  #max: number;
  #timer: ReturnType<typeof setInterval>;

  /**
   * @param executor where the watches run
   * @param op the observe operation
   */
  constructor(executor: Executor, op: AnyOp) {
    this.#executor = executor;
    this.#op = op;
    this.#max = executor.capacity === undefined
      ? MAX_WATCHES
      : Math.max(1, Math.min(MAX_WATCHES, executor.capacity - 1));
    this.#timer = setInterval(() => this.#expire(), 30_000);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  /**
   * One `observe_changes` call.
   *
   * @param args validated arguments (`cursor`, `duration` and the observe filters)
   * @param signal the call's cancellation
   * @param onEvent told of each event while the call waits (progress)
   * @returns the events and the cursor
   * @throws DesktopError INVALID_ARGS for an unknown cursor; the watch's error when it failed
   */
  async call(
    args: Args,
    signal: AbortSignal,
    onEvent?: (event: unknown) => void,
  ): Promise<CursorResult> {
    const seconds = (args.duration as number | undefined) ?? 3;
    let watch: Watch;
    if (args.cursor !== undefined) {
      const found = this.#watches.get(args.cursor as string);
      if (!found) {
        throw new DesktopError("INVALID_ARGS", `unknown or expired cursor ${args.cursor}`, {
          suggestion: "Call observe_changes without a cursor to start watching again",
        });
      }
      watch = found;
    } else {
      watch = this.#start(args);
    }
    watch.lastPoll = Date.now();
    watch.listener = onEvent;
    try {
      await this.#pause(watch, seconds * 1000, signal);
    } finally {
      watch.listener = undefined;
      watch.lastPoll = Date.now();
    }
    if (watch.error && watch.events.length === 0) {
      this.#stop(watch);
      throw watch.error;
    }
    const out: CursorResult = { events: watch.events.splice(0) };
    if (watch.dropped) out.dropped = watch.dropped;
    watch.dropped = 0;
    if (watch.ended) this.#stop(watch);
    else out.cursor = watch.id;
    return out;
  }

  #start(args: Args): Watch {
    if (this.#watches.size >= this.#max) {
      const oldest = [...this.#watches.values()].sort((a, b) => a.lastPoll - b.lastPoll)[0];
      this.#stop(oldest);
    }
    const watch: Watch = {
      id: crypto.randomUUID().slice(0, 8),
      events: [],
      dropped: 0,
      ctrl: new AbortController(),
      ended: false,
      lastPoll: Date.now(),
    };
    this.#watches.set(watch.id, watch);
    const { cursor: _c, ...rest } = args;
    this.#executor.run(this.#op, { ...rest, duration: 0 }, {
      signal: watch.ctrl.signal,
      deadlineMs: Infinity,
      onEvent: (ev) => {
        watch.events.push(ev as ObserveEvent);
        watch.listener?.(ev);
        if (watch.events.length > MAX_BUFFERED) {
          watch.events.shift();
          watch.dropped++;
        }
      },
    }).catch((err) => {
      if (!watch.ctrl.signal.aborted) watch.error = err;
    }).finally(() => {
      watch.ended = true;
      watch.wake?.();
    });
    return watch;
  }

  /** Waits `ms`, or less when the watch ends or the call is cancelled. */
  #pause(watch: Watch, ms: number, signal: AbortSignal): Promise<void> {
    if (watch.ended || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        watch.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done);
      watch.wake = done;
    });
  }

  #stop(watch: Watch): void {
    watch.ctrl.abort();
    this.#watches.delete(watch.id);
  }

  #expire(): void {
    const now = Date.now();
    for (const w of this.#watches.values()) if (now - w.lastPoll > IDLE_MS) this.#stop(w);
  }

  /** Stops every watch. */
  close(): void {
    clearInterval(this.#timer);
    for (const w of [...this.#watches.values()]) this.#stop(w);
  }
}
