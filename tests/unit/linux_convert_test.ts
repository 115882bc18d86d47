import assert from "node:assert/strict";
import {
  framesAwaitingDocument,
  hasState,
  isHidden,
  isOffscreenSubtree,
  isUndrawn,
  parseNodeId,
  rawToElement,
} from "../../src/platform/linux/convert.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";
import type { Element } from "../../src/model/element.ts";

/** State bits as (low, high) words. */
function states(...bits: number[]): [number, number] {
  const w: [number, number] = [0, 0];
  for (const b of bits) {
    if (b < 32) w[0] = (w[0] | (1 << b)) >>> 0;
    else w[1] = (w[1] | (1 << (b - 32))) >>> 0;
  }
  return w;
}

const ENABLED = 8, SENSITIVE = 24, VISIBLE = 30, SHOWING = 25;
const LIVE = [ENABLED, SENSITIVE, VISIBLE, SHOWING];

function node(over: Partial<AtspiRawNode>): AtspiRawNode {
  return {
    bus: ":1.7",
    path: "/org/a11y/atspi/accessible/3",
    role: 43,
    name: "",
    description: "",
    states: states(...LIVE),
    interfaces: ["org.a11y.atspi.Accessible"],
    children: [],
    ...over,
  };
}

Deno.test("convert: nid is the bus name followed by the object path, and parses back", () => {
  const el = rawToElement(node({}));
  assert.equal(el.nid, ":1.7/org/a11y/atspi/accessible/3");
  assert.deepEqual(parseNodeId(el.nid!), { bus: ":1.7", path: "/org/a11y/atspi/accessible/3" });
  assert.equal(parseNodeId("no-slash"), null);
});

Deno.test("convert: a password field is secure and never carries its text", () => {
  const el = rawToElement(node({ role: 40, name: "Password", text: "hunter2" }));
  assert.equal(el.sec, true);
  assert.equal(el.v, undefined);
  assert.ok(!JSON.stringify(el).includes("hunter2"));
});

Deno.test("convert: state bits map to the compact flags", () => {
  const cases: Array<{ bits: number[]; role?: number; want: Record<string, unknown> }> = [
    { bits: [...LIVE, 12], want: { f: true } },
    { bits: [VISIBLE, SHOWING], want: { e: false } },
    { bits: [...LIVE, 23], want: { s: true } },
    { bits: [...LIVE, 4], role: 7, want: { chk: true } },
    { bits: [...LIVE], role: 7, want: { chk: false } },
    { bits: [...LIVE, 32], role: 7, want: { chk: "mixed" } },
    { bits: [...LIVE, 41], role: 43, want: { chk: false } },
    { bits: [...LIVE, 20], role: 62, want: { chk: true } },
    // GTK 4's toggle button: a push button that says PRESSED while held, nothing when released.
    { bits: [...LIVE, 20], role: 43, want: { r: "btn", chk: true } },
    { bits: [...LIVE], role: 43, want: { r: "btn", chk: undefined } },
    // Qt 5: a checked menu item (35) says CHECKED without CHECKABLE.
    { bits: [...LIVE, 4], role: 35, want: { chk: true } },
    { bits: [...LIVE], role: 35, want: { chk: undefined } },
    { bits: [...LIVE, 9], want: { exp: false } },
    { bits: [...LIVE, 9, 10], want: { exp: true } },
    { bits: [...LIVE, 33], want: { req: true } },
    { bits: [...LIVE, 43], role: 79, want: { ro: true } },
  ];
  for (const c of cases) {
    const el = rawToElement(node({ states: states(...c.bits), role: c.role ?? 43 }));
    for (const [k, v] of Object.entries(c.want)) {
      assert.deepEqual((el as unknown as Record<string, unknown>)[k], v, `${k} for bits ${c.bits}`);
    }
  }
});

