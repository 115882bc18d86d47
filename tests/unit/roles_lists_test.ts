/**
 * Roles of what one picks in a list (option, list item, tree item, table
 * row), the states a line says of its own element (sort order, value text,
 * a list box's chosen option), prose list items, the role filter's rows and
 * the budget's long texts.
 */

import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { INTERACTIVE_ROLES, parseRoles, roleFromAtspiName } from "../../src/model/roles.ts";
import { filterTree } from "../../src/model/filter.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { renderAgent } from "../../src/output/agent.ts";
import { fitBudget } from "../../src/output/budget.ts";
import { treeData } from "../../src/output/data.ts";
import { parseSnapshot } from "../../src/output/snapshot.ts";
import { rawToElement } from "../../src/platform/linux/convert.ts";
import { plan } from "../../src/platform/linux/dbus/details.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";

const VISIBLE = 30, SHOWING = 25, ENABLED = 8, SENSITIVE = 24, SELECTED = 23, SELECTABLE = 22;

function states(...bits: number[]): [number, number] {
  const w: [number, number] = [0, 0];
  for (const b of bits) {
    if (b < 32) w[0] = (w[0] | (1 << b)) >>> 0;
    else w[1] = (w[1] | (1 << (b - 32))) >>> 0;
  }
  return w;
}

let path = 0;
function node(over: Partial<AtspiRawNode>): AtspiRawNode {
  return {
    bus: ":1.7",
    path: `/org/a11y/atspi/accessible/${++path}`,
    role: 43,
    name: "",
    description: "",
    states: states(VISIBLE, SHOWING, ENABLED, SENSITIVE),
    interfaces: ["org.a11y.atspi.Accessible"],
    children: [],
    ...over,
  };
}

/** Numbers elements depth-first from 1, as a read does. */
function number(root: Element): Element {
  let i = 0;
  const stack = [root];
  while (stack.length) {
    const el = stack.pop()!;
    el.i = ++i;
    for (const k of [...(el.c ?? [])].reverse()) stack.push(k);
  }
  return root;
}

function render(root: Element, opts = {}): string {
  number(root);
  assignRefs(root);
  return renderAgent(root, { bounds: false, ...opts });
}

const option = (name: string, ...bits: number[]) =>
  node({
    role: 32,
    name,
    states: states(VISIBLE, SHOWING, ENABLED, SENSITIVE, SELECTABLE, ...bits),
  });

function settingsPage(): AtspiRawNode {
  return node({
    role: 95,
    name: "Settings",
    children: [
      node({
        role: 98,
        name: "Language",
        children: [option("English"), option("Deutsch"), option("Français", SELECTED)],
      }),
      node({
        role: 51,
        name: "Billing month",
        interfaces: ["org.a11y.atspi.Value"],
        value: { current: 3, min: 1, max: 12 },
        attributes: { valuetext: "March" },
      }),
      node({
        role: 52,
        name: "Session length",
        value: { current: 90, min: 0, max: 240, text: "1:30" },
      }),
      node({
        role: 55,
        name: "Invoices",
        children: [
          node({
            role: 90,
            children: [
              node({ role: 57, name: "Date", attributes: { sort: "ascending" } }),
              node({ role: 57, name: "Amount", attributes: { sort: "none" } }),
            ],
          }),
          node({
            role: 90,
            children: [
              node({ role: 56, name: "2026-01-04" }),
              node({ role: 56, name: "120.00" }),
            ],
          }),
        ],
      }),
    ],
  });
}

Deno.test("roles: option, list item, tree item and table row are distinct roles, and --roles takes them", () => {
  assert.equal(roleFromAtspiName("list item"), "listitem");
  assert.equal(roleFromAtspiName("list box"), "listbox");
  assert.equal(roleFromAtspiName("table row"), "row");
  assert.equal(roleFromAtspiName("tree item"), "treeitem");
  assert.deepEqual([...parseRoles("listbox,option,listitem,row,treeitem")], [
    "listbox",
    "option",
    "listitem",
    "row",
    "treeitem",
  ]);
  assert.deepEqual([...parseRoles("list-item, listbox-item")], ["listitem", "option"]);
  for (const r of ["listbox", "option", "listitem", "row", "treeitem"] as const) {
    assert.ok(INTERACTIVE_ROLES.has(r), r);
  }
});

Deno.test("roles: a list box's items are options, its chosen option is on its own line, and its options are keyed like rows", () => {
  const root = rawToElement(settingsPage());
  const out = render(root);
  assert.match(out, /\[\d+\|language\] listbox "Language" val="Français"\n/);
  assert.match(out, /\] option "Deutsch"\n/);
  assert.match(out, /\] option "Français" selected\n/);
  assert.doesNotMatch(out, / row "(English|Deutsch)/);
  // A GTK list box's row is named by the label it holds: so is the chosen option.
  const gtk = rawToElement(node({
    role: 98,
    children: [
      node({ role: 32, children: [node({ role: 29, name: "ca" })] }),
      node({
        role: 32,
        states: states(VISIBLE, SHOWING, SELECTABLE, SELECTED),
        children: [node({ role: 29, name: "org" })],
      }),
    ],
  }));
  assert.equal(gtk.v, "org");
  assert.deepEqual(gtk.c?.map((k) => k.r), ["option", "option"]);
  // JSON says the same roles.
  const json = JSON.stringify(treeData(root));
  assert.ok(json.includes('"r":"option","t":"English"'), json);
  assert.ok(json.includes('"r":"listbox","t":"Language","v":"Français"'), json);
});

