import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import { diffTrees } from "../../src/diff/diff.ts";
import {
  DEFAULT_SETTLE_MS,
  effectOf,
  judgeEffect,
  settleChanges,
  TYPED_QUIET_MS,
} from "../../src/act/effect.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import type { Action } from "../../src/platform/provider.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { FakeProvider } from "../harness/fake_provider.ts";

/** A fake app whose reaction to each action is a function of the snapshot; actions go by input. */
class ReactingProvider extends FakeProvider {
  constructor(snapshot: Snapshot, react: (s: Snapshot, a: Action) => void) {
    super(snapshot, {
      platform: "replay",
      react: (s, a) => {
        react(s, a);
        return { via: "input" };
      },
    });
  }
}

function app(): Snapshot {
  return {
    app: { name: "Forms", pid: 7 },
    readAt: "2026-01-01T00:00:00Z",
    root: {
      i: 0,
      r: "app",
      t: "Forms",
      nid: "app",
      c: [{
        i: 0,
        r: "window",
        t: "Forms",
        nid: "win",
        c: [
          { i: 0, r: "input", t: "Email", v: "", nid: "email", f: true },
          { i: 0, r: "btn", t: "Submit", nid: "submit" },
        ],
      }],
    },
  };
}

const win = (s: Snapshot) => s.root.c![0];
const fast = { settleMs: 400 };

Deno.test("act: the result carries the element as it is after the action, and what changed", async () => {
  const p = new ReactingProvider(app(), (s, a) => {
    if (a.kind === "type") win(s).c![0].v += a.text;
  });
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  await desktop.read({}, {}); // the ids a change carries are this read's
  const res = await desktop.act({}, { ref: "email" }, { kind: "type", text: "ada" }, fast);
  assert.equal(res.element?.v, "ada");
  assert.equal(res.unverified, undefined);
  assert.deepEqual(res.changes, [
    { type: "changed", ref: "email", i: 3, changes: { v: [null, "ada"] } }, // an empty value is no value
  ]);
});

Deno.test("act: typing that changes nothing is ACTION_FAILED, not ok", async () => {
  const p = new ReactingProvider(app(), () => {});
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  await assert.rejects(
    desktop.act({}, { ref: "email" }, { kind: "type", text: "ada" }, fast),
    (e) =>
      e instanceof DesktopError && e.code === "ACTION_FAILED" && /nothing changed/.test(e.message),
  );
});

Deno.test("act: typing that only moves the focus is ACTION_FAILED: the keys went elsewhere", async () => {
  // Firefox behind another app's window: the field took focus, the keys went to the other app.
  const focusMoves = (s: Snapshot) => {
    delete win(s).c![0].f;
    win(s).c![1].f = true;
  };
  const desktop = createDesktop(new ReactingProvider(app(), focusMoves), {
    store: createMemoryRefStore(),
  });
  await assert.rejects(
    desktop.act({}, { ref: "email" }, { kind: "type", text: "ada" }, fast),
    (e) =>
      e instanceof DesktopError && e.code === "ACTION_FAILED" &&
      /value did not change/.test(e.message),
  );
  // Text that submits (a newline) may clear its field: that is not a failure.
  const fresh = createDesktop(new ReactingProvider(app(), focusMoves), {
    store: createMemoryRefStore(),
  });
  const submitted = await fresh.act({}, { ref: "email" }, { kind: "type", text: "ada\n" }, fast);
  assert.match(submitted.unverified ?? "", /value did not change/);
});

Deno.test("act: a click that changes nothing is reported unverified; one that renames is one change", async () => {
  const quiet = createDesktop(new ReactingProvider(app(), () => {}), {
    store: createMemoryRefStore(),
  });
  const res = await quiet.act({}, { ref: "submit" }, { kind: "click" }, fast);
  assert.match(res.unverified ?? "", /nothing changed within 400 ms/);
  assert.deepEqual(res.changes, []);

  const renaming = createDesktop(
    new ReactingProvider(app(), (s) => (win(s).c![1].t = "Sent")),
    { store: createMemoryRefStore() },
  );
  await renaming.read({}, {});
  const after = await renaming.act({}, { ref: "submit" }, { kind: "click" }, fast);
  assert.equal(after.unverified, undefined);
  assert.equal(after.element?.t, "Sent");
  assert.deepEqual(after.changes, [{
    type: "changed",
    ref: "sent",
    i: 4,
    changes: { ref: ["submit", "sent"], t: ["Submit", "Sent"] },
  }]);
});

