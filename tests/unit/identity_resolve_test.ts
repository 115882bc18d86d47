/**
 * Identity across reads (refs.md section 3): a target means the element the
 * agent saw in its last read, or the answer is an error. Each test is one of
 * the ways an action could land on another element.
 */

import assert from "node:assert/strict";
import { createDesktop, type Desktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import {
  changesAsLastRead,
  compareSeen,
  formatRef,
  indexedBase,
  locateAll,
  parseRef,
  refParent,
  rowKey,
  rowOf,
  stripIndex,
  validatePoint,
} from "../../src/identity/mod.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { el, FakeProvider } from "../harness/fake_provider.ts";
import { renderChanges } from "../../src/output/render.ts";

function app(children: Element[]): Snapshot {
  return {
    app: { name: "Rows", pid: 7, started: 1 },
    readAt: "2026-01-01T00:00:00Z",
    root: el("app", "Rows", { c: [el("window", "Main", { b: [0, 0, 800, 600], c: children })] }),
  };
}

/**
 * A list whose rows show `labels` in order; row k's nodes keep their native
 * ids whatever they show (a non-keyed list re-rendered in place).
 */
function rows(labels: string[]): Element {
  return el("list", "Items", {
    c: labels.map((label, k) =>
      el("row", undefined, {
        nid: `row${k}`,
        c: [
          el("cell", label, { nid: `cell${k}` }),
          el("btn", "Delete", { nid: `del${k}`, b: [300, 20 * k, 60, 18] }),
        ],
      })
    ),
  });
}

function session(snapshot: Snapshot): { desktop: Desktop; p: FakeProvider } {
  const p = new FakeProvider(snapshot);
  return { desktop: createDesktop(p, { store: createMemoryRefStore() }), p };
}

async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp) {
  let error: DesktopError | undefined;
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DesktopError, `expected DesktopError, got ${err}`);
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    error = err;
    return true;
  });
  return error!;
}

function clickedNids(p: FakeProvider): string[] {
  return p.actedNids();
}

Deno.test("identity syntax: one rule for the twin index", () => {
  assert.deepEqual(parseRef("list/item-5/delete.2"), {
    base: "list/item-5/delete",
    index: 2,
    segments: ["list", "item-5", "delete"],
  });
  assert.equal(formatRef("dialog/ok", 3), "dialog/ok.3");
  assert.equal(indexedBase("dialog/ok"), undefined);
  assert.equal(stripIndex("v1-2/ok.12"), "v1-2/ok");
  assert.equal(refParent("list/item-5/delete.2"), "list/item-5");
});

Deno.test("identity: rows are keyed by their first labelled cell, also where refs leave them out", () => {
  const list = rows(["Item 1", "Item 2"]);
  const all = locateAll(list);
  assert.equal(rowKey(list.c![1]), "Item 2");
  assert.deepEqual(all.filter((x) => x.el.r === "btn").map((x) => x.row), ["Item 1", "Item 2"]);
  const was = { i: 1, r: "btn", t: "Delete", ref: "items/item-1/delete", row: "Item 1", path: "" };
  assert.equal(compareSeen(was, { el: el("btn", "Delete"), path: "", row: "Item 1" }), undefined);
  assert.equal(
    compareSeen(was, { el: el("btn", "Delete"), path: "", row: "New 1" })?.change,
    "moved to another row",
  );
});

Deno.test("defect 1: --id of a reused node that moved to another row is STALE_REF naming the row", async () => {
  const { desktop, p } = session(app([rows(["Item 1", "Item 2", "Item 3"])]));
  const { snapshot } = await desktop.read({});
  const del1 = locateAll(snapshot.root).find((x) => x.el.nid === "del0")!.el;
  assert.equal(del1.ref, "items/item-1/delete");
  // Re-rendered in place: every row takes its neighbour's text, one row is appended.
  p.snapshot = app([rows(["New inplace 1", "Item 1", "Item 2", "Item 3"])]);
  const err = await rejectsWith(
    desktop.act({}, { id: del1.i }, { kind: "click" }),
    "STALE_REF",
    /row "New inplace 1"/,
  );
  assert.equal(err.details?.change, "moved to another row");
  // No candidate that would fail the same way: the button now in row "Item 1" has the ref the
  // agent gave, which means the reused node until a new read.
  assert.ok(
    !(err.candidates ?? []).some((c) => "ref" in c && c.ref === "items/item-1/delete"),
    JSON.stringify(err.candidates),
  );
  assert.match(err.suggestion ?? "", /read again/i);
  // The full ref that node had: same answer, never a silent hit on the reused node.
  await rejectsWith(
    desktop.act({}, { ref: "items/item-1/delete" }, { kind: "click" }),
    "STALE_REF",
    /row "New inplace 1"/,
  );
  assert.deepEqual(clickedNids(p), []);
  // After a new read, the ref means the button now in row "Item 1".
  await desktop.read({});
  await desktop.act({}, { ref: "items/item-1/delete" }, { kind: "click" });
  assert.deepEqual(clickedNids(p), ["del1"]);
});

