/**
 * The kept trees' rules, on a scripted backend: a tree is reused as kept
 * while its app sent no event and its sampled boxes hold; after events, only
 * the parts they name are read again (a node alone, a subtree, a parent's
 * subtree; a part whose box moved grows to its parent, a table's cell to the
 * table) and the answer equals the app's tree now; an event the tree cannot
 * place, too many events or too large a part mean a cold read; the subtree
 * of a node that manages its descendants (a GTK 3 tree view, whose new rows
 * no followed event announces) is read again by every read; an event
 * during the read is re-checked by the next one; memory is bounded per app
 * and in total; an app that quit is forgotten; an app whose boxes change
 * without events is read cold for good; a secure field's text is never held.
 */

import assert from "node:assert/strict";
import {
  countRaw,
  type LiveEvent,
  type LiveTreeHooks,
  LiveTrees,
  type Reread,
} from "../../src/platform/linux/live_tree.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";
import { isHidden } from "../../src/platform/linux/convert.ts";

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
  const listeners = new Map<string, (event?: LiveEvent) => void>();
  const boxes = new Map<string, [number, number, number, number]>();
  /** The app's tree now, when a test follows one: boxes not set by hand come from it. */
  let now: (() => AtspiRawNode) | null = null;
  let hung = false;
  const hooks: LiveTreeHooks = {
    watch(bus, onEvent) {
      listeners.set(bus, onEvent);
      return () => listeners.delete(bus);
    },
    extents(_bus, path) {
      if (hung) throw new Error("no reply");
      const live = now && find(now(), path);
      return boxes.get(path) ?? (live ? live.extents : [0, 0, 10, 10]);
    },
    pump() {},
  };
  return {
    hooks,
    listeners,
    boxes,
    fire: (bus = ":1.5", event?: LiveEvent) => listeners.get(bus)?.(event),
    hang: (on: boolean) => (hung = on),
    follow: (tree: () => AtspiRawNode) => (now = tree),
  };
}

/** The node at `path` in a tree, if any. */
function find(n: AtspiRawNode, path: string): AtspiRawNode | undefined {
  return n.path === path ? n : n.children.map((c) => find(c, path)).find(Boolean);
}

/**
 * The app's tree now, and a part reader over it: what it was asked (path,
 * and "alone" for a node without its children) is noted; `during` runs while
 * a part is read (an event arriving meanwhile).
 */
function liveApp(initial: AtspiRawNode) {
  const state = { tree: initial, asked: [] as string[], during: () => {} };
  const reread: Reread = (path, depth) => {
    state.asked.push(`${path}${depth === 0 ? " alone" : ""}`);
    state.during();
    const found = find(state.tree, path);
    if (!found) return Promise.reject(new Error("gone"));
    const copy = structuredClone(found);
    // A reader leaves hidden children out.
    const shown = (n: AtspiRawNode) => {
      n.children = n.children.filter((c) => !isHidden(c, n.role));
      n.children.forEach(shown);
    };
    shown(copy);
    if (depth === 0) copy.children = [];
    return Promise.resolve(copy);
  };
  return { state, reread };
}

const KEY = { bus: ":1.5", path: "/root", bounds: true };
const tree = () => node("/root", [node("/w1", [node("/a"), node("/b")])]);

Deno.test("live tree: an unchanged app's tree is reused, as a copy", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  assert.equal(await live.get(KEY), null);
  live.put(KEY, tree(), live.begin(KEY.bus));
  const a = (await live.get(KEY))!;
  assert.deepEqual(a, tree());
  a.children.length = 0;
  assert.deepEqual(await live.get(KEY), tree(), "the caller's changes do not reach the kept tree");
  assert.equal(live.stats().hits, 2);
});

