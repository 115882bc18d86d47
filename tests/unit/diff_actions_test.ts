import assert from "node:assert/strict";
import { getEncoding } from "js-tiktoken";
import { type Change, diffTrees } from "../../src/diff/diff.ts";
import { isSilentChange, trimChanges, visibleText } from "../../src/diff/noise.ts";
import { trimmedResult } from "../../src/mcp/tools.ts";
import { isTransient } from "../../src/diff/transient.ts";
import { judgeEffect, settleChanges } from "../../src/act/effect.ts";
import { renderChanges } from "../../src/output/render.ts";
import type { Bounds, Element, Role } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { OPS } from "../../src/ops/table.ts";

const enc = getEncoding("o200k_base");
const tokens = (s: string) => enc.encode(s).length;

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

function tree(root: Element): Element {
  assignIds(root);
  assignRefs(root);
  return root;
}

const NAMES = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Dennis"];

/** A table of people whose rows come in the given order (each row keyed by its name). */
function people(
  order: readonly string[],
  extra: (name: string) => Partial<Element> = () => ({}),
): Element {
  return tree(el("window", "Directory", [
    el("table", "People", [
      el("row", undefined, [el("colheader", "Name", undefined, { sort: "other" })]),
      ...order.map((name) =>
        el("row", undefined, [el("cell", name), el("cell", `${name.length}`)], {
          nid: `row-${name}`,
          ...extra(name),
        })
      ),
    ]),
  ]));
}

const text = (changes: Change[]) => renderChanges(changes, "agent");

