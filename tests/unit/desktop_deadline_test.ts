import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import type { Snapshot } from "../../src/model/element.ts";
import type {
  Action,
  ActionResult,
  ActionTarget,
  Provider,
  ProviderActOptions,
  ReadOptions,
} from "../../src/platform/provider.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";

/**
 * A slow app whose clock label changes on every read (it never settles). It
 * honours the deadline it is given, as the live backends do, and records
 * each call: when it started and the deadline it got.
 */
class SlowProvider implements Provider {
  readonly platform = "replay" as const;
  calls: Array<{ op: string; at: number; deadline?: number }> = [];
  #tick = 0;
  constructor(readonly readMs: number) {}
  listApps() {
    return Promise.resolve([{ name: "Clock", pid: 9 }]);
  }
  listWindows() {
    return Promise.resolve([]);
  }
  async read(_scope: unknown, opts: ReadOptions = {}): Promise<Snapshot> {
    this.calls.push({ op: "read", at: Date.now(), deadline: opts.deadline });
    const left = (opts.deadline ?? Infinity) - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(this.readMs, left))));
    if (left < this.readMs) throw new DesktopError("TIMEOUT", "deadline passed");
    return {
      app: { name: "Clock", pid: 9 },
      readAt: "2026-01-01T00:00:00Z",
      root: {
        i: 0,
        r: "app",
        t: "Clock",
        nid: "app",
        c: [{
          i: 0,
          r: "window",
          t: "Clock",
          nid: "win",
          c: [
            { i: 0, r: "btn", t: "Start", nid: "start" },
            { i: 0, r: "txt", t: `tick ${this.#tick++}`, nid: "clock" },
          ],
        }],
      },
    };
  }
  act(
    _scope: unknown,
    _target: ActionTarget,
    _action: Action,
    opts: ProviderActOptions = {},
  ): Promise<ActionResult> {
    this.calls.push({ op: "act", at: Date.now(), deadline: opts.deadline });
    return Promise.resolve({ via: "accessible" });
  }
  close() {}
}

Deno.test("act: one deadline for the resolving read, the action and the effect check", async () => {
  const p = new SlowProvider(60);
  const desktop = createDesktop(p, { store: createMemoryRefStore(), timeoutMs: 400 });
  const start = Date.now();
  // The settle time alone is longer than the whole deadline.
  const res = await desktop.act({}, { ref: "start" }, { kind: "click" }, { settleMs: 10_000 });
  const deadline = p.calls[0].deadline!;
  assert.ok(deadline >= start + 400, "the deadline of this call");
  // A read that would end past it is not begun: the call ends by its deadline.
  assert.ok(Date.now() <= deadline + 30, `ended ${Date.now() - deadline} ms past the deadline`);
  assert.deepEqual(p.calls.slice(0, 2).map((c) => c.op), ["read", "act"]);
  assert.ok(p.calls.length >= 3, "the effect was read again");
  for (const c of p.calls) {
    assert.equal(c.deadline, deadline, `${c.op}: every provider call gets the same deadline`);
    assert.ok(c.at < deadline, `${c.op}: no call starts after the deadline`);
  }
  assert.ok(res.changes && res.changes.length > 0, "the clock's changes are reported");
});

Deno.test("act: a session deadline (a CLI command's) bounds every call, whatever timeoutMs says", async () => {
  const p = new SlowProvider(10);
  const deadline = Date.now() + 300;
  const desktop = createDesktop(p, { store: createMemoryRefStore(), timeoutMs: 60_000, deadline });
  await desktop.act({}, { ref: "start" }, { kind: "click" }, { settleMs: 10_000 });
  for (const c of p.calls) {
    assert.equal(c.deadline, deadline, c.op);
    assert.ok(c.at < deadline, `${c.op}: no call starts after the deadline`);
  }
  // Past it, a call is refused at once by the provider's deadline check.
  await assert.rejects(
    new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()) + 5)).then(() =>
      desktop.read({})
    ),
    (e) => e instanceof DesktopError && e.code === "TIMEOUT",
  );
});

Deno.test("a long-lived session answers each call by its waiting caller's deadline", async () => {
  const p = new SlowProvider(10);
  let callerDeadline: number | undefined = Date.now() + 200;
  const desktop = createDesktop(p, {
    store: createMemoryRefStore(),
    timeoutMs: 60_000,
    callerDeadline: () => callerDeadline,
  });
  await desktop.read({});
  assert.equal(p.calls.at(-1)?.deadline, callerDeadline, "the caller's deadline bounds the read");
  // The next caller waits longer than the session's own timeout: that timeout holds.
  callerDeadline = undefined;
  const before = Date.now();
  await desktop.read({});
  const own = p.calls.at(-1)?.deadline ?? 0;
  assert.ok(own >= before + 60_000 && own <= Date.now() + 60_000, `deadline ${own - before} ms`);
});

Deno.test("wait: each read ends by the wait's deadline; TIMEOUT after it", async () => {
  const p = new SlowProvider(10);
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  const start = Date.now();
  await assert.rejects(
    desktop.wait({}, { text: "never" }, 300),
    (e) => e instanceof DesktopError && e.code === "TIMEOUT",
  );
  assert.ok(p.calls.length > 0);
  for (const c of p.calls) {
    assert.ok(c.deadline! >= start + 300 && c.deadline! <= start + 400, "the wait's deadline");
    assert.ok(c.at < c.deadline!, "no read starts after it");
  }
});
