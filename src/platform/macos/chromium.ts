/**
 * Chromium and Electron apps expose no web content to AX until asked:
 * `AXManualAccessibility` true on the app element, or, where that attribute
 * is unsupported (-25205), `AXEnhancedUserInterface` true (which must be put
 * back on close: it slows window animations). The tree then builds
 * asynchronously, so the reader waits for it, bounded.
 *
 * @module
 */

import { AX_ERROR } from "../../ffi/macos/ax_error.ts";
import type { CFRef } from "../../ffi/macos/cf.ts";
import type { Element } from "../../model/element.ts";
import type { AxSession } from "./session.ts";

const CHROMIUM_NAMES =
  /\b(chrome|chromium|electron|brave|edge|opera|vivaldi|arc|slack|discord|code|visual studio code|cursor|teams|notion|figma|spotify|obsidian|whatsapp|signal|postman|1password)\b/i;

/**
 * Whether an app's name suggests Chromium or Electron.
 *
 * @param name app name from the window list
 * @returns true for known Chromium/Electron apps
 * @example
 * ```ts
 * import { looksLikeChromium } from "./chromium.ts";
 * console.log(looksLikeChromium("Google Chrome"), looksLikeChromium("Finder")); // true false
 * ```
 */
export function looksLikeChromium(name: string): boolean {
  return CHROMIUM_NAMES.test(name);
}

/** What the provider remembers across reads. */
export interface WebContentState {
  /** Apps already switched on (or checked) in this session. */
  done: Set<number>;
  /** Apps whose AXEnhancedUserInterface we set and must restore. */
  enhanced: Set<number>;
}

/** Upper bound on nodes looked at when deciding whether a tree is empty. */
const PROBE_NODES = 80;

/**
 * Whether the app shows no content yet: a window without children, or a web
 * area without children, within the first levels.
 */
export function treeLooksEmpty(s: AxSession, app: CFRef): boolean {
  const { err, value } = s.copy(app, "AXWindows");
  if (err !== 0 || value === null) return false;
  using windows = value;
  const queue: CFRef[] = [];
  using stack = new DisposableStack();
  for (const w of s.cf.arrayItems(windows.ptr)) if (w) queue.push(w);
  if (queue.length === 0) return false;
  let seen = 0;
  while (queue.length && seen++ < PROBE_NODES) {
    const el = queue.shift()!;
    const role = s.read(el, "AXRole").value;
    const kids = s.copy(el, "AXChildren");
    const items = kids.value ? s.cf.arrayItems(stack.use(kids.value).ptr) : [];
    if ((role === "AXWindow" || role === "AXWebArea") && items.length === 0) return true;
    for (const k of items) if (k) queue.push(k);
  }
  return false;
}

/**
 * Whether a tree that was read has a web area without children (Chromium and
 * Electron before accessibility is on). An empty window alone is not enough:
 * native apps have those (minimized, loading) and must not be toggled.
 *
 * @param root the element tree
 * @returns true when the app should be switched on and read again
 */
export function looksEmpty(root: Element): boolean {
  if (root.r === "web" && !root.c?.length) return true;
  return (root.c ?? []).some(looksEmpty);
}

/**
 * Switches web content on for a Chromium/Electron app (once per session) and
 * waits, bounded, for its tree to appear.
 *
 * @param s the session
 * @param pid the app's pid
 * @param state per-session memory
 * @param waitMs longest wait for the tree
 */
export async function switchOnWebContent(
  s: AxSession,
  pid: number,
  state: WebContentState,
  waitMs: number,
): Promise<void> {
  if (state.done.has(pid)) return;
  state.done.add(pid);
  using app = s.appElement(pid);
  const err = s.set(app.ptr, "AXManualAccessibility", s.cf.boolean(true));
  if (err === AX_ERROR.AttributeUnsupported) {
    if (s.set(app.ptr, "AXEnhancedUserInterface", s.cf.boolean(true)) !== 0) return;
    state.enhanced.add(pid);
  } else if (err !== 0) {
    return;
  }
  const end = Date.now() + waitMs;
  while (Date.now() < end && treeLooksEmpty(s, app.ptr)) {
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * Puts AXEnhancedUserInterface back to false on every app we switched it on
 * for (best effort: the app may have quit).
 */
export function restoreEnhanced(s: AxSession, state: WebContentState): void {
  for (const pid of state.enhanced) {
    using app = s.appElement(pid);
    s.set(app.ptr, "AXEnhancedUserInterface", s.cf.boolean(false));
  }
  state.enhanced.clear();
}
