/**
 * AT-SPI event listening for `observe` and `wait`: one listener for the
 * events that mean "the UI may have changed", a JS interval that pumps the
 * GLib main context (callbacks only run inside it), and a filter on the
 * event source's app.
 *
 * @module
 */

import { ATSPI_EVENT_CALLBACK } from "../../ffi/atspi.ts";
import { cstr } from "../../ffi/cstring.ts";
import { type Native, objectId } from "./native.ts";

/** Event types that signal a UI change. */
export const WATCHED_EVENTS: readonly string[] = [
  "object:children-changed",
  "object:state-changed",
  "object:property-change:accessible-name",
  "object:property-change:accessible-value",
  "object:property-change:accessible-description",
  "object:value-changed",
  "object:text-changed",
  "object:selection-changed",
  "window:activate",
  "window:deactivate",
  "window:create",
  "window:destroy",
];

/** How often the main context is pumped while watching. */
export const PUMP_INTERVAL_MS = 15;

/**
 * Starts listening for events from the app with unique bus name `bus`.
 *
 * @param n the native session
 * @param bus the app's bus name; events from other apps are ignored
 * @param onChange called (synchronously, from the pump) for each relevant event
 * @returns a stop function (deregisters, frees the listener and the callback)
 */
export function startWatch(n: Native, bus: string, onChange: () => void): () => void {
  const boxedType = n.sym.atspi_event_get_type();
  // Kept alive (and referenced by the closure below) until stop().
  const callback = new Deno.UnsafeCallback(ATSPI_EVENT_CALLBACK, (ev) => {
    if (ev === null) return;
    let relevant = false;
    try {
      const source = new Deno.UnsafePointerView(ev).getPointer(8);
      relevant = source !== null && objectId(source).bus === bus;
    } finally {
      // The listener owns each event it receives (libatspi hands over a copy).
      n.sym.g_boxed_free(boxedType, ev);
    }
    if (relevant) {
      try {
        onChange();
      } catch {
        // A throwing observer must not unwind through native code.
      }
    }
  });
  const listener = n.sym.atspi_event_listener_new(callback.pointer, null, null);
  const registered: Uint8Array<ArrayBuffer>[] = [];
  for (const type of WATCHED_EVENTS) {
    const name = cstr(type);
    if (n.sym.atspi_event_listener_register(listener, name, n.err.buf)) registered.push(name);
    n.err.take();
  }
  const timer = setInterval(() => n.pump(), PUMP_INTERVAL_MS);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    for (const name of registered) {
      n.sym.atspi_event_listener_deregister(listener, name, n.err.buf);
      n.err.take();
    }
    if (listener !== null) n.sym.g_object_unref(listener);
    callback.close();
  };
}