Deno.test("live tree: an event since the read, or during it, makes the next read cold", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  live.put(KEY, tree(), live.begin(KEY.bus));
  app.fire();
  assert.equal(await live.get(KEY), null);
  const seq = live.begin(KEY.bus);
  app.fire(); // arrives while the read runs
  live.put(KEY, tree(), seq);
  assert.equal(await live.get(KEY), null);
  live.put(KEY, tree(), live.begin(KEY.bus));
  app.fire(":1.9"); // another app's event changes nothing here
  assert.ok(await live.get(KEY));
});

Deno.test("live tree: a box that changed without an event fails validation; repeated, it turns the app cold", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxMisses: 2 });
  for (let i = 1; i <= 2; i++) {
    live.put(KEY, tree(), live.begin(KEY.bus));
    app.boxes.set("/b", [0, i, 10, 10]);
    assert.equal(await live.get(KEY), null, "scrolled without events");
  }
  assert.equal(live.begin(KEY.bus), null, "the app is read cold from now on");
  live.put(KEY, tree(), live.begin(KEY.bus));
  assert.equal(await live.get(KEY), null);
  assert.deepEqual(live.stats().coldApps, [":1.5"]);
});

Deno.test("live tree: an app that does not answer the validation is read cold", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  live.put(KEY, tree(), live.begin(KEY.bus));
  app.hang(true);
  assert.equal(await live.get(KEY), null);
});

Deno.test("live tree: memory is bounded per app and in total, least recently used dropped", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxNodesPerApp: 4, maxNodesTotal: 8 });
  live.put(KEY, node("/root", [node("/1"), node("/2"), node("/3"), node("/4")]), 0);
  assert.equal(live.stats().trees, 0, "a tree over the per-app bound is not kept");
  const keys = ["/p", "/q", "/r"].map((path) => ({ ...KEY, path }));
  for (const k of keys) live.put(k, node(k.path, [node(`${k.path}/x`), node(`${k.path}/y`)]), 0);
  live.begin(KEY.bus);
  assert.equal(live.stats().trees, 2);
  assert.ok(live.stats().nodes <= 8);
  assert.equal(await live.get(keys[0]), null, "the oldest went first");
  assert.ok(await live.get(keys[2]));
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

Deno.test("live tree: a password field's text is never held", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  const pw = node("/pw", [], {
    role: 40,
    text: "hunter2",
    value: { current: 0, min: 0, max: 0, text: "x" },
  });
  live.put(KEY, node("/root", [pw]), live.begin(KEY.bus));
  const kept = (await live.get(KEY))!;
  assert.equal(kept.children[0].text, undefined);
  assert.equal(kept.children[0].value?.text, undefined);
  assert.ok(!JSON.stringify(kept).includes("hunter2"));
});

const ev = (path: string, kind: string): LiveEvent => ({ path, kind });
const NAME = "object:property-change:accessible-name";
const CHILDREN = "object:children-changed:add";

/** The app's tree: a window with a list of three rows, each a link and a button. */
function page(): AtspiRawNode {
  const row = (i: number) =>
    node(`/row${i}`, [
      node(`/link${i}`, [], { extents: [0, i * 10, 40, 10] }),
      node(`/btn${i}`, [], { extents: [50, i * 10, 20, 10] }),
    ], { extents: [0, i * 10, 100, 10] });
  return node("/root", [
    node("/w1", [node("/list", [row(0), row(1), row(2)], { extents: [0, 0, 100, 30] })], {
      extents: [0, 0, 100, 100],
    }),
  ], { extents: [0, 0, 100, 100] });
}

/** The node at `path` in a tree (it must be there). */
function at(root: AtspiRawNode, path: string): AtspiRawNode {
  const found = find(root, path);
  assert.ok(found, path);
  return found;
}

/** A kept tree of `page()`, its app, and the part reader over the app's tree now. */
function keptPage(limits = {}) {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, limits);
  const now = liveApp(page());
  app.follow(() => now.state.tree);
  live.put(KEY, page(), live.begin(KEY.bus));
  return { app, live, now: now.state, reread: now.reread };
}

