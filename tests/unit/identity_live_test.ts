/**
 * Identity on live content (refs.md section 3): an element is what it is,
 * not the values around it. A row whose figures tick, a control beside a
 * rotating slide, a toggle whose label flips: the element the agent saw is
 * still there, so the action reaches it; what is gone, moved to another row
 * or restarted stays STALE_REF.
 */

import assert from "node:assert/strict";
import { createDesktop, type Desktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import { locateAll } from "../../src/identity/mod.ts";
import type { AppInfo, Element, Snapshot } from "../../src/model/element.ts";
import type { Action, ActionResult, ActionTarget, Scope } from "../../src/platform/provider.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { el, FakeProvider } from "../harness/fake_provider.ts";

/** The fake app: a click made again with the pointer (nothing changed) is not recorded. */
class Fake extends FakeProvider {
  override act(scope: Scope, target: ActionTarget, action: Action): Promise<ActionResult> {
    if (action.kind === "click" && action.pointer) return Promise.resolve({ via: "input" });
    return super.act(scope, target, action);
  }
}

const APP: AppInfo = { name: "Live", pid: 7, started: 1 };

function app(children: Element[], info: AppInfo = APP): Snapshot {
  return {
    app: info,
    readAt: "2026-01-01T00:00:00Z",
    root: el("app", "Live", { c: [el("window", "Main", { b: [0, 0, 800, 600], c: children })] }),
  };
}

function session(snapshot: Snapshot): { desktop: Desktop; p: Fake } {
  const p = new Fake(snapshot);
  return { desktop: createDesktop(p, { store: createMemoryRefStore() }), p };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    assert.ok(e instanceof DesktopError, String(e));
    return e.code;
  }
}

/** An orders table: key column, a status and a figure that change, a Refund button. */
function orders(rows: Array<[string, string, string]>): Element {
  return el("table", "Orders", {
    c: [
      el("row", undefined, {
        c: [el("colheader", "Order"), el("colheader", "Status"), el("colheader", "Total")],
      }),
      ...rows.map(([id, status, total], k) =>
        el("row", undefined, {
          nid: `row-${id}`,
          c: [
            el("cell", id, { nid: `id-${id}` }),
            el("cell", status, { nid: `status-${id}` }),
            el("cell", total, { nid: `total-${id}` }),
            el("cell", undefined, {
              c: [el("btn", "Refund", { nid: `refund-${id}`, b: [400, 30 * k, 60, 20] })],
            }),
          ],
        })
      ),
    ],
  });
}

Deno.test("live rows: a row whose status and figures change is the same row (ref, short ref, id)", async () => {
  const { desktop, p } = session(app([orders([["SO-1004", "Open", "10.00"], [
    "SO-1005",
    "Open",
    "20.00",
  ]])]));
  const { snapshot } = await desktop.read({});
  const all = locateAll(snapshot.root);
  const status = all.find((x) => x.el.nid === "status-SO-1005")!.el;
  const refund = all.find((x) => x.el.nid === "refund-SO-1005")!.el;
  assert.equal(status.ref, "orders/so-1005/status");
  assert.equal(refund.ref, "orders/so-1005/refund");
  // Only values change: the status says Refunded, the total ticks.
  p.snapshot = app([orders([["SO-1004", "Open", "10.50"], ["SO-1005", "Refunded", "0.00"]])]);
  assert.equal(
    await code(desktop.act({}, { ref: "orders/so-1005/status" }, { kind: "click" })),
    "ok",
  );
  assert.equal(await code(desktop.act({}, { ref: "so-1005/refund" }, { kind: "click" })), "ok");
  assert.equal(await code(desktop.act({}, { id: refund.i }, { kind: "click" })), "ok");
  assert.deepEqual(p.actedNids(), ["status-SO-1005", "refund-SO-1005", "refund-SO-1005"]);
  // The row's key changed in place (a reused node): never a hit.
  p.snapshot = app([orders([["SO-1004", "Open", "10.50"], ["SO-1006", "Open", "0.00"]])]);
  for (const n of locateAll(p.snapshot.root)) {
    if (n.el.nid?.endsWith("SO-1006")) n.el.nid = n.el.nid.replace("SO-1006", "SO-1005");
  }
  assert.equal(await code(desktop.act({}, { id: refund.i }, { kind: "click" })), "STALE_REF");
  assert.equal(
    await code(desktop.act({}, { ref: "orders/so-1005/refund" }, { kind: "click" })),
    "STALE_REF",
  );
  assert.equal(p.actedNids().length, 3);
});