Deno.test("defect 1: twin refs in rows without a key column are checked against the row too", async () => {
  // Rows whose only text is not a ref key: every Delete is items/delete.N.
  const table = (labels: string[]) =>
    el("table", "Items", {
      c: labels.map((label, k) =>
        el("row", undefined, {
          nid: `row${k}`,
          c: [
            el("group", undefined, { c: [el("txt", label, { nid: `t${k}` })] }),
            el("btn", "Delete", { nid: `del${k}`, b: [300, 20 * k, 60, 18] }),
          ],
        })
      ),
    });
  const { desktop, p } = session(app([table(["Item 1", "Item 2"])]));
  const { snapshot } = await desktop.read({});
  const refs = locateAll(snapshot.root).filter((x) => x.el.r === "btn").map((x) => x.el.ref!);
  const twin = refs.find((r) => indexedBase(r) !== undefined) ?? refs[0];
  p.snapshot = app([table(["New inplace 1", "Item 1", "Item 2"])]);
  await rejectsWith(desktop.act({}, { ref: twin }, { kind: "click" }), "STALE_REF", /row/);
  assert.deepEqual(clickedNids(p), []);
});

Deno.test("defect 2: a short ref never moves to a newcomer in another landmark", async () => {
  const form = (submit: boolean) =>
    el("form", "Form", {
      c: [
        el("input", "Email", { nid: "email" }),
        ...(submit ? [el("btn", "Submit", { nid: "s1" })] : []),
      ],
    });
  const confirm = el("dialog", "Confirm", { c: [el("btn", "Submit", { nid: "s2" })] });
  const { desktop, p } = session(app([form(true)]));
  await desktop.read({});
  p.snapshot = app([form(false), confirm]);
  const err = await rejectsWith(
    desktop.act({}, { ref: "submit" }, { kind: "click" }),
    "STALE_REF",
    /form\/submit/,
  );
  assert.ok((err.candidates ?? []).some((c) => "ref" in c && c.ref === "confirm/submit"));
  assert.deepEqual(clickedNids(p), []);
  // The full ref of the newcomer is not a short ref of anything read: it resolves.
  await desktop.act({}, { ref: "confirm/submit" }, { kind: "click" });
  assert.deepEqual(clickedNids(p), ["s2"]);
});

Deno.test("defect 3: a point must fall inside a window of the scoped app", async () => {
  const { desktop, p } = session(app([rows(["Item 1"])]));
  await rejectsWith(
    desktop.act({ app: "NoSuchApp" }, { point: { x: 45, y: 367 } }, { kind: "click" }),
    "APP_NOT_FOUND",
  );
  await rejectsWith(
    desktop.act({ pid: 1 }, { point: { x: 45, y: 367 } }, { kind: "click" }),
    "APP_NOT_FOUND",
  );
  await rejectsWith(
    desktop.act({}, { point: { x: 900, y: 367 } }, { kind: "click" }),
    "WINDOW_NOT_FOUND",
  );
  await rejectsWith(
    desktop.act({}, { point: { x: 1e308, y: 5 } }, { kind: "click" }),
    "INVALID_ARGS",
  );
  await rejectsWith(
    desktop.act({}, { point: { x: 4.5, y: 5 } }, { kind: "click" }),
    "INVALID_ARGS",
  );
  await rejectsWith(
    desktop.act({}, { ref: "items/item-1/delete" }, { kind: "drag", to: { x: NaN, y: 1 } }),
    "INVALID_ARGS",
  );
  assert.equal(p.acted.length, 0);
  await desktop.act({ app: "Rows" }, { point: { x: 45, y: 367 } }, { kind: "click" });
  assert.deepEqual(clickedNids(p), ["point"]);
  assert.throws(() => validatePoint({ x: Infinity, y: 0 }), DesktopError);
});

