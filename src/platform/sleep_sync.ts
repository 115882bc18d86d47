/**
 * Blocking sleep for synchronous platform code (input delegates, FFI
 * polling loops) that must wait without returning to the event loop.
 *
 * @module
 */

/**
 * Blocks the calling thread for `ms` milliseconds.
 *
 * @param ms how long
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sleepSync } from "./sleep_sync.ts";
 * const t0 = Date.now();
 * sleepSync(20);
 * assert.ok(Date.now() - t0 >= 19);
 * ```
 */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