Deno.test("live rows: a GTK TreeView whose figures change keeps its cells (rows by screen band)", async () => {
  const table = (rows: Array<[string, string]>) =>
    el("table", undefined, {
      c: [
        el("colheader", "Process Name"),
        el("colheader", "% CPU"),
        ...rows.flatMap(([name, cpu], k) => [
          el("cell", name, { nid: `name${k}`, b: [0, 20 * k + 20, 100, 20] }),
          el("cell", cpu, { nid: `cpu${k}`, b: [100, 20 * k + 20, 50, 20] }),
        ]),
      ],
    });
  const { desktop, p } = session(app([table([["bash", "0.33"], ["node", "1.20"]])]));
  const { snapshot } = await desktop.read({});
  const cpu = locateAll(snapshot.root).find((x) => x.el.nid === "cpu1")!.el;
  p.snapshot = app([table([["bash", "0.00"], ["node", "7.85"]])]);
  assert.equal(await code(desktop.act({}, { ref: cpu.ref! }, { kind: "click" })), "ok");
  assert.equal(await code(desktop.act({}, { id: cpu.i }, { kind: "click" })), "ok");
  assert.deepEqual(p.actedNids(), ["cpu1", "cpu1"]);
});

Deno.test("live content: a unique control beside a rotating slide is still itself", async () => {
  const carousel = (slide: string) =>
    el("group", "Highlighted shows", {
      c: [
        el("group", undefined, {
          c: [
            el("btn", "Stop automatic slide show", { nid: "stop" }),
            el("btn", "Previous Slide", { nid: "prev" }),
          ],
        }),
        el("group", undefined, { c: [el("heading", slide), el("txt", `About ${slide}`)] }),
      ],
    });
  const { desktop, p } = session(app([carousel("Dynamic Europe")]));
  const { snapshot } = await desktop.read({});
  const stop = locateAll(snapshot.root).find((x) => x.el.nid === "stop")!.el;
  p.snapshot = app([carousel("Tonight's Comedy")]);
  assert.equal(await code(desktop.act({}, { ref: stop.ref! }, { kind: "click" })), "ok");
  assert.equal(await code(desktop.act({}, { id: stop.i }, { kind: "click" })), "ok");
  assert.deepEqual(p.actedNids(), ["stop", "stop"]);
});

Deno.test("live content: a toggle whose label flips keeps resolving through native identity, and says so", async () => {
  const bar = (label: string, nid = "pause") =>
    el("toolbar", "Feed", { c: [el("btn", label, { nid }), el("btn", "Refresh", { nid: "r" })] });
  const { desktop, p } = session(app([bar("Pause updates")]));
  const { snapshot } = await desktop.read({});
  const pause = locateAll(snapshot.root).find((x) => x.el.nid === "pause")!.el;
  p.snapshot = app([bar("Start updates")]);
  const res = await desktop.act({}, { ref: "feed/pause-updates" }, { kind: "click" });
  assert.equal(res.element?.t, "Start updates");
  assert.deepEqual(res.renamed, { was: "Pause updates", now: "Start updates" });
  assert.equal(await code(desktop.act({}, { id: pause.i }, { kind: "click" })), "ok");
  assert.deepEqual(p.actedNids(), ["pause", "pause"]);
  // Another label on the same node is another element (a reused node), never a hit.
  p.snapshot = app([bar("Delete feed")]);
  assert.equal(await code(desktop.act({}, { id: pause.i }, { kind: "click" })), "STALE_REF");
  // Without the node (a new one), a flipped label is not evidence enough: STALE_REF.
  p.snapshot = app([bar("Start updates", "other")]);
  assert.equal(await code(desktop.act({}, { id: pause.i }, { kind: "click" })), "STALE_REF");
  assert.equal(p.actedNids().length, 2);
});