Deno.test("live tree: a renamed node is read again alone, and the answer equals the app now", async () => {
  const { app, live, now, reread } = keptPage();
  at(now.tree, "/link1").name = "Changed";
  app.fire(KEY.bus, ev("/link1", NAME));
  assert.deepEqual(await live.get(KEY, reread), now.tree);
  assert.deepEqual(now.asked, ["/link1 alone"]);
  assert.equal(live.stats().patched, 1);
  assert.equal(live.stats().nodesReread, 1);
  // Read again with no event since: the patched tree, as kept.
  assert.deepEqual(await live.get(KEY, reread), now.tree);
  assert.equal(now.asked.length, 1);
});

Deno.test("live tree: changed children make the node's subtree read again, spliced in place", async () => {
  const { app, live, now, reread } = keptPage();
  at(now.tree, "/row1").children.push(node("/extra", [], { extents: [80, 10, 10, 10] }));
  app.fire(KEY.bus, ev("/row1", CHILDREN));
  app.fire(KEY.bus, ev("/link1", NAME)); // inside the subtree: nothing more to read
  assert.deepEqual(await live.get(KEY, reread), now.tree);
  assert.deepEqual(now.asked, ["/row1"]);
  assert.equal(live.stats().nodesReread, 4);
});

Deno.test("live tree: events from objects made since the read are covered by their parent's part", async () => {
  // A popover: its parts announce themselves (a name, a state) as they are made, before or
  // beside the children-changed of the node that holds them.
  const { app, live, now, reread } = keptPage();
  const popover = node("/pop", [node("/pop/a", [], { extents: [80, 10, 10, 10] })], {
    extents: [80, 10, 10, 10],
  });
  at(now.tree, "/row1").children.push(popover);
  app.fire(KEY.bus, ev("/pop/a", NAME));
  app.fire(KEY.bus, ev("/row1", CHILDREN));
  app.fire(KEY.bus, ev("/pop", "object:state-changed:showing"));
  assert.deepEqual(await live.get(KEY, reread), now.tree);
  assert.deepEqual(now.asked, ["/row1"]);
  assert.equal(live.stats().patched, 1);
  // One from an object no part read holds: the change is where the tree is not, cold.
  app.fire(KEY.bus, ev("/elsewhere", NAME));
  app.fire(KEY.bus, ev("/row1", CHILDREN));
  assert.equal(await live.get(KEY, reread), null);
});

Deno.test("live tree: a node shown or hidden makes its parent's subtree read again; a hidden one leaves", async () => {
  const { app, live, now, reread } = keptPage();
  at(now.tree, "/btn2").states = [1, 0]; // not VISIBLE: a read leaves it out
  app.fire(KEY.bus, ev("/btn2", "object:state-changed:visible"));
  const got = (await live.get(KEY, reread))!;
  assert.deepEqual(now.asked, ["/row2"]);
  assert.deepEqual(at(got, "/row2").children.map((c) => c.path), ["/link2"]);
  assert.equal(countRaw(got), countRaw(page()) - 1);
});

Deno.test("live tree: a part whose box moved grows to its parent until the boxes hold", async () => {
  const { app, live, now, reread } = keptPage();
  // A longer link pushes the button after it.
  at(now.tree, "/link0").name = "A much longer link";
  at(now.tree, "/link0").extents = [0, 0, 45, 10];
  at(now.tree, "/btn0").extents = [55, 0, 20, 10];
  app.fire(KEY.bus, ev("/link0", NAME));
  assert.deepEqual(await live.get(KEY, reread), now.tree);
  assert.deepEqual(now.asked, ["/link0 alone", "/row0"]);
});

