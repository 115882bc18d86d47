import assert from "node:assert/strict";
import type { Desktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import type { AppInfo, Element, Snapshot, WindowInfo } from "../../src/model/element.ts";
import type {
  ActionResult,
  ChangeHint,
  Provider,
  ReadOptions,
  Scope,
} from "../../src/platform/provider.ts";
import { observe, type ObserveOptions } from "../../src/observe/observe.ts";
import type { ObserveEvent } from "../../src/observe/events.ts";

const APP: AppInfo = { name: "fake", pid: 4242 };

/**
 * A provider whose UI is whatever the test puts in `state`: each read returns
 * a copy of it (or throws it, when it is an error). With `watch`, the test
 * fires change notifications by hand.
 */
class FakeProvider implements Provider {
  readonly platform = "replay" as const;
  state: Element | DesktopError;
  reads = 0;
  watchers = new Set<() => void>();
  unwatched = 0;
  watch?: (scope: Scope, onChange: (hint?: ChangeHint) => void) => Promise<() => void>;

  constructor(state: Element, opts: { watch?: boolean } = {}) {
    this.state = state;
    if (opts.watch) {
      this.watch = (_scope, onChange) => {
        this.watchers.add(onChange);
        return Promise.resolve(() => {
          this.unwatched++;
          this.watchers.delete(onChange);
        });
      };
    }
  }

  /** Fires one change notification to every watcher. */
  fire(): void {
    for (const w of this.watchers) w();
  }

  listApps(): Promise<AppInfo[]> {
    return Promise.resolve([APP]);
  }
  listWindows(): Promise<WindowInfo[]> {
    return Promise.resolve([]);
  }
  read(_scope: Scope, _opts?: ReadOptions): Promise<Snapshot> {
    this.reads++;
    if (this.state instanceof DesktopError) return Promise.reject(this.state);
    return Promise.resolve({
      app: APP,
      readAt: new Date().toISOString(),
      root: structuredClone(this.state),
    });
  }
  act(): Promise<ActionResult> {
    return Promise.reject(new DesktopError("ACTION_NOT_SUPPORTED", "fake"));
  }
  close(): void {}
}

/** A window with a form: a labelled text field, a check box, a Save button and a status text. */
function formWindow(
  over: { value?: string; checked?: boolean; status?: string; saveBounds?: Element["b"] } = {},
): Element {
  return {
    i: 0,
    r: "app",
    t: "fake",
    c: [{
      i: 0,
      r: "window",
      t: "Settings",
      b: [0, 0, 800, 600],
      c: [
        { i: 0, r: "input", t: "Name", v: over.value ?? "Ada", b: [10, 10, 200, 24] },
        { i: 0, r: "chk", t: "Remember me", chk: over.checked ?? false, b: [10, 40, 200, 24] },
        { i: 0, r: "btn", t: "Save", b: over.saveBounds ?? [10, 70, 80, 30], a: ["press"] },
        { i: 0, r: "txt", t: over.status ?? "Ready", b: [10, 110, 200, 20] },
      ],
    }],
  };
}

/** A window holding a list of `n` one-element rows, optionally with a new row on top. */
function listWindow(n: number, newTop?: string): Element {
  const labels = Array.from({ length: n }, (_, k) => `Item ${k + 1}`);
  if (newTop) labels.unshift(newTop);
  return {
    i: 0,
    r: "app",
    t: "fake",
    c: [{
      i: 0,
      r: "window",
      t: "Items",
      c: [{
        i: 0,
        r: "list",
        t: "Items",
        c: labels.map((t, k) => ({ i: 0, r: "row" as const, t, b: [0, 20 * k, 300, 20] })),
      }],
    }],
  };
}

/** Drops the timestamp so events can be compared whole. */
function noTs(ev: ObserveEvent): Omit<ObserveEvent, "ts"> {
  const { ts: _ts, ...rest } = ev;
  return rest;
}

/** Resolves once the provider has been read at least `n` times. */
async function readsAtLeast(fake: FakeProvider, n: number): Promise<void> {
  // Bounded, so a stream that died shows up as a failure instead of a hang.
  for (let tries = 0; fake.reads < n; tries++) {
    if (tries > 2500) throw new Error(`only ${fake.reads} reads, expected ${n}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Runs observe to the end and returns every event. */
async function collect(
  provider: Provider,
  opts: ObserveOptions,
): Promise<ObserveEvent[]> {
  const out: ObserveEvent[] = [];
  for await (const ev of observe(provider, { app: "fake" }, opts)) out.push(ev);
  return out;
}

/**
 * Drives observe step by step: `next()` returns the next event, `stop()`
 * aborts and returns the remaining events (ending with `done`).
 */
function drive(provider: Provider, opts: ObserveOptions = {}) {
  const ctrl = new AbortController();
  const it = observe(provider, { app: "fake" }, { interval: 5, ...opts, signal: ctrl.signal })
    [Symbol.asyncIterator]();
  return {
    async next(): Promise<ObserveEvent> {
      const r = await it.next();
      assert.equal(r.done, false, "the stream ended early");
      return r.value as ObserveEvent;
    },
    /**
     * Keeps consuming in the background until the provider was read `reads`
     * times in all, then aborts; returns everything emitted meanwhile.
     */
    async settle(fake: FakeProvider, reads: number): Promise<ObserveEvent[]> {
      const events: ObserveEvent[] = [];
      const pump = (async () => {
        for (let r = await it.next(); !r.done; r = await it.next()) events.push(r.value);
      })();
      await readsAtLeast(fake, reads);
      ctrl.abort();
      await pump;
      return events;
    },
    async stop(): Promise<ObserveEvent[]> {
      ctrl.abort();
      const rest: ObserveEvent[] = [];
      for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
      return rest;
    },
  };
}

Deno.test("observe: the first event is a snapshot with the element count", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake);
  const first = await d.next();
  assert.equal(first.type, "snapshot");
  assert.equal(typeof first.ts, "number");
  // app + window + 4 widgets
  assert.deepEqual(noTs(first), { type: "snapshot", count: 6 });
  const rest = await d.stop();
  assert.deepEqual(rest.map((e) => e.type), ["done"]);
});

Deno.test("observe: a new element is one added event with the element, its path and its ref", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake);
  await d.next();
  const next = formWindow();
  next.c![0].c!.push({ i: 0, r: "btn", t: "Delete account", b: [10, 140, 120, 30] });
  fake.state = next;
  const ev = await d.next();
  assert.equal(ev.type, "added");
  if (ev.type !== "added") return;
  assert.deepEqual(Object.keys(ev).sort(), ["el", ...(ev.p ? ["p"] : []), "ref", "ts", "type"]);
  assert.equal(ev.ref, "delete-account");
  assert.equal(ev.el.r, "btn");
  assert.equal(ev.el.t, "Delete account");
  assert.deepEqual(ev.el.b, [10, 140, 120, 30]);
  assert.equal(ev.el.i, 7, "the id is the element's position in the new read");
  assert.deepEqual((await d.stop()).map((e) => e.type), ["done"]);
});

Deno.test("observe: a vanished element is one removed event with ref, id, role and label", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake);
  await d.next();
  const next = formWindow();
  next.c![0].c!.pop(); // the "Ready" status text
  fake.state = next;
  assert.deepEqual(noTs(await d.next()), {
    type: "removed",
    ref: "ready",
    i: 6,
    r: "txt",
    t: "Ready",
  });
  assert.deepEqual((await d.stop()).map((e) => e.type), ["done"]);
});

Deno.test("observe: a changed property is one changed event with [old, new] per field", async () => {
  const table: Array<{ name: string; state: Element; ref: string; i: number; changes: object }> = [
    {
      name: "value",
      state: formWindow({ value: "Grace" }),
      ref: "name",
      i: 3,
      changes: { v: ["Ada", "Grace"] },
    },
    {
      name: "checked",
      state: formWindow({ checked: true }),
      ref: "remember-me",
      i: 4,
      changes: { chk: [false, true] },
    },
  ];
  for (const c of table) {
    const fake = new FakeProvider(formWindow());
    const d = drive(fake);
    await d.next();
    fake.state = c.state;
    assert.deepEqual(
      noTs(await d.next()),
      { type: "changed", ref: c.ref, i: c.i, changes: c.changes },
      c.name,
    );
    assert.deepEqual((await d.stop()).map((e) => e.type), ["done"], c.name);
  }
});

Deno.test("observe: --ignore-bounds drops moves, --ignore-focus drops focus changes", async () => {
  const moved = formWindow({ saveBounds: [20, 70, 80, 30] });
  const focused = formWindow();
  focused.c![0].c![0].f = true;
  const table = [
    { name: "move reported", state: moved, opts: {}, expect: ["b"] },
    { name: "move ignored", state: moved, opts: { ignoreBounds: true }, expect: [] },
    { name: "focus reported", state: focused, opts: {}, expect: ["f"] },
    { name: "focus ignored", state: focused, opts: { ignoreFocus: true }, expect: [] },
  ];
  for (const c of table) {
    const fake = new FakeProvider(formWindow());
    const d = drive(fake, c.opts);
    await d.next();
    fake.state = c.state;
    const events = await d.settle(fake, fake.reads + 2);
    const changed = events.filter((e) => e.type === "changed");
    const fields = changed.flatMap((e) => e.type === "changed" ? Object.keys(e.changes) : []);
    assert.deepEqual(fields, c.expect, c.name);
    assert.equal(events.at(-1)?.type, "done", c.name);
  }
});

Deno.test("observe: --roles reports only elements of those roles, and counts only them", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake, { roles: new Set(["btn", "chk"]) });
  assert.deepEqual(noTs(await d.next()), { type: "snapshot", count: 2 });
  // The text field's value and the status text change (not observed), and the check box toggles.
  fake.state = formWindow({ value: "Grace", status: "Saved", checked: true });
  const ev = await d.next();
  assert.equal(ev.type, "changed");
  assert.equal(ev.type === "changed" && ev.ref, "remember-me");
  assert.deepEqual((await d.stop()).map((e) => e.type), ["done"]);
});

Deno.test("observe: --depth limits the observed elements", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake, { depth: 1 });
  // The app and its window only.
  assert.deepEqual(noTs(await d.next()), { type: "snapshot", count: 2 });
  fake.state = formWindow({ value: "Grace" });
  const events = await d.settle(fake, fake.reads + 2);
  assert.deepEqual(events.map((e) => e.type), ["done"]);
});

Deno.test("observe: a failed read is an error event and the baseline is kept", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake);
  await d.next();
  fake.state = new DesktopError("APP_UNRESPONSIVE", "the app did not answer within 5000 ms");
  assert.deepEqual(noTs(await d.next()), {
    type: "error",
    code: "APP_UNRESPONSIVE",
    error: "the app did not answer within 5000 ms",
  });
  // The next good read is diffed against the last good one, not against nothing.
  fake.state = formWindow({ value: "Grace" });
  let ev = await d.next();
  while (ev.type === "error") ev = await d.next();
  assert.equal(ev.type, "changed");
  assert.deepEqual(ev.type === "changed" && ev.changes, { v: ["Ada", "Grace"] });
  const rest = await d.stop();
  assert.deepEqual(rest.map((e) => e.type), ["done"]);
});

Deno.test("observe: an unknown error from the provider becomes an INTERNAL error event", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake);
  await d.next();
  const original = fake.read.bind(fake);
  let failOnce = true;
  fake.read = (scope, opts) => {
    if (failOnce) {
      failOnce = false;
      return Promise.reject(new TypeError("boom"));
    }
    return original(scope, opts);
  };
  const ev = await d.next();
  assert.equal(ev.type, "error");
  assert.equal(ev.type === "error" && ev.code, "INTERNAL");
  assert.deepEqual((await d.stop()).map((e) => e.type), ["done"]);
});

Deno.test("observe: the app quitting ends the stream with APP_NOT_FOUND then done", async () => {
  const fake = new FakeProvider(formWindow(), { watch: true });
  const events: ObserveEvent[] = [];
  const stream = observe(fake, { app: "fake" }, { interval: 5 });
  for await (const ev of stream) {
    events.push(ev);
    if (ev.type === "snapshot") {
      fake.state = new DesktopError("APP_NOT_FOUND", 'no app named "fake" is running');
    }
  }
  assert.deepEqual(events.map((e) => e.type), ["snapshot", "error", "done"]);
  assert.equal(events[1].type === "error" && events[1].code, "APP_NOT_FOUND");
  assert.equal(fake.unwatched, 1, "the watch is released");
});

Deno.test("observe: --duration ends the stream with a done event", async () => {
  const fake = new FakeProvider(formWindow());
  const events = await collect(fake, { interval: 5, duration: 0.05 });
  assert.deepEqual(events.map((e) => e.type), ["snapshot", "done"]);
  const done = events[1];
  assert.equal(done.type, "done");
  if (done.type !== "done") return;
  assert.equal(done.events, 0);
  assert.match(done.elapsed, /^\d+\.\ds$/);
});

Deno.test("observe: a stable UI emits nothing however often it is read", async () => {
  const fake = new FakeProvider(listWindow(50));
  const events = await collect(fake, { interval: 2, duration: 0.1 });
  assert.ok(fake.reads >= 3, `expected several reads, got ${fake.reads}`);
  assert.deepEqual(events.map((e) => e.type), ["snapshot", "done"]);
});

Deno.test("observe: a row inserted at the top of 300 rows is exactly one added", async () => {
  // Every row below the new one moves down 20 px: that is what --ignore-bounds is for.
  const fake = new FakeProvider(listWindow(300));
  const d = drive(fake, { ignoreBounds: true });
  await d.next();
  fake.state = listWindow(300, "Item 0");
  const ev = await d.next();
  assert.equal(ev.type, "added");
  assert.equal(ev.type === "added" && ev.el.t, "Item 0");
  const rest = await d.stop();
  assert.deepEqual(rest.map((e) => e.type), ["done"]);
  assert.equal(rest[0].type === "done" && rest[0].events, 1);
});

Deno.test("observe: one changed value among 300 rows is exactly one changed", async () => {
  const fake = new FakeProvider(listWindow(300));
  const d = drive(fake);
  await d.next();
  const next = listWindow(300);
  next.c![0].c![0].c![150].v = "done";
  fake.state = next;
  const ev = await d.next();
  assert.equal(ev.type, "changed");
  if (ev.type !== "changed") return;
  assert.equal(ev.ref, "items/item-151");
  assert.deepEqual(Object.keys(ev.changes), ["v"]);
  assert.equal(ev.changes.v[1], "done");
  const rest = await d.stop();
  assert.equal(rest[0].type === "done" && rest[0].events, 1);
});

/** The form window with a "Discard changes?" dialog holding two buttons. */
function withDialog(): Element {
  const w = formWindow();
  w.c!.push({
    i: 0,
    r: "dialog",
    t: "Discard changes?",
    b: [200, 200, 300, 120],
    c: [
      { i: 0, r: "btn", t: "Discard", b: [220, 280, 80, 30], a: ["press"], nid: "n:1" },
      { i: 0, r: "btn", t: "Keep editing", b: [320, 280, 120, 30], a: ["press"] },
    ],
  });
  return w;
}

Deno.test("observe: a new subtree is one added event carrying its descendants", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake);
  await d.next();
  fake.state = withDialog();
  const ev = await d.next();
  assert.equal(ev.type, "added");
  if (ev.type !== "added") return;
  assert.equal(ev.ref, "discard-changes");
  assert.equal(ev.el.r, "dialog");
  assert.deepEqual(ev.el.c?.map((c) => [c.ref, c.r, c.t]), [
    ["discard-changes/discard", "btn", "Discard"],
    ["discard-changes/keep-editing", "btn", "Keep editing"],
  ]);
  assert.ok(ev.el.c?.every((c) => c.nid === undefined), "native ids never leave the engine");
  const rest = await d.stop();
  assert.deepEqual(rest.map((e) => e.type), ["done"]);
  assert.equal(rest[0].type === "done" && rest[0].events, 1);
});

Deno.test("observe: a vanished subtree is one removed event for its root", async () => {
  const fake = new FakeProvider(withDialog());
  const d = drive(fake);
  await d.next();
  fake.state = formWindow();
  assert.deepEqual(noTs(await d.next()), {
    type: "removed",
    ref: "discard-changes",
    i: 7,
    r: "dialog",
    t: "Discard changes?",
  });
  const rest = await d.stop();
  assert.equal(rest[0].type === "done" && rest[0].events, 1);
});

Deno.test("observe: with --roles, new elements under an unobserved parent get their own events", async () => {
  const fake = new FakeProvider(formWindow());
  const d = drive(fake, { roles: new Set(["btn"]) });
  await d.next();
  fake.state = withDialog();
  const first = await d.next();
  const second = await d.next();
  assert.deepEqual(
    [first, second].map((e) => e.type === "added" ? e.ref : e.type),
    ["discard-changes/discard", "discard-changes/keep-editing"],
  );
  await d.stop();
});

Deno.test("observe: --scope-ref observes one subtree only", async () => {
  const fake = new FakeProvider(withDialog());
  const d = drive(fake, { scopeRef: "discard-changes" });
  // The dialog and its two buttons.
  assert.deepEqual(noTs(await d.next()), { type: "snapshot", count: 3 });
  const next = withDialog();
  next.c![0].c![0].v = "Grace"; // outside the dialog: not reported
  next.c![1].c![1].t = "Keep going"; // inside: reported (a rename is a new ref)
  fake.state = next;
  const ev = await d.next();
  assert.equal(ev.type === "added" && ev.ref, "discard-changes/keep-going");
  const rest = await d.stop();
  assert.deepEqual(rest.map((e) => e.type === "removed" ? e.ref : e.type), [
    "discard-changes/keep-editing",
    "done",
  ]);
});

Deno.test("observe: with watch, a burst of notifications costs one read", async () => {
  const fake = new FakeProvider(formWindow(), { watch: true });
  // A long interval: only notifications can trigger a read in this test.
  const d = drive(fake, { interval: 60_000 });
  await d.next();
  assert.equal(fake.reads, 1);
  fake.state = formWindow({ value: "Grace" });
  for (let k = 0; k < 50; k++) fake.fire();
  const ev = await d.next();
  assert.equal(ev.type, "changed");
  assert.equal(fake.reads, 2);
  const rest = await d.stop();
  assert.deepEqual(rest.map((e) => e.type), ["done"]);
  assert.equal(fake.reads, 2);
  assert.equal(fake.unwatched, 1);
});

Deno.test("observe: with watch, the safety poll still sees changes nobody notified", async () => {
  const fake = new FakeProvider(formWindow(), { watch: true });
  const d = drive(fake, { interval: 5 });
  await d.next();
  fake.state = formWindow({ checked: true });
  const ev = await d.next();
  assert.equal(ev.type, "changed");
  await d.stop();
});

Deno.test("observe: aborting ends the stream with done and releases the watch", async () => {
  const fake = new FakeProvider(formWindow(), { watch: true });
  const ctrl = new AbortController();
  const events: ObserveEvent[] = [];
  for await (const ev of observe(fake, { app: "fake" }, { signal: ctrl.signal })) {
    events.push(ev);
    // Default interval (1 s): the abort must wake the sleeping loop, not wait for the poll.
    if (ev.type === "snapshot") ctrl.abort();
  }
  assert.deepEqual(events.map((e) => e.type), ["snapshot", "done"]);
  assert.equal(fake.unwatched, 1);
});

Deno.test("observe: leaving the loop early releases the watch", async () => {
  const fake = new FakeProvider(formWindow(), { watch: true });
  for await (const ev of observe(fake, { app: "fake" }, { interval: 60_000 })) {
    if (ev.type === "snapshot") break;
  }
  assert.equal(fake.unwatched, 1);
  assert.equal(fake.watchers.size, 0);
});

Deno.test("observe: a failing initial read rejects with its DesktopError", async () => {
  const fake = new FakeProvider(formWindow(), { watch: true });
  fake.state = new DesktopError("APP_NOT_FOUND", 'no app named "fake" is running');
  await assert.rejects(
    () => collect(fake, { duration: 1 }),
    (e: unknown) => e instanceof DesktopError && e.code === "APP_NOT_FOUND",
  );
  assert.equal(fake.unwatched, 1, "the watch taken before the read is released");
});

Deno.test("observe: bad options are INVALID_ARGS", () => {
  const fake = new FakeProvider(formWindow());
  const table: Array<[string, ObserveOptions]> = [
    ["zero interval", { interval: 0 }],
    ["negative interval", { interval: -5 }],
    ["NaN interval", { interval: NaN }],
    ["negative duration", { duration: -1 }],
    ["infinite duration", { duration: Infinity }],
    ["fractional depth", { depth: 1.5 }],
    ["negative depth", { depth: -1 }],
    ["negative debounce", { debounce: -1 }],
  ];
  for (const [name, opts] of table) {
    assert.throws(
      () => observe(fake, { app: "fake" }, opts),
      (e: unknown) => e instanceof DesktopError && e.code === "INVALID_ARGS",
      name,
    );
  }
});

Deno.test("observe: a Desktop session is observed through its provider", async () => {
  const fake = new FakeProvider(formWindow());
  const session = { provider: fake } as unknown as Desktop;
  const events: ObserveEvent[] = [];
  for await (const ev of observe(session, { app: "fake" }, { duration: 0.01 })) events.push(ev);
  assert.deepEqual(events.map((e) => e.type), ["snapshot", "done"]);
  assert.ok(fake.reads >= 1);
});

/**
 * A fake with native ids (`n0`, `n1`... in document order), hints on its
 * notifications and `readNodes`, counting full reads and node reads apart.
 */
class HintingProvider extends FakeProvider {
  nodeReads = 0;
  hinted = new Set<(hint?: ChangeHint) => void>();

  constructor(state: Element) {
    super(withNids(state));
    this.watch = (_scope, onChange: (hint?: ChangeHint) => void) => {
      this.hinted.add(onChange);
      return Promise.resolve(() => this.hinted.delete(onChange));
    };
  }

  /** Replaces the UI (native ids follow document order, as the same elements keep them). */
  set(state: Element): void {
    this.state = withNids(state);
  }

  /** Notifies that element `nid` changed, state only or not. */
  notify(nid: string, structural: boolean): void {
    for (const w of this.hinted) w({ nid, structural });
  }

  readNodes(_scope: Scope, nids: readonly string[]): Promise<Array<Element | null>> {
    this.nodeReads++;
    const all = new Map<string, Element>();
    const visit = (el: Element) => {
      all.set(el.nid!, el);
      el.c?.forEach(visit);
    };
    visit(this.state as Element);
    return Promise.resolve(nids.map((nid) => {
      const el = all.get(nid);
      if (!el) return null;
      const { c: _c, ...alone } = structuredClone(el);
      return alone;
    }));
  }
}

function withNids(root: Element): Element {
  let n = 0;
  const visit = (el: Element): Element => ({
    ...el,
    nid: `n${n++}`,
    ...(el.c ? { c: el.c.map(visit) } : {}),
  });
  return visit(root);
}

Deno.test("observe: a state-only notification reads that element alone", async () => {
  const fake = new HintingProvider(formWindow());
  const d = drive(fake, { interval: 60_000 });
  await d.next();
  assert.equal(fake.reads, 1);
  // n2 is the Name field (app n0, window n1).
  fake.set(formWindow({ value: "Grace" }));
  fake.notify("n2", false);
  const ev = await d.next();
  assert.deepEqual(noTs(ev), {
    type: "changed",
    ref: "name",
    i: 3,
    changes: { v: ["Ada", "Grace"] },
  });
  assert.equal(fake.reads, 1, "no full read");
  assert.equal(fake.nodeReads, 1);
  // The patched view is the new baseline: the same value again reports nothing.
  fake.notify("n2", false);
  fake.set(formWindow({ value: "Grace", checked: true }));
  fake.notify("n3", false);
  const next = await d.next();
  assert.deepEqual(noTs(next), {
    type: "changed",
    ref: "remember-me",
    i: 4,
    changes: { chk: [false, true] },
  });
  assert.equal(fake.reads, 1);
  await d.stop();
});

Deno.test("observe: a changed label or a structural notification falls back to a full read", async () => {
  const fake = new HintingProvider(formWindow());
  const d = drive(fake, { interval: 60_000 });
  await d.next();
  // The status text's label changes: its ref moves, so the tree is read again.
  // The same native element renamed is one change, its ref [old, new] included.
  fake.set(formWindow({ status: "Saved" }));
  fake.notify("n5", false);
  const a = await d.next();
  assert.equal(a.type, "changed");
  assert.ok("changes" in a && Array.isArray(a.changes.ref), JSON.stringify(a));
  assert.equal(fake.reads, 2, "one full read");
  // A structural notification always reads the tree.
  fake.set(formWindow({ status: "Saved", value: "Grace" }));
  fake.notify("n2", true);
  const c = await d.next();
  assert.equal(c.type, "changed");
  assert.equal(fake.reads, 3);
  // An element the view never had: read the tree.
  fake.set(formWindow({ status: "Saved", value: "Grace", checked: true }));
  fake.notify("n99", false);
  assert.equal((await d.next()).type, "changed");
  assert.equal(fake.reads, 4);
  await d.stop();
});

Deno.test("observe: --duration counts from the snapshot, however long the first read took", async () => {
  // A busy app: its first read takes longer than the whole duration.
  class SlowFirstRead extends FakeProvider {
    override async read(scope: Scope, opts?: ReadOptions): Promise<Snapshot> {
      const first = this.reads === 0;
      const snap = await super.read(scope, opts);
      if (first) {
        await new Promise((r) => setTimeout(r, 300));
        this.state = formWindow({ checked: true }); // changes right after the baseline
      }
      return snap;
    }
  }
  const events = await collect(new SlowFirstRead(formWindow()), { duration: 0.2, interval: 20 });
  assert.deepEqual(events.map((e) => e.type), ["snapshot", "changed", "done"]);
});