Deno.test("act: with no read before, a change has no id to show (printed -)", async () => {
  const p = new ReactingProvider(app(), (s, a) => {
    if (a.kind === "type") win(s).c![0].v += a.text;
  });
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  const res = await desktop.act({}, { ref: "email" }, { kind: "type", text: "ada" }, fast);
  assert.deepEqual(res.changes, [
    { type: "changed", ref: "email", i: 0, changes: { v: [null, "ada"] } },
  ]);
});

Deno.test("act: an element that closes its dialog is reported gone", async () => {
  const p = new ReactingProvider(app(), (s) => win(s).c!.pop());
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  const res = await desktop.act({}, { ref: "submit" }, { kind: "click" }, fast);
  assert.equal(res.gone, true);
  assert.equal(res.changes?.[0].type, "removed");
});

Deno.test("act: a new element that takes the clicked one's ref is not reported as it", async () => {
  // gedit: the popover's "Save As" button closes, and the Save As dialog it opens gets
  // the same ref (`save-as`); the report must not show the dialog as the clicked button.
  const p = new ReactingProvider(app(), (s) => {
    win(s).c!.pop();
    s.root.c!.push({ i: 0, r: "dialog", t: "Submit", nid: "dlg", c: [] });
  });
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  const res = await desktop.act({}, { ref: "submit" }, { kind: "click" }, fast);
  assert.equal(res.gone, true);
  assert.notEqual(res.element?.r, "dialog");
});

Deno.test("diff: native identity first, so a rename is one change; refs alone give remove + add", () => {
  const a: Element = {
    i: 1,
    ref: "w",
    r: "window",
    c: [{ i: 2, ref: "w/ok", r: "btn", t: "OK", nid: "n2" }],
  };
  const b: Element = {
    i: 1,
    ref: "w",
    r: "window",
    c: [{ i: 2, ref: "w/done", r: "btn", t: "Done", nid: "n2" }],
  };
  assert.deepEqual(diffTrees(a, b), [
    {
      type: "changed",
      ref: "w/done",
      i: 2,
      changes: { ref: ["w/ok", "w/done"], t: ["OK", "Done"] },
    },
  ]);
  assert.deepEqual(diffTrees(a, b, { refsOnly: true }).map((c) => c.type), ["added", "removed"]);
  // A ref taken over by another native object is that object's, not the old one's.
  const c: Element = {
    i: 1,
    ref: "w",
    r: "window",
    c: [
      { i: 2, ref: "w/ok", r: "btn", t: "OK", nid: "n9" },
      { i: 3, ref: "w/ok-old", r: "btn", t: "OK", nid: "n2" },
    ],
  };
  assert.deepEqual(diffTrees(a, c).map((x) => x.type), ["added", "changed"]);
});

Deno.test("settle: waits for the change to hold still, and stops at the settle time", async () => {
  let clock = 0;
  const sleep = (ms: number) => (clock += ms, Promise.resolve());
  const before: Element = { i: 1, ref: "f", r: "input", v: "" };
  const reads = [before, { ...before, v: "a" }, { ...before, v: "ab" }, { ...before, v: "ab" }];
  let k = 0;
  const s = await settleChanges(before, () => Promise.resolve(reads[Math.min(k++, 3)]), {
    sleep,
    now: () => clock,
    settleMs: 5000,
  });
  assert.equal(k, 4);
  assert.deepEqual(s.changes[0], { type: "changed", ref: "f", i: 1, changes: { v: ["", "ab"] } });
  clock = 0;
  k = 0;
  const none = await settleChanges(before, () => (k++, Promise.resolve(before)), {
    sleep,
    now: () => clock,
    settleMs: 1000,
  });
  assert.deepEqual(none.changes, []);
  assert.ok(k >= 4 && clock >= 1000);
});

