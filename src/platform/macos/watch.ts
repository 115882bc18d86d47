/**
 * Change notifications through AXObserver: the observer's run-loop source is
 * added to this thread's run loop, which a JS interval pumps with
 * `CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true)`; callbacks arrive
 * synchronously during that call.
 *
 * @module
 */

import { AX_OBSERVER_CALLBACK } from "../../ffi/macos/application_services.ts";
import { AX_ERROR } from "../../ffi/macos/ax_error.ts";
import type { CFOwned } from "../../ffi/macos/cf.ts";
import { readOutPointer } from "../../ffi/macos/cf.ts";
import { CF_RUN_LOOP_RESULT } from "../../ffi/macos/core_foundation.ts";
import type { AxSession } from "./session.ts";

/** Notifications that mean the UI may have changed. */
export const WATCHED_NOTIFICATIONS: readonly string[] = [
  "AXValueChanged",
  "AXTitleChanged",
  "AXUIElementDestroyed",
  "AXCreated",
  "AXFocusedUIElementChanged",
  "AXWindowCreated",
  "AXSelectedChildrenChanged",
  "AXLayoutChanged",
];

/** How often the run loop is pumped. */
export const PUMP_INTERVAL_MS = 40;

/** Most sources handled per pump, so a flood cannot starve the JS event loop. */
const MAX_PER_PUMP = 256;

/**
 * Starts watching one app.
 *
 * @param s the session
 * @param pid the app's pid
 * @param app the app element (owned: the watcher keeps and releases it)
 * @param onChange called (at most once per pump) after notifications arrived
 * @returns a function that stops watching and releases everything; safe to call twice
 */
export function startWatch(
  s: AxSession,
  pid: number,
  app: CFOwned,
  onChange: () => void,
): () => void {
  const { ax, cf } = s.libs;
  let pending = false;
  // Kept alive until stop(): AppKit calls it during CFRunLoopRunInMode.
  const callback = new Deno.UnsafeCallback(AX_OBSERVER_CALLBACK, () => {
    pending = true;
  });
  const out = new Uint8Array(8);
  const err = ax.AXObserverCreate(pid, callback.pointer, out);
  if (err !== 0) {
    callback.close();
    app[Symbol.dispose]();
    throw s.appError(err, pid, { op: "create an AXObserver" });
  }
  const observer = s.cf.own(readOutPointer(out), "AXObserver");
  const registered: string[] = [];
  for (const name of WATCHED_NOTIFICATIONS) {
    const e = ax.AXObserverAddNotification(observer.ptr, app.ptr, s.name(name), null);
    if (e === 0) registered.push(name);
    else if (e === AX_ERROR.APIDisabled || e === AX_ERROR.CannotComplete) {
      for (const n of registered) ax.AXObserverRemoveNotification(observer.ptr, app.ptr, s.name(n));
      observer[Symbol.dispose]();
      app[Symbol.dispose]();
      callback.close();
      throw s.appError(e, pid, { op: `observe ${name}` });
    }
    // Unsupported or already registered notifications are skipped.
  }
  const runLoop = cf.CFRunLoopGetCurrent();
  const mode = s.libs.statics.runLoopDefaultMode;
  const source = ax.AXObserverGetRunLoopSource(observer.ptr); // Get rule: not ours to release
  cf.CFRunLoopAddSource(runLoop, source, mode);

  const timer = setInterval(() => {
    for (let i = 0; i < MAX_PER_PUMP; i++) {
      if (cf.CFRunLoopRunInMode(mode, 0, 1) !== CF_RUN_LOOP_RESULT.HandledSource) break;
    }
    if (pending) {
      pending = false;
      onChange();
    }
  }, PUMP_INTERVAL_MS);

  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    if (!s.closed) {
      for (const n of registered) ax.AXObserverRemoveNotification(observer.ptr, app.ptr, s.name(n));
      cf.CFRunLoopRemoveSource(runLoop, source, mode);
      observer[Symbol.dispose]();
      app[Symbol.dispose]();
    }
    callback.close();
  };
}