Deno.test("diff: a sort is a reorder: the fewest rows that explain the new order move", () => {
  const before = people(NAMES);
  // Sorted the other way: every row but one moved.
  const sorted = [...NAMES].reverse();
  const after = people(sorted);
  const changes = diffTrees(before, after);
  const moved = changes.filter((c) => c.type === "changed" && "at" in c.changes);
  assert.ok(moved.length > 0 && moved.length < NAMES.length, `${moved.length} moved`);
  for (const m of moved) {
    assert.equal(m.type === "changed" && m.in, "people");
    const [from, to] = (m as Extract<Change, { type: "changed" }>).changes.at as number[];
    assert.notEqual(from, to);
  }
  // Many moved: one line for the table, naming the new order's first moved rows.
  const out = text(changes);
  assert.equal(out.trim().split("\n").length, 1, out);
  assert.match(out, /^~ \[-\|people\] reordered: \d+ moved \(now /);
  // A row inserted at the top moves nothing.
  const inserted = diffTrees(before, people(["Zed", ...NAMES]));
  assert.deepEqual(inserted.filter((c) => c.type === "changed"), []);
});

Deno.test("diff: two rows that swapped are one moved line each", () => {
  const before = people(NAMES);
  const swapped = [...NAMES];
  [swapped[1], swapped[4]] = [swapped[4], swapped[1]];
  const out = text(diffTrees(before, people(swapped)));
  const lines = out.trim().split("\n");
  assert.ok(lines.length <= 2, out);
  for (const line of lines) assert.match(line, /^~ \[\d+\|people\/\w+\] moved: \d+ -> \d+$/);
});

Deno.test("judge: an action whose only effect is a reorder is verified", () => {
  const before = people(NAMES);
  const after = people([...NAMES].reverse());
  const header = after.c![0].c![0].c![0];
  // The header took the focus and its rows moved: the click did something.
  header.f = true;
  const changes = diffTrees(before, after);
  const e = judgeEffect({ kind: "click" }, header, { root: after, changes }, 1500);
  assert.equal(e.unverified, undefined);
  assert.ok(text(changes).includes("reordered"));
  // Only the focus: unverified, as before.
  const still = people(NAMES);
  still.c![0].c![0].c![0].f = true;
  const focusOnly = diffTrees(before, still);
  const f = judgeEffect({ kind: "click" }, header, { root: still, changes: focusOnly }, 1500);
  assert.match(f.unverified ?? "", /only the keyboard focus moved/);
});

Deno.test("render: a renumbered twin prints under its new ref only, with no summary line", () => {
  const out = text([
    {
      type: "changed",
      ref: "main/group.4",
      i: 40,
      changes: { ref: ["main/group.3", "main/group.4"] },
    },
    {
      type: "changed",
      ref: "main/group.5",
      i: 41,
      changes: { ref: ["main/group.4", "main/group.5"], t: ["Draft", "Sent"] },
    },
  ]);
  assert.equal(out, '~ [41|main/group.5] t: "Draft" -> "Sent"\n');
  assert.doesNotMatch(out, /renumbered/);
  // A real rename still says where the ref went.
  assert.equal(
    text([{
      type: "changed",
      ref: "form/name",
      i: 3,
      changes: { ref: ["form/nom", "form/name"] },
    }]),
    '~ [3|form/name] ref: "form/nom" -> "form/name"\n',
  );
});

Deno.test("render: a change that shows nothing new prints nothing", () => {
  const silent: Change[] = [
    // An icon-font glyph (private use) that changed, the label unchanged.
    {
      type: "changed",
      ref: "nav/reports",
      i: 7,
      changes: { t: ["\uE0C8 Reports", "\uE0C9 Reports"] },
    },
    { type: "changed", ref: "txt.1", i: 8, changes: { t: ["", null] } },
    { type: "changed", ref: "txt.2", i: 9, changes: { t: ["Total ", " Total"] } },
    { type: "changed", ref: "txt.3", i: 10, changes: { d: ["\u200b", ""] } },
  ];
  for (const ch of silent) assert.ok(isSilentChange(ch), ch.ref);
  assert.equal(text(silent), "");
  assert.equal(visibleText("\uE0C8 Reports"), "Reports");
  // What did change is printed, without the silent fields beside it.
  assert.equal(
    text([{
      type: "changed",
      ref: "nav/reports",
      i: 7,
      changes: { t: [" a", "a "], exp: [false, true] },
    }]),
    "~ [7|nav/reports] exp: false -> true\n",
  );
  // An action whose only changes are silent is not verified by them.
  const btn = el("btn", "Reports", undefined, { ref: "nav/reports", i: 7 });
  const e = judgeEffect({ kind: "click" }, btn, { root: btn, changes: silent.slice(0, 1) }, 1500);
  assert.match(e.unverified ?? "", /nothing visible changed/);
});

Deno.test("diff: bubbles and tooltips the app shows by itself are not added, nor removed", () => {
  const page = () => el("window", "Shop - Chromium", [el("group", "Shop", [el("lnk", "Next")])]);
  const before = tree(el("app", "Chromium", [page()]));
  const bubble = el("window", undefined, [el("group", undefined, [el("txt", "example.com/next")])]);
  const tip = el("tooltip", "Open the next page");
  const after = tree(el("app", "Chromium", [page(), bubble, tip]));
  assert.equal(isTransient(bubble), true);
  assert.deepEqual(diffTrees(before, after), []);
  assert.deepEqual(diffTrees(after, before), []);
  // A new window with something to act on is news.
  const dialog = el("window", "Print", [el("btn", "Cancel")]);
  const opened = tree(el("app", "Chromium", [page(), dialog]));
  const added = diffTrees(before, opened).filter((c) => c.type === "added");
  assert.deepEqual(added.map((c) => c.type === "added" && c.el.r), ["window", "btn"]);
  // The tree's root is never left out, whatever it holds.
  const win = tree(el("window", "Notes", [el("txt", "one")]));
  const win2 = tree(el("window", "Notes", [el("txt", "two")]));
  assert.ok(diffTrees(win, win2).length > 0);
});

/** A page with a modal dialog (inside its backdrop group) of `fields` labelled inputs. */
function withDialog(fields: number): Element {
  return tree(el("window", "App", [
    el("main", undefined, [
      el("btn", "Settings"),
      ...(fields
        ? [
          el("group", undefined, [
            el("dialog", "Settings", [
              el("heading", "Settings"),
              ...Array.from({ length: fields }, (_, k) => el("input", `Field ${k + 1}`)),
              el("btn", "Save"),
              el("btn", "Cancel"),
            ]),
          ]),
        ]
        : []),
    ]),
  ]));
}

Deno.test("render: a small new dialog is printed whole, with its role; a large one names it", () => {
  const small = text(diffTrees(withDialog(0), withDialog(3)));
  assert.match(small, /^\+ \[\d+\|[^\]]*\] dialog "Settings"/m);
  assert.match(small, /input "Field 3"/);
  assert.match(small, /btn "Save"/);
  assert.doesNotMatch(small, /scope-ref|group/);
  assert.ok(tokens(small) < 150, `${tokens(small)} tokens`);
  const large = text(diffTrees(withDialog(0), withDialog(40)));
  assert.equal(large.trim().split("\n").length, 1, large);
  assert.match(
    large,
    /^\+ \[\d+\|([^\]]*)\] dialog "Settings" \(and \d+ inside: read --scope-ref \1\)/,
  );
});