Deno.test("convert: an enabled plain element carries no state flags", () => {
  const el = rawToElement(node({}));
  for (const k of ["f", "e", "s", "chk", "exp", "req", "ro", "sec"]) {
    assert.equal(k in el, false, k);
  }
});

Deno.test("convert: an editable role without EDITABLE is read-only", () => {
  const el = rawToElement(
    node({ role: 79, interfaces: ["org.a11y.atspi.EditableText"], text: "x" }),
  );
  assert.equal(el.ro, true);
  assert.equal(el.v, "x");
});

Deno.test("convert: label falls back to the labelled-by name when the name is empty", () => {
  assert.equal(rawToElement(node({ role: 79, labelledBy: "Email" })).t, "Email");
  assert.equal(rawToElement(node({ role: 79, name: "Own", labelledBy: "Other" })).t, "Own");
});

Deno.test("convert: placeholder, heading level and description", () => {
  const input = rawToElement(
    node({ role: 79, attributes: { "placeholder-text": "you@example.com" }, description: "help" }),
  );
  assert.equal(input.ph, "you@example.com");
  assert.equal(input.d, "help");
  const h = rawToElement(node({ role: 83, name: "Title", attributes: { level: "2" } }));
  assert.equal(h.lv, 2);
  // Firefox gives tabs and list items a "level" too: no heading, no level.
  const tab = rawToElement(node({ role: 37, name: "Inbox", attributes: { level: "1" } }));
  assert.equal(tab.lv, undefined);
  const same = rawToElement(node({ name: "Same", description: "Same" }));
  assert.equal(same.d, undefined);
});

Deno.test("convert: values come from Text for inputs and from Value for ranges", () => {
  const slider = rawToElement(
    node({ role: 51, value: { current: 0.30000000000000004, min: 0, max: 1 } }),
  );
  assert.equal(slider.v, "0.3");
  assert.equal(slider.min, 0);
  assert.equal(slider.max, 1);
  const spin = rawToElement(
    node({ role: 52, text: "50", value: { current: 50, min: 1, max: 100 } }),
  );
  assert.equal(spin.v, "50");
  const empty = rawToElement(node({ role: 79, text: "" }));
  assert.equal(empty.v, undefined);
});

Deno.test("convert: bounds drop the off-screen marker and empty boxes", () => {
  assert.deepEqual(rawToElement(node({ extents: [1, 2, 3, 4] })).b, [1, 2, 3, 4]);
  assert.equal(rawToElement(node({ extents: [-2147483648, -2147483648, 5, 5] })).b, undefined);
  assert.equal(rawToElement(node({ extents: [0, 0, 0, 0] })).b, undefined);
});

Deno.test("convert: empty action names are dropped and hidden children are skipped", () => {
  const el = rawToElement(node({
    actions: ["click", ""],
    children: [
      node({ path: "/a", name: "shown" }),
      node({ path: "/b", name: "hidden", states: states(ENABLED, SENSITIVE) }),
    ],
  }));
  assert.deepEqual(el.a, ["click"]);
  assert.deepEqual(el.c?.map((c) => c.t), ["shown"]);
});

Deno.test("convert: hidden means no VISIBLE state, except frames and apps", () => {
  assert.equal(isHidden({ role: 43, states: states(ENABLED) }), true);
  assert.equal(isHidden({ role: 43, states: states(VISIBLE) }), false);
  assert.equal(isHidden({ role: 23, states: states(ENABLED) }), false);
  assert.equal(isHidden({ role: 75, states: [0, 0] }), false);
  assert.equal(hasState(states(41), 41), true);
  assert.equal(hasState(states(41), 40), false);
});