Deno.test("defect 5: find lists matches under the last read's ids and records nothing", async () => {
  const { desktop, p } = session(app([rows(["Item 1", "Item 2"])]));
  const { snapshot } = await desktop.read({});
  const del2 = locateAll(snapshot.root).find((x) => x.el.nid === "del1")!.el;
  // A row inserted above: fresh numbering shifts, find keeps the last read's.
  const shifted = app([el("btn", "Extra"), rows(["Item 1", "Item 2"])]);
  p.snapshot = shifted;
  const found = await desktop.find({}, { text: "Delete" });
  assert.equal(found.length, 2);
  assert.equal(found[1].i, del2.i);
  // find did not record: the id still means the last read's element.
  assert.equal((await desktop.resolve({}, { id: del2.i })).nid, "del1");
  const extra = await desktop.find({}, { text: "Extra" });
  assert.equal(extra[0].i, 0, "not in the last read: no id");
});

Deno.test("defect 1: a table without row elements (GTK TreeView) keys its rows by screen band", async () => {
  // Cells straight under the table; every status cell reads "Open", so its ref is a twin.
  const table = (names: string[]) =>
    el("table", undefined, {
      c: names.flatMap((name, k) => [
        el("cell", name, { nid: `name${k}`, b: [0, 20 * k, 100, 20] }),
        el("cell", "Open", { nid: `status${k}`, b: [100, 20 * k, 100, 20] }),
      ]),
    });
  const { desktop, p } = session(app([table(["Item 1", "Item 2"])]));
  const { snapshot } = await desktop.read({});
  const status2 = locateAll(snapshot.root).find((x) => x.el.nid === "status1")!;
  assert.equal(status2.row, "Item 2", "the key column, never the status beside it");
  assert.ok(indexedBase(status2.el.ref) !== undefined, status2.el.ref);
  // The model rewritten under the same cells: the node now shows row "Item 1".
  p.snapshot = app([table(["New inplace 1", "Item 1", "Item 2"])]);
  await rejectsWith(
    desktop.act({}, { ref: status2.el.ref! }, { kind: "click" }),
    "STALE_REF",
    /row "Item 1"/,
  );
  await rejectsWith(desktop.act({}, { id: status2.el.i }, { kind: "click" }), "STALE_REF");
  assert.deepEqual(clickedNids(p), []);
});

Deno.test("defect 1: rows exposed as plain groups (a layout table) are told by the texts next to the button", async () => {
  // Chromium's shape for a header-less table: groups, the button in a cell named "Open".
  const grid = (names: string[]) =>
    el("group", "Grid", {
      c: names.map((name, k) =>
        el("group", undefined, {
          nid: `tr${k}`,
          c: [
            el("group", "Open", { c: [el("btn", "Open", { nid: `open${k}` })] }),
            el("group", name, { c: [el("txt", name, { nid: `txt${k}` })] }),
          ],
        })
      ),
    });
  const { desktop, p } = session(app([grid(["Row 1", "Row 2", "Row 3"])]));
  const { snapshot } = await desktop.read({});
  const open2 = locateAll(snapshot.root).find((x) => x.el.nid === "open1")!.el;
  assert.ok(indexedBase(open2.ref) !== undefined, `a twin: ${open2.ref}`);
  p.snapshot = app([grid(["New inplace 1", "Row 1", "Row 2", "Row 3"])]);
  await rejectsWith(
    desktop.act({}, { ref: open2.ref! }, { kind: "click" }),
    "STALE_REF",
    /row "Row 1"/,
  );
  // Rows moved as nodes recreated (no native id left): the twin in the row seen is found.
  const moved = app([grid(["Row 2", "Row 3", "Row 1"])]);
  for (const x of locateAll(moved.root)) delete x.el.nid;
  p.snapshot = moved;
  await desktop.act({}, { id: open2.i }, { kind: "click" });
  const acted = p.acted.at(-1)!.target;
  assert.ok("element" in acted);
  // What a new read shows: the Open in row "Row 2" is the first twin now.
  const now = locateAll((await desktop.read({})).snapshot.root);
  const inRow2 = now.find((x) => x.el.r === "btn" && x.parent?.parent && rowOf(x) === "Row 2")!;
  assert.equal(acted.element.ref, inRow2.el.ref);
  assert.notEqual(acted.element.ref, open2.ref);
});

