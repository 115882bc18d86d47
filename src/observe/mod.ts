/**
 * Observe: stream an app's UI changes as ref-keyed events.
 *
 * @module
 */

export * from "./events.ts";
export * from "./observe.ts";