Deno.test("convert: subtrees with nothing on screen are dropped, others kept", () => {
  const zero: [number, number, number, number] = [10, 56, 0, 0];
  const hiddenPage = node({
    path: "/page2",
    name: "Page 2",
    children: [
      node({ path: "/o", extents: zero, children: [node({ path: "/b", extents: zero })] }),
    ],
  });
  const shownPage = node({
    path: "/page1",
    name: "Page 1",
    children: [node({ path: "/c", extents: [10, 56, 100, 30] })],
  });
  const noBounds = node({ path: "/leaf", name: "no bounds read" });
  const zeroWithShownChild = node({
    path: "/wrap",
    extents: zero,
    children: [node({ path: "/d", name: "shown", extents: [1, 1, 5, 5] })],
  });
  assert.equal(isOffscreenSubtree(hiddenPage), true);
  assert.equal(isOffscreenSubtree(shownPage), false);
  assert.equal(isOffscreenSubtree(noBounds), false);
  assert.equal(isOffscreenSubtree(zeroWithShownChild), false);
  const el = rawToElement(
    node({ children: [hiddenPage, shownPage, noBounds, zeroWithShownChild] }),
  );
  assert.deepEqual(el.c?.map((c) => c.nid?.split("/").pop()), ["page1", "leaf", "wrap"]);
});

Deno.test("convert: a leaf's text is its value, a container's is not (its children carry it)", () => {
  const page = node({ role: 84, interfaces: ["org.a11y.atspi.Text"], text: "Quarterly report" });
  assert.equal(rawToElement(page).v, "Quarterly report");
  const label = node({ role: 29, name: "Quantity Two", text: "Quantity \uFFFC" });
  label.children = [node({ role: 11, name: "Quantity" })];
  assert.equal(rawToElement(label).v, undefined);
  // A label's text that repeats its name adds nothing.
  assert.equal(rawToElement(node({ role: 29, name: "Hello", text: "Hello" })).v, undefined);
});

Deno.test("convert: a spreadsheet cell shows its text, not its unbounded Value", () => {
  const empty = node({
    role: 56,
    name: "A1",
    text: "",
    value: { current: 0, min: -1.7e308, max: 1.7e308 },
  });
  const el = rawToElement(empty);
  assert.equal(el.v, undefined);
  assert.equal(el.min, undefined);
  const full = rawToElement({
    ...empty,
    text: "42",
    value: { current: 42, min: -1.7e308, max: 1.7e308 },
  });
  assert.equal(full.v, "42");
});

Deno.test("convert: a document that is not showing is hidden, a showing one is not", () => {
  const VISIBLE = 1 << 30, SHOWING = 1 << 25;
  assert.equal(isHidden({ role: 95, states: [VISIBLE, 0] }), true);
  assert.equal(isHidden({ role: 95, states: [VISIBLE | SHOWING, 0] }), false);
  // Other roles only need VISIBLE (closed menus keep their items).
  assert.equal(isHidden({ role: 35, states: [VISIBLE, 0] }), false);
});

Deno.test("convert: a row made to group cells has no native id", () => {
  const row = node({ role: 90, path: "" });
  assert.equal(rawToElement(row).nid, undefined);
});

Deno.test("rawToElement: GTK 4's class-name fallback is not a label; a real label is kept", () => {
  // GTK 4 names an unlabelled widget after its class (gnome-text-editor's editor reads
  // "EditorSourceView"); its objects live under <app path>/a11y/<uuid>.
  const gtk4 = (name: string, children: AtspiRawNode[] = []): AtspiRawNode => ({
    bus: ":1.4",
    path: "/org/gnome/TextEditor/a11y/de59ee67_98f8_45c8_802a_ed072caa6b79",
    role: 61,
    name,
    description: "",
    states: [0, 0],
    interfaces: [],
    children,
  });
  assert.equal(rawToElement(gtk4("EditorSourceView")).t, undefined);
  assert.equal(rawToElement(gtk4("PanelDockChild")).t, undefined);
  assert.equal(rawToElement(gtk4("Save")).t, "Save");
  assert.equal(rawToElement(gtk4("Save As")).t, "Save As");
  // A brand name the widget shows on screen (its label child) is a label.
  const label = { ...gtk4("GitHub"), role: 29 };
  assert.equal(rawToElement(gtk4("GitHub", [label])).t, "GitHub");
  // Other toolkits never fall back to class names: a CamelCase name is the app's.
  const gtk3 = { ...gtk4("FeatherPad"), path: "/org/a11y/atspi/accessible/12" };
  assert.equal(rawToElement(gtk3).t, "FeatherPad");
});