Deno.test("settle: a read slower than the settle time is followed by one begun after it", async () => {
  // A large app: each read takes 4 s and shows the app as it was when the read began (its
  // parts are read in turn). The action's effect shows 900 ms after it.
  let clock = 0;
  const sleep = (ms: number) => (clock += ms, Promise.resolve());
  const before: Element = { i: 1, ref: "page", r: "web", c: [] };
  const after: Element = { ...before, c: [{ i: 2, ref: "settings", r: "group", t: "Settings" }] };
  const began: number[] = [];
  const read = () => {
    began.push(clock);
    const seen = clock >= 900 ? after : before;
    clock += 4000;
    return Promise.resolve(seen);
  };
  const s = await settleChanges(before, read, { sleep, now: () => clock, settleMs: 1500 });
  assert.equal(s.changes.length, 1, "the change was seen, not 'nothing changed'");
  assert.ok(began.at(-1)! >= 1500 - 100, `the last read began at ${began.at(-1)} ms`);
  // Within the deadline only: one that leaves no time for another read ends as it was.
  clock = 0;
  began.length = 0;
  const cut = await settleChanges(before, read, {
    sleep,
    now: () => clock,
    settleMs: 1500,
    deadline: 4200,
  });
  assert.deepEqual(cut.changes, []);
  assert.equal(began.length, 1);
});

Deno.test("judge: set-value to the state the element already has is not a failure", () => {
  const box: Element = { i: 2, ref: "b", r: "chk", chk: true };
  const e = judgeEffect({ kind: "set-value", value: "true" }, box, { root: box, changes: [] }, 100);
  assert.equal(e.unverified, undefined);
  const field: Element = { i: 2, ref: "f", r: "input", v: "x" };
  assert.throws(
    () => judgeEffect({ kind: "set-value", value: "y" }, field, { root: field, changes: [] }, 100),
    (err) => err instanceof DesktopError && err.code === "ACTION_FAILED",
  );
});

Deno.test("act: a click whose only effect is a focus change is unverified, not ok", async () => {
  const focuses = createDesktop(
    new ReactingProvider(app(), (s) => {
      delete win(s).c![0].f;
      win(s).c![1].f = true;
    }),
    { store: createMemoryRefStore() },
  );
  const res = await focuses.act({}, { ref: "submit" }, { kind: "click" }, fast);
  assert.match(res.unverified ?? "", /only the keyboard focus moved/);
  assert.equal(res.changes?.length, 2, "the focus changes are still reported");
  // Clicking a text field to focus it is what the click was for.
  const unfocused = app();
  delete win(unfocused).c![0].f;
  const field = createDesktop(
    new ReactingProvider(unfocused, (s) => (win(s).c![0].f = true)),
    { store: createMemoryRefStore() },
  );
  const focused = await field.act({}, { ref: "email" }, { kind: "click" }, fast);
  assert.equal(focused.unverified, undefined);
});

Deno.test("act: a click that closes the window the read was scoped to reports the element gone", () => {
  const el: Element = { i: 2, ref: "about/close", r: "btn", t: "Close" };
  const root: Element = { i: 1, ref: "about", r: "dialog", t: "About", c: [el] };
  const gone = new DesktopError("WINDOW_NOT_FOUND", "no window matches --window About");
  const e = judgeEffect({ kind: "click" }, el, { root, changes: [], readError: gone }, 1847.5);
  assert.equal(e.after, null);
  assert.equal(e.unverified, undefined);
  // Other read errors leave the action unverified, with whole milliseconds in messages.
  const quiet = judgeEffect({ kind: "click" }, el, { root, changes: [] }, 1847.5);
  assert.equal(quiet.unverified, "nothing changed within 1848 ms");
});

