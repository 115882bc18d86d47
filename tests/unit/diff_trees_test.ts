import assert from "node:assert/strict";
import { type Change, diffTrees } from "../../src/diff/diff.ts";
import type { Element, Role } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

interface Opts {
  rows?: string[];
  email?: string;
  focus?: boolean;
  okBounds?: [number, number, number, number];
  password?: string;
  dialog?: boolean;
}

/** A window whose parts vary with the options; ids and refs assigned. */
function screen(o: Opts = {}): Element {
  const root = el("window", "Shop", [
    el("form", undefined, [
      el("input", "Email", undefined, {
        ...(o.email ? { v: o.email } : {}),
        ...(o.focus ? { f: true } : {}),
      }),
      el("input", "Password", undefined, { sec: true, ...(o.password ? { v: o.password } : {}) }),
      el("btn", "OK", undefined, { b: o.okBounds ?? [10, 10, 80, 30], nid: "n-ok" }),
    ]),
    el(
      "list",
      "Orders",
      (o.rows ?? ["Order 1", "Order 2"]).map((t) =>
        el("row", undefined, [el("txt", t), el("btn", "Cancel")])
      ),
    ),
    ...(o.dialog ? [el("dialog", "Saved", [el("btn", "Close")])] : []),
  ]);
  assignIds(root);
  assignRefs(root);
  return root;
}

Deno.test("diff: identical trees have no changes", () => {
  assert.deepEqual(diffTrees(screen(), screen()), []);
});

Deno.test("diff: a row inserted at the top is one subtree added, nothing else", () => {
  const changes = diffTrees(screen(), screen({ rows: ["Order 0", "Order 1", "Order 2"] }));
  assert.deepEqual(changes.map((c) => [c.type, c.ref]), [
    ["added", "orders/order-0"],
    ["added", "orders/order-0/txt"],
    ["added", "orders/order-0/cancel"],
  ]);
  const added = changes[0] as Extract<Change, { type: "added" }>;
  assert.equal(added.p, "list");
  assert.equal(added.el.r, "row");
  assert.equal(added.el.i, 7);
  assert.ok(!("c" in added.el));
});

Deno.test("diff: a removed element lists ref, id, role and label", () => {
  const changes = diffTrees(screen({ dialog: true }), screen());
  assert.deepEqual(changes, [
    { type: "removed", ref: "saved", i: 13, r: "dialog", t: "Saved" },
    { type: "removed", ref: "saved/close", i: 14, r: "btn", t: "Close", up: "saved" },
  ]);
});

Deno.test("diff: changed fields come as [old, new]", () => {
  const changes = diffTrees(
    screen(),
    screen({ email: "a@b.c", focus: true, okBounds: [20, 10, 80, 30] }),
  );
  assert.deepEqual(changes, [
    { type: "changed", ref: "form/email", i: 3, changes: { v: [null, "a@b.c"], f: [false, true] } },
    { type: "changed", ref: "form/ok", i: 5, changes: { b: [[10, 10, 80, 30], [20, 10, 80, 30]] } },
  ]);
});

Deno.test("diff: state fields (chk, exp, e, s, t, d) are compared", () => {
  const a = el("form", undefined, [
    el("chk", "A", undefined, { chk: false }),
    el("combo", "B", undefined, { exp: false }),
    el("btn", "C"),
    el("row", "D"),
    el("txt", "E", undefined, { d: "old" }),
  ]);
  const b = el("form", undefined, [
    el("chk", "A", undefined, { chk: "mixed" }),
    el("combo", "B", undefined, { exp: true }),
    el("btn", "C", undefined, { e: false }),
    el("row", "D", undefined, { s: true }),
    el("txt", "E", undefined, { d: "new" }),
  ]);
  for (const t of [a, b]) {
    assignIds(t);
    assignRefs(t);
  }
  const got = Object.fromEntries(
    diffTrees(a, b).map((c) => [c.ref, c.type === "changed" ? c.changes : null]),
  );
  assert.deepEqual(got, {
    "form/a": { chk: [false, "mixed"] },
    "form/b": { exp: [false, true] },
    "form/c": { e: [true, false] },
    "form/d": { s: [false, true] },
    "form/e": { d: ["old", "new"] },
  });
});

Deno.test("diff: ignoreBounds and ignoreFocus drop those fields", () => {
  const before = screen();
  const after = screen({ focus: true, okBounds: [0, 0, 1, 1] });
  assert.equal(diffTrees(before, after).length, 2);
  assert.deepEqual(diffTrees(before, after, { ignoreBounds: true, ignoreFocus: true }), []);
  assert.deepEqual(
    diffTrees(before, after, { ignoreBounds: true }).map((c) => c.ref),
    ["form/email"],
  );
});