Deno.test("rawToElement: text between embedded children becomes text children in place (Firefox)", () => {
  const input = node({ path: "/p/2", role: 79, name: "", text: "" });
  const para = node({ path: "/p/1", role: 73, text: "Email \uFFFC (work)", children: [input] });
  const el = rawToElement(para);
  assert.equal(el.v, undefined);
  assert.deepEqual(el.c!.map((k) => [k.r, k.t]), [["txt", "Email"], ["input", undefined], [
    "txt",
    "(work)",
  ]]);
  // Text that does not interleave the children that way stays the element's value.
  const odd = rawToElement(node({ role: 73, text: "no objects", children: [input] }));
  assert.equal(odd.c!.length, 1);
});

Deno.test("convert: an empty spin with a number shows the number (Chromium's date parts)", () => {
  const month = rawToElement(node({
    role: 52,
    name: "Month Due before",
    interfaces: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Text", "org.a11y.atspi.Value"],
    text: "",
    value: { current: 12, min: 1, max: 12 },
    attributes: { valuetext: "12" },
  }));
  assert.equal(month.v, "12");
  const empty = rawToElement(node({ role: 79, name: "Search", text: "" }));
  assert.equal(empty.v, undefined, "an empty entry with no number stays empty");
});

Deno.test("convert: a field that shows nothing has no value, whatever number it holds", () => {
  // Chromium 156, <input type="number" min="0" max="10"> left empty: Value says 0, the text is
  // empty and there is no value text (one holding 0 has `valuetext:0` and text "0").
  const spin = { role: 52, interfaces: ["org.a11y.atspi.Text", "org.a11y.atspi.Value"] };
  const qty = rawToElement(
    node({ ...spin, name: "Qty", text: "", value: { current: 0, min: 0, max: 10 } }),
  );
  assert.equal(qty.v, undefined);
  const zero = rawToElement(node({
    ...spin,
    name: "Qty",
    text: "0",
    value: { current: 0, min: 0, max: 10 },
    attributes: { valuetext: "0" },
  }));
  assert.equal(zero.v, "0");
  // An empty part of a time field: 0 outside its range 1..12, value text "0", shown as `--`.
  const hours = rawToElement(node({
    ...spin,
    name: "Hours",
    text: "",
    value: { current: 0, min: 1, max: 12 },
    attributes: { valuetext: "0" },
  }));
  assert.equal(hours.v, undefined);
  assert.equal(hours.vt, undefined);
});

Deno.test("convert: a single-precision value prints without float noise (Chromium's <meter>)", () => {
  const meter = rawToElement(node({
    role: 42,
    value: { current: Math.fround(0.7), min: 0, max: 1 },
  }));
  assert.equal(meter.v, "0.7");
  const precise = rawToElement(node({ role: 51, value: { current: 0.123456789, min: 0, max: 1 } }));
  assert.equal(precise.v, "0.123456789", "a double keeps its digits");
});

Deno.test("convert: Chromium's tab panel (a scroll pane with xml-roles tabpanel) is a tab panel", () => {
  const panel = rawToElement(
    node({ role: 49, name: "Board", attributes: { "xml-roles": "tabpanel" } }),
  );
  assert.equal(panel.r, "tabpanel");
  const pane = rawToElement(node({ role: 49, name: "" }));
  assert.equal(pane.r, "scroll");
});

