/**
 * Drives the Linux provider from a subprocess that runs with a test
 * desktop's environment (libatspi binds to one bus per process, so the test
 * runner itself never loads it). One JSON request in argv, one JSON answer
 * on stdout; failures print `{ "error": {...} }` and exit 1.
 *
 * Requests: `{ "op": "apps" }`, `{ "op": "read", "scope": {...} }`,
 * `{ "op": "act", "scope": {...}, "ref": "form/email", "action": {...} }`,
 * `{ "op": "watch", "scope": {...}, "ref": "...", "action": {...} }` (watches,
 * acts, and reports how many change callbacks came before and after stopping),
 * `{ "op": "timed", "req": {...} }` (runs `req`, opening the provider
 * included, and answers `{ "ms": elapsed, "value" }` or `{ "ms", "failed": error }`).
 *
 * @module
 */

import { DesktopError, toDesktopError } from "../../src/errors.ts";
import type { Element } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import type { Action, Scope } from "../../src/platform/provider.ts";
import { createLinuxProvider } from "../../src/platform/linux/mod.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { resolveRef } from "../../src/refs/resolve.ts";

/** A driver request. */
export type DriverRequest =
  | { op: "apps"; timeoutMs?: number }
  | { op: "read"; scope: Scope; timeoutMs?: number }
  | { op: "act"; scope: Scope; ref: string; action: Action; timeoutMs?: number }
  | { op: "watch"; scope: Scope; ref: string; action: Action; timeoutMs?: number }
  | { op: "timed"; req: DriverRequest };

async function main(req: DriverRequest): Promise<unknown> {
  if (req.op === "timed") {
    const t0 = performance.now();
    try {
      const value = await main(req.req);
      return { ms: performance.now() - t0, value };
    } catch (e) {
      return { ms: performance.now() - t0, failed: toDesktopError(e).toJSON() };
    }
  }
  const provider = await createLinuxProvider({ timeoutMs: req.timeoutMs ?? 5000 });
  try {
    if (req.op === "apps") return await provider.listApps();
    const snap = await provider.read(req.scope);
    assignIds(snap.root);
    assignRefs(snap.root);
    if (req.op === "read") return snap;
    const el: Element = resolveRef(snap.root, req.ref);
    if (req.op === "watch") {
      let events = 0;
      const stop = await provider.watch!(req.scope, () => events++);
      const quiet = await waitFor(() => events > 0, 500); // nothing should fire on its own... mostly
      const before = events;
      await provider.act(req.scope, { element: el }, req.action);
      await waitFor(() => events > before, 3000);
      const during = events - before;
      stop();
      const stopped = events;
      await provider.act(req.scope, { element: el }, req.action);
      await new Promise((r) => setTimeout(r, 500));
      return { idle: quiet ? before : 0, during, afterStop: events - stopped };
    }
    const result = await provider.act(req.scope, { element: el }, req.action);
    return { result, element: { ...el, c: undefined } };
  } finally {
    provider.close();
  }
}

/** Resolves true once `cond` holds, false after `ms`. */
async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}

if (import.meta.main) {
  try {
    const req = JSON.parse(Deno.args[0] ?? "") as DriverRequest;
    console.log(JSON.stringify(await main(req)));
  } catch (e) {
    const err = e instanceof SyntaxError
      ? new DesktopError("INVALID_ARGS", `bad driver request: ${e.message}`)
      : toDesktopError(e);
    console.log(JSON.stringify({ error: err.toJSON() }));
    Deno.exit(1);
  }
}