Deno.test("identity: a keypad button's row never counts its own text, also for a copy of the node", () => {
  // A grid of buttons, each with a text child, in no row: the row context of
  // "7" is its neighbours' texts. The store locates a filtered copy of the
  // node in the full tree; its own text must be skipped all the same, or a
  // click right after the read is refused as "moved to another row".
  const key = (i: number, t: string): Element => ({
    i,
    r: "btn",
    t,
    c: [{ i: i + 1, r: "txt", t }],
  });
  const root: Element = {
    i: 1,
    r: "group",
    c: [key(10, "4"), key(20, "7"), key(30, "8"), key(40, "9"), key(50, "5")],
  };
  const all = locateAll(root);
  const seven = all.find((x) => x.el.i === 20)!;
  const copy = { ...seven, el: { ...seven.el } };
  assert.equal(rowOf(seven), "4");
  assert.equal(rowOf(copy), rowOf(seven));
});

Deno.test("an action's changes carry the last read's ids, never the fresh reads' numbering", () => {
  // The last read showed View as 18; since then a menu opened above it, so the fresh reads
  // number View 27 and give 18 to a new item. A change printed with 18 would send `--id 18` to
  // the wrong element.
  const run = {
    app: { name: "App", pid: 1 },
    readAt: "2026-01-01T00:00:00Z",
    elements: [
      { i: 18, ref: "menubar/view", r: "menuitem", t: "View", path: "menubar" },
      { i: 19, ref: "menubar/file", r: "menuitem", t: "File", path: "menubar" },
    ],
  };
  const before: Element = {
    i: 1,
    ref: "menubar",
    r: "menubar",
    c: [
      { i: 26, ref: "menubar/file", r: "menuitem", t: "File" },
      { i: 27, ref: "menubar/view", r: "menuitem", t: "View" },
    ],
  };
  const changes = changesAsLastRead(
    [
      { type: "added", ref: "menubar/file/new-tab", el: { i: 18, r: "menuitem", t: "New tab" } },
      { type: "changed", ref: "menubar/view", i: 31, changes: { s: [undefined, true] } },
      { type: "removed", ref: "menubar/file", i: 26, r: "menuitem", t: "File" },
    ],
    before,
    run,
  );
  assert.deepEqual(changes.map((c) => c.type === "added" ? c.el.i : c.i), [0, 18, 19]);
  const text = renderChanges(changes, "agent");
  assert.ok(text.includes("+ [-|menubar/file/new-tab]"), text);
  assert.ok(text.includes("~ [18|menubar/view]"), text);
  assert.ok(text.includes("- [19|menubar/file]"), text);
});

Deno.test("an action's changes keep the last read's id of a cell whose text an earlier action changed", () => {
  // The last read showed the cell as 255 "eggs"; a set-value since made it "Lemons" (no read in
  // between); this action makes it "Lemons (ripe)". Same ref, same native object: still 255, as
  // the action's own line says.
  const run = {
    app: { name: "App", pid: 1 },
    readAt: "2026-01-01T00:00:00Z",
    elements: [
      { i: 255, ref: "table/6/product", r: "cell", t: "eggs", nid: "c6", path: "table" },
      { i: 256, ref: "table/7/product", r: "cell", t: "milk", nid: "c7", path: "table" },
    ],
  };
  const before: Element = {
    i: 1,
    ref: "table",
    r: "table",
    c: [
      { i: 40, ref: "table/6/product", r: "cell", t: "Lemons", nid: "c6" },
      { i: 41, ref: "table/7/product", r: "cell", t: "Pears", nid: "c9" },
    ],
  };
  const changes = changesAsLastRead(
    [
      {
        type: "changed",
        ref: "table/6/product",
        i: 40,
        changes: { t: ["Lemons", "Lemons (ripe)"] },
      },
      { type: "changed", ref: "table/7/product", i: 41, changes: { t: ["Pears", "Plums"] } },
    ],
    before,
    run,
  );
  // Another object under the same ref with another text is not the one the last read showed.
  assert.deepEqual(changes.map((c) => c.type === "added" ? c.el.i : c.i), [255, 0]);
});

