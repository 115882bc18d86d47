/**
 * `wait`: re-read until a condition holds. Woken by the provider's change
 * events when it has them, else by a 200 ms poll.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import type { Provider, Scope } from "../platform/provider.ts";
import type { WaitCondition } from "../desktop_types.ts";
import { holdLiveTrees } from "../platform/linux/live_tree.ts";

/** Poll period when the provider has no change events. */
export const POLL_MS = 200;
/** Safety re-check period when change events drive the wait (events can be lost). */
export const EVENT_RECHECK_MS = 1000;

/** What one check of the condition saw. */
export interface WaitCheck {
  /** True when the condition holds. */
  done: boolean;
  /** The element that satisfied it (null for `gone`). */
  element: Element | null;
  /** A short account of what was seen, for the TIMEOUT message. */
  seen: string;
}

/**
 * Evaluates a wait condition on one tree (ids and refs assigned).
 *
 * @param root the tree
 * @param cond the condition
 * @param find text search of the tree (the pure `findElements`)
 * @param byRef exact-or-suffix ref lookup that returns undefined instead of throwing
 * @returns whether it holds, and what was seen
 */
export function checkCondition(
  root: Element,
  cond: WaitCondition,
  find: (root: Element, q: { text: string; roles?: WaitCondition["roles"] }) => Element[],
  byRef: (root: Element, ref: string) => Element | undefined,
): WaitCheck {
  if (cond.text !== undefined) {
    const hits = find(root, { text: cond.text, roles: cond.roles });
    return hits.length
      ? { done: true, element: hits[0], seen: `found "${cond.text}"` }
      : { done: false, element: null, seen: `no element with text "${cond.text}"` };
  }
  if (cond.gone !== undefined) {
    const hits = find(root, { text: cond.gone, roles: cond.roles });
    return hits.length
      ? {
        done: false,
        element: null,
        seen: `still ${hits.length} element(s) with text "${cond.gone}", first ${hits[0].r}${
          hits[0].ref ? ` [${hits[0].ref}]` : ""
        }`,
      }
      : { done: true, element: null, seen: `"${cond.gone}" is gone` };
  }
  if (cond.ref !== undefined) {
    const el = byRef(root, cond.ref);
    return el
      ? { done: true, element: el, seen: `found ${cond.ref}` }
      : { done: false, element: null, seen: `no element with ref ${cond.ref}` };
  }
  throw new DesktopError("INVALID_ARGS", "wait needs a condition", {
    suggestion: "Pass one of --for-text, --gone, --for-ref",
  });
}

/**
 * Re-reads until `check` reports done, or throws TIMEOUT with what was last seen.
 *
 * @param provider the backend (its `watch`, when present, wakes the loop)
 * @param scope what to watch
 * @param timeoutMs deadline
 * @param check reads and evaluates once
 * @returns the satisfying element, or null for `gone`
 */
export async function waitUntil(
  provider: Provider,
  scope: Scope,
  timeoutMs: number,
  check: () => Promise<WaitCheck>,
): Promise<Element | null> {
  const deadline = Date.now() + timeoutMs;
  // Checks read the same app again and again: an unchanged app is answered from its kept tree.
  const release = holdLiveTrees();
  let wake: (() => void) | null = null;
  let stop: (() => void) | null = null;
  if (provider.watch) {
    try {
      stop = await provider.watch(scope, () => wake?.());
    } catch {
      stop = null; // events unavailable: fall back to polling
    }
  }
  const period = stop ? EVENT_RECHECK_MS : POLL_MS;
  let last: WaitCheck | null = null;
  let lastError: DesktopError | null = null;
  try {
    while (true) {
      try {
        last = await check();
        lastError = null;
        if (last.done) return last.element;
      } catch (err) {
        // The app may be mid-change (window closing, dialog opening): keep trying.
        if (!(err instanceof DesktopError) || err.code === "INVALID_ARGS") throw err;
        // But an app that was read and is gone now (or a process that does not run) quit:
        // nothing it shows will ever change again.
        if (err.code === "APP_NOT_FOUND" && (last !== null || scope.pid !== undefined)) {
          throw appQuit(err, last !== null);
        }
        lastError = err;
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(period, left));
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
      // A read started now could only fail: the deadline is the wait's whole time.
      if (Date.now() >= deadline) break;
    }
  } finally {
    stop?.();
    release();
  }
  const seen = last?.seen ?? lastError?.message ?? "nothing read";
  const ms = Math.round(timeoutMs);
  throw new DesktopError("TIMEOUT", `condition not met within ${ms} ms: ${seen}`, {
    suggestion: "Increase --timeout, or read the app to see its current state",
    details: { lastSeen: seen, ...(lastError ? { lastError: lastError.code } : {}) },
  });
}

/** The wait's app quit (it had been read during the wait), or its process does not run. */
function appQuit(err: DesktopError, wasRead: boolean): DesktopError {
  return new DesktopError(
    "APP_NOT_FOUND",
    wasRead ? `the app quit during the wait (${err.message})` : err.message,
    {
      suggestion: "Start the app again (desktop launch), then read it; `desktop list` shows " +
        "the running apps",
      ...(err.candidates ? { candidates: err.candidates } : {}),
      ...(err.details ? { details: err.details } : {}),
    },
  );
}