Deno.test("render: an opened menu lists its items", () => {
  const closed = () => el("btn", "Actions", undefined, { exp: false });
  const before = tree(el("window", "App", [closed()]));
  const after = tree(el("window", "App", [
    el("btn", "Actions", undefined, { exp: true }),
    el(
      "menu",
      "Actions",
      ["Rename", "Duplicate", "Archive", "Delete"].map((t) => el("menuitem", t)),
    ),
  ]));
  const out = text(diffTrees(before, after));
  for (const item of ["Rename", "Duplicate", "Archive", "Delete"]) {
    assert.match(out, new RegExp(`menuitem "${item}"`));
  }
  assert.match(out, /exp: false -> true/);
});

/** A long list scrolled by `dy`: every row's box moved. */
function list(dy: number): Element {
  return tree(el("window", "Inbox", [
    el(
      "list",
      "Messages",
      Array.from({ length: 300 }, (_, k) =>
        el("listitem", `Message ${k}`, undefined, {
          b: [0, 40 * k - dy, 600, 40] as Bounds,
        })),
    ),
  ]));
}

Deno.test("settle: a scroll reports no boxes unless asked, and is verified by them", async () => {
  const before = list(0);
  const after = list(2000);
  const sleep = () => Promise.resolve();
  const read = () => Promise.resolve(after);
  const quiet = await settleChanges(before, read, { bounds: true, sleep });
  assert.deepEqual(quiet.changes, []);
  assert.equal(quiet.boxesOnly, 300);
  const target = before.c![0];
  const e = judgeEffect({ kind: "scroll", direction: "down", amount: 5 }, target, quiet, 1500);
  assert.equal(e.unverified, undefined);
  assert.equal(text(e.changes), "");
  const asked = await settleChanges(before, read, { bounds: true, reportBounds: true, sleep });
  assert.equal(asked.changes.length, 300);
  assert.ok(asked.changes.every((c) => c.type === "changed" && "b" in c.changes));
});

Deno.test("ops: actions and observe take bounds, on every face", () => {
  for (
    const name of [
      "click",
      "type",
      "key",
      "action",
      "set_value",
      "scroll",
      "drag",
      "focus",
      "observe",
    ]
  ) {
    const op = Object.values(OPS).find((o) => o.name === name);
    assert.ok(op, name);
    const p = (op.params as ReadonlyArray<{ name: string; type: string; face?: string }>).find((
      p,
    ) => p.name === "bounds");
    assert.ok(p && p.type === "boolean" && p.face === undefined, `${name} takes bounds`);
  }
});