Deno.test("an action's changes keep the last read's id of a twin whose object is the one that read showed", () => {
  // The last read showed two groups of a row (n: 2); a third came since (an editable label's
  // editor). group.1 is still the object that read showed as 166: its id holds.
  const run = {
    app: { name: "App", pid: 1 },
    readAt: "2026-01-01T00:00:00Z",
    elements: [
      { i: 166, ref: "string/group.1", r: "group", nid: "g1", n: 2, path: "" },
      { i: 167, ref: "string/group.2", r: "group", nid: "g2", n: 2, path: "" },
    ],
  };
  const before: Element = {
    i: 1,
    ref: "string",
    r: "row",
    c: [
      { i: 5, ref: "string/group.1", r: "group", nid: "g1" },
      { i: 6, ref: "string/group.2", r: "group", nid: "g9" },
      { i: 7, ref: "string/group.3", r: "group", nid: "g2" },
    ],
  };
  const changes = changesAsLastRead(
    [
      { type: "changed", ref: "string/group.1", i: 5, changes: { v: ["a", "b"] } },
      { type: "changed", ref: "string/group.2", i: 6, changes: { v: ["c", "d"] } },
    ],
    before,
    run,
  );
  // group.2 is another object now (the index shifted): no id rather than 167.
  assert.deepEqual(changes.map((c) => c.type === "added" ? c.el.i : c.i), [166, 0]);
});

Deno.test("an action's changes never show one last-read id twice (a newcomer took an old twin ref)", () => {
  // The last read showed group.6 as 47; the action put a new group first, so the old one is
  // group.11 now (changed) and the newcomer is group.6 (added).
  const run = {
    app: { name: "App", pid: 1 },
    readAt: "2026-01-01T00:00:00Z",
    elements: [{ i: 47, ref: "group.6", r: "group", path: "" }],
  };
  const before: Element = {
    i: 1,
    ref: "w",
    r: "window",
    c: [{ i: 9, ref: "group.6", r: "group" }],
  };
  const changes = changesAsLastRead(
    [
      { type: "added", ref: "group.6", el: { i: 30, r: "group" } },
      { type: "changed", ref: "group.11", i: 31, changes: { ref: ["group.6", "group.11"] } },
    ],
    before,
    run,
  );
  assert.deepEqual(changes.map((c) => c.type === "added" ? c.el.i : c.i), [0, 47]);
});

Deno.test("identity: the node the agent saw keeps answering when a section around it takes a name", async () => {
  // GTK 4 names a stack's page a moment after the window shows: the controls' refs gain the
  // page's name (`checkbutton` -> `page-1/checkbutton`) on the very same nodes.
  const page = (named: boolean) =>
    el("group", named ? "Page 1" : undefined, {
      c: [el("chk", "checkbutton", { nid: "c1" }), el("btn", "Apply", { nid: "b1" })],
    });
  const { desktop, p } = session(app([page(false)]));
  await desktop.read({});
  p.snapshot = app([page(true)]);
  const r = await desktop.act({}, { ref: "checkbutton" }, { kind: "click" });
  assert.equal(r.element?.nid, "c1");
  assert.deepEqual(clickedNids(p), ["c1"]);
  // Another node with that label in another section is still refused (defect 2 above).
  p.snapshot = app([
    page(true),
    el("dialog", "Other", { c: [el("chk", "checkbutton", { nid: "c9" })] }),
  ]);
  p.snapshot.root.c![0].c![0].c = [el("btn", "Apply", { nid: "b1" })];
  await rejectsWith(desktop.act({}, { ref: "checkbutton" }, { kind: "click" }), "STALE_REF");
  assert.deepEqual(clickedNids(p), ["c1"]);
});

