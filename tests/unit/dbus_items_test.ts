import assert from "node:assert/strict";
import {
  cachedChildren,
  type CacheItem,
  indexItems,
  ITEMS_SIGNATURE,
  parseItems,
  readItems,
} from "../../src/platform/linux/dbus/cache_items.ts";
import { plan } from "../../src/platform/linux/dbus/details.ts";
import { marshal } from "../../src/platform/linux/dbus/marshal.ts";
import { Reader } from "../../src/platform/linux/dbus/unmarshal.ts";
import type { DBusValue } from "../../src/platform/linux/dbus/value.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";

const APP = [":1.5", "/org/a11y/atspi/accessible/root"];
const row = (
  path: string,
  parent: string,
  index: number,
  childCount: number,
  name: string,
  role = 43,
  ifaces = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action"],
): DBusValue => [
  [":1.5", path],
  APP,
  [":1.5", parent],
  index,
  childCount,
  ifaces,
  name,
  role,
  `${name} description`,
  [1 << 30, 3],
];

const rows = [
  row("/root", "/null", -1, 2, "App", 75),
  row("/b", "/root", 1, 0, "Second"),
  row("/a", "/root", 0, 1, "First ünïcode"),
  row("/a/1", "/a", 0, 0, "Nested", 61, ["org.a11y.atspi.Accessible", "org.a11y.atspi.Text"]),
];

Deno.test("dbus items: the wire fast path reads what the generic path reads", () => {
  const bytes = marshal(ITEMS_SIGNATURE, [rows]);
  const fast = readItems(new Reader(bytes), ITEMS_SIGNATURE);
  const generic = parseItems([rows]);
  assert.deepEqual(fast, generic);
  assert.deepEqual(fast[2], {
    path: "/a",
    parent: "/root",
    index: 0,
    childCount: 1,
    interfaces: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action"],
    name: "First ünïcode",
    role: 43,
    description: "First ünïcode description",
    states: [1 << 30, 3],
  });
});

Deno.test("dbus items: rows with the same interfaces share one list", () => {
  const items = readItems(new Reader(marshal(ITEMS_SIGNATURE, [rows])), ITEMS_SIGNATURE);
  assert.equal(items[1].interfaces, items[2].interfaces);
});

Deno.test("dbus items: the legacy layout without index and count is read", () => {
  const legacy = [[
    [":1.5", "/x"],
    APP,
    [":1.5", "/root"],
    ["org.a11y.atspi.Accessible"],
    "X",
    7,
    "",
    [
      0,
      0,
    ],
  ]];
  const items = readItems(
    new Reader(marshal("a((so)(so)(so)assusau)", [legacy])),
    "a((so)(so)(so)assusau)",
  );
  assert.deepEqual(items.map((i) => [i.path, i.index, i.childCount, i.role]), [["/x", -1, -1, 7]]);
});

Deno.test("dbus items: children come in index order, not row order", () => {
  const idx = indexItems(parseItems([rows]));
  const kids = cachedChildren(idx, idx.byPath.get("/root")!);
  assert.deepEqual(kids?.map((k) => k.path), ["/a", "/b"]);
});

const incomplete: Array<[string, DBusValue[]]> = [
  ["fewer rows than the reported child count", [
    row("/root", "", -1, 3, "App", 75),
    row("/a", "/root", 0, 0, "A"),
  ]],
  ["a missing index", [row("/root", "", -1, 1, "App", 75), row("/a", "/root", -1, 0, "A")]],
  ["a child count of -1 (GTK3 menus: rows in hash order)", [
    row("/root", "", -1, -1, "File", 33),
    row("/b", "/root", -1, 0, "Save"),
    row("/a", "/root", -1, 0, "Open"),
  ]],
  ["a repeated index", [
    row("/root", "", -1, 2, "App", 75),
    row("/a", "/root", 0, 0, "A"),
    row("/b", "/root", 0, 0, "B"),
  ]],
];

for (const [why, rs] of incomplete) {
  Deno.test(`dbus items: the cache cannot order children with ${why}`, () => {
    const idx = indexItems(parseItems([rs]));
    assert.equal(cachedChildren(idx, idx.byPath.get("/root")! as CacheItem), null);
  });
}

const node = (role: number, name: string, ifaces: string[]): AtspiRawNode => ({
  bus: ":1.5",
  path: "/n",
  role,
  name,
  description: "",
  states: [0, 0],
  interfaces: ifaces.map((i) => `org.a11y.atspi.${i}`),
  children: [],
});

const plans: Array<[string, AtspiRawNode, boolean, string[]]> = [
  ["a named button", node(43, "OK", ["Component", "Action"]), true, ["extents", "actions"]],
  ["a button without bounds", node(43, "OK", ["Component", "Action"]), false, ["actions"]],
  ["an unnamed entry", node(79, "", ["Component", "Text", "EditableText"]), true, [
    "extents",
    "text",
    "attributes",
    "labelledBy",
  ]],
  ["a password field (never its text)", node(40, "Password", ["Text", "EditableText"]), true, [
    "attributes",
  ]],
  // A slider's attributes hold its value text (Chromium's aria-valuetext).
  ["a slider", node(51, "Volume", ["Component", "Value"]), true, [
    "extents",
    "value",
    "attributes",
  ]],
  ["a column header: its attributes say its sort order", node(57, "Date", []), false, [
    "attributes",
  ]],
  ["a heading", node(83, "Title", ["Text"]), false, ["attributes"]],
  // A label's text is its name (not read); its LABEL_FOR relation says which control it names.
  ["a label: only its relation is read", node(29, "Hello", ["Text"]), false, ["labelFor"]],
  ["a landmark: its attributes name its kind", node(110, "", []), false, ["attributes"]],
  ["a PDF page's text (a leaf)", node(84, "", ["Text"]), false, ["text"]],
  ["a spreadsheet cell's text (a leaf)", node(56, "A1", ["Text", "Value"]), false, [
    "value",
    "text",
  ]],
];

Deno.test("dbus details: a container's text (one U+FFFC per child) is not read", () => {
  assert.deepEqual(plan(node(84, "", ["Text"]), false, false), []);
});

for (const [what, n, bounds, expected] of plans) {
  Deno.test(`dbus details: ${what} gets ${JSON.stringify(expected)}`, () => {
    assert.deepEqual(plan(n, bounds, true), expected);
  });
}