Deno.test("convert: a GTK 3 cell's edit action shows only when the cell is editable", () => {
  const acts = ["expand or contract", "edit", "activate"];
  const plain = rawToElement(node({ role: 56, name: "root", actions: acts }));
  assert.deepEqual(plain.a, ["expand or contract", "activate"]);
  const editable = rawToElement(
    node({ role: 56, name: "x", actions: acts, states: states(...LIVE, 7) }),
  );
  assert.deepEqual(editable.a, acts);
});

Deno.test("convert: a combo's popup with no area is closed: its items are choices, not children", () => {
  const item = (name: string, y: number) =>
    node({ role: 32, name, extents: [0, y, 673, 25], path: `/item/${y}` });
  const list = node({
    role: 31,
    extents: [0, 0, 0, 0],
    children: [item("KDBX 4", 0), item("KDBX 3", 25)],
  });
  const combo = rawToElement(node({
    role: 11,
    name: "KDBX 4",
    extents: [807, 731, 474, 31],
    children: [list],
  }));
  assert.equal(combo.c, undefined, "no popup items as content");
  assert.equal(combo.v, "KDBX 4", "the name is one of the choices: it is the value");
  // An open popup (with an area) stays.
  const open = rawToElement(node({
    role: 11,
    name: "KDBX 4",
    children: [{ ...list, extents: [810, 735, 499, 50] }],
  }));
  assert.equal(open.c?.length, 1);
});

Deno.test("convert: read-only shows only on what could change (Qt marks labels and images so)", () => {
  const READ_ONLY = 43;
  const label = rawToElement(
    node({ role: 29, name: "Welcome", states: states(...LIVE, READ_ONLY) }),
  );
  assert.equal(label.ro, undefined);
  const input = rawToElement(node({ role: 79, name: "Name", states: states(...LIVE, READ_ONLY) }));
  assert.equal(input.ro, true);
});

Deno.test("convert: a file chooser that is a window of its own is a dialog; inside a window, a group", () => {
  const chooser = node({ role: 19, name: "Extract", path: "/c" });
  const app = rawToElement(node({ role: 75, name: "file-roller", children: [chooser] }));
  assert.equal(app.c?.[0].r, "dialog");
  const inner = rawToElement(node({ role: 16, name: "Save", children: [{ ...chooser }] }));
  assert.equal(inner.c?.[0].r, "group");
});

Deno.test("convert: a window inside a window with nothing in it is a text display, named by its description", () => {
  // KCalc's result display: a frame named by the number it shows, described "Result Display".
  const display = node({ role: 23, name: "36", description: "Result Display", path: "/d" });
  const win = rawToElement(node({ role: 23, name: "", children: [display] }));
  assert.deepEqual(
    { r: win.c?.[0].r, t: win.c?.[0].t, v: win.c?.[0].v, d: win.c?.[0].d },
    { r: "txt", t: "Result Display", v: "36", d: undefined },
  );
  // With no description, its name is its text.
  const plain = rawToElement(node({ role: 23, children: [{ ...display, description: "" }] }));
  assert.deepEqual({ r: plain.c?.[0].r, t: plain.c?.[0].t }, { r: "txt", t: "36" });
  // A top-level window stays a window, even empty.
  const app = rawToElement(node({ role: 75, name: "kcalc", children: [{ ...display }] }));
  assert.equal(app.c?.[0].r, "window");
});

Deno.test("convert: a checkable push button is a toggle; a combo's empty popup is no child", () => {
  const CHECKABLE = 41;
  const star = rawToElement(node({ role: 43, name: "Star", states: states(...LIVE, CHECKABLE) }));
  assert.equal(star.r, "toggle");
  const combo = rawToElement(node({
    role: 11,
    name: "Quality",
    children: [node({ role: 33, path: "/menu", extents: [0, 0, 10, 10] })],
  }));
  assert.equal(combo.c, undefined);
});