Deno.test("twin rows (many processes of one name) are told apart by the cells that keep their text", async () => {
  // A process monitor: name, process id, CPU. Rows get fresh nodes on every read (no native id
  // to follow), CPU figures change by themselves, and a new `deno` row can come first.
  type Proc = [name: string, pid: number, cpu: number];
  const monitor = (procs: Proc[]) =>
    app([
      el("table", "Processes", {
        c: procs.map(([name, pid, cpu], k) =>
          el("row", undefined, {
            b: [0, 20 * k, 400, 18],
            c: [el("cell", name), el("cell", String(pid)), el("cell", `${cpu}.0`)],
          })
        ),
      }),
    ]);
  const steady: Proc[] = [["Xorg", 10, 1], ["bash", 11, 0], ["sshd", 12, 0], ["cron", 13, 0]];
  const { desktop, p } = session(monitor([...steady, ["deno", 100, 5], ["deno", 101, 9]]));
  const { snapshot } = await desktop.read({});
  const rowRefs = locateAll(snapshot.root).filter((x) => x.el.r === "row").map((x) => x.el.ref!);
  const second = rowRefs.find((r) => /deno\.2$/.test(r))!;
  assert.ok(second, rowRefs.join());
  // A new deno process sorts first; every CPU figure changed.
  const moved: Proc[] = steady.map(([n, pid, cpu]) => [n, pid, cpu + 2]);
  p.snapshot = monitor([["deno", 99, 0], ...moved, ["deno", 100, 7], ["deno", 101, 3]]);
  const found = await desktop.resolve({}, { ref: second });
  assert.equal(found.c?.[1].t, "101", "the row of process 101, now deno.3");
  // Process 101 ended: no other deno row is taken for it.
  p.snapshot = monitor([["deno", 99, 0], ...moved, ["deno", 100, 7], ["deno", 102, 3]]);
  await rejectsWith(desktop.resolve({}, { ref: second }), "AMBIGUOUS_TARGET");
  // Without rows of their own to learn from, nothing tells which cells keep their text.
  const lone = session(monitor([["deno", 100, 5], ["deno", 101, 9]]));
  const first = await lone.desktop.read({});
  const ref = locateAll(first.snapshot.root).find((x) => /deno\.2$/.test(x.el.ref ?? ""))!.el.ref!;
  lone.p.snapshot = monitor([["deno", 99, 0], ["deno", 100, 7], ["deno", 101, 3]]);
  await rejectsWith(lone.desktop.resolve({}, { ref }), "AMBIGUOUS_TARGET");
});

Deno.test("a ref written with a long label's whole slug finds that element, and only it", async () => {
  const first = "Lena Fischer: Security alert, a new sign-in from Oslo";
  const second = "Lena Fischer: Security alert, a new sign-in from Bergen";
  const list = (labels: string[]) =>
    el("list", "Inbox", {
      c: labels.map((label, k) =>
        el("row", undefined, {
          nid: `row${k}`,
          c: [el("cell", label, { nid: `cell${k}` }), el("btn", "Star", { nid: `star${k}` })],
        })
      ),
    });
  const { desktop, p } = session(app([list([first, "Weekly report"])]));
  await desktop.read({});
  const whole = "lena-fischer-security-alert-a-new-sign-in-from-oslo";
  // The printed ref is cut at 40 characters; the whole slug, as written from the label, says the same.
  await desktop.act({}, { ref: `inbox/${whole}/star` }, { kind: "click" });
  await desktop.act({}, { ref: "inbox/lena-fischer-security-alert-a-new-sign/star" }, {
    kind: "click",
  });
  assert.deepEqual(clickedNids(p), ["star0", "star0"]);
  // The row meant is gone, and another row's label shares its first 40 characters: refused,
  // by the last read (the row changed) and, with no read to go by, by the whole slug written.
  p.snapshot = app([list([second, "Weekly report"])]);
  await rejectsWith(desktop.act({}, { ref: `${whole}/star` }, { kind: "click" }), "STALE_REF");
  const unread = session(app([list([second, "Weekly report"])]));
  await rejectsWith(
    unread.desktop.act({}, { ref: `${whole}/star` }, { kind: "click" }),
    "ELEMENT_NOT_FOUND",
    /does not make "lena-fischer-security-alert-a-new-sign-in-from-oslo"/,
  );
  assert.deepEqual(clickedNids(p), ["star0", "star0"]);
  assert.deepEqual(clickedNids(unread.p), []);
  await unread.desktop.act({}, {
    ref: "lena-fischer-security-alert-a-new-sign-in-from-bergen/star",
  }, { kind: "click" });
  assert.deepEqual(clickedNids(unread.p), ["star0"]);
});

