/**
 * The kept trees' rules, on a scripted backend: a tree is reused only while
 * its app sent no event and its sampled boxes hold; an event during the read
 * that made it makes the next read cold; memory is bounded per app and in
 * total; an app that quit is forgotten; an app whose boxes change without
 * events is read cold for good; a secure field's text is never held.
 */

import assert from "node:assert/strict";
import { type LiveTreeHooks, LiveTrees } from "../../src/platform/linux/live_tree.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";

function node(path: string, children: AtspiRawNode[] = [], extra: Partial<AtspiRawNode> = {}) {
  return {
    bus: ":1.5",
    path,
    role: 39,
    name: path,
    description: "",
    states: [0, 0] as [number, number],
    interfaces: [],
    children,
    extents: [0, 0, 10, 10] as [number, number, number, number],
    ...extra,
  };
}

/** A scripted app: boxes by path, events fired by hand, watches counted. */
function fakeApp() {
  const listeners = new Map<string, () => void>();
  const boxes = new Map<string, [number, number, number, number]>();
  let hung = false;
  const hooks: LiveTreeHooks = {
    watch(bus, onEvent) {
      listeners.set(bus, onEvent);
      return () => listeners.delete(bus);
    },
    extents(_bus, path) {
      if (hung) throw new Error("no reply");
      return boxes.get(path) ?? [0, 0, 10, 10];
    },
    pump() {},
  };
  return {
    hooks,
    listeners,
    boxes,
    fire: (bus = ":1.5") => listeners.get(bus)?.(),
    hang: (on: boolean) => (hung = on),
  };
}

const KEY = { bus: ":1.5", path: "/root", bounds: true };
const tree = () => node("/root", [node("/w1", [node("/a"), node("/b")])]);

Deno.test("live tree: an unchanged app's tree is reused, as a copy", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  assert.equal(live.get(KEY), null);
  live.put(KEY, tree(), live.begin(KEY.bus));
  const a = live.get(KEY)!;
  assert.deepEqual(a, tree());
  a.children.length = 0;
  assert.deepEqual(live.get(KEY), tree(), "the caller's changes do not reach the kept tree");
  assert.equal(live.stats().hits, 2);
});

Deno.test("live tree: an event since the read, or during it, makes the next read cold", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  live.put(KEY, tree(), live.begin(KEY.bus));
  app.fire();
  assert.equal(live.get(KEY), null);
  const seq = live.begin(KEY.bus);
  app.fire(); // arrives while the read runs
  live.put(KEY, tree(), seq);
  assert.equal(live.get(KEY), null);
  live.put(KEY, tree(), live.begin(KEY.bus));
  app.fire(":1.9"); // another app's event changes nothing here
  assert.ok(live.get(KEY));
});

Deno.test("live tree: a box that changed without an event fails validation; repeated, it turns the app cold", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxMisses: 2 });
  for (let i = 1; i <= 2; i++) {
    live.put(KEY, tree(), live.begin(KEY.bus));
    app.boxes.set("/b", [0, i, 10, 10]);
    assert.equal(live.get(KEY), null, "scrolled without events");
  }
  assert.equal(live.begin(KEY.bus), null, "the app is read cold from now on");
  live.put(KEY, tree(), live.begin(KEY.bus));
  assert.equal(live.get(KEY), null);
  assert.deepEqual(live.stats().coldApps, [":1.5"]);
});

Deno.test("live tree: an app that does not answer the validation is read cold", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  live.put(KEY, tree(), live.begin(KEY.bus));
  app.hang(true);
  assert.equal(live.get(KEY), null);
});

Deno.test("live tree: memory is bounded per app and in total, least recently used dropped", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxNodesPerApp: 4, maxNodesTotal: 8 });
  live.put(KEY, node("/root", [node("/1"), node("/2"), node("/3"), node("/4")]), 0);
  assert.equal(live.stats().trees, 0, "a tree over the per-app bound is not kept");
  const keys = ["/p", "/q", "/r"].map((path) => ({ ...KEY, path }));
  for (const k of keys) live.put(k, node(k.path, [node(`${k.path}/x`), node(`${k.path}/y`)]), 0);
  live.begin(KEY.bus);
  assert.equal(live.stats().trees, 2);
  assert.ok(live.stats().nodes <= 8);
  assert.equal(live.get(keys[0]), null, "the oldest went first");
  assert.ok(live.get(keys[2]));
});

Deno.test("live tree: an app that quit is forgotten and no longer followed", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  live.put(KEY, tree(), live.begin(KEY.bus));
  live.retain(new Set([":1.7"]));
  assert.equal(app.listeners.size, 0);
  assert.equal(live.stats().trees, 0);
  live.close();
});

Deno.test("live tree: a password field's text is never held", () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  const pw = node("/pw", [], {
    role: 40,
    text: "hunter2",
    value: { current: 0, min: 0, max: 0, text: "x" },
  });
  live.put(KEY, node("/root", [pw]), live.begin(KEY.bus));
  const kept = live.get(KEY)!;
  assert.equal(kept.children[0].text, undefined);
  assert.equal(kept.children[0].value?.text, undefined);
  assert.ok(!JSON.stringify(kept).includes("hunter2"));
});
