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
import type { ChangeHint } from "../provider.ts";
import { nodeId } from "./convert.ts";
import { TABLE_MODEL_EVENTS } from "./live_tree.ts";
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
  "object:text-caret-moved",
  "object:text-selection-changed",
  "object:selection-changed",
  // A tree view that manages its descendants announces its rows only by these (no
  // children-changed): observe reacts to a new row at once, not on its safety read.
  ...TABLE_MODEL_EVENTS,
  "window:activate",
  "window:deactivate",
  "window:create",
  "window:destroy",
];

/** States whose change leaves the tree (children, names, visibility) as it was. */
const NODE_LOCAL_STATES: ReadonlySet<string> = new Set([
  "checked",
  "indeterminate",
  "pressed",
  "focused",
  "selected",
  "expanded",
  "collapsed",
  "enabled",
  "sensitive",
  "editable",
  "read-only",
  "required",
  "armed",
  "busy",
  "active",
]);

/** Property changes of the source itself (a changed name or description still makes
 * observe read the whole tree, because refs hang on labels; it finds that out by reading
 * the source alone first, so an app that announces unchanged names costs no full read). */
const NODE_LOCAL_PROPERTIES: ReadonlySet<string> = new Set([
  "object:property-change:accessible-value",
  "object:property-change:accessible-name",
  "object:property-change:accessible-description",
]);

/**
 * Whether an event type concerns its source alone: a value, a text, a name,
 * or one of {@link NODE_LOCAL_STATES}. Children, visibility and windows
 * change the tree: they are structural.
 *
 * @param type e.g. `object:state-changed:checked`
 * @returns true for events a re-read of the source alone covers
 */
export function isNodeLocal(type: string): boolean {
  if (type === "object:value-changed" || type.startsWith("object:text-")) return true;
  if (NODE_LOCAL_PROPERTIES.has(type)) return true;
  const state = /^object:state-changed:(.+)$/.exec(type)?.[1];
  return state !== undefined && NODE_LOCAL_STATES.has(state);
}

/** One event as it came: its source's object path and its type. */
export interface WatchedEvent {
  /** The source's D-Bus object path (`/org/a11y/atspi/accessible/17`). */
  path: string;
  /** The event type, with its detail (`object:state-changed:focused`). */
  type: string;
}

/** How often the main context is pumped while watching. */
export const PUMP_INTERVAL_MS = 15;

/**
 * Starts listening for events from the app with unique bus name `bus`.
 *
 * @param n the native session
 * @param bus the app's bus name; events from other apps are ignored
 * @param onChange called (synchronously, from the pump) for each relevant event, with the
 *   hint and the event's source path and type (the kept trees re-read only what it names)
 * @returns a stop function (deregisters, frees the listener and the callback)
 */
export function startWatch(
  n: Native,
  bus: string,
  onChange: (hint: ChangeHint, event: WatchedEvent) => void,
): () => void {
  const boxedType = n.sym.atspi_event_get_type();
  // Kept alive (and referenced by the closure below) until stop().
  const callback = new Deno.UnsafeCallback(ATSPI_EVENT_CALLBACK, (ev) => {
    if (ev === null) return;
    let hint: ChangeHint | null = null;
    let event: WatchedEvent | null = null;
    try {
      const view = new Deno.UnsafePointerView(ev);
      const source = view.getPointer(8);
      if (source !== null) {
        const id = objectId(source);
        if (id.bus === bus) {
          const typePtr = view.getPointer(0);
          const type = typePtr === null ? "" : Deno.UnsafePointerView.getCString(typePtr);
          hint = { nid: nodeId(id), structural: !isNodeLocal(type) };
          event = { path: id.path, type };
        }
      }
    } finally {
      // The listener owns each event it receives (libatspi hands over a copy).
      n.sym.g_boxed_free(boxedType, ev);
    }
    if (hint && event) {
      try {
        onChange(hint, event);
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