Deno.test("roles: a slider and a spin button show their value text beside the number; a sorted column header says its order", () => {
  const root = rawToElement(settingsPage());
  const out = render(root);
  assert.match(out, /slider "Billing month" val="3" valtext="March" range=1\.\.12/);
  assert.match(out, /spin "Session length" val="90" valtext="1:30" range=0\.\.240/);
  assert.match(out, /colheader "Date" sort=ascending/);
  assert.doesNotMatch(out, /colheader "Amount" sort/);
  const json = JSON.stringify(treeData(root));
  assert.ok(json.includes('"v":"3","vt":"March"'), json);
  assert.ok(json.includes('"sort":"ascending"'), json);
  // A value text that only says the number again is not repeated.
  const plain = rawToElement(
    node({ role: 51, name: "Volume", value: { current: 5, min: 0, max: 10, text: "5" } }),
  );
  assert.equal(plain.vt, undefined);
  // The D-Bus reader asks a slider and a column header for their attributes.
  assert.ok(
    plan(node({ role: 51, interfaces: ["org.a11y.atspi.Accessible"] }), false).includes(
      "attributes",
    ),
  );
  assert.ok(
    plan(node({ role: 57, interfaces: ["org.a11y.atspi.Accessible"] }), false).includes(
      "attributes",
    ),
  );
});

Deno.test("roles: --interactive keeps a list box with its options and table rows with their cells", () => {
  const root = number(rawToElement(settingsPage()));
  assignRefs(root);
  const { root: kept } = filterTree(root, { roles: parseRoles("interactive") });
  const out = renderAgent(kept!, { bounds: false });
  assert.match(out, /listbox "Language" val="Français"/);
  assert.equal(out.match(/\] option "/g)?.length, 3, out);
  assert.match(out, /row: "2026-01-04" \| "120\.00"/);
});

Deno.test("roles: a list item of prose reads as a paragraph with no ref of its words; one holding a control is a listitem keyed like a row", () => {
  const text = (t: string) => node({ role: 116, name: t });
  const list = node({
    role: 31,
    children: [
      node({
        role: 32,
        children: [text("• "), text("To make understanding the state of the system easier.")],
      }),
      node({
        role: 32,
        children: [
          text("• "),
          text("Exports are faster: see"),
          node({ role: 88, name: "the benchmark", actions: ["jump"] }),
        ],
      }),
      node({
        role: 32,
        children: [text("• "), text("Announce it"), node({ role: 43, name: "Draft" })],
      }),
    ],
  });
  const root = rawToElement(node({ role: 95, name: "Notes", children: [list] }));
  // As a read prints it: static text is its quoted words, with no [id|ref].
  const out = render(root, { bareText: true });
  assert.doesNotMatch(out, /to-make-understanding/, out);
  assert.doesNotMatch(out, /exports-are-faster/, out);
  assert.match(out, /\n\s*"To make understanding the state of the system easier\."\n/);
  assert.match(out, /\[\d+\|list\/the-benchmark\] lnk "the benchmark"/);
  assert.match(
    out,
    /\[\d+\|list\/announce-it\] listitem: "Announce it" \| \[\d+\|list\/announce-it\/draft\] btn "Draft"/,
  );
  // A search result (a heading over a link and its snippet) is a card: a list item.
  const card = rawToElement(node({
    role: 32,
    children: [
      node({ role: 83, name: "Rye bread", children: [node({ role: 88, name: "Rye bread" })] }),
      text("Learn how rye bread rises."),
    ],
  }));
  assert.equal(card.r, "listitem");
  // A selectable list item (a toolkit's list) is a list item whatever it holds.
  const item = rawToElement(
    node({ role: 32, states: states(VISIBLE, SELECTABLE), children: [text("a.txt")] }),
  );
  assert.equal(item.r, "listitem");
});

Deno.test("budget: a long value is cut first, saying its length and how to read it whole", () => {
  const long = "Lorem ipsum dolor sit amet. ".repeat(70);
  const text = [
    `[1|app] app "Editor"`,
    `  [2|bio] input "Biography" val="${long}"`,
    `  [3|save] btn "Save"`,
  ].join("\n") + "\n";
  const out = fitBudget(text, 200, (s) => Math.ceil(s.length / 4));
  assert.ok(out.length < 500, out);
  assert.match(out, /val="Lorem ipsum[^"]*…"\(1960 chars: read --scope-ref bio --max-text 0\)/);
  assert.match(out, /\[3\|save\] btn "Save"/);
  // Within budget, nothing changes.
  assert.equal(fitBudget(text, 100_000, (s) => Math.ceil(s.length / 4)), text);
});

Deno.test("roles: a saved read keeps value text and sort order (read --from shows them again)", () => {
  const root = number(rawToElement(settingsPage()));
  assignRefs(root);
  const text = JSON.stringify({
    format: "desktop-snapshot",
    version: 1,
    app: { name: "Chromium", pid: 7 },
    root: treeData(root),
  });
  const back = parseSnapshot(text).root;
  const out = renderAgent(back, { bounds: false });
  assert.match(out, /slider "Billing month" val="3" valtext="March"/);
  assert.match(out, /colheader "Date" sort=ascending/);
  assert.match(out, /listbox "Language" val="Français"/);
  // A secure field's value text is never saved.
  const secret = parseSnapshot(JSON.stringify({
    format: "desktop-snapshot",
    version: 1,
    app: { name: "X", pid: 7 },
    root: { i: 1, r: "input", sec: true, vt: "hunter2" },
  })).root;
  assert.equal(secret.vt, undefined);
});