Deno.test("trim: an action's data lists exactly the changes its text prints", () => {
  const rows = (names: string[], glyph: string, qty: string) =>
    tree(el("window", "Cart", [
      el("lnk", `${glyph} Reports`),
      el(
        "toolbar",
        "Items",
        names.flatMap((n) => [
          el("txt", n, undefined, { nid: `txt-${n}` }),
          el("btn", "Remove", undefined, { nid: `rm-${n}` }),
        ]),
      ),
      el("input", "Qty", undefined, { v: qty }),
      el("txt", ""),
    ]));
  const before = rows(["Tea", "Milk", "Bread"], "\uE0C8", "1");
  const after = rows(["Milk", "Bread"], "\uE0C9", "2");
  const raw = diffTrees(before, after);
  const trimmed = trimChanges(raw);
  // The text is the same from either list: nothing the text leaves out is in the data.
  assert.equal(text(trimmed), text(raw));
  const printed = text(trimmed).trim().split("\n").map((l) => l.split("|")[1]?.split("]")[0]);
  for (const ch of trimmed) {
    const at = ch.type === "changed" ? ch.ref : ch.up ?? ch.ref;
    assert.ok(printed.includes(at), `${ch.ref} is data but no line: ${text(trimmed)}`);
  }
  // No glyph-only label change, no twin renumbering; the value change stays.
  assert.ok(
    !trimmed.some((c) => c.type === "changed" && "t" in c.changes),
    JSON.stringify(trimmed),
  );
  assert.ok(!trimmed.some((c) => c.type === "changed" && "ref" in c.changes));
  assert.ok(trimmed.some((c) => c.type === "changed" && c.changes.v?.[1] === "2"));
  assert.ok(raw.some((c) => c.type === "changed" && "ref" in c.changes), "a twin was renumbered");
  assert.ok(raw.length > trimmed.length, "the raw diff had changes to trim");
  // Trimmed twice is trimmed once.
  assert.deepEqual(trimChanges(trimmed), trimmed);
});

Deno.test("trim: a caption renamed with its link is one change, in the text and in the data", () => {
  // A link keyed by its landmark (its ref stays) whose label and caption both changed.
  const raw: Change[] = [
    { type: "changed", ref: "pager/lnk", i: 4, changes: { t: ["Next", "Next page"] } },
    { type: "changed", ref: "pager/lnk/txt", i: 5, changes: { t: ["Next", "Next page"] } },
  ];
  const trimmed = trimChanges(raw);
  assert.ok(raw.length > trimmed.length, JSON.stringify(raw));
  assert.equal(trimmed.length, 1, JSON.stringify(trimmed));
  assert.equal(text(trimmed), text(raw));
  assert.equal(text(trimmed).trim().split("\n").length, 1);
});

Deno.test("trim: boxes leave changes and added elements unless asked for", () => {
  const box = (y: number): Bounds => [0, y, 100, 20];
  const before = tree(el("window", "W", [el("btn", "A", undefined, { b: box(0) })]));
  const after = tree(el("window", "W", [
    el("btn", "A", undefined, { b: box(40) }),
    el("btn", "B", undefined, { b: box(0) }),
  ]));
  const raw = diffTrees(before, after);
  const trimmed = trimChanges(raw);
  assert.deepEqual(trimmed.map((c) => c.type), ["added"]);
  assert.ok(!("b" in (trimmed[0] as Extract<Change, { type: "added" }>).el));
  const kept = trimChanges(raw, { bounds: true });
  assert.deepEqual(kept.map((c) => c.type).sort(), ["added", "changed"]);
  assert.deepEqual(trimmedResult({ ok: true, changes: raw }, false), {
    ok: true,
    changes: trimmed,
  });
});

Deno.test("diff: a row that kept its place while others moved around it is not 'moved'", () => {
  // Reversed around the middle row: it stays where it was ("3 -> 3" was printed).
  const order = ["Ada", "Ben", "Cy", "Dee", "Eve"];
  const changes = diffTrees(people(order), people([...order].reverse()));
  for (const c of changes) {
    if (c.type !== "changed" || !("at" in c.changes)) continue;
    const [from, to] = c.changes.at as number[];
    assert.notEqual(from, to, `${c.ref} moved ${from} -> ${to}`);
  }
});

