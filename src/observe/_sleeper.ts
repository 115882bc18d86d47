/**
 * A single-waiter sleep that can be cut short. The observe loop sleeps until
 * its next read is due; a change notification or an abort wakes it early so
 * it can recompute when to read.
 *
 * @module
 */

/** Sleeps until a time, or until {@link Sleeper.wake} is called. */
export class Sleeper {
  #resolve: (() => void) | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Resolves at `at` (ms since epoch) or on the next {@link wake}, whichever
   * comes first. `Infinity` waits for a wake only.
   */
  sleepUntil(at: number): Promise<void> {
    this.wake();
    return new Promise((resolve) => {
      this.#resolve = resolve;
      if (Number.isFinite(at)) {
        // setTimeout overflows above 2^31-1 ms; the loop re-sleeps on wake-up anyway.
        const ms = Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1);
        this.#timer = setTimeout(() => this.wake(), ms);
      }
    });
  }

  /** Ends the current sleep (if any) and clears its timer. */
  wake(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const resolve = this.#resolve;
    this.#resolve = null;
    resolve?.();
  }
}