Deno.test("live tree: a table cell whose box moved is read again with its whole table", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxPatchShare: 1 }); // a small tree: any share
  const table = () =>
    node("/root", [
      node("/w1", [
        node("/table", [
          node("/r0", [node("/c0", [], { role: 56 }), node("/c1", [], { role: 56 })], { role: 90 }),
          node("/r1", [node("/c2", [], { role: 56 }), node("/c3", [], { role: 56 })], { role: 90 }),
        ], { role: 55 }),
        node("/after"),
      ]),
    ]);
  const now = liveApp(table());
  app.follow(() => now.state.tree);
  live.put(KEY, table(), live.begin(KEY.bus));
  at(now.state.tree, "/c0").extents = [0, 0, 20, 10]; // a column grew
  at(now.state.tree, "/c2").extents = [0, 0, 20, 10];
  app.fire(KEY.bus, ev("/c0", "object:text-changed:insert"));
  assert.deepEqual(await live.get(KEY, now.reread), now.state.tree);
  assert.deepEqual(now.state.asked, ["/c0", "/table"]);
});

Deno.test("live tree: a node under one that manages its descendants is read with that ancestor", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxPatchShare: 1 }); // a small tree: any share
  const view = () =>
    node("/root", [
      node("/w1", [
        node("/tree", [node("", [node("/cell")], { role: 90 })], {
          states: [2 ** 31 + 2 ** 30, 0], // MANAGES_DESCENDANTS, VISIBLE
        }),
      ]),
    ]);
  const now = liveApp(view());
  app.follow(() => now.state.tree);
  live.put(KEY, view(), live.begin(KEY.bus));
  app.fire(KEY.bus, ev("/cell", "object:state-changed:selected"));
  assert.deepEqual(await live.get(KEY, now.reread), now.state.tree);
  assert.deepEqual(now.state.asked, ["/tree"]);
});

/**
 * A GTK 3 file chooser as the trees see it: a split pane, and a tree view of
 * files (a table that manages its descendants) whose cells lie flat under it,
 * three a row; fillers make the table a small share of the tree.
 */
function chooser(files: string[]): AtspiRawNode {
  const MANAGES_DESCENDANTS_VISIBLE = 2 ** 31 + 2 ** 30;
  const cells = files.flatMap((f, i) =>
    [f, `${f.length} bytes`, "Text"].map((t, j) =>
      node(`/cell-${f}-${j}`, [], { role: 56, name: t, extents: [j * 50, i * 20, 50, 20] })
    )
  );
  const fillers = Array.from({ length: 20 }, (_, i) => node(`/f${i}`));
  return node("/root", [
    node("/w1", [
      node("/pane", [], { role: 88, value: { current: 200, min: 0, max: 400 } }),
      node("/table", cells, {
        role: 55,
        states: [MANAGES_DESCENDANTS_VISIBLE, 0],
        extents: [0, 0, 150, 200],
      }),
      ...fillers,
    ], { extents: [0, 0, 400, 400] }),
  ], { extents: [0, 0, 400, 400] });
}

Deno.test("live tree: a tree view's new row, which no event the trees follow announces, is in the next read", async () => {
  // A GTK 3 tree view manages its descendants: the ATK bridge forwards no children-changed from
  // it, and the row-inserted it sends instead is not followed. The only event the kept trees got
  // when a file appeared was the split pane's value (its relayout).
  for (const incidental of [true, false]) {
    const app = fakeApp();
    const live = new LiveTrees(app.hooks);
    const now = liveApp(chooser(["alpha.txt", "beta.txt"]));
    app.follow(() => now.state.tree);
    const kept = live.put(KEY, chooser(["alpha.txt", "beta.txt"]), live.begin(KEY.bus));
    assert.notEqual(kept, null);
    // Read again as it was: the table is re-read, found alike, and the version holds.
    const same: { version?: number } = {};
    assert.deepEqual(await live.get(KEY, now.reread, same), now.state.tree);
    assert.equal(same.version, kept);
    now.state.asked.length = 0;
    now.state.tree = chooser(["alpha.txt", "beta.txt", "gamma.txt"]);
    if (incidental) {
      app.fire(KEY.bus, ev("/pane", "object:property-change:accessible-value"));
    }
    assert.equal(live.unchanged(KEY), null, "not vouched for: its rows change unannounced");
    const changed: { version?: number } = {};
    const got = await live.get(KEY, now.reread, changed);
    assert.deepEqual(got, now.state.tree, `the new row is read (incidental event: ${incidental})`);
    assert.ok(now.state.asked.includes("/table"), JSON.stringify(now.state.asked));
    assert.equal(live.stats().patched, 2, "read in parts, not cold");
    assert.ok(changed.version! > kept!, "a changed tree has a new version");
    // Without a part reader it cannot be answered: a cold read.
    assert.equal(await live.get(KEY), null);
  }
});

