/**
 * The action policy's user-like behaviour, on a fake app: a click whose
 * accessible press showed nothing is made again with the pointer; focus is
 * verified by the element's focused state; the ok line carries the element's
 * state and value; `type --replace` and `key --repeat` reach the backend, the
 * repeat bounded.
 */

import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import {
  checkActionArgs,
  clickAgainWithPointer,
  insideWebContent,
  MAX_KEY_REPEAT,
} from "../../src/act/policy.ts";
import { stateWords } from "../../src/act/state.ts";
import { actLine, actReport } from "../../src/ops/render.ts";
import { allOps } from "../../src/ops/mod.ts";
import type { Desktop } from "../../src/desktop_types.ts";
import type { OpContext } from "../../src/ops/types.ts";
import type { Snapshot } from "../../src/model/element.ts";
import type { Action, ActionResult } from "../../src/platform/provider.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { FakeProvider } from "../harness/fake_provider.ts";

/** A fake app: each action is recorded, and `react` changes the snapshot and says how it ran. */
class FakeApp extends FakeProvider {
  constructor(snapshot: Snapshot, react: (s: Snapshot, a: Action) => ActionResult) {
    super(snapshot, { platform: "replay", react });
  }
}

function page(): Snapshot {
  return {
    app: { name: "Page", pid: 7 },
    readAt: "2026-01-01T00:00:00Z",
    root: {
      i: 0,
      r: "app",
      t: "Page",
      nid: "app",
      c: [{
        i: 0,
        r: "window",
        t: "Page",
        nid: "win",
        c: [{
          i: 0,
          r: "web",
          t: "Orders",
          nid: "doc",
          c: [
            { i: 0, r: "btn", t: "Remove", nid: "remove" },
            { i: 0, r: "chk", t: "All condiments", nid: "chk", chk: false },
            { i: 0, r: "input", t: "City:", v: "Paris", nid: "city" },
            { i: 0, r: "txt", t: "removed: none", nid: "status" },
          ],
        }],
      }],
    },
  };
}

const kids = (s: Snapshot) => s.root.c![0].c![0].c!;
const fast = { settleMs: 300 };

function session(app: FakeApp): Desktop {
  return createDesktop(app, { store: createMemoryRefStore() });
}

Deno.test("act: a click whose accessible press showed nothing is made again with the pointer", async () => {
  // A row action shown on hover: only a pointer click (which moves the pointer) removes the row.
  const app = new FakeApp(page(), (s, a) => {
    if (a.kind === "click" && a.pointer) {
      kids(s)[3].t = "removed: Tea";
      return { via: "input", detail: "left x1" };
    }
    return { via: "accessible", detail: "press" };
  });
  const res = await session(app).act({}, { ref: "remove" }, { kind: "click" }, fast);
  assert.deepEqual(app.actions.map((a) => a.kind === "click" && !!a.pointer), [false, true]);
  assert.equal(res.via, "input");
  assert.equal(res.detail, "left x1; the accessible press had no visible effect");
  assert.equal(res.unverified, undefined);
  assert.equal(kids(app.snapshot)[3].t, "removed: Tea");
});

Deno.test("act: a click whose accessible press did something is not clicked again", async () => {
  const app = new FakeApp(page(), (s) => {
    kids(s)[3].t = "removed: Tea";
    return { via: "accessible", detail: "press" };
  });
  await session(app).act({}, { ref: "remove" }, { kind: "click" }, fast);
  assert.equal(app.actions.length, 1);
  // Right clicks, double clicks, pointer clicks and presses outside web content are never repeated.
  const nothing = "nothing changed within 1 ms";
  const table: Array<[Action, string, string, boolean, boolean]> = [
    [{ kind: "click", button: "right" }, "accessible", nothing, true, false],
    [{ kind: "click", count: 2 }, "accessible", nothing, true, false],
    [{ kind: "click" }, "input", nothing, true, false],
    [{ kind: "click" }, "accessible", nothing, false, false],
    [{ kind: "click" }, "accessible", "only the keyboard focus moved within 1 ms", true, true],
  ];
  for (const [action, via, why, web, want] of table) {
    assert.equal(clickAgainWithPointer(action, via, why, web), want, JSON.stringify(action));
  }
});