Deno.test("diff: a secure value is never compared or reported", () => {
  const changes = diffTrees(screen({ password: "one" }), screen({ password: "two" }));
  assert.deepEqual(changes, []);
  const added = diffTrees(
    el("window", "W", [], { ref: "w" }),
    {
      ...el("window", "W", [el("input", "PIN", undefined, { sec: true, v: "1234", ref: "pin" })]),
      ref: "w",
    },
  );
  assert.equal(added.length, 1);
  assert.ok(!JSON.stringify(added).includes("1234"));
});

Deno.test("diff: nid never appears in a change", () => {
  const changes = diffTrees(screen({ rows: [] }), screen());
  assert.ok(changes.length > 0);
  assert.ok(
    !JSON.stringify(diffTrees(el("window", "W", [], { ref: "w" }), screen())).includes("n-ok"),
  );
});

Deno.test("diff: a value change on an input keeps its ref (changed, not added/removed)", () => {
  const changes = diffTrees(screen({ email: "a" }), screen({ email: "b" }));
  assert.deepEqual(changes.map((c) => c.type), ["changed"]);
});

Deno.test("diff: a caption its owner's label says, and an unlabeled icon, get no change of their own", () => {
  // rustdoc's search tabs: a button "In Names (0)" holding the texts "In Names" and "(0)".
  const tabs = (count: string, icon: boolean) => {
    const root = el("window", "Docs", [
      el("btn", `In Names ${count}`, [el("txt", "In Names"), el("txt", count)]),
      el("lnk", icon ? "Exit" : "Search", [
        ...(icon ? [el("img")] : []),
        el("txt", icon ? "Exit" : "Search"),
      ], { nid: "n-link" }),
    ]);
    assignIds(root);
    assignRefs(root);
    return root;
  };
  const changes = diffTrees(tabs("(0)", false), tabs("(2)", true));
  assert.deepEqual(
    changes.map((c) => [c.type, c.ref, c.type === "changed" ? Object.keys(c.changes) : []]),
    [
      ["changed", "in-names", ["t"]],
      ["changed", "exit", ["ref", "t"]],
    ],
  );
  // A text that is not its owner's caption still reports.
  const a = el("window", "W", [
    el("btn", "Run", [el("txt", "idle", undefined, { nid: "n-state" })]),
  ]);
  const b = el("window", "W", [
    el("btn", "Run", [el("txt", "busy", undefined, { nid: "n-state" })]),
  ]);
  for (const t of [a, b]) assignIds(t), assignRefs(t);
  assert.deepEqual(diffTrees(a, b).map((c) => c.type), ["changed"]);
});

Deno.test("diff: a page navigated to is added whole: a button of the same ref is not the old page's", () => {
  // rustdoc: the search page and the HashSet page both hold a "Summary" button (ref main/summary).
  const page = (title: string, nid: string, enabled: boolean) => {
    const root = el("window", "Docs", [
      el("web", title, [
        el("main", undefined, [
          el("btn", "Summary", undefined, {
            nid: `${nid}-summary`,
            ...(enabled ? {} : { e: false }),
          }),
        ]),
      ], { nid }),
    ]);
    assignIds(root);
    assignRefs(root);
    return root;
  };
  const changes = diffTrees(page("Search", "p1", false), page("HashSet", "p2", true));
  assert.deepEqual(changes.map((c) => c.type).sort(), [
    "added",
    "added",
    "added",
    "removed",
    "removed",
    "removed",
  ]);
  assert.ok(!changes.some((c) => c.type === "changed"), JSON.stringify(changes));
});

Deno.test("diff: a dialog that takes the ref of the menu item that opened it is added, the item removed", () => {
  const app = (...tops: Element[]) => {
    const root = el("app", "gedit", tops);
    assignIds(root);
    assignRefs(root);
    return root;
  };
  const before = app(
    el("window", "Doc", [el("btn", "Menu"), el("btn", "Save As…", undefined, { nid: "item" })]),
  );
  const after = app(
    el("window", "Doc", [el("btn", "Menu")]),
    el("dialog", "Save As", [el("input", "Name")], { nid: "dialog" }),
  );
  assert.equal(before.c![0].c![1].ref, after.c![1].ref, "the same ref");
  const changes = diffTrees(before, after);
  assert.ok(
    changes.some((c) => c.type === "added" && c.el.r === "dialog"),
    JSON.stringify(changes),
  );
  assert.ok(changes.some((c) => c.type === "removed" && c.r === "btn"), JSON.stringify(changes));
  assert.ok(
    !changes.some((c) => c.type === "changed" && "r" in c.changes),
    JSON.stringify(changes),
  );
});

