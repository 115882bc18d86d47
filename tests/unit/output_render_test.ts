import assert from "node:assert/strict";
import YAML from "yaml";
import { type Change, diffTrees } from "../../src/diff/diff.ts";
import { type Bounds, type Element, PRINTED_KEYS, type Role } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import {
  agentTargets,
  elementData,
  elementLine,
  informativeActions,
  quote,
  renderChanges,
  renderElements,
} from "../../src/output/mod.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { READ_MAX_TEXT } from "../../src/output/agent_line.ts";
import { resolveRef } from "../../src/refs/resolve.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

const SECRET = "hunter2-s3cret";

/** A small app: toolbar, list with a row, form with a password (with a value set by mistake). */
function app(): Element {
  const root = el("app", "Books", [
    el("window", "Books", [
      el("toolbar", undefined, [
        el("btn", "New", [el("txt", "New")], { a: ["click"] }),
        el("input", "Search", undefined, { f: true, ph: "Search invoices", b: [200, 50, 800, 30] }),
      ]),
      el("group", undefined, [
        el("scroll", undefined, [
          el("list", "Invoices", [
            el("row", undefined, [
              el("cell", "Invoice 17", [el("txt", "Invoice 17")]),
              el("cell", "$30"),
              el("cell", undefined, [el("btn", "Delete")]),
            ], { s: true }),
          ]),
        ]),
      ]),
      el("form", undefined, [
        el("input", "Email", undefined, { v: "john@example.com", req: true }),
        el("input", "Password", undefined, { sec: true, v: SECRET, nid: "native-1" }),
        el("chk", "Remember me", undefined, { chk: false, a: ["toggle"] }),
        el("combo", "Country", undefined, { exp: false, e: false, a: ["press", "edit"] }),
        el("slider", "Volume", undefined, { v: "30", min: 0, max: 100 }),
        el("heading", "Billing", undefined, { lv: 2 }),
      ]),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  return root;
}

Deno.test("agent: one line per element with [id|ref], role, label, bounds and flags", () => {
  const text = renderElements(app(), { format: "agent" });
  const lines = text.trimEnd().split("\n");
  assert.ok(text.endsWith("\n"));
  assert.ok(
    lines.includes(
      '      [6|toolbar/search] input "Search" (200,50,800,30) focused ph="Search invoices"',
    ),
  );
  assert.ok(lines.includes('      [4|toolbar/new] btn "New"'), "click is not informative");
  assert.ok(
    lines.some((l) => l.trim() === '[17|form/email] input "Email" val="john@example.com" required'),
  );
  assert.ok(lines.some((l) => l.trim() === '[19|form/remember-me] chk "Remember me"'));
  assert.ok(
    lines.some((l) => l.trim() === '[20|form/country] combo "Country" disabled actions=edit'),
  );
  assert.ok(
    lines.some((l) => l.trim() === '[21|form/volume] slider "Volume" val="30" range=0..100'),
  );
  assert.ok(lines.some((l) => l.trim() === '[22|form/billing] heading "Billing" lv=2'));
});

Deno.test("agent: tree mode indents 2 spaces per printed level; anonymous containers are skipped", () => {
  const lines = renderElements(app(), { format: "agent" }).trimEnd().split("\n");
  assert.equal(lines[0], '[1|books] app "Books"');
  assert.equal(lines[1], '  [2|window] window "Books"');
  assert.equal(lines[2], "    [3|toolbar] toolbar");
  // The unlabeled group and scroll area carry nothing: the list sits right under the window.
  assert.ok(lines.includes('    [9|invoices] list "Invoices"'));
  assert.ok(!lines.some((l) => /\] (group|scroll)\b/.test(l)));
});

Deno.test("agent: a text child repeating its parent's label is collapsed", () => {
  const text = renderElements(app(), { format: "agent" });
  assert.ok(!text.includes("toolbar/new/txt"));
  assert.ok(!text.includes("invoices/invoice-17/txt"));
});

Deno.test("agent: a text child repeating its parent's whole value gets no line (contenteditable)", () => {
  const note = "Remember the retro on Friday.";
  const root = el("window", "Board", [
    el("input", "Notes", [el("txt", note)], { v: note }),
    el("input", "Title", [el("txt", "Retro")], { v: "Retro and planning" }),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.equal(text.split(note).length - 1, 1, text);
  assert.ok(text.includes(`"Retro"`), "a text saying part of the value is its own");
});

Deno.test("agent: a disabled wrapper around disabled controls prints no line (GTK tool items)", () => {
  const root = el("toolbar", undefined, [
    el("group", undefined, [el("btn", "Save", undefined, { e: false })], { e: false }),
    el("group", undefined, [el("btn", "Back", undefined, { e: false }), el("btn", "Go")], {
      e: false,
    }),
  ]);
  assignIds(root);
  assignRefs(root);
  const lines = renderElements(root, { format: "agent" }).split("\n").map((l) => l.trim());
  assert.ok(lines.includes('[3|toolbar/save] btn "Save" disabled'), lines.join("\n"));
  assert.equal(lines.filter((l) => / group\b/.test(l)).length, 1, "the mixed one keeps its line");
});

Deno.test("agent: an unlabeled status bar or tool bar with nothing to show prints no line", () => {
  // meld: an empty status bar above each pane, then one with a message.
  const root = el("window", "Meld", [
    el("statusbar", undefined, [el("group", undefined, [])]),
    el("toolbar", undefined, []),
    el("statusbar", undefined, [el("txt", "Files are identical")]),
    el("statusbar", "Information", []),
    el("input", undefined, undefined, { v: "alpha" }),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.equal(text.match(/ statusbar\b/g)?.length, 2, text);
  assert.doesNotMatch(text, / toolbar\b/, text);
  assert.match(text, /"Files are identical"/);
  assert.match(text, /statusbar "Information"/);
});

Deno.test("agent: a spin box's own editor saying its value again prints no line (Qt)", () => {
  const root = el("toolbar", "Edit", [
    el("spin", undefined, [el("input", undefined, undefined, { v: "1 / 17" })], {
      v: "1 / 17",
      min: 1,
      max: 17,
    }),
    // An editor that says something else keeps its line.
    el("combo", undefined, [el("input", undefined, undefined, { v: "150 %" })], { v: "100 %" }),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.equal(text.split("1 / 17").length - 1, 1, text);
  assert.match(text, /input val="150 %"/, text);
});

Deno.test("agent: a text that is only its text prints no ref; a labelled value keeps it", () => {
  const root = el("window", "Docs", [
    // Firefox: a paragraph whose text is its own reads as a text holding a value.
    el("txt", undefined, undefined, { v: "The node:path module provides utilities." }),
    // KCalc's display: a label and the number it shows.
    el("txt", "Result Display", undefined, { v: "36" }),
  ]);
  assignIds(root);
  assignRefs(root);
  const lines = renderElements(root, { format: "agent" }).split("\n").map((l) => l.trim());
  assert.ok(lines.includes('"The node:path module provides utilities."'), lines.join("\n"));
  assert.ok(
    lines.some((l) => /^\[\d+\|[^\]]+\] "Result Display" val="36"$/.test(l)),
    lines.join("\n"),
  );
});

Deno.test("agent: a button that only wraps a button prints no line of its own (GTK 4)", () => {
  const root = el("window", "Characters", [
    el("btn", undefined, [el("btn", undefined, undefined, { a: ["click"] })]),
    // A wrapper that can be pressed itself keeps its line.
    el("btn", "Outer", [el("btn", "Inner", undefined, { a: ["click"] })], { a: ["click"] }),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.equal(text.match(/\] btn\b/g)?.length, 3, text);
  assert.match(text, /btn "Outer"/);
});

Deno.test("agent: a terminal's empty rows at the end of its value print as one newline", () => {
  const screen = "$ echo hi\nhi\n$ " + "\n".repeat(22);
  const root = el("window", "Terminal", [
    el("input", "Terminal", undefined, { v: screen }),
    el("input", "Note", undefined, { v: "two spaces  " }),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.ok(text.includes('val="$ echo hi\\nhi\\n$ \\n"'), text);
  assert.ok(text.includes('val="two spaces  "'), "spaces that end a line are kept");
  assert.equal(JSON.parse(renderElements(root, { format: "json" })).root.c[0].v, screen);
});

Deno.test("agent: a cell packing an icon beside its text folds onto the row's line (GTK 3)", () => {
  const row = el("row", undefined, [
    el("cell", undefined, [el("cell"), el("cell", "Xvfb")]),
    el("cell", "root"),
  ]);
  const root = el("window", "System Monitor", [el("table", undefined, [row])]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.ok(text.includes(`row: "Xvfb" | "root"`), text);
  // A blank cell that is the only part says nothing either way: a cell with
  // two texts stays a tree.
  const two = el("row", undefined, [el("cell", undefined, [el("cell", "a"), el("cell", "b")])]);
  const root2 = el("window", "W", [el("table", undefined, [two])]);
  assignIds(root2);
  assignRefs(root2);
  assert.ok(!renderElements(root2, { format: "agent" }).includes(`row: "a"`));
});

Deno.test("agent: a simple row is printed on one line, interactive cells keep their ref", () => {
  const text = renderElements(app(), { format: "agent" });
  assert.ok(
    text.includes(
      '      [10|invoices/invoice-17] row selected: "Invoice 17" | "$30" | [15|invoices/invoice-17/delete] btn "Delete"\n',
    ),
    text,
  );
});

Deno.test("agent: a row with nested structure is printed as a tree", () => {
  const root = el("list", undefined, [
    el("row", undefined, [
      el("cell", "A"),
      el("cell", undefined, [el("btn", "X"), el("btn", "Y")]),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  const lines = renderElements(root, { format: "agent" }).trimEnd().split("\n");
  assert.deepEqual(lines, [
    "[1|list] list",
    "  [2|list/a] row",
    '    [3|list/a/cell.1] cell "A"',
    "    [4|list/a/cell.2] cell",
    '      [5|list/a/x] btn "X"',
    '      [6|list/a/y] btn "Y"',
  ]);
});

Deno.test("agent: flat mode has no indentation", () => {
  const lines = renderElements(app(), { format: "agent", flat: true }).trimEnd().split("\n");
  for (const l of lines) assert.ok(l.startsWith("["), l);
});

Deno.test("agent: bounds can be left out", () => {
  const text = renderElements(app(), { format: "agent", bounds: false });
  assert.ok(!text.includes("(200,50,800,30)"));
  assert.ok(text.includes('[6|toolbar/search] input "Search" focused'));
});

Deno.test("agent: quotes, backslashes and newlines are escaped; long text is capped", () => {
  assert.equal(quote('Say "hi"\nnow\\then\ttab', 100), '"Say \\"hi\\"\\nnow\\\\then\\ttab"');
  assert.equal(quote("bell\u0007", 100), '"bell\\u0007"');
  const long = "x".repeat(500);
  const q = quote(long, 120);
  assert.equal(q, `"${"x".repeat(119)}…"(500 chars)`);
  const line = elementLine({ i: 3, ref: "doc", r: "txt", t: "word ".repeat(100) }, { maxText: 20 });
  assert.ok(line.includes('…"(499 chars)'), line); // the label is trimmed first
  assert.ok(line.length < 60, line);
  // Surrogate pairs are never split.
  assert.equal(quote("😀".repeat(5), 3), '"😀😀…"(5 chars)');
});

Deno.test("agent: static text has no role word; an empty one shows empty quotes", () => {
  assert.equal(elementLine({ i: 1, ref: "hello", r: "txt", t: "Hello" }), '[1|hello] "Hello"');
  assert.equal(
    elementLine({ i: 2, ref: "txt", r: "txt", v: "From value" }),
    '[2|txt] "From value"',
  );
  assert.equal(elementLine({ i: 3, ref: "txt", r: "txt" }), '[3|txt] ""');
});

Deno.test("agent: every printed line carries an id and a ref", () => {
  for (const line of renderElements(app(), { format: "agent" }).trimEnd().split("\n")) {
    assert.match(line.trim(), /^\[\d+\|[^\]]+\]/);
  }
});

Deno.test("secure: a secure value never appears in any format, nid never does", () => {
  const root = app();
  // A label relation (`lf`) names a native id too: it never prints either.
  root.c![0].lf = "native-1";
  for (const format of ["agent", "yaml", "json"] as const) {
    for (const flat of [false, true]) {
      const text = renderElements(root, { format, flat, meta: { app: "Books" } });
      assert.ok(!text.includes(SECRET), `${format} flat=${flat} leaked the secret`);
      assert.ok(!text.includes("native-1"), `${format} flat=${flat} printed nid`);
    }
  }
  const agent = renderElements(root, { format: "agent" });
  assert.ok(agent.includes('[18|form/password] input "Password" val=*** secure'));
  const changes: Change[] = [{
    type: "added",
    ref: "form/password",
    el: { i: 18, r: "input", t: "Password", sec: true, v: SECRET },
  }];
  for (const format of ["agent", "jsonl"] as const) {
    assert.ok(!renderChanges(changes, format).includes(SECRET), format);
  }
  // The one projection: only the printed keys of the field table.
  assert.deepEqual(
    Object.keys(elementData({ ...root.c![0], nid: "n", lf: "x" })).sort(),
    Object.keys(root.c![0]).filter((k) => PRINTED_KEYS.includes(k)).sort(),
  );
});

Deno.test("json: snapshot document with format, version, meta and the tree", () => {
  const text = renderElements(app(), {
    format: "json",
    meta: { app: { name: "Books", pid: 42 }, count: 23, format: "nope", root: "nope" },
  });
  const doc = JSON.parse(text);
  assert.equal(doc.format, "desktop-snapshot");
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.app, { name: "Books", pid: 42 });
  assert.equal(doc.count, 23);
  assert.equal(doc.root.i, 1);
  assert.equal(doc.root.ref, "books");
  assert.equal(doc.root.c[0].c[0].c[1].ref, "toolbar/search");
  assert.deepEqual(doc.root.c[0].c[0].c[1].b, [200, 50, 800, 30]);
  assert.deepEqual(Object.keys(doc).slice(0, 2), ["format", "version"]);
  assert.ok(!text.includes("\n"), "compact by default");
  assert.ok(renderElements(app(), { format: "json", pretty: true }).includes("\n  "));
});

Deno.test("json flat: elements with landmark path p and parent id pi", () => {
  const doc = JSON.parse(renderElements(app(), { format: "json", flat: true }));
  assert.equal(doc.root, undefined);
  assert.equal(doc.elements.length, 22);
  assert.equal(doc.elements[0].pi, undefined);
  const search = doc.elements.find((e: { ref: string }) => e.ref === "toolbar/search");
  assert.equal(search.p, "toolbar");
  assert.equal(search.pi, 3);
  for (const e of doc.elements) assert.ok(!("c" in e));
});

Deno.test("yaml: compact keys, ref on every element, bounds in flow style", () => {
  const text = renderElements(app(), { format: "yaml", meta: { app: "Books", truncated: 0 } });
  assert.ok(text.includes("b: [200, 50, 800, 30]"), text);
  const doc = YAML.parse(text);
  assert.equal(doc.app, "Books");
  assert.equal(doc.truncated, 0);
  const refs: string[] = [];
  const stack = [doc.root];
  while (stack.length) {
    const e = stack.pop();
    refs.push(e.ref);
    stack.push(...(e.c ?? []));
  }
  assert.equal(refs.length, 22);
  assert.ok(refs.every((r) => typeof r === "string" && r.length > 0));
  const flat = YAML.parse(renderElements(app(), { format: "yaml", flat: true }));
  assert.equal(flat.elements.length, 22);
});

Deno.test("renderChanges: agent lines for added, removed and changed", () => {
  const changes: Change[] = [
    {
      type: "added",
      ref: "dialog/ok",
      el: { i: 30, r: "btn", t: "OK", b: [1, 2, 3, 4] },
      p: "dialog",
    },
    { type: "removed", ref: "toolbar/loading", i: 12, r: "txt", t: "Loading…" },
    {
      type: "changed",
      ref: "form/email",
      i: 18,
      changes: {
        v: ["a", 'b "c"'],
        f: [false, true],
        b: [[1, 2, 3, 4], [5, 6, 7, 8]],
        t: [null, "X"],
      },
    },
  ];
  assert.equal(
    renderChanges(changes, "agent"),
    [
      '+ [30|dialog/ok] btn "OK"',
      '- [12|toolbar/loading] "Loading…"',
      '~ [18|form/email] v: "a" -> "b \\"c\\""; f: false -> true; b: (1,2,3,4) -> (5,6,7,8); t: none -> "X"',
      "",
    ].join("\n"),
  );
  assert.equal(renderChanges([], "agent"), "");
});

Deno.test("renderChanges: what a read prints no line for gets none in a diff, unless it held something", () => {
  // A menu that opened with a separator between its items (xfce4-terminal's File menu).
  const opened: Change[] = [
    { type: "added", ref: "file/open-tab", el: { i: 7, r: "menuitem", t: "Open Tab" } },
    { type: "added", ref: "file/separator.1", el: { i: 8, r: "separator" } },
    { type: "added", ref: "file/close-tab", el: { i: 9, r: "menuitem", t: "Close Tab" } },
    { type: "removed", ref: "file/separator.2", i: 10, r: "separator" },
  ];
  assert.equal(
    renderChanges(opened, "agent"),
    '+ [7|file/open-tab] menuitem "Open Tab"\n+ [9|file/close-tab] menuitem "Close Tab"\n',
  );
  assert.equal(renderChanges(opened, "jsonl").trimEnd().split("\n").length, 4);
  // An unlabeled group that went away is told by what it held, as a read showed it.
  const gone: Change[] = [
    { type: "removed", ref: "group.3", i: 20, r: "group" },
    { type: "removed", ref: "group.3/ok", i: 21, r: "btn", t: "OK", up: "group.3" },
  ];
  assert.equal(renderChanges(gone, "agent"), '- [21|group.3/ok] btn "OK"\n');
  // Many: one line, naming the first (rustdoc's table of contents, hidden).
  const toc: Change[] = [
    { type: "removed", ref: "navigation/group.2", i: 0, r: "group" },
    {
      type: "removed",
      ref: "navigation/group.2/sections",
      i: 30,
      r: "heading",
      t: "Sections",
      up: "navigation/group.2",
    },
    ...Array.from({ length: 9 }, (_, k) => ({
      type: "removed" as const,
      ref: `navigation/group.2/m${k}`,
      i: 31 + k,
      r: "lnk",
      t: `method_${k}`,
      up: "navigation/group.2",
    })),
  ];
  assert.equal(
    renderChanges(toc, "agent"),
    '- [-|navigation/group.2] group (and 10 inside, first heading "Sections")\n',
  );
});

Deno.test("renderChanges: JSONL is one parseable object per line", () => {
  const changes: Change[] = [
    { type: "added", ref: "dialog/ok", el: { i: 30, r: "btn", t: "OK", nid: "n" }, p: "dialog" },
    { type: "removed", ref: "x", i: 1, r: "btn" },
    { type: "changed", ref: "form/email", i: 18, changes: { v: ["a", "b"] } },
  ];
  const lines = renderChanges(changes, "jsonl").trimEnd().split("\n");
  assert.equal(lines.length, 3);
  const parsed = lines.map((l) => JSON.parse(l));
  assert.equal(parsed[0].type, "added");
  assert.equal(parsed[0].el.nid, undefined);
  assert.equal(parsed[0].p, "dialog");
  assert.deepEqual(parsed[2].changes, { v: ["a", "b"] });
});

Deno.test("agent: an unlabeled text (wrapping text, or empty) is not a line", () => {
  const root = el("landmark", "Form", [
    el("txt", undefined, [el("txt", "Email address")]),
    el("input", "Email"),
    el("txt"),
  ]);
  assignIds(root);
  assignRefs(root);
  assert.deepEqual(renderElements(root, { format: "agent" }).trimEnd().split("\n"), [
    '[1|form] landmark "Form"',
    '  "Email address"',
    '  [4|form/email] input "Email"',
  ]);
});

Deno.test("agent: actions are printed only when they add something", () => {
  const cases: Array<[string[], string[]]> = [
    [["click"], []],
    [["doDefault", "showContextMenu", "scrollUp", "scrollToVisible"], []],
    [["AXPress", "AXShowMenu", "AXScrollToVisible", "AXRaise"], []],
    [["activate", "expand or contract", "toggle", "check"], []],
    [["Activates the cell"], []],
    [["edit", "press"], ["edit"]],
    [["AXPress", "AXDelete"], ["AXDelete"]],
    [["customAction", "click"], ["customAction"]],
  ];
  for (const [a, want] of cases) assert.deepEqual(informativeActions({ a }), want, a.join(","));
  assert.equal(
    elementLine({ i: 1, ref: "x", r: "cell", t: "A", a: ["edit", "activate"] }),
    '[1|x] cell "A" actions=edit',
  );
});

/** A window with a list of `n` invoice rows (link, amount, Delete), rows 32 px apart from y=100. */
function invoices(n: number, windowBox: Bounds = [0, 0, 800, 400]): Element {
  const rows = Array.from({ length: n }, (_, k) =>
    el("row", undefined, [
      el("cell", undefined, [
        el("lnk", `Invoice ${k + 1}`, undefined, { b: [10, 100 + 32 * k, 90, 20] }),
      ]),
      el("cell", `$${10 * (k + 1)}`),
      el("cell", undefined, [el("btn", "Delete", undefined, { b: [700, 100 + 32 * k, 60, 20] })]),
    ], { b: [0, 100 + 32 * k, 800, 30] }));
  const root = el("app", "Books", [
    el("window", "Books", [el("list", "Invoices", rows, { b: [0, 100, 800, 32 * n] })], {
      b: windowBox,
    }),
  ]);
  assignIds(root);
  assignRefs(root);
  return root;
}

function findByRef(root: Element, ref: string): Element | undefined {
  if (root.ref === ref) return root;
  for (const c of root.c ?? []) {
    const hit = findByRef(c, ref);
    if (hit) return hit;
  }
  return undefined;
}

Deno.test("agent: rows of one shape share a header; each row line shows only what differs", () => {
  const text = renderElements(invoices(4), { format: "agent", bounds: false });
  assert.equal(
    text,
    [
      '[1|books] app "Books"',
      '  [2|window] window "Books"',
      '    [3|invoices] list "Invoices"',
      '      rows: [id|<row>/lnk] lnk "…" | "…" | [id|<row>/delete] btn "Delete"',
      '      [4|invoices/invoice-1]: [6] "Invoice 1" | "$10" | [9]',
      '      [10|invoices/invoice-2]: [12] "Invoice 2" | "$20" | [15]',
      '      [16|invoices/invoice-3]: [18] "Invoice 3" | "$30" | [21]',
      '      [22|invoices/invoice-4]: [24] "Invoice 4" | "$40" | [27]',
      "",
    ].join("\n"),
  );
});

Deno.test("agent: fewer than three rows, or rows of another shape, keep their own lines", () => {
  const two = renderElements(invoices(2), { format: "agent", bounds: false });
  assert.doesNotMatch(two, /rows:/);
  assert.match(two, /\[4\|invoices\/invoice-1\] row: \[6\|invoices\/invoice-1\/lnk\] lnk/);
  const root = invoices(5);
  // The third row's button is labeled differently: it breaks the run in two short ones.
  const third = findByRef(root, "invoices/invoice-3/delete")!;
  third.t = "Remove";
  assignRefs(root);
  const text = renderElements(root, { format: "agent", bounds: false });
  assert.doesNotMatch(text, /rows:/);
  assert.match(text, /\|invoices\/invoice-3\/remove\] btn "Remove"/);
});

Deno.test("agent: a varying state stays on its row; a box outside the window is left out", () => {
  const root = invoices(12); // rows 9..12 lie below the 400 px window
  findByRef(root, "invoices/invoice-2/delete")!.e = false;
  const text = renderElements(root, { format: "agent" });
  assert.match(
    text,
    /\[10\|invoices\/invoice-2\] \(0,132,800,30\): \[12\] "Invoice 2" \(10,132,90,20\) \| "\$20" \| \[15\] \(700,132,60,20\) disabled\n/,
  );
  assert.match(text, /\[70\|invoices\/invoice-12\]: \[72\] "Invoice 12" \| "\$120" \| \[75\]\n/);
  // The list reaches into view: it keeps its box.
  assert.match(text, /\[3\|invoices\] list "Invoices" \(0,100,800,384\)/);
  // Scoped below the window, the caller's viewport does the same.
  const list = findByRef(root, "invoices")!;
  const scoped = renderElements(list, { format: "agent", viewport: [0, 0, 800, 400] });
  assert.match(scoped, /\[70\|invoices\/invoice-12\]: \[72\] "Invoice 12" \| "\$120" \| \[75\]\n/);
  const unscoped = renderElements(list, { format: "agent" });
  assert.match(unscoped, /\[70\|invoices\/invoice-12\] \(0,452,800,30\)/);
});

Deno.test("agentTargets: every printed id and ref, run cells included, matches the tree", () => {
  for (const n of [1, 2, 3, 20]) {
    const root = invoices(n);
    for (const opts of [{}, { bounds: false }, { flat: true }]) {
      const text = renderElements(root, { format: "agent", ...opts });
      const targets = agentTargets(text);
      for (const t of targets) {
        const found = findByRef(root, t.ref);
        assert.ok(found, `${t.ref} is in the tree`);
        assert.equal(found!.i, t.i, t.ref);
      }
      // Every button and link is addressable.
      const refs = new Set(targets.map((t) => t.ref));
      for (let k = 1; k <= n; k++) {
        assert.ok(refs.has(`invoices/invoice-${k}/delete`), `n=${n} ${JSON.stringify(opts)}`);
        assert.ok(refs.has(`invoices/invoice-${k}/lnk`));
      }
    }
  }
});

Deno.test("agentTargets: brackets inside quoted labels are not targets", () => {
  const text = '[4|notes/todo] "see [5|x] and [6]"\n  rows: "…" | [id|<row>/go] btn "Go"\n' +
    '  [7|notes/a]: "[8|y]" | [9]\n';
  assert.deepEqual(agentTargets(text), [
    { i: 4, ref: "notes/todo" },
    { i: 7, ref: "notes/a" },
    { i: 9, ref: "notes/a/go" },
  ]);
});

Deno.test("agent: a heading that only wraps its link is one line, its level kept", () => {
  const root: Element = {
    i: 1,
    ref: "results",
    r: "list",
    t: "Results",
    c: [{
      i: 2,
      ref: "results/guide",
      r: "heading",
      t: "A complete guide",
      lv: 3,
      c: [{
        i: 3,
        ref: "results/guide/lnk",
        r: "lnk",
        t: "A complete guide",
        c: [{ i: 4, ref: "results/guide/lnk/txt", r: "txt", t: "A complete guide" }],
      }],
    }],
  };
  assert.equal(
    renderElements(root, { format: "agent" }),
    '[1|results] list "Results"\n  [3|results/guide/lnk] lnk "A complete guide" heading lv=3\n',
  );
});

Deno.test("agent: static text in a tree is its text alone; find-like single lines keep the ref", () => {
  const root = el("landmark", "Footer", [el("txt", "© 2026 Acme"), el("lnk", "Privacy")]);
  assignIds(root);
  assignRefs(root);
  const lines = renderElements(root, { format: "agent" }).trimEnd().split("\n");
  assert.deepEqual(lines, [
    '[1|footer] landmark "Footer"',
    '  "© 2026 Acme"',
    '  [3|footer/privacy] lnk "Privacy"',
  ]);
  // A flat list (a filtered read) keeps every ref: it is what was asked for.
  const flat = renderElements(root, { format: "agent", flat: true });
  assert.match(flat, /\[2\|footer\/2026-acme\] "© 2026 Acme"/);
});

Deno.test("agent: twin rows stay in their run, and their parts' refs read back with the twin index", () => {
  const row = (title: string) =>
    el("row", undefined, [el("lnk", title), el("btn", "Delete"), el("cell", "Nov 8")]);
  const rows = ["Lunch", "Report", "Lunch", "Invoice"].map(row);
  const root = el("app", "Mail", [el("window", "Mail", [el("list", "Messages", rows)])]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent", shortRefs: true, refsFrom: root });
  const lines = text.trimEnd().split("\n");
  // One header for the four rows: the twins did not break the run.
  assert.equal(lines.filter((l) => l.trim().startsWith("rows:")).length, 1, text);
  const targets = agentTargets(text);
  const byRef = new Map<string, Element>();
  const walk = (e: Element) => {
    if (e.ref) byRef.set(e.ref, e);
    e.c?.forEach(walk);
  };
  walk(root);
  for (const r of rows) {
    const del = r.c![1];
    const t = targets.find((x) => x.i === del.i);
    assert.ok(t, `the Delete of ${r.ref} is listed`);
    assert.equal(resolveRef(root, t.ref), del, `${t.ref} reaches ${del.ref}`);
  }
});

Deno.test("agent: a long list of actions names six and counts the rest", () => {
  const names = Array.from({ length: 16 }, (_, k) => `fold-${k}`);
  const line = elementLine({ i: 4, ref: "editor", r: "group", a: names });
  assert.match(line, /actions=fold-0,.*fold-5,…\(\+10\)$/);
});

Deno.test("agent: a toolkit's widget commands are no actions of the element (GTK 4 text view)", () => {
  // gnome-text-editor's text view lists every action installed on it.
  const a = ["spelling.enabled", "clipboard.paste", "page.zoom-in", "menu.popup", "fold"];
  assert.deepEqual(informativeActions({ a }), ["fold"]);
  assert.doesNotMatch(elementLine({ i: 4, ref: "input", r: "input", a }), /clipboard|zoom/);
  // A text field's actions are its editing commands (Swing's "caret-forward"...): none printed.
  const swing = ["caret-forward", "cut-to-clipboard", "page-up", "fold"];
  assert.deepEqual(informativeActions({ r: "input", a: swing }), []);
  assert.deepEqual(informativeActions({ r: "btn", a: swing }), swing);
});

Deno.test("agent: a read prints visible text whole up to READ_MAX_TEXT; lines and max_text 0", () => {
  const para = "The tide comes in twice a day. ".repeat(20).trim(); // about 620 characters
  const root: Element = {
    i: 1,
    ref: "app",
    r: "app",
    t: "App",
    c: [{ i: 2, ref: "app/txt", r: "txt", t: para }],
  };
  const read = renderElements(root, { format: "agent" });
  assert.ok(read.includes(`"${para}"`), "a paragraph is read whole");
  assert.ok(READ_MAX_TEXT >= 2000);
  // One element's line (find, an action's result) stays a short reminder.
  assert.ok(elementLine(root.c![0]).includes(`…"(${para.length} chars)`));
  const huge = { ...root, c: [{ i: 2, ref: "app/txt", r: "txt" as const, t: "y".repeat(5000) }] };
  assert.ok(renderElements(huge, { format: "agent" }).includes('…"(5000 chars)'));
  assert.ok(
    renderElements(huge, { format: "agent", maxText: 0 }).includes(`"${"y".repeat(5000)}"`),
  );
});

Deno.test("agent: a text inside a window that says part of its title is kept", () => {
  // GTK 4's header bar: window "New Document - Text Editor", a title label "New Document".
  const root: Element = {
    i: 1,
    ref: "w",
    r: "window",
    t: "New Document - Text Editor",
    c: [{ i: 2, ref: "w/new-document", r: "txt", t: "New Document" }, {
      i: 3,
      ref: "w/open",
      r: "lnk",
      t: "Open the file",
      c: [{ i: 4, ref: "w/open/txt", r: "txt", t: "Open" }],
    }],
  };
  const text = renderElements(root, { format: "agent" });
  assert.ok(text.includes('"New Document"'), text);
  // A link's text split over spans still folds into the link.
  assert.ok(!text.includes('  "Open"'), text);
});

Deno.test("agent: a closed menu is one line with its item count; scoped to it, it opens", () => {
  const items = (...names: string[]) => names.map((n) => el("menuitem", n, undefined, {}));
  const root = el("app", "Editor", [
    el("window", "Editor", [
      el("menubar", undefined, [
        el("menuitem", "File", [el("menu", "File", items("New", "Save As…"))], {
          b: [0, 0, 40, 20],
          exp: false,
        }),
      ]),
      // GTK 3's menu button lists its closed menu's items as its own children.
      el("toggle", "Recent", items("a.txt", "b.txt", "c.txt"), { b: [50, 0, 30, 20] }),
      // An open one (its items on screen) prints them.
      el("toggle", "Open", items("x.txt"), { b: [90, 0, 30, 20] }),
    ]),
  ]);
  root.c![0].c![2].c![0].b = [90, 20, 80, 20];
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.match(
    text,
    /menu "File" \(closed, 2 items: open it, or read --scope-ref menubar\/file\/menu\)/,
  );
  // The way to see the items is said once, with the first closed menu.
  assert.match(text, /toggle "Recent"[^\n]* \(closed, 3 items\)\n/);
  assert.doesNotMatch(text, /b\.txt|Save As/);
  assert.match(text, /menuitem "x\.txt"/);
  const recent = root.c![0].c![1];
  const scoped = renderElements(recent, { format: "agent" });
  assert.doesNotMatch(scoped, /closed/);
  assert.match(scoped, /menuitem "b\.txt"/);
});

Deno.test("agent: a menu bar entry whose items are all submenus is one closed line too", () => {
  // galculator (GTK 3): "Calculator" holds only submenus, none of them on screen.
  const sub = (name: string, ...items: string[]) =>
    el("menu", name, items.map((n) => el("menuitem", n, undefined, {})));
  const root = el("app", "Calc", [
    el("window", "Calc", [
      el("menubar", undefined, [
        el("menu", "Calculator", [
          sub("Number bases", "Decimal", "Binary"),
          sub("Angle units", "Degrees", "Radians"),
        ], { b: [0, 0, 80, 20] }),
      ], { b: [0, 0, 400, 20] }),
    ], { b: [0, 0, 400, 300] }),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.match(
    text,
    /menu "Calculator" [^\n]*\(closed, 2 items: open it, or read --scope-ref menubar\/calculator\)\n/,
  );
  assert.doesNotMatch(text, /Number bases|Decimal/);
});

Deno.test("changes: a big new subtree is one line with a count; renumbered twins print nothing", () => {
  const results = Array.from({ length: 20 }, (_, k): Change => ({
    type: "added",
    ref: `results/item-${k}`,
    el: { i: 10 + k, r: "lnk", t: `Item ${k}` },
    up: "results",
  }));
  const text = renderChanges([
    { type: "added", ref: "results", el: { i: 9, r: "list", t: "Results" } },
    ...results,
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
      changes: { ref: ["main/group.4", "main/group.5"] },
    },
    { type: "changed", ref: "search", i: 3, changes: { v: ["", "tuple"] } },
  ], "agent");
  assert.equal(
    text,
    '+ [9|results] list "Results" (and 20 inside: read --scope-ref results)\n' +
      '~ [3|search] v: "" -> "tuple"\n',
  );
  // JSONL keeps every change.
  assert.equal(renderChanges(results, "jsonl").trim().split("\n").length, 20);
});

Deno.test("agent: a paragraph split at inline elements is one line; separate labels stay apart", () => {
  const p1 = el("group", undefined, [
    el("txt", "Rust is a"),
    el("txt", undefined, [el("txt", "statically typed")]), // <em>
    el("txt", "language."),
  ]);
  const code = el("group", undefined, [
    el("txt", "let"),
    el("txt", undefined, [el("txt", "x")]),
    el("txt", "="), // punctuation alone, kept inside the code line
    el("txt", "1;"),
  ]);
  const p2 = el("group", undefined, [
    el("txt", "Second"),
    el("txt", undefined, [el("txt", "one")]),
  ]);
  // A title above a subtitle (GTK's header bar): no inline run, two lines.
  const header = el("group", undefined, [el("txt", "notes.txt"), el("txt", "~/Documents")]);
  const root = el("window", "Doc", [p1, code, p2, header]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.deepEqual(text.trim().split("\n").slice(1), [
    '  "Rust is a statically typed language."',
    '  "let x = 1;"',
    '  "Second one"',
    '  "notes.txt"',
    '  "~/Documents"',
  ]);
});

Deno.test("changes: a menu that opened is listed whole, however many items it holds", () => {
  const items = Array.from({ length: 20 }, (_, k): Change => ({
    type: "added",
    ref: `menu/item-${k}`,
    el: { i: 0, r: "menuitem", t: `Item ${k}` },
    up: "menu",
  }));
  const text = renderChanges([
    { type: "added", ref: "menu", el: { i: 0, r: "menu" } },
    ...items,
  ], "agent");
  assert.equal(text.trim().split("\n").length, 21);
  assert.match(text, /menuitem "Item 19"/);
  assert.doesNotMatch(text, /inside/);
});

Deno.test("changes: what shows again once a dialog closed is named, not listed again", () => {
  // A browser takes the page out of the tree while a modal dialog is open; closing it brings
  // the page back: one line per region, not every field the agent read before.
  const region = (name: string): Change[] => [
    { type: "added", ref: name, el: { i: 0, r: "region", t: name } },
    {
      type: "added",
      ref: `${name}/volume`,
      el: { i: 0, r: "slider", t: "Volume", v: "30" },
      up: name,
    },
    { type: "added", ref: `${name}/mute`, el: { i: 0, r: "toggle", t: "Mute" }, up: name },
  ];
  const closed: Change = {
    type: "removed",
    ref: "edit-profile",
    i: 21,
    r: "dialog",
    t: "Edit profile",
  };
  const text = renderChanges([...region("audio"), ...region("video"), closed], "agent");
  assert.deepEqual(text.trim().split("\n"), [
    '+ [-|audio] region "audio" (and 2 inside: read --scope-ref audio)',
    '+ [-|video] region "video" (and 2 inside: read --scope-ref video)',
    '- [21|edit-profile] dialog "Edit profile"',
  ]);
  // Without a dialog closing, the same small parts are listed whole.
  assert.match(renderChanges(region("audio"), "agent"), /slider "Volume"/);
});

Deno.test("agent: GTK 2's press and release actions on a button are implied, not printed", () => {
  assert.deepEqual(informativeActions({ a: ["click", "press", "release"] }), []);
});

Deno.test("changes: a new text that only says its new parent's label gets no line", () => {
  const text = renderChanges([
    { type: "added", ref: "exit", el: { i: 0, r: "lnk", t: "Exit" } },
    { type: "added", ref: "exit/txt", el: { i: 0, r: "txt", t: "Exit" }, up: "exit" },
    { type: "added", ref: "exit/note", el: { i: 0, r: "txt", t: "Leaves the search" }, up: "exit" },
  ], "agent");
  assert.equal(text, '+ [-|exit] lnk "Exit"\n+   [-|exit/note] "Leaves the search"\n');
});

Deno.test("changes: a caption repeating its link's change, and actions that say nothing, print no line", () => {
  const text = renderChanges([
    { type: "changed", ref: "nav/reports", i: 4, changes: { t: ["Reports (4)", "Reports (5)"] } },
    {
      type: "changed",
      ref: "nav/reports/txt",
      i: 5,
      changes: { t: ["Reports (4)", "Reports (5)"] },
    },
    { type: "changed", ref: "nav/inbox/txt.2", i: 7, changes: { t: ["5", "6"] } },
    {
      type: "changed",
      ref: "board",
      i: 1,
      changes: { a: [["doDefault", "scrollDown", "scrollUp"], ["doDefault"]] },
    },
  ], "agent");
  assert.equal(
    text,
    '~ [4|nav/reports] t: "Reports (4)" -> "Reports (5)"\n~ [7|nav/inbox/txt.2] t: "5" -> "6"\n',
  );
  assert.equal(
    renderChanges([{
      type: "changed",
      ref: "board",
      i: 1,
      changes: {
        a: [["doDefault"], ["doDefault", "showContextMenu", "Paste"]],
      },
    }], "agent"),
    "~ [1|board] a: doDefault -> doDefault,showContextMenu,Paste\n",
  );
});

Deno.test("changes: new rows print as a read prints them, their text on the row's line", () => {
  // dconf-editor: a folder opened, its list's rows replaced (GTK 3 list box rows with a label).
  const text = renderChanges([
    { type: "added", ref: "list/gnome", el: { i: 0, r: "row" } },
    { type: "added", ref: "list/gnome/txt", el: { i: 0, r: "txt", t: "gnome" }, up: "list/gnome" },
    { type: "added", ref: "list/gtk", el: { i: 0, r: "row", s: true } },
    { type: "added", ref: "list/gtk/txt", el: { i: 0, r: "txt", t: "gtk" }, up: "list/gtk" },
    { type: "added", ref: "group.2", el: { i: 0, r: "group" } },
    { type: "added", ref: "group.2/ok", el: { i: 0, r: "btn", t: "OK" }, up: "group.2" },
  ], "agent");
  assert.equal(
    text,
    [
      '+ [-|list/gnome] row: "gnome"',
      '+ [-|list/gtk] row selected: "gtk"',
      '+ [-|group.2/ok] btn "OK"',
      "",
    ].join("\n"),
  );
});

Deno.test("agent: a button that only wraps a button saying the same is that button (GTK 4 menu button)", () => {
  const inner = el("toggle", undefined, undefined, { d: "Primary menu" });
  const outer = el("btn", undefined, [inner], { d: "Primary menu" });
  const open = el("btn", undefined, [el("toggle", undefined, undefined, { d: "View" })], {
    d: "View",
    exp: true, // a state of its own: printed
  });
  const root = el("window", "Calculator", [outer, open]);
  assignIds(root);
  assignRefs(root);
  const lines = renderElements(root, { format: "agent" }).trim().split("\n").slice(1);
  assert.equal(lines.filter((l) => l.includes("Primary menu")).length, 1, lines.join("\n"));
  assert.match(lines[0], /\] toggle desc="Primary menu"$/);
  assert.equal(lines.filter((l) => l.includes('"View"')).length, 2, lines.join("\n"));
});

Deno.test("agent: an unlabeled list prints no line, its rows stand under its parent; a named one keeps it", () => {
  const rows = (...names: string[]) =>
    names.map((n) => el("row", undefined, [el("lnk", n, undefined, { a: ["jump"] })]));
  const root = el("navigation", "Docs", [
    el("list", undefined, rows("Install", "Quick start", "Upgrade")),
    el("list", "Guides", rows("Routing", "Data")),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent" });
  assert.doesNotMatch(text, /\] list\n/, text);
  assert.match(text, /\] list "Guides"\n/, text);
  assert.match(text, /"Quick start"/);
  // Every link is still reached by a ref copied from the text.
  const targets = agentTargets(text).map((t) => resolveRef(root, t.ref).t).filter(Boolean);
  for (const n of ["Install", "Quick start", "Upgrade", "Routing", "Data"]) {
    assert.ok(targets.includes(n), `${n} in ${JSON.stringify(targets)}`);
  }
});

Deno.test("agent: an untitled window prints no line when nothing inside it would", () => {
  const root: Element = {
    i: 1,
    ref: "chromium",
    r: "app",
    t: "Chromium",
    c: [
      {
        i: 2,
        ref: "page",
        r: "window",
        t: "Page - Chromium",
        c: [{ i: 3, ref: "ok", r: "btn", t: "OK" }],
      },
      // Chromium's untitled frame around an empty document.
      { i: 4, ref: "window.1", r: "window", c: [{ i: 5, ref: "window.1/web", r: "web" }] },
      // An untitled window that holds something prints.
      { i: 6, ref: "window.2", r: "window", c: [{ i: 7, ref: "save", r: "btn", t: "Save" }] },
    ],
  };
  const out = renderElements(root, { format: "agent" });
  assert.doesNotMatch(out, /\[4\|/, out);
  assert.match(out, /\[6\|window\.2\] window\n {4}\[7\|save\] btn "Save"/, out);
  assert.match(out, /\[2\|page\] window "Page - Chromium"/, out);
});

Deno.test("agent: a row whose one cell holds a long text is still one line, the text whole", () => {
  // A process list: a command line of 600 characters in the name cell (gnome-system-monitor).
  const command = "chromium --type=renderer" + " --flag=value".repeat(45);
  const cell = (t: string): Element => ({ i: 0, r: "cell", t });
  const root: Element = {
    i: 0,
    r: "table",
    t: "Processes",
    c: [{ i: 0, r: "row", c: [cell(command), cell("root"), cell("0.00"), cell("31953")] }],
  };
  assignIds(root);
  assignRefs(root);
  const lines = renderElements(root, { format: "agent" }).trimEnd().split("\n");
  assert.equal(lines.length, 2, lines.join("\n"));
  assert.ok(
    lines[1].includes(`row: ${JSON.stringify(command)} | "root" | "0.00" | "31953"`),
    lines[1],
  );
  // Many cells are still a tree: the limit is on cells, not on one long text.
  const wide: Element = {
    i: 0,
    r: "table",
    c: [{ i: 0, r: "row", c: Array.from({ length: 40 }, (_, k) => cell(`cell ${k} text`)) }],
  };
  assignIds(wide);
  assignRefs(wide);
  assert.ok(renderElements(wide, { format: "agent" }).trimEnd().split("\n").length > 2);
});

Deno.test("agent: a run prints the ref of a part named after its row on each row; every ref resolves", () => {
  // An orders table: a check box named after its order, the order's link, a Refund button.
  const rows = Array.from({ length: 5 }, (_, k) => {
    const id = `SO-${1001 + k}`;
    return el("row", undefined, [
      el("cell", undefined, [el("chk", `Select ${id}`)]),
      el("cell", undefined, [el("lnk", id)]),
      el("cell", `$${10 * (k + 1)}.00`),
      el("cell", undefined, [el("btn", "Refund")]),
    ]);
  });
  const root = el("app", "Shop", [
    el("window", "Shop", [el("table", "Orders", rows)]),
  ]);
  assignIds(root);
  assignRefs(root);
  for (const shortRefs of [false, true]) {
    const text = renderElements(root, { format: "agent", shortRefs, refsFrom: root });
    const lines = text.trimEnd().split("\n");
    assert.ok(
      lines.some((l) => /rows: \[id\|ref\] chk "…" \| \[id\|<row>\/lnk\] lnk "…"/.test(l)),
      text,
    );
    const row = lines.find((l) => l.includes('"Select SO-1003"'))!;
    // Short refs: the check box's ref is its label's slug, so its id alone stands for it.
    const check = shortRefs ? String.raw`\[\d+\]` : String.raw`\[\d+\|[^\]]*select-so-1003\]`;
    assert.match(
      row,
      new RegExp(
        String
          .raw`^\s+\[\d+\|[^\]]*so-1003\]: ${check} "Select SO-1003" \| \[\d+\] "SO-1003" \| "\$30\.00" \| \[\d+\]$`,
      ),
    );
    // Read back, every id and ref reaches its element: the check boxes by their own refs, the
    // links and buttons by the row's ref and the header's suffix.
    const targets = agentTargets(text);
    assert.equal(targets.length, 3 + 5 * 4, JSON.stringify(targets));
    for (const t of targets) {
      const found = resolveRef(root, t.ref);
      assert.equal(found.i, t.i, `${t.ref} (${shortRefs ? "short" : "full"})`);
    }
    assert.deepEqual(
      targets.filter((t) => /select/.test(t.ref)).map((t) => resolveRef(root, t.ref).t),
      rows.map((_, k) => `Select SO-${1001 + k}`),
    );
  }
});

Deno.test("renderChanges: many lone elements of one kind in one place are one line with samples", () => {
  const texts = (n: number) =>
    Array.from({ length: n }, (_, k) => ({
      type: "added" as const,
      ref: `main/txt.${k + 10}`,
      el: { i: 0, r: "txt" as const, t: String(k + 1) },
    }));
  // Line numbers shown on every code example: the check box's change, then one line for them.
  const shown = renderChanges([
    { type: "changed", ref: "settings/show-line-numbers", i: 5, changes: { chk: [false, true] } },
    ...texts(2000),
  ], "agent");
  assert.equal(
    shown,
    "~ [5|settings/show-line-numbers] chk: false -> true\n" +
      '+ 2000 txt in main ("1", "2", "3", …): read --scope-ref main to see them\n',
  );
  const hidden = texts(2000).map((a) => ({
    type: "removed" as const,
    ref: a.ref,
    i: 3,
    r: "txt",
    t: a.el.t,
  }));
  assert.equal(renderChanges(hidden, "agent"), '- 2000 txt in main ("1", "2", "3", …)\n');
  // A few are listed one by one, as before.
  assert.equal(renderChanges(texts(3), "agent").split("\n").filter(Boolean).length, 3);
  // Another kind, or another place, is not folded in.
  const mixed = [
    ...texts(9),
    { type: "added" as const, ref: "nav/btn", el: { i: 0, r: "btn" as const, t: "Go" } },
  ];
  assert.deepEqual(renderChanges(mixed, "agent").trimEnd().split("\n").slice(1), [
    '+ [-|nav/btn] btn "Go"',
  ]);
  // JSONL keeps every change.
  assert.equal(renderChanges(texts(20), "jsonl").trimEnd().split("\n").length, 20);
});

Deno.test("renderChanges: a popover's new buttons are listed with their refs, not folded", () => {
  // gedit's menu popover: 15 buttons in an unlabeled container, what the next click picks from.
  const names = [
    "Reload",
    "Print…",
    "New Window",
    "Save As…",
    "Save All",
    "Find…",
    "Find and Replace…",
  ]
    .concat(["Go to Line…", "Preferences", "Keyboard Shortcuts", "Help", "About gedit"])
    .concat(["Close All", "Close", "Quit"]);
  const opened: Change[] = names.map((t) => ({
    type: "added",
    ref: t.toLowerCase().replace(/[^a-z]+/g, "-").replace(/-$/, ""),
    el: { i: 0, r: "btn", t },
  }));
  const lines = renderChanges(opened, "agent").trimEnd().split("\n");
  assert.equal(lines.length, 15);
  assert.equal(lines[2], '+ [-|new-window] btn "New Window"');
  // More than a menu holds are one line again.
  const many: Change[] = Array.from({ length: 40 }, (_, k) => ({
    type: "added",
    ref: `b${k}`,
    el: { i: 0, r: "btn", t: `B ${k}` },
  }));
  assert.match(renderChanges(many, "agent"), /^\+ 40 btn \("B 0"/);
});

Deno.test("renderChanges: many rows a filter took away are one line naming the first (not a line each)", () => {
  const keys = Array.from({ length: 12 }, (_, k) => `setting-${k + 1}`);
  const gone: Change[] = keys.flatMap((key, k) => [
    { type: "removed" as const, ref: `table/list/${key}`, i: 60 + k * 3, r: "row" },
    {
      type: "removed" as const,
      ref: `table/list/${key}/cell`,
      i: 61 + k * 3,
      r: "cell",
      up: `table/list/${key}`,
    },
    {
      type: "removed" as const,
      ref: `table/list/${key}/txt`,
      i: 62 + k * 3,
      r: "txt",
      t: key,
      up: `table/list/${key}`,
    },
  ]);
  assert.equal(
    renderChanges([
      { type: "changed", ref: "form/input", i: 0, changes: { v: [undefined, "double"] } },
      ...gone,
    ], "agent"),
    '~ [-|form/input] v: none -> "double"\n' +
      "- 12 row in table/list (setting-1, setting-2, setting-3, …)\n",
  );
  // A few are each a line, with what they held.
  assert.equal(
    renderChanges(gone.slice(0, 6), "agent"),
    "- [60|table/list/setting-1] row (and 2 inside)\n- [63|table/list/setting-2] row (and 2 inside)\n",
  );
  // The filter cleared: as many rows back, one line again; two are each printed as a read does.
  const back = gone.map((ch): Change =>
    ch.type === "removed"
      ? {
        type: "added",
        ref: ch.ref,
        el: { i: 0, r: ch.r as Role, ...(ch.t ? { t: ch.t } : {}) },
        ...(ch.up ? { up: ch.up } : {}),
      }
      : ch
  );
  assert.equal(
    renderChanges(back, "agent"),
    "+ 12 row in table/list (setting-1, setting-2, setting-3, …): read --scope-ref table/list " +
      "to see them\n",
  );
  assert.equal(
    renderChanges(back.slice(0, 6), "agent"),
    '+ [-|table/list/setting-1] row: "" | "setting-1"\n' +
      '+ [-|table/list/setting-2] row: "" | "setting-2"\n',
  );
});

Deno.test("renderChanges: one figure changing in many rows (a live table) is one line; the row's own change stays", () => {
  const cpu = (n: number): Change[] =>
    Array.from({ length: n }, (_, k) => ({
      type: "changed" as const,
      ref: `table/proc-${k + 1}/cpu`,
      i: 0,
      changes: { t: [`${k}.0`, `${k}.5`] as [unknown, unknown] },
    }));
  const out = renderChanges([
    ...cpu(20),
    {
      type: "changed",
      ref: "table/proc-7",
      i: 27,
      changes: { s: [false, true], f: [false, true] },
    },
  ], "agent");
  assert.equal(
    out,
    '~ 20 cpu in table changed (proc-1/cpu t: "0.0" -> "0.5", proc-2/cpu t: "1.0" -> "1.5", ' +
      'proc-3/cpu t: "2.0" -> "2.5", …)\n' +
      "~ [27|table/proc-7] s: false -> true; f: false -> true\n",
  );
  // A few are listed one by one.
  assert.equal(renderChanges(cpu(3), "agent").split("\n").filter(Boolean).length, 3);
  // JSONL keeps every change.
  assert.equal(renderChanges(cpu(20), "jsonl").split("\n").filter(Boolean).length, 20);
  // Several columns of a few rows each (gnome-system-monitor while the machine works): one line.
  const columns = ["cpu", "memory", "disk-write"].flatMap((col) =>
    cpu(4).map((c) => ({ ...c, ref: c.ref.replace(/cpu$/, col) }))
  );
  assert.equal(
    renderChanges(columns, "agent"),
    '~ 12 values in table changed (proc-1/cpu t: "0.0" -> "0.5", proc-2/cpu t: "1.0" -> "1.5", ' +
      'proc-3/cpu t: "2.0" -> "2.5", …)\n',
  );
});

Deno.test("render: a text's selection is on its line and in its diff; a bare caret only in the diff", () => {
  const doc = {
    i: 8,
    ref: "input",
    r: "input" as const,
    v: "Hello world hello",
    sel: [12, 17] as [number, number],
  };
  assert.equal(elementLine(doc), '[8|input] input val="Hello world hello" sel=12..17');
  assert.equal(elementLine({ ...doc, sel: [4, 4] }), '[8|input] input val="Hello world hello"');
  assert.equal(
    renderChanges(
      [{ type: "changed", ref: "input", i: 8, changes: { sel: [[12, 17], [0, 5]] } }],
      "agent",
    ),
    "~ [8|input] sel: 12..17 -> 0..5\n",
  );
});

Deno.test("renderChanges: a ref that follows its new label is not said again beside it", () => {
  // A window retitled: its ref is its title's slug; the handle shows the new one.
  const line = renderChanges([{
    type: "changed",
    ref: "notes-txt-gedit",
    i: 2,
    changes: {
      ref: ["untitled-gedit", "notes-txt-gedit"],
      t: ["Untitled - gedit", "notes.txt - gedit"],
    },
  }], "agent");
  assert.equal(line, '~ [2|notes-txt-gedit] t: "Untitled - gedit" -> "notes.txt - gedit"\n');
  // A ref that changed for another reason (its landmark moved) is said.
  const moved = renderChanges([{
    type: "changed",
    ref: "sidebar/save",
    i: 3,
    changes: { ref: ["toolbar/save", "sidebar/save"] },
  }], "agent");
  assert.match(moved, /ref: "toolbar\/save" -> "sidebar\/save"/);
});

Deno.test("agent: a field whose entry the app rejects says invalid, and a diff says when it turns so", () => {
  const field = {
    i: 5,
    ref: "form/weight",
    r: "spin" as const,
    t: "Weight",
    v: "0",
    inv: true as const,
  };
  assert.match(elementLine(field), /spin "Weight" val="0" invalid/);
  const { inv: _, ...valid } = field;
  const text = renderChanges(diffTrees(valid, field), "agent");
  assert.equal(text, "~ [5|form/weight] inv: false -> true\n");
});

Deno.test("agent: a date grid's day cells carry their ids, a day one clicks on is not a bare text", () => {
  // Chromium: a day cell with a click handler has the action `click`, an empty one `doDefault`;
  // the day's number is a text inside the cell.
  const day = (n: number, extra: Partial<Element> = {}) =>
    el("cell", undefined, [el("txt", String(n))], { a: ["click", "showContextMenu"], ...extra });
  const names = ["Mo", "Tu", "We"];
  const week = (first: number) =>
    el("row", undefined, names.map((_, k) => day(first + k, first + k === 9 ? { s: true } : {})));
  const root = el("app", "Cal", [
    el("window", "Cal", [
      el("table", "March 2025", [
        el("row", undefined, names.map((n) => el("colheader", n))),
        week(1),
        week(8),
        week(15),
        el("row", undefined, [el("cell", undefined, [el("txt", "22")], { a: ["doDefault"] })]),
      ]),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent", bounds: false, shortRefs: true });
  assert.match(text, /rows: \[id\|<row>\/mo\] cell "…" \| \[id\|<row>\/tu\] cell "…"/);
  // The selected day keeps its state on the row's line, and the run is not broken by it.
  assert.match(text, /\[\d+\]: \[\d+\] "8" \| \[(\d+)\] "9" selected \| \[\d+\] "10"\n/);
  const nine = Number(text.match(/\[(\d+)\] "9" selected/)![1]);
  assert.equal(findByRef(root, "march-2025/8/tu")?.i, nine);
  // A cell with no click of its own stays its text.
  assert.match(text, /row: "22"\n/);
});