Deno.test("act: a pointer retry that cannot be made (the element is covered) keeps the verdict", async () => {
  const app = new FakeApp(page(), (_s, a) => {
    if (a.kind === "click" && a.pointer) {
      throw new DesktopError("ACTION_FAILED", "something covers the element's visible point");
    }
    return { via: "accessible", detail: "press" };
  });
  const res = await session(app).act({}, { ref: "remove" }, { kind: "click" }, fast);
  assert.equal(res.via, "accessible");
  assert.match(
    res.unverified ?? "",
    /^nothing changed within \d+ ms; no pointer click was made \(ACTION_FAILED: something covers/,
  );
});

Deno.test("act: a native toolkit's press that showed nothing is not pressed again", async () => {
  // Outside web content the accessible press runs the click's own handler: a second press
  // could do the action twice.
  const native = page();
  native.root.c![0].c = native.root.c![0].c![0].c;
  const app = new FakeApp(native, () => ({ via: "accessible", detail: "press" }));
  const res = await session(app).act({}, { ref: "remove" }, { kind: "click" }, fast);
  assert.equal(app.actions.length, 1);
  assert.match(res.unverified ?? "", /nothing changed/);
  assert.equal(insideWebContent(native.root, native.root.c![0].c![0]), false);
});

Deno.test("act: focus is verified by the element's focused state, not reported unverified", async () => {
  const app = new FakeApp(page(), (s) => {
    kids(s)[2].f = true;
    return { via: "accessible", detail: "grab_focus" };
  });
  const res = await session(app).act({}, { ref: "city" }, { kind: "focus" }, fast);
  assert.equal(res.unverified, undefined);
  assert.equal(res.element?.f, true);
  const line = actLine(actReport("focus", res));
  assert.match(line, /input "City:" focused val="Paris" via accessible \(grab_focus\)$/);

  const refused = new FakeApp(page(), () => ({ via: "accessible", detail: "grab_focus" }));
  const not = await session(refused).act({}, { ref: "city" }, { kind: "focus" }, fast);
  assert.equal(not.unverified, "the element does not report the keyboard focus");
});

Deno.test("act: the ok line says the element's state and value after the action", async () => {
  const app = new FakeApp(page(), (s, a) => {
    if (a.kind === "click") kids(s)[1].chk = true;
    if (a.kind === "type") kids(s)[2].v = a.replace ? a.text : `${kids(s)[2].v}${a.text}`;
    if (a.kind === "set-value") kids(s)[1].chk = false;
    return { via: "accessible", detail: a.kind === "click" ? "check" : "x" };
  });
  const d = session(app);
  const click = await d.act({}, { ref: "all-condiments" }, { kind: "click" }, fast);
  assert.match(actLine(actReport("click", click)), /chk "All condiments" checked via accessible/);
  const off = await d.act(
    {},
    { ref: "all-condiments" },
    { kind: "set-value", value: "false" },
    fast,
  );
  assert.match(actLine(actReport("set-value", off)), /chk "All condiments" unchecked via/);
  const typed = await d.act(
    {},
    { ref: "city" },
    { kind: "type", text: "Lyon", replace: true },
    fast,
  );
  assert.equal(actReport("type", typed).state, 'val="Lyon"');
  assert.match(actLine(actReport("type", typed)), /input "City:" val="Lyon" via/);
  assert.deepEqual(stateWords({ i: 1, r: "input", v: "hunter2", sec: true }), ["val=***"]);
  assert.deepEqual(stateWords({ i: 1, r: "slider", v: "3", vt: "March" }), [
    'val="3"',
    'valtext="March"',
  ]);
});

Deno.test("ops: type replace and key repeat reach the action; repeat is bounded 1..100", async () => {
  const app = new FakeApp(page(), (s, a) => {
    if (a.kind === "type") kids(s)[2].v = a.text;
    if (a.kind === "key") kids(s)[3].t = `keys ${a.repeat ?? 1}`;
    return { via: "input" };
  });
  const d = session(app);
  const ctx: OpContext = {
    desktop: () => Promise.resolve(d),
    signal: new AbortController().signal,
    emit() {},
    face: "lib",
  };
  const op = (name: string) => allOps().find((o) => o.name === name)!;
  await op("type").run(ctx, { ref: "city", text: "Lyon", replace: true });
  await op("key").run(ctx, { ref: "city", combo: "Right", repeat: 7 });
  assert.deepEqual(app.actions, [
    { kind: "type", text: "Lyon", replace: true },
    { kind: "key", combo: "Right", repeat: 7 },
  ]);
  const repeat = op("key").params.find((p) => p.name === "repeat")!;
  assert.deepEqual([repeat.min, repeat.max], [1, MAX_KEY_REPEAT]);
  assert.ok(op("type").params.some((p) => p.name === "replace" && p.type === "boolean"));
  for (const bad of [0, 101, 1.5]) {
    assert.throws(
      () => checkActionArgs({ kind: "key", combo: "Right", repeat: bad }),
      (e) => e instanceof DesktopError && e.code === "INVALID_ARGS",
    );
  }
  checkActionArgs({ kind: "key", combo: "Right", repeat: 100 });
});

Deno.test("an action's line names a cell by the one text it holds, as the read shows it", () => {
  // A date picker's day: a cell with no label, its number a text inside (Chromium).
  const day = {
    i: 94,
    ref: "april-2025/14/tu",
    r: "cell" as const,
    s: true as const,
    c: [{ i: 95, r: "txt" as const, t: "15" }],
  };
  const line = actLine(actReport("click", { element: day, via: "accessible", detail: "click" }));
  assert.equal(line, 'ok click [94|april-2025/14/tu] cell "15" selected via accessible (click)');
});