Deno.test("act: typed keys that arrive as other characters are unverified, not ok", async () => {
  // A keyboard map that cannot type αβγδ: each arrived as the last one.
  const p = new ReactingProvider(app(), (s, a) => {
    if (a.kind === "type") win(s).c![0].v += "αδδδ";
  });
  const desktop = createDesktop(p, { store: createMemoryRefStore() });
  const res = await desktop.act({}, { ref: "email" }, { kind: "type", text: "αβγδ" }, fast);
  assert.match(res.unverified ?? "", /does not hold the typed text \(it reads "αδδδ"\)/);
  // Enter submits rather than inserts: the printable part is what must arrive.
  const q = new ReactingProvider(app(), (s, a) => {
    if (a.kind === "type") win(s).c![0].v += a.text.replace("\n", "");
  });
  const ok = await createDesktop(q, { store: createMemoryRefStore() })
    .act({}, { ref: "email" }, { kind: "type", text: "ada\n" }, fast);
  assert.equal(ok.unverified, undefined);
  // An editor takes the line break and the tab: its value holds them between the words.
  const editor = new ReactingProvider(app(), (s, a) => {
    if (a.kind === "type") win(s).c![0].v += a.text;
  });
  const lines = await createDesktop(editor, { store: createMemoryRefStore() })
    .act({}, { ref: "email" }, { kind: "type", text: "one\ntwo\tthree" }, fast);
  assert.equal(lines.unverified, undefined);
});

Deno.test("act: an app that quits after the action (a quit dialog's Save) reports the element gone", async () => {
  const el: Element = { i: 2, ref: "question/save", r: "btn", t: "Save" };
  const root: Element = { i: 1, ref: "question", r: "dialog", t: "Question", c: [el] };
  // Busy while it shuts down, then gone.
  const answers = [
    new DesktopError("APP_UNRESPONSIVE", "pluma does not answer"),
    new DesktopError("APP_NOT_FOUND", "no running app matches"),
  ];
  let t = 0;
  const settled = await settleChanges(root, () => Promise.reject(answers.shift() ?? answers[0]), {
    sleep: (ms) => Promise.resolve(void (t += ms)),
    now: () => t,
  });
  assert.equal(settled.readError?.code, "APP_NOT_FOUND");
  const e = judgeEffect({ kind: "click" }, el, settled, 1500);
  assert.equal(e.after, null);
  assert.equal(e.unverified, undefined);
});

Deno.test("act: a key that moves the focus to another element did its work (a menu's Down)", async () => {
  // The field has the focus; Down moves it to the button, as an arrow moves a menu's focus.
  const start = app();
  win(start).c![0].f = true;
  const moves = createDesktop(
    new ReactingProvider(start, (s) => {
      delete win(s).c![0].f;
      win(s).c![1].f = true;
    }),
    { store: createMemoryRefStore() },
  );
  const res = await moves.act({}, {}, { kind: "key", combo: "Down" }, fast);
  assert.equal(res.unverified, undefined, "the focus moving on is the key's effect");
});

Deno.test("judge: a click on a row that another row took (it became selected, not this one) is unverified", () => {
  const list = (sel: string | null): Element => ({
    i: 1,
    ref: "table",
    r: "table",
    c: ["Item 51", "Item 52", "Item 53"].map((t, k) => ({
      i: 2 + k,
      ref: `item-${51 + k}`,
      r: "row" as const,
      t,
      ...(sel === t ? { s: true as const } : {}),
    })),
  });
  const target = list(null).c![1];
  const judge = (before: Element, after: Element) =>
    judgeEffect(
      { kind: "click" },
      target,
      { root: after, changes: diffTrees(before, after) },
      1500,
    );
  // The row above took the press.
  const missed = judge(list(null), list("Item 51"));
  assert.match(missed.unverified ?? "", /item-51 became selected, not the element/);
  // The row itself took it: ok.
  assert.equal(judge(list(null), list("Item 52")).unverified, undefined);
  // A press that selects nothing says nothing of where it went (no selection in this list).
  assert.match(judge(list(null), list(null)).unverified ?? "", /nothing changed/);
});

