/**
 * Scope resolution for the Linux backend: the shared matcher
 * (src/model/scope.ts) and the Linux window id.
 *
 * @module
 */

export { type AppEntry, matchApp, matchWindow, type WindowEntry } from "../../model/scope.ts";

/**
 * A window's id: a positive 31-bit FNV-1a hash of its bus name and object
 * path. It stays the same for as long as the app keeps its bus connection, so
 * ids from `list` still work in the next CLI process.
 *
 * @param bus unique bus name of the app
 * @param path object path of the window
 * @returns a number in 1..2^31-1
 */
export function windowId(bus: string, path: string): number {
  let h = 0x811c9dc5;
  const s = `${bus}${path}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h & 0x7fffffff) || 1;
}