Deno.test("live tree: a table's row and column events re-read the table; a tree whose managed part is too large is not kept", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks, { maxPatchShare: 1 }); // a small tree: any share
  const table = (rows: number) =>
    node("/root", [
      node("/w1", [
        node(
          "/table",
          Array.from({ length: rows }, (_, i) => node(`/c${i}`, [], { role: 56 })),
          { role: 55 },
        ),
        node("/after"),
      ]),
    ]);
  for (const kind of ["object:row-inserted", "object:model-changed"]) {
    const now = liveApp(table(2));
    app.follow(() => now.state.tree);
    live.put(KEY, table(2), live.begin(KEY.bus));
    now.state.tree = table(3);
    app.fire(KEY.bus, ev("/table", kind));
    assert.deepEqual(await live.get(KEY, now.reread), now.state.tree, kind);
    assert.deepEqual(now.state.asked, ["/table"], kind);
  }
  // Every read would re-read a sheet that is most of the tree: not worth keeping.
  const small = new LiveTrees(app.hooks);
  const sheet = chooser(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
  assert.equal(small.put(KEY, sheet, small.begin(KEY.bus)), null);
  assert.equal(small.stats().trees, 0);
});

Deno.test("live tree: an event the tree cannot place means a cold read; a gone object it does not hold is ignored", async () => {
  for (
    const [event, cold] of [
      [ev("/elsewhere", NAME), true],
      [ev("/w1", "window:create"), true],
      [undefined, true],
      [ev("/root", CHILDREN), true], // the whole tree: a cold read is cheaper
      [ev("/gone", "object:state-changed:defunct"), false],
    ] as const
  ) {
    const { app, live, reread } = keptPage();
    app.fire(KEY.bus, event);
    const got = await live.get(KEY, reread);
    assert.equal(got === null, cold, JSON.stringify(event));
  }
});

Deno.test("live tree: too many events, too large a part, a depth-limited tree or no part reader mean a cold read", async () => {
  {
    const { app, live, reread } = keptPage({ maxEvents: 3 });
    for (let i = 0; i < 4; i++) app.fire(KEY.bus, ev("/link0", NAME));
    assert.equal(await live.get(KEY, reread), null, "events dropped for room");
  }
  {
    const { app, live, reread } = keptPage({ maxPatchShare: 0.2 });
    app.fire(KEY.bus, ev("/list", CHILDREN)); // 10 of 12 nodes
    assert.equal(await live.get(KEY, reread), null, "a part too large");
  }
  {
    const { app, live, reread } = keptPage();
    const k = { ...KEY, depth: 3 };
    live.put(k, page(), live.begin(KEY.bus));
    app.fire(KEY.bus, ev("/link0", NAME));
    assert.equal(await live.get(k, reread), null, "depth-limited");
  }
  {
    const { app, live } = keptPage();
    app.fire(KEY.bus, ev("/link0", NAME));
    assert.equal(await live.get(KEY), null, "no part reader");
  }
  {
    const app = fakeApp();
    const live = new LiveTrees(app.hooks);
    const { reread } = liveApp(page());
    live.put(KEY, page(), live.begin(KEY.bus), false);
    app.fire(KEY.bus, ev("/link0", NAME));
    assert.equal(await live.get(KEY, reread), null, "a tree whose parts cannot be read alike");
  }
});

