import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { opMethods } from "../../src/ops/mod.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { el, FakeProvider } from "../harness/fake_provider.ts";
import type { Snapshot } from "../../src/model/element.ts";
import type { ReadOptions, Scope } from "../../src/platform/provider.ts";

function app(label: string): Snapshot {
  return {
    app: { name: "Orders", pid: 42 },
    readAt: new Date().toISOString(),
    root: el("app", "Orders", {
      c: [el("window", "Orders", {
        c: [
          el("btn", label, { nid: "n1", b: [10, 10, 80, 20] }),
          el("input", "Customer", { nid: "n2", b: [10, 40, 80, 20] }),
        ],
      })],
    }),
  };
}

/** A session over a fake app, reusing unchanged reads or not, and its store. */
function session(reuse: boolean, snapshot = app("Refund")) {
  const provider = new FakeProvider(snapshot);
  const store = createMemoryRefStore();
  const desktop = createDesktop(provider, { store, reuseUnchangedReads: reuse });
  return { provider, store, desktop, ops: opMethods(desktop) };
}

Deno.test("reused reads: an unchanged tree read again prints what a fresh session prints", async () => {
  const warm = session(true);
  const first = await warm.ops.read({ app: "Orders" });
  const again = await warm.ops.read({ app: "Orders" });
  const fresh = await session(false).ops.read({ app: "Orders" });
  assert.equal(again.text, first.text);
  assert.equal(again.text, fresh.text);
  // The same objects: nothing was worked out again.
  const a = await warm.desktop.read({ app: "Orders" });
  const b = await warm.desktop.read({ app: "Orders" });
  assert.equal(a.view, b.view);
  // The store holds the read each time, with the time of the latest read.
  const stored = await warm.store.load(42, "Orders");
  assert.equal(stored?.readAt, b.snapshot.readAt);
  assert.deepEqual(stored?.elements.map((e) => e.ref), ["orders", "window", "refund", "customer"]);
});

Deno.test("reused reads: any change in the tree, or other options, is a fresh read", async () => {
  const warm = session(true);
  const before = await warm.ops.read({ app: "Orders" });
  warm.provider.snapshot = app("Refund all");
  const after = await warm.ops.read({ app: "Orders" });
  assert.notEqual(after.text, before.text);
  assert.match(after.text, /btn "Refund all"/);
  assert.equal(
    after.text,
    (await session(false, app("Refund all")).ops.read({ app: "Orders" })).text,
  );
  // A box that moved is a change too (json prints boxes).
  const json = await warm.ops.read({ app: "Orders", format: "json" });
  warm.provider.snapshot.root.c![0].c![0].b = [10, 12, 80, 20];
  const moved = await warm.ops.read({ app: "Orders", format: "json" });
  assert.notEqual(moved.text, json.text);
  assert.match(moved.text, /\[10,12,80,20\]/);
  // Other options over the same tree: their own answer.
  const interactive = await warm.ops.read({ app: "Orders", depth: 1 });
  const whole = await warm.ops.read({ app: "Orders" });
  assert.notEqual(interactive.text, whole.text);
  assert.equal(whole.text, after.text);
});

/** A backend that keeps the app's tree: each read is named by a version, as long-lived ones do. */
class KeepingProvider extends FakeProvider {
  version = 1;
  reads = 0;
  override read(scope: Scope = {}, opts: ReadOptions = {}): Promise<Snapshot> {
    this.reads++;
    if (opts.version) opts.version.value = `v${this.version}`;
    return super.read(scope);
  }
  unchangedSince(_scope: Scope, _opts: ReadOptions, version: string): Promise<boolean> {
    return Promise.resolve(version === `v${this.version}`);
  }
}

Deno.test("reused reads: while the backend says its version holds, the tree is not fetched at all", async () => {
  const provider = new KeepingProvider(app("Refund"));
  const store = createMemoryRefStore();
  const desktop = createDesktop(provider, { store, reuseUnchangedReads: true });
  const ops = opMethods(desktop);
  const first = await ops.read({ app: "Orders" });
  assert.equal(provider.reads, 1);
  const again = await ops.read({ app: "Orders" });
  assert.equal(provider.reads, 1, "answered without a fetch");
  assert.equal(again.text, first.text);
  // The store holds the read, with the time of the latest.
  const a = await desktop.read({ app: "Orders" });
  assert.equal((await store.load(42, "Orders"))?.readAt, a.snapshot.readAt);
  // A change makes a new version: fetched, and printed as a fresh session prints it.
  provider.snapshot = app("Refund all");
  provider.version++;
  const after = await ops.read({ app: "Orders" });
  assert.equal(provider.reads, 2);
  assert.equal(
    after.text,
    (await session(false, app("Refund all")).ops.read({ app: "Orders" })).text,
  );
  // Another question of the same tree is its own read.
  await ops.read({ app: "Orders", depth: 1 });
  assert.equal(provider.reads, 3);
});