Deno.test("diff: a renamed row is one change: its cells' refs follow it and say nothing", () => {
  // thunar: renaming beta.txt to gamma.txt re-keys the row; its cells keep their nodes.
  const t = "details/table";
  const raw: Change[] = [
    { type: "added", ref: `${t}/gamma-txt`, el: { i: 4, r: "row" } },
    ...["name", "size", "type"].map((c): Change => ({
      type: "changed",
      ref: `${t}/gamma-txt/${c}`,
      i: 1,
      changes: { ref: [`${t}/beta-txt/${c}`, `${t}/gamma-txt/${c}`] },
    })),
    {
      type: "changed",
      ref: `${t}/gamma-txt/cell.2`,
      i: 2,
      changes: {
        ref: [`${t}/beta-txt/cell.2`, `${t}/gamma-txt/cell.2`],
        t: ["beta.txt", "gamma.txt"],
      },
    },
    { type: "removed", ref: `${t}/beta-txt`, i: 3, r: "row" },
  ];
  const trimmed = trimChanges(raw);
  assert.deepEqual(trimmed.map((c) => c.type), ["added", "changed", "removed"]);
  const cell = trimmed[1] as Extract<Change, { type: "changed" }>;
  assert.deepEqual(Object.keys(cell.changes), ["t"], "the label change stays, the ref change goes");
});

Deno.test("trim: a cell whose ref only follows its row's new name says nothing; its row's change does", () => {
  // gnome-system-monitor sorted: GTK keeps its cell objects and gives their rows other processes.
  const changes: Change[] = [
    {
      type: "changed",
      ref: "table/sh/cpu",
      i: 5,
      changes: { ref: ["table/deno/cpu.5", "table/sh/cpu"] },
    },
    {
      type: "changed",
      ref: "table/sh/memory",
      i: 6,
      changes: { ref: ["table/deno/memory.5", "table/sh/memory"], t: ["90 MB", "1 MB"] },
    },
    { type: "changed", ref: "main/exit", i: 7, changes: { ref: ["main/search", "main/exit"] } },
  ];
  assert.deepEqual(trimChanges(changes), [
    { type: "changed", ref: "table/sh/memory", i: 6, changes: { t: ["90 MB", "1 MB"] } },
    { type: "changed", ref: "main/exit", i: 7, changes: { ref: ["main/search", "main/exit"] } },
  ]);
});

Deno.test("render: a new unlabeled part prints what a read prints of it, not its punctuation", () => {
  // gnome-clocks' stopwatch: "00" "∶" "00" "∶" "00" "." "0" in an unlabeled box, and its buttons.
  const changes: Change[] = [
    { type: "added", ref: "group", el: { i: 0, r: "group" } },
    ...["00", "∶", "00", ".", "0"].map((t, k) => ({
      type: "added" as const,
      ref: `group/txt.${k + 1}`,
      el: { i: 0, r: "txt" as const, t },
      up: "group",
    })),
    { type: "added", ref: "group/start", el: { i: 0, r: "btn", t: "Start" }, up: "group" },
  ];
  assert.deepEqual(renderChanges(changes, "agent").trimEnd().split("\n"), [
    '+ [-|group/txt.1] "00"',
    '+ [-|group/txt.3] "00"',
    '+ [-|group/txt.5] "0"',
    '+ [-|group/start] btn "Start"',
  ]);
});

Deno.test("trim: a caret that came with the focus, or moved with the typed text, says nothing", () => {
  const changes: Change[] = [
    { type: "changed", ref: "name", i: 3, changes: { f: [false, true], sel: [null, [0, 0]] } },
    { type: "changed", ref: "bio", i: 4, changes: { v: ["", "abc"], sel: [[0, 0], [3, 3]] } },
    { type: "changed", ref: "doc", i: 5, changes: { sel: [[17, 17], [0, 17]] } },
  ];
  assert.deepEqual(trimChanges(changes), [
    { type: "changed", ref: "name", i: 3, changes: { f: [false, true] } },
    { type: "changed", ref: "bio", i: 4, changes: { v: ["", "abc"] } },
    { type: "changed", ref: "doc", i: 5, changes: { sel: [[17, 17], [0, 17]] } },
  ]);
});