Deno.test("judge: a click on a row of a live list, where only the other rows changed, is unverified", () => {
  const list = (tick: number, sel: string | null, extra?: Element): Element => ({
    i: 1,
    ref: "w",
    r: "window",
    c: [
      {
        i: 2,
        ref: "table",
        r: "table",
        c: ["proc 1", "proc 2", "proc 3"].map((t, k) => ({
          i: 3 + k * 2,
          ref: `proc-${k + 1}`,
          r: "row" as const,
          t,
          ...(sel === t ? { s: true as const } : {}),
          c: [{ i: 4 + k * 2, ref: `proc-${k + 1}/cpu`, r: "cell" as const, t: `${tick + k}` }],
        })),
      },
      ...(extra ? [extra] : []),
    ],
  });
  const target = list(0, null).c![0].c![1];
  const judge = (before: Element, after: Element) =>
    judgeEffect(
      { kind: "click" },
      target,
      { root: after, before, changes: diffTrees(before, after) },
      1500,
    );
  // The press was dropped; the figures changed by themselves.
  const dropped = judge(list(0, null), list(5, null));
  assert.match(
    dropped.unverified ?? "",
    /did not become selected or focused.*changes by itself \(3 changes/,
  );
  // The press selected the row: ok, whatever else changed.
  assert.equal(judge(list(0, null), list(5, "proc 2")).unverified, undefined);
  // Something appeared outside the list (a dialog the row opened): ok.
  const dialog = { i: 20, ref: "dialog", r: "dialog" as const, t: "Properties" };
  assert.equal(judge(list(0, null), list(5, null, dialog)).unverified, undefined);
  // Only its own cell changed (a list that is not live): ok.
  const own = list(0, null);
  own.c![0].c![1].c![0].t = "done";
  assert.equal(judge(list(0, null), own).unverified, undefined);
  // It expanded while the figures changed: ok.
  const open = list(5, null);
  open.c![0].c![1].exp = true;
  assert.equal(judge(list(0, null), open).unverified, undefined);
});

Deno.test("judge: a twin row whose index shifted while the click settled is found by its process id", () => {
  type Proc = [name: string, pid: number, cpu: number, selected?: boolean];
  const monitor = (procs: Proc[]): Element => {
    const root: Element = {
      i: 1,
      ref: "table",
      r: "table",
      c: procs.map(([name, pid, cpu, sel], k) => ({
        i: 2 + k,
        ref: "",
        r: "row" as const,
        ...(sel ? { s: true as const } : {}),
        c: [name, String(pid), `${cpu}.0`].map((t, j) => ({
          i: 100 + k * 3 + j,
          r: "cell" as const,
          t,
        })),
      })),
    };
    // Refs as a read makes them: twins get their index in order.
    const count = new Map<string, number>();
    for (const [name] of procs) count.set(name, (count.get(name) ?? 0) + 1);
    const seen = new Map<string, number>();
    root.c!.forEach((row, k) => {
      const name = procs[k][0];
      seen.set(name, (seen.get(name) ?? 0) + 1);
      row.ref = `table/${name}${count.get(name)! > 1 ? `.${seen.get(name)}` : ""}`;
      row.c!.forEach((cell, j) => (cell.ref = `${row.ref}/c${j}`));
    });
    return root;
  };
  const steady: Proc[] = [["xorg", 10, 1], ["bash", 11, 0], ["sshd", 12, 0], ["cron", 13, 0]];
  const before = monitor([...steady, ["deno", 100, 5], ["deno", 101, 9]]);
  const target = { ...before.c![5], i: 42 }; // deno.2, as the last read numbered it
  // Process 100 ended while the click settled: 101 is deno alone now, and selected.
  const after = monitor([...steady.map(([n, p]) => [n, p, 7] as Proc), ["deno", 101, 3, true]]);
  const e = judgeEffect({ kind: "click" }, target, {
    root: after,
    before,
    changes: diffTrees(before, after),
  }, 1500);
  assert.equal(e.after?.c?.[1].t, "101", "the row of process 101");
  assert.equal(e.unverified, undefined);
});

Deno.test("settle: typed text's changes wait for a search that runs after a pause", async () => {
  // Search as one types: the field shows the text at once, the results 500 ms later.
  let clock = 0;
  const sleep = (ms: number) => (clock += ms, Promise.resolve());
  const field: Element = { i: 2, ref: "search", r: "input", t: "Search", v: "" };
  const page = (v: string, results: string[]): Element => ({
    i: 1,
    ref: "page",
    r: "web",
    c: [
      { ...field, v },
      ...results.map((t, k) => ({ i: 3 + k, ref: `r${k}`, r: "lnk" as const, t })),
    ],
  });
  const before = page("", []);
  const read = () =>
    Promise.resolve(clock >= 500 ? page("map", ["HashMap", "BTreeMap"]) : page("map", []));
  const quick = await settleChanges(before, read, { sleep, now: () => clock });
  assert.equal(
    quick.changes.length,
    1,
    "two reads agreeing settle at once: the results are missed",
  );
  clock = 0;
  const typed = await settleChanges(before, read, {
    sleep,
    now: () => clock,
    quietMs: TYPED_QUIET_MS,
  });
  assert.deepEqual(typed.changes.map((c) => c.type), ["changed", "added", "added"]);
  assert.ok(clock <= DEFAULT_SETTLE_MS + 400, `settled at ${clock} ms`);
});

Deno.test("effect: a click's changes that come in stages are all reported", async () => {
  // rustdoc's theme radio: checked at once; the settings it reveals reach the tree 600 ms later.
  const radio = (chk: boolean): Element => ({ i: 2, ref: "system", r: "radio", t: "System", chk });
  const page = (revealed: boolean): Element => ({
    i: 1,
    ref: "settings",
    r: "group",
    c: [
      radio(true),
      ...(revealed ? [{ i: 3, ref: "light", r: "radio" as const, t: "Light" }] : []),
    ],
  });
  const before: Element = { ...page(false), c: [radio(false)] };
  const clicked = Date.now();
  const read = () => Promise.resolve(page(Date.now() - clicked >= 600));
  const effect = await effectOf({ kind: "click" }, radio(false), before, read);
  assert.deepEqual(effect.changes.map((c) => c.type), ["changed", "added"]);
});

Deno.test("judge: a click that left its check box or toggle unchecked while the list moved is unverified", () => {
  // dconf-editor: the list scrolled the focused row into view under the click; "True" stayed off.
  const toggle: Element = { i: 3, ref: "listbox/true", r: "toggle", t: "True", chk: false };
  const bar: Element = { i: 4, ref: "scroll", r: "scroll", v: "38" };
  const root: Element = { i: 1, ref: "listbox", r: "listbox", c: [toggle, bar] };
  const scrolled = [{
    type: "changed" as const,
    ref: "scroll",
    i: 4,
    changes: { v: ["0", "38"] as [unknown, unknown] },
  }];
  const e = judgeEffect({ kind: "click" }, toggle, { root, changes: scrolled }, 100);
  assert.match(e.unverified ?? "", /still unchecked/);
  // Checked by the click: ok.
  const on = { ...toggle, chk: true as const };
  const checked = [{
    type: "changed" as const,
    ref: "listbox/true",
    i: 3,
    changes: { chk: [false, true] as [unknown, unknown] },
  }];
  const ok = judgeEffect({ kind: "click" }, toggle, {
    root: { ...root, c: [on, bar] },
    changes: checked,
  }, 100);
  assert.equal(ok.unverified, undefined);
});

Deno.test("judge: a click on a cell after which another cell has the focus is unverified (a spreadsheet)", () => {
  // LibreOffice Calc reported B2's box one row high (the sheet moved under it): the click
  // moved the cursor (the focus) to B1, which then took the typing.
  const sheet = (focused: string): Element => ({
    i: 1,
    ref: "sheet",
    r: "table",
    c: [["A1", "B1"], ["A2", "B2"]].map((cells, k) => ({
      i: 10 * (k + 1),
      ref: `sheet/${cells[0].toLowerCase()}`,
      r: "row" as const,
      c: cells.map((t, j) => ({
        i: 10 * (k + 1) + j + 1,
        ref: `sheet/${cells[0].toLowerCase()}/${t.toLowerCase()}`,
        r: "cell" as const,
        t,
        ...(t === focused ? { f: true as const } : {}),
      })),
    })),
  });
  const target = sheet("A1").c![1].c![1];
  const judge = (after: Element) =>
    judgeEffect({ kind: "click" }, target, {
      root: after,
      changes: diffTrees(sheet("A1"), after),
    }, 1500);
  assert.match(
    judge(sheet("B1")).unverified ?? "",
    /another item took the click: sheet\/a1\/b1 became focused, not the element/,
  );
  // The cell itself took the cursor: the press landed (whatever else the judge says of it).
  assert.doesNotMatch(judge(sheet("B2")).unverified ?? "", /another item/);
});