Deno.test("a whole slug tells apart twins whose refs are cut to the same 40 characters", async () => {
  const draft = "quarterly-financial-report-for-the-board-of-directors-draft.pdf";
  const final = "quarterly-financial-report-for-the-board-of-directors-final.pdf";
  const { desktop, p } = session(app([rows([draft, final])]));
  await desktop.read({});
  // The cut alone is ambiguous: a true refusal naming both.
  const err = await rejectsWith(
    desktop.act({}, { ref: "quarterly-financial-report-for-the-board/delete" }, { kind: "click" }),
    "AMBIGUOUS_TARGET",
  );
  assert.equal(err.candidates?.length, 2);
  await desktop.act({}, {
    ref: "quarterly-financial-report-for-the-board-of-directors-final-pdf/delete",
  }, { kind: "click" });
  assert.deepEqual(clickedNids(p), ["del1"]);
  // A whole slug neither label makes stays refused.
  await rejectsWith(
    desktop.act({}, {
      ref: "quarterly-financial-report-for-the-board-of-directors-budget-pdf/delete",
    }, { kind: "click" }),
    "AMBIGUOUS_TARGET",
  );
  assert.deepEqual(clickedNids(p), ["del1"]);
});

Deno.test("twin rows of one key: when one goes and the list is drawn anew, neither index means the one left", async () => {
  // Two to-dos "Pay rent"; the page draws its list anew on each change (new nodes).
  const todos = (names: string[], prefix: string) =>
    el("list", "Todo items", {
      c: names.map((name, k) =>
        el("listitem", undefined, {
          nid: `${prefix}row${k}`,
          c: [
            el("chk", `Toggle ${name}`, { nid: `${prefix}chk${k}`, b: [16, 30 * k, 13, 14] }),
            el("txt", name, { nid: `${prefix}txt${k}` }),
          ],
        })
      ),
    });
  const { desktop, p } = session(app([todos(["Buy milk", "Pay rent", "Pay rent"], "a")]));
  const { snapshot } = await desktop.read({});
  const first = locateAll(snapshot.root).find((x) => x.el.nid === "achk1")!.el;
  assert.equal(first.ref, "todo-items/pay-rent/toggle-pay-rent.1");
  // The first "Pay rent" is deleted; the one left is drawn on new nodes, in the first's place.
  p.snapshot = app([todos(["Buy milk", "Pay rent"], "b")]);
  for (const target of [{ ref: "toggle-pay-rent.1" }, { id: first.i }]) {
    const err = await rejectsWith(desktop.act({}, target, { kind: "click" }), "STALE_REF");
    assert.match(err.suggestion ?? "", /one element is now todo-items\/pay-rent\/toggle-pay-rent/);
  }
  assert.deepEqual(clickedNids(p), []);
  // After a new read, its ref is the one left.
  await desktop.read({});
  await desktop.act({}, { ref: "toggle-pay-rent" }, { kind: "click" });
  assert.deepEqual(clickedNids(p), ["bchk1"]);
});