Deno.test("live tree: an event during the re-read is re-checked by the next read", async () => {
  const { app, live, now, reread } = keptPage();
  at(now.tree, "/link0").name = "First";
  app.fire(KEY.bus, ev("/link0", NAME));
  now.during = () => {
    now.during = () => {};
    at(now.tree, "/btn2").name = "Second";
    app.fire(KEY.bus, ev("/btn2", NAME));
  };
  await live.get(KEY, reread);
  assert.deepEqual(await live.get(KEY, reread), now.tree);
  assert.deepEqual(now.asked, ["/link0 alone", "/btn2 alone"]);
});

Deno.test("live tree: a sampled box outside the parts read that moved means a cold read, not an unreliable app", async () => {
  const { app, live, reread } = keptPage();
  app.boxes.set("/btn2", [0, 99, 10, 10]);
  app.fire(KEY.bus, ev("/link0", NAME));
  assert.equal(await live.get(KEY, reread), null);
  assert.equal(live.stats().silentChanges, 0);
});

Deno.test("live tree: a part that cannot be read means a cold read", async () => {
  const { app, live, now, reread } = keptPage();
  at(now.tree, "/row1").children = [];
  app.fire(KEY.bus, ev("/link1", NAME)); // the link is gone by the time it is read
  assert.equal(await live.get(KEY, reread), null);
});

Deno.test("live tree: a password field read again keeps no text", async () => {
  const app = fakeApp();
  const live = new LiveTrees(app.hooks);
  const form = () => node("/root", [node("/w1", [node("/pw", [], { role: 40 })])]);
  const now = liveApp(form());
  app.follow(() => now.state.tree);
  live.put(KEY, form(), live.begin(KEY.bus));
  at(now.state.tree, "/pw").text = "hunter2";
  app.fire(KEY.bus, ev("/pw", "object:text-changed:insert"));
  const got = await live.get(KEY, now.reread);
  assert.ok(got);
  assert.ok(!JSON.stringify(got).includes("hunter2"));
  assert.ok(!JSON.stringify(await live.get(KEY, now.reread)).includes("hunter2"));
});

Deno.test("live tree: a version names the tree returned; unchanged() gives it while no event came and the boxes hold", async () => {
  const { app, live, now, reread } = keptPage();
  const first: { version?: number } = {};
  assert.ok(await live.get(KEY, reread, first));
  assert.equal(typeof first.version, "number");
  assert.equal(live.unchanged(KEY), first.version, "no event: the same tree");
  // A patch makes a new version, and unchanged() says nothing until it is read.
  at(now.tree, "/link1").name = "Changed";
  app.fire(KEY.bus, ev("/link1", NAME));
  assert.equal(live.unchanged(KEY), null, "an event came: read it");
  const patched: { version?: number } = {};
  assert.deepEqual(await live.get(KEY, reread, patched), now.tree);
  assert.ok(patched.version! > first.version!);
  assert.equal(live.unchanged(KEY), patched.version);
  // A box that moved without an event: not unchanged, and counted as a silent change.
  const scroll = (n: AtspiRawNode): void => {
    app.boxes.set(n.path, [0, 99, 10, 10]);
    n.children.forEach(scroll);
  };
  scroll(now.tree);
  assert.equal(live.unchanged(KEY), null);
  assert.equal(live.stats().silentChanges, 1);
  // A put names its tree anew; no tree, no version.
  const fresh = new LiveTrees(fakeApp().hooks);
  assert.equal(fresh.unchanged(KEY), null);
  const v = fresh.put(KEY, tree(), fresh.begin(KEY.bus));
  assert.equal(fresh.unchanged(KEY), v);
  assert.equal(fresh.put(KEY, tree(), null), null, "not kept: no version");
});