Deno.test("convert: a subtree GTK 3 does not draw (not SHOWING, at INT32_MIN) is dropped, menus kept", () => {
  const undrawn: [number, number, number, number] = [-2147483648, -2147483648, 252, 47];
  const notShowing = states(ENABLED, SENSITIVE, VISIBLE);
  const findBar = node({
    path: "/find",
    role: 39, // panel
    states: notShowing,
    extents: undrawn,
    children: [node({ path: "/up", name: "Up", states: notShowing, extents: undrawn })],
  });
  const closedItem = node({
    path: "/item",
    role: 35,
    name: "b.txt",
    states: notShowing,
    extents: undrawn,
  });
  const recent = node({ path: "/recent", role: 62, name: "Recent", children: [closedItem] });
  const separatorInMenu = node({ path: "/sep", role: 70, states: notShowing, extents: undrawn });
  const menu = node({
    path: "/menu",
    role: 33,
    name: "File",
    states: notShowing,
    extents: undrawn,
    children: [separatorInMenu, closedItem],
  });
  // Scrolled out of view: not SHOWING, but at real coordinates.
  const scrolledOut = node({
    path: "/row",
    name: "Row 90",
    states: notShowing,
    extents: [10, 4000, 200, 20],
  });
  const el = rawToElement(node({ children: [findBar, recent, menu, scrolledOut] }));
  assert.deepEqual(el.c?.map((c) => c.nid?.split("/").pop()), ["recent", "menu", "row"]);
  assert.equal(el.c?.[0].c?.length, 1, "the closed menu button keeps its item");
  assert.equal(el.c?.[1].c?.length, 2, "a closed menu keeps what it holds");
  assert.equal(isUndrawn(findBar), true);
  // GTK 2 puts a table's scrolled-out cells at INT32_MIN: content, kept.
  assert.equal(isUndrawn({ ...findBar, role: 56 }), false);
  assert.equal(isUndrawn(separatorInMenu, 33), false);
  assert.equal(isUndrawn({ ...findBar, states: states(...LIVE) }), false, "SHOWING wins");
});

Deno.test("convert: a list row scrolled out of view keeps what it holds (GTK 3 marks it undrawn)", () => {
  const undrawn: [number, number, number, number] = [-2147483648, -2147483648, 60, 17];
  const notShowing = states(ENABLED, SENSITIVE, VISIBLE);
  const label = (path: string, name: string, showing: boolean) =>
    node({
      path,
      role: 29, // label
      name,
      states: showing ? states(...LIVE) : notShowing,
      extents: showing ? [10, 10, 60, 17] : undrawn,
    });
  // GTK 3's list box: each row a list item holding its label; row 11 scrolled out of view.
  const row = (path: string, showing: boolean, children: AtspiRawNode[]) =>
    node({
      path,
      role: 56, // list item
      states: showing ? states(...LIVE) : notShowing,
      extents: showing ? [0, 0, 400, 23] : [0, 1000, 400, 23],
      children,
    });
  const shown = row("/row10", true, [label("/l10", "Row 10", true)]);
  const out = row("/row11", false, [
    node({
      path: "/box",
      role: 39, // panel
      states: notShowing,
      extents: undrawn,
      children: [label("/l11", "Row 11", false)],
    }),
  ]);
  // A hidden widget inside a row that shows (a closed revealer) is still left out.
  const hiddenInShown = row("/row12", true, [
    label("/l12", "Row 12", true),
    label("/hidden", "Details", false),
  ]);
  const list = rawToElement(node({ role: 31, children: [shown, out, hiddenInShown] }));
  const texts = (el: Element): string[] => [el.t ?? "", ...(el.c ?? []).flatMap(texts)];
  assert.deepEqual(
    list.c?.map((r) => texts(r).filter(Boolean)),
    [["Row 10"], ["Row 11"], ["Row 12"]],
  );
});

