/**
 * Shared setup for the macOS backend tests against the AX shim: load a tree,
 * open a provider, and after the scenario check the shim's accounting.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Shim } from "../shim/shim.ts";
import { createMacosProvider } from "../../src/platform/macos/mod.ts";
import type { Provider } from "../../src/platform/provider.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { DesktopError, type ErrorCode } from "../../src/errors.ts";

/** The one control handle (builds the shim and sets DESKTOP_AX_SHIM). */
export const shim: Shim = new Shim();

/** Pids of the apps in tests/shim/trees. */
export const SAFARI = 501;
/** Finder in browser.json. */
export const FINDER = 600;
/** The Chromium-like app that needs AXManualAccessibility. */
export const CHROMIUM = 801;
/** The Electron-like app that only knows AXEnhancedUserInterface. */
export const LEGACY_CHAT = 802;

/**
 * Runs a scenario on a fresh tree and provider, closes the provider, then
 * asserts that every CF reference the backend received was released exactly
 * once and that no secure value was read.
 */
export async function scenario(
  tree: string,
  fn: (p: Provider) => Promise<void>,
  opts: { timeoutMs?: number } = {},
): Promise<void> {
  shim.reset(tree);
  const p = await createMacosProvider({ timeoutMs: opts.timeoutMs ?? 4000 });
  try {
    await fn(p);
  } finally {
    p.close();
  }
  assertClean();
}

/** Asserts the shim's accounting: no leaks, double releases, uses after free, secure reads. */
export function assertClean(): void {
  const stats = shim.stats();
  assert.equal(stats.leaks, 0, `leaked CF references: ${JSON.stringify(stats)}`);
  assert.equal(stats.doubleFrees, 0, "a CF reference was released twice");
  assert.equal(stats.badUses, 0, "a released CF object was used");
  assert.equal(stats.secureReads, 0, "a secure text field's value was read");
}

/** Depth-first search for the first element matching `pred`. */
export function find(root: Element, pred: (e: Element) => boolean): Element | undefined {
  if (pred(root)) return root;
  for (const c of root.c ?? []) {
    const f = find(c, pred);
    if (f) return f;
  }
  return undefined;
}

/** Finds an element by role and label (or description), failing the test if absent. */
export function get(snap: Snapshot, r: string, label: string): Element {
  const el = find(snap.root, (e) => e.r === r && (e.t === label || e.d === label));
  assert.ok(el, `no ${r} "${label}" in the tree`);
  return el;
}

/** Awaits a rejection and checks its DesktopError code; returns the error. */
export async function rejectsWith(p: Promise<unknown>, code: ErrorCode): Promise<DesktopError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DesktopError, `expected a DesktopError, got ${err}`);
    assert.equal(err.code, code, err.message);
    assert.ok(err.message.length > 0);
    return err;
  }
  assert.fail(`expected ${code}, but it resolved`);
}

/** Polls until `cond` holds or `ms` pass; returns whether it held. */
export async function eventually(cond: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}