Deno.test("a ref an action's changes printed means that element until the next read, though it renames", async () => {
  // kwrite: Ctrl+R opens a find bar; its combo is named "Find:" only while it is empty.
  const doc = el("input", undefined, { nid: "doc", v: "alpha beta" });
  const search = el("btn", "Search", { nid: "search" });
  // The combo is named "Find:" while it is empty, by its description once it holds text.
  const bar = (text: string) => [
    el("combo", text ? "Text to search for" : "Find:", {
      nid: "combo",
      c: [el("input", undefined, { nid: "find-input", f: true, ...(text ? { v: text } : {}) })],
    }),
  ];
  const win = (...c: Element[]) => app([el("group", "Editor", { c: [search, doc, ...c] })]);
  const p = new FakeProvider(win(), {
    react: (s, action) => {
      if (action.kind === "click") s.root = win(...bar("")).root;
      if (action.kind === "type") s.root = win(...bar(action.text)).root;
    },
  });
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  await desktop.read({});
  const opened = await desktop.act({}, { ref: "search" }, { kind: "click" }, { settleMs: 50 });
  const printed = renderChanges(opened.changes ?? [], "agent");
  assert.match(printed, /\/find\/input\]/, printed);
  const typed = await desktop.act({}, { ref: "find/input" }, { kind: "type", text: "beta" }, {
    settleMs: 50,
  });
  // The combo renamed: its line names it by its new ref and says the new label.
  assert.match(
    renderChanges(typed.changes ?? [], "agent"),
    /\[-\|editor\/text-to-search-for\] t: "Find:" -> "Text to search for"/,
  );
  // The combo lost its name: "find" is the label now, and the input's ref is another.
  const again = await desktop.act({}, { ref: "find/input" }, { kind: "type", text: "gamma" }, {
    settleMs: 50,
  });
  assert.equal(again.element?.nid, "find-input");
  assert.deepEqual(p.actedNids(), ["search", "find-input", "find-input"]);
});

Deno.test("a short ref of the last read is not taken over by a newcomer an action printed under it", async () => {
  // A tab "Permissions" (ref detail-tabs/permissions, printed short: `permissions`); clicking
  // it shows a tab panel "Permissions" outside the tab list, whose full ref is `permissions`.
  const tabs = el("tablist", "Detail tabs", {
    c: [
      el("tab", "General", { nid: "tab-general", b: [0, 0, 80, 20] }),
      el("tab", "Permissions", { nid: "tab-perm", b: [90, 0, 80, 20] }),
    ],
  });
  const panel = el("tabpanel", "Permissions", {
    nid: "panel",
    b: [0, 30, 400, 300],
    c: [el("chk", "Executable", { nid: "exec", b: [10, 40, 20, 20] })],
  });
  const make = (open: boolean) => app(open ? [tabs, panel] : [tabs]);
  const setUp = () => {
    const p = new FakeProvider(make(false), {
      react: (s, action) => {
        if (action.kind === "click") s.root = make(true).root;
      },
    });
    return { p, desktop: createDesktop(p, { store: createMemoryRefStore() }) };
  };
  // The changes were not shown (the CLI without --diff): the ref keeps the read's meaning.
  {
    const { p, desktop } = setUp();
    const { snapshot } = await desktop.read({});
    assert.equal(
      locateAll(snapshot.root).find((x) => x.el.nid === "tab-perm")?.el.ref,
      "detail-tabs/permissions",
    );
    await desktop.act({}, { ref: "permissions" }, { kind: "click" }, {
      settleMs: 50,
      changesShown: false,
    });
    await desktop.act({}, { ref: "permissions" }, { kind: "focus" }, {
      settleMs: 50,
      changesShown: false,
    });
    assert.deepEqual(p.actedNids(), ["tab-perm", "tab-perm"]);
  }
  // Shown: the ref names one element in the read and another in the changes since: refused.
  {
    const { p, desktop } = setUp();
    await desktop.read({});
    const opened = await desktop.act({}, { ref: "permissions" }, { kind: "click" }, {
      settleMs: 50,
    });
    assert.match(renderChanges(opened.changes ?? [], "agent"), /\[-\|permissions\] tabpanel/);
    const err = await rejectsWith(
      desktop.act({}, { ref: "permissions" }, { kind: "focus" }),
      "AMBIGUOUS_TARGET",
    );
    // Only the tab's full ref is a candidate: the panel's (`permissions`) is the ref in question.
    assert.deepEqual(err.candidates?.map((c) => (c as { ref?: string }).ref), [
      "detail-tabs/permissions",
    ]);
    assert.match(err.message, /tab "Permissions".* tabpanel "Permissions"/);
    assert.match(err.suggestion ?? "", /--id \d+ is the tab of the last read\); a new read/);
    // The full ref of the tab still names it; a new read gives `permissions` to the panel.
    await desktop.act({}, { ref: "detail-tabs/permissions" }, { kind: "focus" }, { settleMs: 50 });
    await desktop.read({});
    await desktop.act({}, { ref: "permissions" }, { kind: "focus" }, { settleMs: 50 });
    assert.deepEqual(p.actedNids(), ["tab-perm", "tab-perm", "panel"]);
  }
});
