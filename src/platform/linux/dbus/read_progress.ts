/**
 * How far a read of an app's tree got, and the verdict on one the deadline
 * cut short. An app that was still answering when the deadline came is not
 * unresponsive: its tree is larger than the time allowed (a documentation
 * page of 30,000 objects takes seconds to walk), so the error says so and
 * how far the read got, instead of telling the agent to wait for an app
 * that never stopped.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";

/** A read's progress, updated as the app answers. */
export interface ReadProgress {
  /** Objects of the tree found so far. */
  objects: number;
  /** When the app last answered one of our calls (ms since epoch; 0: never). */
  answeredAt: () => number;
}

/** An app that answered this recently before the deadline was still answering. */
export const ANSWERING_MS = 1500;

/**
 * A new progress record: nothing found, nothing answered.
 *
 * @returns the record
 */
export function newProgress(): ReadProgress {
  return { objects: 0, answeredAt: () => 0 };
}

/**
 * Whether the app was still answering when the deadline came.
 *
 * @param progress the read's progress
 * @param deadline the deadline that cut it (ms since epoch)
 * @returns true when its last answer came within {@link ANSWERING_MS} of it
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stillAnswering } from "./read_progress.ts";
 * assert.equal(stillAnswering({ objects: 9000, answeredAt: () => 9_900 }, 10_000), true);
 * assert.equal(stillAnswering({ objects: 12, answeredAt: () => 2_000 }, 10_000), false);
 * assert.equal(stillAnswering({ objects: 0, answeredAt: () => 0 }, 10_000), false);
 * ```
 */
export function stillAnswering(progress: ReadProgress, deadline: number): boolean {
  const at = progress.answeredAt();
  return at > 0 && at >= deadline - ANSWERING_MS;
}

/**
 * The error for a read the deadline cut while the app was still answering:
 * TIMEOUT, with how many objects were read and what to do.
 *
 * @param progress the read's progress
 * @param ms the time the read had
 * @param readingOn true when this process goes on reading the tree and keeps it
 *   (a long-lived one: the background process, the MCP server), so that a read
 *   again soon is answered from it
 * @returns the error
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { largeTreeTimeout } from "./read_progress.ts";
 * const e = largeTreeTimeout({ objects: 21000, answeredAt: () => 1 }, 10_000, false);
 * assert.equal(e.code, "TIMEOUT");
 * assert.match(e.message, /21000 objects/);
 * assert.match(e.suggestion ?? "", /--timeout 30000/);
 * const on = largeTreeTimeout({ objects: 21000, answeredAt: () => 1 }, 5_000, true);
 * assert.match(on.suggestion ?? "", /read again/);
 * ```
 */
export function largeTreeTimeout(
  progress: ReadProgress,
  ms: number,
  readingOn: boolean,
): DesktopError {
  const more = Math.max(30_000, Math.ceil((ms * 3) / 10_000) * 10_000);
  // Only a window narrows what is fetched: --depth and --scope-ref narrow what is printed of
  // a whole read (refs are made from the whole tree), so they would take as long.
  const narrow = "or read one window of it (--window)";
  return new DesktopError(
    "TIMEOUT",
    `the app was still answering when the deadline came: its tree is large ` +
      `(${progress.objects} objects read in ${Math.round(ms)} ms)`,
    {
      suggestion: readingOn
        ? "This process goes on reading the tree and keeps it: read again in a few seconds, " +
          `${narrow}, or raise --timeout (--timeout ${more})`
        : `Raise --timeout (--timeout ${more}), ${narrow}; a background process ` +
          "(`desktop daemon start`) goes on reading a large tree and keeps it",
      details: { objects: progress.objects, answering: true, readingOn },
    },
  );
}