Deno.test("convert: a browser frame with an area waits for its document while it has none laid out", () => {
  const box = (w: number): [number, number, number, number] => [0, 100, w, w];
  const node = (
    role: number,
    extents: [number, number, number, number],
    children: AtspiRawNode[] = [],
    pending?: boolean,
  ): AtspiRawNode => ({
    bus: ":1.1",
    path: `/${role}/${extents[2]}`,
    role,
    name: "",
    description: "",
    states: [1 << 30, 0],
    interfaces: [],
    children,
    extents,
    ...(pending ? { pending } : {}),
  });
  // Firefox's first contact: the tab's frame reported no children.
  const empty = node(28, box(800), [], true);
  // A moment later: a document whose boxes are not laid out yet.
  const unlaid = node(28, box(800), [node(95, box(0), [node(29, box(0))])]);
  // A background tab: its document was left out as hidden (not pending: it reported one).
  const background = node(28, box(800), []);
  // The page, laid out.
  const ready = node(28, box(800), [node(95, box(800), [node(29, box(20))])]);
  // A hidden iframe with no area.
  const tiny = node(28, box(0), [], true);
  const app = (frames: AtspiRawNode[]) => node(75, box(1000), [node(23, box(1000), frames)]);
  assert.deepEqual(framesAwaitingDocument(app([empty, background, tiny])), [empty]);
  assert.deepEqual(framesAwaitingDocument(app([unlaid])), [unlaid]);
  assert.deepEqual(framesAwaitingDocument(app([ready, background])), []);
});

Deno.test("convert: a progress bar's figure has the digits a single-precision number holds", () => {
  // GTK 2: 0.6 as a float, times 100.
  const bar = rawToElement(node({
    role: 42,
    interfaces: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Value"],
    value: { current: Math.fround(0.6) * 100, min: 0, max: 100 },
  }));
  assert.equal(bar.v, "60");
  // A spin button keeps its digits: a price is not rounded.
  const spin = rawToElement(node({
    role: 52,
    interfaces: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Value"],
    value: { current: 1234567.89, min: 0, max: 1e9 },
  }));
  assert.equal(spin.v, "1234567.89");
});

Deno.test("convert: a scroll bar's position is whole pixels; a spin's typed number not taken is its value text", () => {
  const bar = rawToElement(
    node({ role: 48, value: { current: 1118.99605249, min: 0, max: 2000 } }),
  );
  assert.equal(bar.v, "1119");
  // GTK: "5" typed into a spin that still holds 10 (not committed by Return or Tab).
  const spin = rawToElement(
    node({ role: 52, name: "Minutes", text: "5", value: { current: 10, min: 1, max: 100 } }),
  );
  assert.equal(spin.v, "10");
  assert.equal(spin.vt, "5");
  const held = rawToElement(
    node({ role: 52, name: "Minutes", text: "10", value: { current: 10, min: 1, max: 100 } }),
  );
  assert.equal(held.v, "10");
  assert.equal(held.vt, undefined);
  // A field the app rejects.
  assert.equal(rawToElement(node({ role: 79, states: states(...LIVE, 36) })).inv, true);
});

Deno.test("convert: a rich editor's value holds its embedded paragraphs, each on its line", () => {
  // Chromium's contenteditable: "Line one" inline, the second paragraph a section child holding a
  // text run (its text read by name), standing in the field's text as U+FFFC.
  const editor = rawToElement(
    node({
      role: 79,
      name: "Note body",
      text: "Line one\uFFFC",
      interfaces: ["org.a11y.atspi.Accessible", "org.a11y.atspi.EditableText"],
      states: states(...LIVE, 7),
      children: [
        node({ role: 116, name: "Line one", path: "/a/1" }),
        node({
          role: 85,
          path: "/a/2",
          children: [node({ role: 116, name: "Line two", path: "/a/3" })],
        }),
      ],
    }),
  );
  assert.equal(editor.v, "Line one\nLine two");
});