Deno.test("diff: a menu that opens adds the items a read now shows; closing it says nothing more", () => {
  // GTK keeps a menu bar entry's items in the tree while it is closed: off screen (no box),
  // read as `menu "View" (closed, 2 items)`. Opened, they are on screen, and the read lists them.
  const galculator = (open: boolean) => {
    const box = (y: number): Partial<Element> => open ? { b: [0, y, 120, 20] } : {};
    const root = el("app", "galculator", [
      el("window", "galculator", [
        el("menubar", undefined, [
          el("menu", "View", [
            el("menuitem", "Basic Mode", undefined, { nid: "basic", ...box(20) }),
            el("menuitem", "Paper Mode", undefined, { nid: "paper", ...box(40) }),
          ], { nid: "view", b: [0, 0, 40, 20], ...(open ? { s: true as const } : {}) }),
        ], { b: [0, 0, 400, 20] }),
      ], { b: [0, 0, 400, 300] }),
    ]);
    assignIds(root);
    assignRefs(root);
    return root;
  };
  const opened = diffTrees(galculator(false), galculator(true), { ignoreBounds: true });
  assert.deepEqual(
    opened.filter((c) => c.type === "added").map((c) => c.type === "added" && c.el.t),
    ["Basic Mode", "Paper Mode"],
  );
  const closed = diffTrees(galculator(true), galculator(false), { ignoreBounds: true });
  assert.deepEqual(closed.map((c) => c.type), ["changed"], JSON.stringify(closed));
});

Deno.test("diff: twin rows drawn anew in another order are a move, not their check boxes flipping", () => {
  // Two to-dos "Pay rent", the second ticked; "move up" on it draws the list anew (new nodes):
  // by index, `.1` would read as ticked and `.2` as unticked. What they show pairs them.
  const todos = (order: Array<[string, boolean]>) => {
    const root = el("app", "todo", [
      el(
        "list",
        "Items",
        order.map(([t, done]) =>
          el("listitem", undefined, [
            el("chk", `Toggle ${t}`, undefined, done ? { chk: true } : { chk: false }),
            el("txt", t),
            el("btn", "Move up"),
          ])
        ),
      ),
    ]);
    assignIds(root);
    assignRefs(root);
    return root;
  };
  const before = todos([["Buy milk", false], ["Pay rent", false], ["Pay rent", true]]);
  const after = todos([["Buy milk", false], ["Pay rent", true], ["Pay rent", false]]);
  const changes = diffTrees(before, after, { ignoreBounds: true });
  assert.ok(
    !changes.some((c) => c.type === "changed" && "chk" in c.changes),
    JSON.stringify(changes),
  );
  const moves = changes.flatMap((c) => c.type === "changed" && c.changes.at ? [c.changes.at] : []);
  assert.deepEqual(moves, [[2, 1]], JSON.stringify(changes));
  // Twins that show the same as before in the same order: nothing changed.
  assert.deepEqual(
    diffTrees(before, todos([["Buy milk", false], ["Pay rent", false], ["Pay rent", true]])),
    [],
  );
});

Deno.test("diff: a sort's moved rows give the new order, also a row that left and took its old index", () => {
  // A,B,C,D sorted to D,B,A,C (rows drawn anew): D and A moved; B is at its old index.
  const table = (keys: string[]) => {
    const root = el("app", "shop", [
      el("table", "Stock", keys.map((k) => el("row", undefined, [el("cell", k)]))),
    ]);
    assignIds(root);
    assignRefs(root);
    return root;
  };
  const changes = diffTrees(
    table(["A-100", "B-200", "C-300", "D-404"]),
    table(["D-404", "B-200", "A-100", "C-300"]),
  );
  const moved = changes.flatMap((c) =>
    c.type === "changed" && c.changes.at ? [[c.ref, c.changes.at]] : []
  );
  assert.deepEqual(moved, [["stock/d-404", [3, 0]], ["stock/a-100", [0, 2]]]);
});

Deno.test("diff: a page's new title is said once, not again by its window and its browser tab", () => {
  const browser = (title: string) => ({
    i: 1,
    ref: "app",
    r: "app" as const,
    c: [{
      i: 2,
      ref: `${title}-chromium`,
      r: "window" as const,
      nid: "w",
      t: `${title} - Chromium`,
      c: [
        { i: 3, ref: `tabs/${title}`, r: "tab" as const, t: title, nid: "t" },
        {
          i: 4,
          ref: title,
          r: "web" as const,
          t: title,
          nid: "d",
          c: [{ i: 5, ref: "save", r: "btn" as const, t: "Save", nid: "s" }],
        },
        // An app's own tab named like something else is news.
        {
          i: 6,
          ref: "tabs/other",
          r: "tab" as const,
          nid: "o",
          t: title === "inbox" ? "Drafts" : "Sent",
        },
      ],
    }],
  });
  const changes = diffTrees(browser("inbox"), browser("inbox-3"));
  assert.deepEqual(changes.map((c) => [c.ref, c.type === "changed" ? c.changes.t : null]), [
    ["inbox-3", ["inbox", "inbox-3"]],
    ["tabs/other", ["Drafts", "Sent"]],
  ]);
});
