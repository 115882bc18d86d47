import assert from "node:assert/strict";
import type { Element, Role } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import { assignRefs, bestLabel, slug, traceRefs } from "../../src/refs/generate.ts";
import { validateRef } from "../../src/refs/resolve.ts";

/** Builds an element: role, label, children, extra keys. */
function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

/** Numbers and refs a tree; returns refs keyed by `role "label"` (first occurrence wins). */
function refsOf(root: Element): Map<Element, string> {
  assignIds(root);
  assignRefs(root);
  const out = new Map<Element, string>();
  for (const t of traceRefs(root)) out.set(t.el, t.el.ref!);
  return out;
}

Deno.test("slug: table of labels", () => {
  const cases: Array<[string, string]> = [
    ["Search", "search"],
    ["Full Name", "full-name"],
    ["New Window", "new-window"],
    ["Inbox 23288 unread", "inbox-23288-unread"],
    ["  --Hello,   World!--  ", "hello-world"],
    ["Save as…", "save-as"],
    ["e-mail address", "e-mail-address"],
    ["ファイルを開く", "ファイルを開く"],
    ["保存 (S)", "保存-s"],
    ["Сохранить как", "сохранить-как"],
    ["Ｆｕｌｌ　Ｗｉｄｔｈ", "full-width"],
    ["Crème Brûlée", "crème-brûlée"],
    ["!!!", ""],
    ["", ""],
    ["OK", "ok"],
  ];
  for (const [label, want] of cases) assert.equal(slug(label), want, label);
});

Deno.test("slug: long labels are cut to 40 code points at a word boundary", () => {
  const s = slug("The quick brown fox jumps over the lazy dog and keeps running far away");
  assert.ok(Array.from(s).length <= 40, s);
  assert.equal(s, "the-quick-brown-fox-jumps-over-the-lazy");
  assert.ok(!s.endsWith("-"));
  const noSpaces = slug("a".repeat(60));
  assert.equal(noSpaces, "a".repeat(40));
  const cjk = slug("日本語".repeat(20));
  assert.equal(Array.from(cjk).length, 40);
});

Deno.test("bestLabel: title, else description, else placeholder, never the value", () => {
  assert.equal(bestLabel(el("btn", "OK", undefined, { d: "Confirm" })), "OK");
  assert.equal(bestLabel(el("btn", undefined, undefined, { d: "Confirm" })), "Confirm");
  assert.equal(bestLabel(el("input", undefined, undefined, { ph: "Email", v: "a@b" })), "Email");
  assert.equal(bestLabel(el("input", undefined, undefined, { v: "typed" })), "");
  assert.equal(bestLabel(el("input", "  ", undefined, { d: " Help " })), "Help");
});

Deno.test("refs: seed 000 examples", () => {
  const search = el("input", "Search");
  const ok = el("btn", "OK");
  const newWindow = el("menuitem", "New Window");
  const fullName = el("input", "Full Name");
  const email = el("input", "Email");
  const submit = el("btn", "Submit");
  const inbox = el("lnk", "Inbox 23288 unread");
  const back = el("btn", "Back");
  const root = el("app", "Safari", [
    el("window", "Safari", [
      el("menubar", undefined, [el("menu", "File", [newWindow])]),
      el("toolbar", undefined, [el("group", undefined, [back]), search]),
      el("group", undefined, [
        el("scroll", undefined, [
          el("web", "Page", [
            el("form", undefined, [fullName, email, submit]),
            el("group", "Sidebar", [inbox]),
          ]),
        ]),
      ]),
      el("dialog", undefined, [ok]),
    ]),
  ]);
  const refs = refsOf(root);
  const table: Array<[Element, string]> = [
    [search, "toolbar/search"],
    [back, "toolbar/back"],
    [ok, "dialog/ok"],
    [newWindow, "menubar/file/new-window"],
    [fullName, "form/full-name"],
    [email, "form/email"],
    [submit, "form/submit"],
    [inbox, "sidebar/inbox-23288-unread"],
  ];
  for (const [e, want] of table) assert.equal(refs.get(e), want, e.t);
});

Deno.test("refs: AX-style menus (menu bar item > unlabeled menu) read like seed 000", () => {
  const item = el("menuitem", "New Window");
  const root = el("app", "Finder", [
    el("menubar", undefined, [el("menuitem", "File", [el("menu", undefined, [item])])]),
  ]);
  assert.equal(refsOf(root).get(item), "menubar/file/new-window");
});

Deno.test("refs: duplicates get .1, .2 in document order", () => {
  const a = el("btn", "OK");
  const b = el("btn", "OK");
  const cancel = el("btn", "Cancel");
  const root = el("window", "W", [el("dialog", undefined, [a, cancel, b])]);
  const refs = refsOf(root);
  assert.equal(refs.get(a), "dialog/ok.1");
  assert.equal(refs.get(b), "dialog/ok.2");
  assert.equal(refs.get(cancel), "dialog/cancel");
});