Deno.test("restart: a twin ref of the last read never reaches another twin in the new run", async () => {
  const people = (names: string[]) =>
    el("group", "People", {
      c: names.map((n, k) =>
        el("group", undefined, {
          c: [el("txt", n), el("btn", "Delete", { nid: `del-${n}`, b: [300, 30 * k, 60, 20] })],
        })
      ),
    });
  const { desktop, p } = session(app([people(["Alice", "Bob", "Carol"])]));
  const { snapshot } = await desktop.read({});
  const del1 = locateAll(snapshot.root).find((x) => x.el.nid === "del-Alice")!.el;
  assert.equal(del1.ref, "people/delete.1");
  // The app restarts on the same page, without Alice: delete.1 is now Bob's.
  p.snapshot = app([people(["Bob", "Carol"])], { name: "Live", pid: 8, started: 2 });
  for (const x of locateAll(p.snapshot.root)) delete x.el.nid;
  assert.equal(
    await code(desktop.act({}, { ref: "people/delete.1" }, { kind: "click" })),
    "STALE_REF",
  );
  assert.equal(await code(desktop.act({}, { ref: "delete.1" }, { kind: "click" })), "STALE_REF");
  assert.equal(await code(desktop.act({}, { id: del1.i }, { kind: "click" })), "STALE_REF");
  assert.deepEqual(p.actedNids(), []);
  // Restarted with the same rows: the twin is found by its place and row.
  p.snapshot = app([people(["Alice", "Bob", "Carol"])], { name: "Live", pid: 9, started: 3 });
  for (const x of locateAll(p.snapshot.root)) delete x.el.nid;
  assert.equal(await code(desktop.act({}, { ref: "people/delete.1" }, { kind: "click" })), "ok");
  // A unique full ref names what it names in any run.
  p.snapshot = app([people(["Bob"])], { name: "Live", pid: 10, started: 4 });
  assert.equal(await code(desktop.act({}, { ref: "people/delete" }, { kind: "click" })), "ok");
});

Deno.test("STALE_REF never names the same ref on both sides, nor offers a candidate that fails the same way", async () => {
  const list = (names: string[]) =>
    el("list", "Notes", {
      c: names.map((n, k) =>
        el("row", undefined, {
          nid: `row${k}`,
          c: [el("txt", n), el("input", "Notes", { nid: `notes${k}` })],
        })
      ),
    });
  const { desktop, p } = session(app([list(["Alpha", "Beta"])]));
  const { snapshot } = await desktop.read({});
  const notes = locateAll(snapshot.root).find((x) => x.el.nid === "notes0")!.el;
  // Re-rendered in place: the node now sits in row "Gamma".
  p.snapshot = app([list(["Gamma", "Alpha", "Beta"])]);
  let err: DesktopError | undefined;
  try {
    await desktop.act({}, { ref: notes.ref! }, { kind: "focus" });
  } catch (e) {
    err = e as DesktopError;
  }
  assert.equal(err?.code, "STALE_REF");
  const m = err!.message.match(/was [^\[]*\[([^\]]+)\], now [^\[]*\[([^\]]+)\]/);
  if (m) assert.notEqual(m[1], m[2], err!.message);
  for (const c of err!.candidates ?? []) {
    if (!("ref" in c) || !c.ref) continue;
    assert.equal(
      await code(desktop.act({}, { ref: c.ref }, { kind: "focus" })),
      "ok",
      `candidate ${c.ref} resolves`,
    );
  }
});

Deno.test("an action's ok line keeps the id of an element that renamed itself (the diff's id)", async () => {
  // The app flips the toggle's label when it is clicked.
  class Flipping extends Fake {
    override act(scope: Scope, target: ActionTarget, action: Action): Promise<ActionResult> {
      const r = super.act(scope, target, action);
      this.snapshot = app([el("btn", "Start updates", { nid: "pause" })]);
      return r;
    }
  }
  const p = new Flipping(app([el("btn", "Pause updates", { nid: "pause" })]));
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  const { snapshot } = await desktop.read({});
  const pause = locateAll(snapshot.root).find((x) => x.el.nid === "pause")!.el;
  const res = await desktop.act({}, { ref: pause.ref! }, { kind: "click" }, { settleMs: 50 });
  assert.equal(res.element?.t, "Start updates");
  assert.equal(res.element?.i, pause.i);
  const change = res.changes?.find((c) => c.type === "changed");
  assert.equal(change && "i" in change ? change.i : undefined, pause.i);
});

Deno.test("a spreadsheet's cells are keyed by their address, and found by it on new nodes", async () => {
  // LibreOffice Calc: a row of cells named by their address, no column headers.
  const sheet = () =>
    el("table", "Sheet Sheet1", {
      c: [
        el("row", undefined, {
          c: ["A2", "B2", "C2"].map((a, k) =>
            el("cell", a, { nid: `c${a}`, b: [100 * k, 20, 100, 20] })
          ),
        }),
      ],
    });
  const { desktop, p } = session(app([sheet()]));
  const { snapshot } = await desktop.read({});
  const b2 = locateAll(snapshot.root).find((x) => x.el.nid === "cB2")!.el;
  assert.equal(b2.ref, "sheet-sheet1/a2/b2");
  // Nodes recreated (no native id left): the label tells which twin it was.
  for (const x of locateAll(p.snapshot.root)) delete x.el.nid;
  const r = await desktop.act({}, { ref: b2.ref! }, { kind: "click" });
  assert.equal(r.element?.t, "B2");
});