Deno.test("refs: compact rules skip window, scroll, web and anonymous groups", () => {
  const input = el("input", "Email");
  const root = el("window", "Main", [
    el("group", undefined, [
      el("scroll", "Scrolled", [el("group", undefined, [el("web", "Doc", [
        el("group", undefined, [el("form", undefined, [input])]),
      ])])]),
    ]),
  ]);
  assert.equal(refsOf(root).get(input), "form/email");
});

Deno.test("refs: labeled landmarks contribute their label, unlabeled their role", () => {
  const ok = el("btn", "OK");
  const save = el("btn", "Save");
  const nav = el("lnk", "Home");
  const root = el("window", "W", [
    el("dialog", "Save changes?", [ok]),
    el("toolbar", undefined, [save]),
    el("landmark", "Navigation", [nav]),
  ]);
  const refs = refsOf(root);
  assert.equal(refs.get(ok), "save-changes/ok");
  assert.equal(refs.get(save), "toolbar/save");
  assert.equal(refs.get(nav), "navigation/home");
});

Deno.test("refs: every element gets a ref, containers and text included", () => {
  const root = el("app", "Demo", [
    el("window", "Demo", [
      el("group", undefined, [el("txt", "Hello"), el("separator"), el("img")]),
      el("list", "Items", [el("row", undefined, [el("txt", "One")])]),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  const all = traceRefs(root).map((t) => t.el.ref);
  assert.deepEqual(all, [
    "demo", // the app
    "window", // its window, titled as its app
    "group",
    "hello",
    "separator",
    "img",
    "items",
    "items/one", // the row, keyed by its text
    "items/one/txt", // the text that keys it
  ]);
});

Deno.test("refs: row keys come from the first labeled cell, link or text", () => {
  const del17 = el("btn", "Delete");
  const del18 = el("btn", "Delete");
  const row17 = el("row", undefined, [
    el("cell", "Invoice 2024-17"),
    el("cell", "$30"),
    el("cell", undefined, [del17]),
  ]);
  const row18 = el("row", undefined, [
    el("cell", "Invoice 2024-18"),
    el("cell", "$12"),
    el("cell", undefined, [del18]),
  ]);
  const root = el("window", "Invoices", [el("list", undefined, [row17, row18])]);
  const refs = refsOf(root);
  assert.equal(refs.get(row17), "list/invoice-2024-17");
  assert.equal(refs.get(del17), "list/invoice-2024-17/delete");
  assert.equal(refs.get(del18), "list/invoice-2024-18/delete");
  // Cells without a column header are named by role: a value ("$30") never enters a ref.
  assert.equal(refs.get(row17.c![0]), "list/invoice-2024-17/cell.1");
  assert.equal(refs.get(row17.c![1]), "list/invoice-2024-17/cell.2");
  assert.equal(refs.get(row17.c![2]), "list/invoice-2024-17/cell.3");
});

/** An orders table: a header row, then rows of id, status, total and a Refund button. */
function ordersTable(rows: Array<[string, string, string]>): Element {
  const header = el(
    "row",
    undefined,
    ["Order", "Status", "Total", "Actions"].map((h) => el("colheader", h, [el("txt", h)])),
  );
  const body = rows.map(([id, status, total]) =>
    el("row", undefined, [
      el("cell", id, [el("txt", id)]),
      el("cell", status, [el("txt", status)]),
      el("cell", total, [el("txt", total)]),
      el("cell", "Refund", [el("btn", "Refund")]),
    ])
  );
  return el("window", "Shop", [el("table", "Orders", [header, ...body])]);
}

Deno.test("refs: cells are keyed by their column header, never by their value", () => {
  const root = ordersTable([["SO-1005", "Open", "$65.00"], ["SO-1006", "Paid", "$12.00"]]);
  const refs = [...refsOf(root).values()];
  for (const want of ["orders/so-1005/order", "orders/so-1005/status", "orders/so-1005/total"]) {
    assert.ok(refs.includes(want), want);
  }
  assert.ok(refs.includes("orders/so-1005/refund"));
  for (const value of ["open", "paid", "65-00", "12-00"]) {
    assert.ok(!refs.some((r) => r.split("/").includes(value)), `no ref carries ${value}`);
  }
  // A status change keeps every ref.
  const changed = ordersTable([["SO-1005", "Refunded", "$0.00"], ["SO-1006", "Paid", "$12.00"]]);
  assert.deepEqual([...refsOf(changed).values()], refs);
});

Deno.test("refs: a cell's text is keyed under its column, never by its place in the row", () => {
  // Chromium's grid: unnamed cells hold the texts. Keyed by position (`row/txt.2`), the City
  // text took Balance's ref once the City cell became an editor, and a diff said "310 -> Nice".
  const grid = (city: Element[]) =>
    el("table", "Customers", [
      el("row", undefined, ["Name", "City", "Balance"].map((h) => el("colheader", h))),
      el("row", undefined, [
        el("cell", undefined, [el("txt", "Bob Stone")]),
        el("cell", undefined, city),
        el("cell", undefined, [el("txt", "310")]),
      ]),
    ]);
  const texts = (root: Element) => {
    const refs = refsOf(root);
    return root.c![1].c!.map((cell) => cell.c!.map((k) => refs.get(k)));
  };
  assert.deepEqual(texts(grid([el("txt", "Paris")])), [
    ["customers/bob-stone/name/txt"],
    ["customers/bob-stone/city/txt"],
    ["customers/bob-stone/balance/txt"],
  ]);
  // The City cell now holds its editor, named as its column: Balance's text keeps its ref, and
  // so does the City cell (the editor is keyed under it).
  const editing = grid([el("input", "city")]);
  assert.deepEqual(texts(editing).slice(1), [
    ["customers/bob-stone/city/input"],
    ["customers/bob-stone/balance/txt"],
  ]);
  assert.equal(refsOf(editing).get(editing.c![1].c![1]), "customers/bob-stone/city");
  // A header named after its text and its sort button keys its column by its text.
  const sortable = el("table", "Customers", [
    el("row", undefined, [
      el("colheader", "Name"),
      el("colheader", "Balance Sort by Balance", [
        el("txt", "Balance"),
        el("btn", "Sort by Balance"),
      ]),
    ]),
    el("row", undefined, [el("cell", undefined, [el("txt", "Bob")]), el("cell", "310")]),
  ]);
  assert.equal(refsOf(sortable).get(sortable.c![1].c![1]), "customers/bob/balance");
});

Deno.test("refs: a table listing its cells directly keys them by virtual row and column", () => {
  // GTK 3 tree views: column headers, then the cells row after row, no row elements.
  const root = el("window", "Files", [
    el("table", "Files", [
      el("colheader", "Name"),
      el("colheader", "Size"),
      el("cell", "readme.txt"),
      el("cell", "2 kB"),
      el("cell", "notes.md"),
      el("cell", "7 kB"),
    ]),
  ]);
  const refs = refsOf(root);
  const cells = root.c![0].c!.slice(2).map((c) => refs.get(c));
  assert.deepEqual(cells, [
    "files/readme-txt",
    "files/readme-txt/size",
    "files/notes-md",
    "files/notes-md/size",
  ]);
});

Deno.test("refs: landmarks keep their kind; labeled ones use their label", () => {
  const root = el("window", "Page", [
    el("navigation", undefined, [el("lnk", "Home")]),
    el("main", undefined, [el("form", undefined, [el("input", "Email")])]),
    el("complementary", "Related", [el("lnk", "More")]),
  ]);
  const refs = [...refsOf(root).values()];
  assert.ok(refs.includes("navigation/home"));
  assert.ok(refs.includes("main/form/email"));
  assert.ok(refs.includes("related/more"));
});

Deno.test("refs: symbols fall back to the description; class names are not labels", () => {
  const times = el("btn", "×", undefined, { d: "Multiply [*]" });
  const div = el("btn", "÷", undefined, { d: "Divide [/]" });
  const gizmo = el("btn", "AdwGizmo");
  const menu = el("btn", "GtkMenuButton", undefined, { d: "Main Menu" });
  // galculator: the shortcut follows a wide gap ("Multiply    KP *").
  const star = el("toggle", "*", undefined, { d: "Multiply    KP *" });
  const back = el("toggle", "<-", undefined, { d: "Backspace\tBackSpace" });
  // FeatherPad (Qt): the key in parentheses ("Next (F3)", "Find (Ctrl+Shift+F)").
  const next = el("btn", undefined, undefined, { d: "Next (F3)" });
  const find = el("btn", undefined, undefined, { d: "Find (Ctrl+Shift+F)" });
  const part = el("btn", undefined, undefined, { d: "Part (2)" });
  const root = el("window", "Calculator", [
    times,
    div,
    gizmo,
    menu,
    el("group", "Keys", [star, back]),
    el("toolbar", "Search", [next, find, part]),
  ]);
  const refs = refsOf(root);
  assert.equal(refs.get(next), "search/next");
  assert.equal(refs.get(find), "search/find");
  assert.equal(refs.get(part), "search/part-2"); // a number is no key
  assert.equal(refs.get(star), "keys/multiply");
  assert.equal(refs.get(back), "keys/backspace");
  assert.equal(refs.get(times), "multiply");
  assert.equal(refs.get(div), "divide");
  assert.equal(refs.get(gizmo), "btn");
  assert.equal(refs.get(menu), "main-menu");
  assert.equal(bestLabel(menu), "Main Menu");
});

Deno.test("refs: a status bar's or progress bar's text is content, never in its ref", () => {
  const status = el("statusbar", "2 folders  |  1 file: 3 bytes");
  const progress = el("progress", "Copying 3 of 9");
  const root = el("window", "Files", [status, progress]);
  const refs = refsOf(root);
  assert.equal(refs.get(status), "statusbar");
  assert.equal(refs.get(progress), "progress");
});

Deno.test("refs: a numbered row is keyed by its title, not its position number", () => {
  const row = (n: number, title: string) =>
    el("row", undefined, [el("txt", `${n}.`), el("lnk", title), el("txt", "https://x.example")]);
  const first = row(1, "Hydration levels");
  const root = el("window", "Search", [el("list", "Results", [first, row(2, "Autolyse")])]);
  const refs = refsOf(root);
  assert.equal(refs.get(first), "results/hydration-levels");
  assert.equal(refs.get(first.c![1]), "results/hydration-levels/lnk");
});

Deno.test("refs: a row with its own label uses it; one with no text contributes nothing", () => {
  const chk = el("chk", "Enabled");
  const labeled = el("row", "Wi-Fi", [el("txt", "Connected")]);
  const bare = el("row", undefined, [chk]);
  const root = el("window", "Settings", [el("list", undefined, [labeled, bare])]);
  const refs = refsOf(root);
  assert.equal(refs.get(labeled), "list/wi-fi");
  assert.equal(refs.get(labeled.c![0]), "list/wi-fi/connected");
  assert.equal(refs.get(bare), "list/row");
  assert.equal(refs.get(chk), "list/enabled");
});

Deno.test("refs: a text child repeating its link's label does not collide with it", () => {
  const link = el("lnk", "Inbox", [el("txt", "Inbox")]);
  const root = el("window", "Mail", [el("landmark", "Sidebar", [link])]);
  const refs = refsOf(root);
  assert.equal(refs.get(link), "sidebar/inbox");
  assert.equal(refs.get(link.c![0]), "sidebar/inbox/txt");
});

Deno.test("refs: Japanese and Cyrillic labels give readable refs", () => {
  const open = el("btn", "開く");
  const save = el("btn", "Сохранить");
  const root = el("window", "W", [
    el("toolbar", "ツールバー", [open]),
    el("dialog", "Сохранение", [save]),
  ]);
  const refs = refsOf(root);
  assert.equal(refs.get(open), "ツールバー/開く");
  assert.equal(refs.get(save), "сохранение/сохранить");
});

Deno.test("refs: placeholder labels an input; its value never does", () => {
  const input = el("input", undefined, undefined, { ph: "Search mail", v: "from:bob" });
  const root = el("window", "Mail", [el("toolbar", undefined, [input])]);
  assert.equal(refsOf(root).get(input), "toolbar/search-mail");
});

/** A form with a list of invoice rows, for the stability tests. */
function invoices(rows: string[], emailValue = ""): Element {
  return el("app", "Books", [
    el("window", "Books", [
      el("toolbar", undefined, [el("btn", "New"), el("input", "Search")]),
      el("form", undefined, [
        el("input", "Email", undefined, emailValue ? { v: emailValue } : {}),
        el("btn", "Submit"),
      ]),
      el(
        "list",
        "Invoices",
        rows.map((r) =>
          el("row", undefined, [el("cell", r), el("cell", undefined, [el("btn", "Delete")])])
        ),
      ),
    ]),
  ]);
}

/** Refs of the elements with a given label or the row texts, keyed by label path. */
function refSet(root: Element): Set<string> {
  assignIds(root);
  assignRefs(root);
  return new Set(traceRefs(root).map((t) => t.el.ref!));
}

Deno.test("refs: inserting or removing an element elsewhere leaves other refs unchanged", () => {
  const before = refSet(invoices(["Invoice 17", "Invoice 18"]));
  const inserted = refSet(invoices(["Invoice 16", "Invoice 17", "Invoice 18"]));
  for (const r of before) assert.ok(inserted.has(r), `lost ${r} after insert`);
  const removed = refSet(invoices(["Invoice 18"]));
  for (const r of before) {
    if (!r.includes("invoice-17")) assert.ok(removed.has(r), `lost ${r} after removal`);
  }
  assert.ok(before.has("invoices/invoice-18/delete"));
});

Deno.test("refs: a value change does not change any ref", () => {
  const a = [...refSet(invoices(["Invoice 17"]))];
  const b = [...refSet(invoices(["Invoice 17"], "john@example.com"))];
  assert.deepEqual(b, a);
  assert.ok(a.includes("form/email"));
});

Deno.test("refs: deterministic for the same tree", () => {
  assert.deepEqual([...refSet(invoices(["A", "B"]))], [...refSet(invoices(["A", "B"]))]);
});

Deno.test("refs: very deep trees do not overflow", () => {
  let leaf: Element = el("btn", "Deep");
  const target = leaf;
  for (let k = 0; k < 20000; k++) leaf = el("group", undefined, [leaf]);
  const root = el("window", "W", [leaf]);
  assignRefs(root);
  assert.equal(target.ref, "deep");
});

Deno.test("refs: a tab titled like its page does not collide with the page", () => {
  const tab = el("tab", "Inbox - Mail");
  const web = el("web", "Inbox - Mail", [el("btn", "Compose")]);
  const root = el("app", "Browser", [
    el("window", "Browser", [el("tablist", undefined, [tab]), web]),
  ]);
  const refs = refsOf(root);
  assert.equal(refs.get(tab), "tablist/inbox-mail");
  assert.equal(refs.get(web), "inbox-mail");
  assert.equal(refs.get(web.c![0]), "compose");
});

Deno.test("refs: seed 000 compact examples (row without text contributes nothing)", () => {
  const email = el("input", "Email");
  const back = el("btn", "Back");
  const submit = el("btn", "Submit");
  const root = el("window", "W", [
    el("toolbar", undefined, [el("group", undefined, [back])]),
    el("group", undefined, [
      el("scroll", undefined, [
        el("group", undefined, [
          el("list", undefined, [el("row", undefined, [el("cell", undefined, [email])])]),
        ]),
      ]),
    ]),
    el("dialog", undefined, [submit]),
  ]);
  const refs = refsOf(root);
  assert.equal(refs.get(back), "toolbar/back");
  // Seed 000 shows list/row.3/email; a positional row index shifts on insertions, so a
  // row with no text of its own is left out of the path instead.
  assert.equal(refs.get(email), "list/email");
  assert.equal(refs.get(submit), "dialog/submit");
});

Deno.test("refs: very deep labeled paths are shortened from the outside to stay valid", () => {
  let leaf: Element = el("btn", "Go");
  const target = leaf;
  for (let k = 0; k < 30; k++) {
    leaf = el("group", `Section number ${k} with a long label text`, [leaf]);
  }
  assignRefs(el("window", "W", [leaf]));
  const ref = target.ref!;
  assert.ok(ref.length <= 492, String(ref.length));
  assert.ok(ref.endsWith("/section-number-0-with-a-long-label-text/go"), ref);
  validateRef(ref);
});

Deno.test("refs: a cell holding only a selection checkbox does not key its row", () => {
  const chk = el("chk", "Select SO-1001");
  const row = el("row", undefined, [
    el("cell", "Select SO-1001", [chk]),
    el("cell", "SO-1001", [el("lnk", "SO-1001")]),
    el("cell", "Paid"),
  ]);
  const root = el("window", "Shop", [el("table", "Orders", [row])]);
  const refs = refsOf(root);
  assert.equal(refs.get(row), "orders/so-1001");
  assert.equal(refs.get(chk), "orders/so-1001/select-so-1001");
  assert.equal(refs.get(row.c![1].c![0]), "orders/so-1001/lnk");
});

Deno.test("refs: a nested navigation's rows are keyed by their own button, not a sublist's link", () => {
  // <li><button>Guides</button><ul><li><a>Basics</a></li>...</ul></li>, as docs sites nest them.
  const basics = el("lnk", "Basics");
  const sub = el("list", undefined, [el("row", undefined, [basics])]);
  const guides = el("row", undefined, [el("btn", "Guides", undefined, { exp: true }), sub]);
  const root = el("window", "Docs", [el("navigation", "Documentation", [el("list", undefined, [
    guides,
  ])])]);
  const refs = refsOf(root);
  assert.equal(refs.get(guides), "documentation/list/guides");
  assert.equal(refs.get(guides.c![0]), "documentation/list/guides/btn");
  // The sublist is the row's: its items sit right under the row key, once.
  assert.equal(refs.get(basics), "documentation/list/guides/basics/lnk");
  assert.equal(refs.get(sub), "documentation/list/guides/list");
});

Deno.test("refs: a row's text wins over its buttons as its key", () => {
  const row = el("row", undefined, [el("btn", "Star"), el("txt", "Quarterly report")]);
  const root = el("window", "Mail", [el("list", "Inbox", [row])]);
  assert.equal(refsOf(root).get(row), "inbox/quarterly-report");
});

Deno.test("refs: a grid view's items (cells with no row and no header) are keyed by their text", () => {
  // GTK 4's GridView in a file manager: table > cell > cell > icon + name.
  const item = (name: string) =>
    el("cell", undefined, [el("cell", undefined, [el("img"), el("txt", name)])]);
  const grid = el("table", "Files", [item("report.pdf"), item("notes.txt"), item("report.pdf")]);
  const refs = refsOf(el("window", "Folder", [grid]));
  assert.deepEqual(grid.c!.map((c) => refs.get(c)), [
    "files/report-pdf.1",
    "files/notes-txt",
    "files/report-pdf.2",
  ]);
  assert.equal(refs.get(grid.c![1].c![0]), "files/notes-txt/cell");
  // Cells of a table with column headers stay keyed by their column, never by their value.
  const table = el("table", "Orders", [
    el("colheader", "Order"),
    el("colheader", "Status"),
    el("row", undefined, [el("cell", "SO-1005"), el("cell", "Open")]),
  ]);
  const orders = refsOf(el("window", "Shop", [table]));
  assert.equal(orders.get(table.c![2].c![1]), "orders/so-1005/status");
});

Deno.test("refs: a grid view's item is keyed by its first text that not every item shows", () => {
  // gnome-font-viewer: each font is a cell showing the sample "Aa", then the font's name.
  const font = (name: string) => el("cell", undefined, [el("txt", "Aa"), el("txt", name)]);
  const fonts = el("table", undefined, [font("C059"), font("C059, Bold"), font("Cantarell")]);
  const refs = refsOf(el("window", "Fonts", [fonts]));
  assert.deepEqual(fonts.c!.map((c) => refs.get(c)), [
    "table/c059",
    "table/c059-bold",
    "table/cantarell",
  ]);
  // One item alone: its first text keys it.
  const single = el("table", undefined, [font("C059")]);
  assert.equal(refsOf(el("window", "Fonts", [single])).get(single.c![0]), "table/aa");
  // Items whose first texts differ keep them, though later texts are shared.
  const files = el("table", undefined, [
    el("cell", undefined, [el("txt", "a.pdf"), el("txt", "PDF")]),
    el("cell", undefined, [el("txt", "b.pdf"), el("txt", "PDF")]),
  ]);
  const fileRefs = refsOf(el("window", "Files", [files]));
  assert.deepEqual(files.c!.map((c) => fileRefs.get(c)), ["table/a-pdf", "table/b-pdf"]);
});

Deno.test("refs: a tooltip 'Title: explanation' is named by its title; other descriptions whole", () => {
  const root = el("toolbar", undefined, [
    el("toggle", undefined, undefined, { d: "Free Select Tool: Select a hand-drawn region" }),
    el("btn", undefined, undefined, { d: "Note: this is a sentence with many words: really" }),
    el("btn", undefined, undefined, { d: "Open a file" }),
  ]);
  const refs = refsOf(root);
  assert.deepEqual(root.c!.map((c) => refs.get(c)), [
    "toolbar/free-select-tool",
    "toolbar/note",
    "toolbar/open-a-file",
  ]);
});

Deno.test("refs: a count the label ends with is not part of the ref ('Inbox (12)' is inbox)", () => {
  const root = el("toolbar", undefined, [
    el("btn", "In Names (2)"),
    el("tab", "Inbox (1,024)"),
    el("btn", "Updates [3]"),
    el("btn", "(12)"), // nothing but a count: the count is the label
    el("btn", "Chapter 2"), // a number that is part of the name
    el("lnk", "Issues 128", [el("txt", "Issues"), el("txt", "128")]), // a badge
    el("lnk", "Pull requests 12"), // no badge: the number may be a name
    el("lnk", "4 comments"),
    el("lnk", "98 Open"),
  ]);
  const refs = refsOf(root);
  assert.deepEqual(root.c!.map((c) => refs.get(c)), [
    "toolbar/in-names",
    "toolbar/inbox",
    "toolbar/updates",
    "toolbar/12",
    "toolbar/chapter-2",
    "toolbar/issues",
    "toolbar/pull-requests-12",
    "toolbar/comments",
    "toolbar/open",
  ]);
  // The count changes, the ref does not.
  const again = el("toolbar", undefined, [el("btn", "In Names (39)")]);
  assert.equal(refsOf(again).get(again.c![0]), "toolbar/in-names");
});

Deno.test("refs: a number that names an element stays; counts in rows leave their rows' refs alike", () => {
  // A pager: "Page 2" and "Page 3" are two links, not one link and a count.
  const pager = el("navigation", "Pagination", [el("lnk", "Page 2"), el("lnk", "Page 3")]);
  const refs = refsOf(pager);
  assert.deepEqual(pager.c!.map((c) => refs.get(c)), ["pagination/page-2", "pagination/page-3"]);
  // Each row's "N comments" is `comments` under its row, whatever N says.
  const list = el("list", "Issues", [
    el("row", undefined, [el("lnk", "Crash on save"), el("lnk", "4 comments")]),
    el("row", undefined, [el("lnk", "Dark mode"), el("lnk", "12 comments")]),
  ]);
  const rows = refsOf(list);
  assert.deepEqual(list.c!.map((r) => rows.get(r.c![1])), [
    "issues/crash-on-save/comments",
    "issues/dark-mode/comments",
  ]);
  // A row's key is an identifier: "Invoice 17" keys its row whole; a bracketed count leaves it.
  const one = el("table", "Invoices", [el("row", undefined, [el("cell", "Invoice 17")])]);
  assert.equal(refsOf(one).get(one.c![0]), "invoices/invoice-17");
  const mail = el("list", "Threads", [el("row", undefined, [el("lnk", "Project update (3)")])]);
  assert.equal(refsOf(mail).get(mail.c![0]), "threads/project-update");
  // A badge's own text is a value: named by its role.
  const inbox = el("navigation", "Main", [
    el("lnk", "Inbox 4", [el("txt", "Inbox"), el("txt", "4")]),
  ]);
  const inboxRefs = refsOf(inbox);
  assert.deepEqual(inbox.c![0].c!.map((k) => inboxRefs.get(k)), [
    "main/inbox/txt.1",
    "main/inbox/txt.2",
  ]);
});

Deno.test("refs: a window's title shown inside it as text is named by its role, no twin of the window", () => {
  // gnome-clocks' dialog: the header bar's title label says the window's title.
  const title = el("txt", "Add a New World Clock");
  const add = el("btn", "Add");
  const dialog = el("window", "Add a New World Clock", [el("group", undefined, [title, add])]);
  const heading = el("heading", "Print");
  const print = el("btn", "Print"); // a control keeps its label, and its ref: no twin of a window
  const printDialog = el("window", "Print", [heading, print]);
  const inForm = el("txt", "Print"); // on another path than its window: no echo of it
  const form = el("form", "Options", [inForm]);
  printDialog.c!.push(form);
  const refs = refsOf(el("app", "Clocks", [dialog, printDialog]));
  assert.equal(refs.get(dialog), "add-a-new-world-clock");
  assert.equal(refs.get(title), "txt");
  assert.equal(refs.get(add), "add");
  assert.equal(refs.get(heading), "heading");
  assert.equal(refs.get(printDialog), "print/window");
  assert.equal(refs.get(print), "print");
  assert.equal(refs.get(inForm), "options/print");
  // KWrite: the editor is named after the document its window shows, as the window is.
  const editor = el("input", "notes.txt");
  const kwrite = el("window", "notes.txt", [editor]);
  const edits = refsOf(el("app", "kwrite", [kwrite]));
  assert.equal(edits.get(kwrite), "notes-txt");
  assert.equal(edits.get(editor), "input");
});

Deno.test("refs: a group named as its window carries no title into what it holds", () => {
  // LibreOffice: the document frame inside the window says the window's title, which is the
  // document's name; the toolbar's refs must not change when the document is saved.
  const refsFor = (title: string) => {
    const save = el("btn", "Save");
    const standard = el("toolbar", "Standard", [save]);
    const frame = el("group", title, [standard]);
    const win = el("window", title, [frame]);
    const refs = refsOf(el("app", "soffice", [win]));
    return [refs.get(win), refs.get(frame), refs.get(standard), refs.get(save)];
  };
  const before = refsFor("Untitled 1 - LibreOffice Writer");
  const after = refsFor("notes.odt - LibreOffice Writer");
  assert.deepEqual(before.slice(1), ["group", "standard", "standard/save"]);
  assert.deepEqual(after.slice(1), before.slice(1));
  assert.notEqual(after[0], before[0], "the window itself is named by its title");
});

Deno.test("refs: twins only among peers; a popup, heading or table named like a control never twins it", () => {
  // An ARIA menubar: the submenu is the item's sibling and says the item's name.
  const font = el("menuitem", "Font");
  const bold = el("menuitem", "Bold");
  const fontMenu = el("menu", "Font", [bold]);
  const menubar = el("menubar", "Text Formatting", [font, fontMenu]);
  // A heading over the only switch of its name; a heading over its table.
  const heading = el("heading", "Notifications");
  const toggle = el("toggle", "Notifications");
  const kbHeading = el("heading", "Keyboard Support");
  const kbTable = el("table", "Keyboard Support", [el("row", undefined, [el("cell", "Tab")])]);
  // Two controls of one name are twins, as ever; a text beside them is not one of them.
  const ok1 = el("btn", "OK");
  const ok2 = el("btn", "OK");
  const okText = el("txt", "OK");
  const refs = refsOf(
    el("app", "Page", [menubar, heading, toggle, kbHeading, kbTable, ok1, ok2, okText]),
  );
  assert.equal(refs.get(font), "text-formatting/font");
  assert.equal(refs.get(fontMenu), "text-formatting/font/menu");
  assert.equal(refs.get(bold), "text-formatting/font/bold");
  assert.equal(refs.get(toggle), "notifications");
  assert.equal(refs.get(heading), "notifications/heading");
  assert.equal(refs.get(kbTable), "keyboard-support");
  assert.equal(refs.get(kbHeading), "keyboard-support/heading");
  assert.equal(refs.get(ok1), "ok.1");
  assert.equal(refs.get(ok2), "ok.2");
  assert.equal(refs.get(okText), "ok/txt");
  // LibreOffice's Options: a page "Table" appears in the page list, a table named as its dialog.
  const tableRow = el("row", "Table");
  const pages = el("table", "Options", [el("row", "General"), tableRow]);
  const options = refsOf(el("app", "soffice", [el("dialog", "Options", [pages])]));
  assert.equal(options.get(tableRow), "options/table");
  assert.equal(options.get(pages), "options/table/table");
  // The menu opening (it was absent) changes no ref of the menubar's item.
  const closed = refsOf(el("app", "Page", [el("menubar", "Text Formatting", [font])]));
  assert.equal(closed.get(font), "text-formatting/font");
});

Deno.test("refs: a dialog titled after the page it shows keeps its refs when another page is chosen", () => {
  // LibreOffice's Options: the title names the tree item chosen on the left.
  const refsFor = (page: string) => {
    const item = (t: string) => el("treeitem", t, undefined, t === page ? { s: true } : {});
    // Its page list is named like the dialog, as LibreOffice names it.
    const title = `Options - LibreOffice - ${page}`;
    const tree = el("tree", title, [item("User Data"), item("General"), item("View")]);
    const name = el("input", "First name");
    const dialog = el("dialog", title, [tree, name]);
    const refs = refsOf(el("app", "soffice", [dialog]));
    return [refs.get(dialog), refs.get(name), refs.get(tree.c![1])];
  };
  const before = refsFor("User Data");
  assert.deepEqual(before, [
    "options-libreoffice",
    "options-libreoffice/first-name",
    "options-libreoffice/general",
  ]);
  assert.deepEqual(refsFor("View"), before);
  // LibreOffice leaves the tree named after the page it first showed.
  const stale = (() => {
    const item = (t: string) => el("treeitem", t, undefined, t === "View" ? { s: true } : {});
    const tree = el("tree", "Options - LibreOffice - User Data", [item("User Data"), item("View")]);
    const dialog = el("dialog", "Options - LibreOffice - View", [tree]);
    const refs = refsOf(el("app", "soffice", [dialog]));
    return refs.get(tree.c![1]);
  })();
  assert.equal(stale, "options-libreoffice/view");
  // A title that names no chosen page stays whole.
  const plain = refsOf(el("app", "A", [el("dialog", "Save - Report", [el("btn", "Save")])]));
  assert.ok([...plain.values()].includes("save-report/save"));
});

Deno.test("refs: a header row is keyed by its first header, whether the header holds a text (Chromium) or not (Firefox)", () => {
  const withText = el("row", undefined, [
    el("colheader", "Board", [el("txt", "Board")]),
    el("colheader", "Price", [el("txt", "Price")]),
  ]);
  const bare = el("row", undefined, [el("colheader", "Board"), el("colheader", "Price")]);
  const a = refsOf(el("table", "Boards", [withText]));
  const b = refsOf(el("table", "Boards", [bare]));
  assert.equal(a.get(withText), "boards/board");
  assert.equal(b.get(bare), "boards/board");
});

Deno.test("refs: twins told apart only by their numbers keep them ('1 m', '5 m': a timer's presets)", () => {
  // gnome-clocks' timer: buttons "1 m", "2 m", "5 m", "1 h", each holding its text.
  const presets = () =>
    el("group", "Presets", ["1 m", "2 m", "5 m", "1 h"].map((t) => el("btn", t, [el("txt", t)])));
  const root = presets();
  const refs = refsOf(root);
  assert.deepEqual(root.c!.map((c) => refs.get(c)), [
    "presets/1-m",
    "presets/2-m",
    "presets/5-m",
    "presets/h",
  ]);
  assert.deepEqual(root.c!.map((c) => refs.get(c.c![0])), [
    "presets/1-m/txt",
    "presets/2-m/txt",
    "presets/5-m/txt",
    "presets/h/txt",
  ]);
  // Without "2 m", "5 m" keeps its ref: no position in it.
  const fewer = presets();
  fewer.c!.splice(1, 1);
  assert.equal(refsOf(fewer).get(fewer.c![1]), "presets/5-m");
  // Twins alike in their numbers too stay twins.
  const same = el("group", "Presets", [el("btn", "1 m"), el("btn", "1 m")]);
  const sameRefs = refsOf(same);
  assert.deepEqual(same.c!.map((c) => sameRefs.get(c)), ["presets/m.1", "presets/m.2"]);
});

Deno.test("refs: a spreadsheet's cells are keyed by their address, a table's other cells by their column", () => {
  const sheet = {
    i: 1,
    r: "table" as const,
    t: "Sheet Sheet1",
    c: [1, 2].map((n) => ({
      i: 10 * n,
      r: "row" as const,
      c: ["A", "B", "AA"].map((col, k) => ({
        i: 10 * n + k + 1,
        r: "cell" as const,
        t: `${col}${n}`,
      })),
    })),
  };
  assignRefs(sheet);
  assert.deepEqual(sheet.c[1].c.map((c) => (c as { ref?: string }).ref), [
    "sheet-sheet1/a2/a2",
    "sheet-sheet1/a2/b2",
    "sheet-sheet1/a2/aa2",
  ]);
  // Names that are not addresses stay out of the ref (a cell named by what it holds).
  const plain = {
    i: 1,
    r: "table" as const,
    t: "T",
    c: [{
      i: 2,
      r: "row" as const,
      c: [{ i: 3, r: "cell" as const, t: "Ada" }, { i: 4, r: "cell" as const, t: "42" }],
    }],
  };
  assignRefs(plain);
  assert.equal((plain.c[0].c[1] as { ref?: string }).ref, "t/ada/cell.2");
});
