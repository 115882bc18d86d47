import assert from "node:assert/strict";
import { DesktopError, type ErrorCode } from "../../src/errors.ts";
import type { Element, Role } from "../../src/model/element.ts";
import { filterTree } from "../../src/model/filter.ts";
import { parseRoles } from "../../src/model/roles.ts";
import { assignIds, flatten } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

function app(): Element {
  const root = el("app", "Mail", [
    el("window", "Mail", [
      el("toolbar", undefined, [
        el("btn", "Compose"),
        el("input", "Search", undefined, { f: true }),
      ]),
      el("group", undefined, [
        el("scroll", undefined, [
          el("list", "Messages", [
            el("row", undefined, [el("txt", "Invoice from Bob"), el("btn", "Delete")]),
            el("row", undefined, [el("txt", "Lunch?"), el("btn", "Delete")]),
          ]),
        ]),
      ]),
      el("form", undefined, [
        el("input", "Password", undefined, { sec: true, v: "bob-secret" }),
        el("txt", "Forgot it?"),
      ]),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  return root;
}

/** Refs of a (filtered) tree in document order. */
function refs(root: Element | null): string[] {
  return root ? flatten(root).map((e) => e.ref!) : [];
}

function throwsCode(fn: () => unknown, code: ErrorCode): DesktopError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DesktopError, String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

Deno.test("filter: no filters copies the whole tree and never mutates the input", () => {
  const root = app();
  const before = JSON.stringify(root);
  const out = filterTree(root, {});
  assert.equal(out.total, 17);
  assert.equal(out.kept, 17);
  assert.equal(out.truncated, 0);
  assert.deepEqual(out.root, root);
  assert.notEqual(out.root, root);
  out.root!.c = [];
  assert.equal(JSON.stringify(root), before);
});

Deno.test("filter: roles keep matches and the ancestors that lead to them", () => {
  const out = filterTree(app(), { roles: parseRoles("btn") });
  assert.deepEqual(refs(out.root), [
    "mail",
    "window",
    "toolbar",
    "toolbar/compose",
    "group",
    "scroll",
    "messages",
    "messages/invoice-from-bob",
    "messages/invoice-from-bob/delete",
    "messages/lunch",
    "messages/lunch/delete",
  ]);
  assert.equal(out.total, 17);
  assert.equal(out.kept, 11);
});

Deno.test("filter: the interactive meta-role selects every actionable role", () => {
  const out = filterTree(app(), { roles: parseRoles("interactive"), prune: true });
  const leaves = flatten(out.root!).filter((e) => e.r !== "app" && e.r !== "window")
    .filter((e) => ["btn", "input"].includes(e.r)).map((e) => e.ref);
  assert.deepEqual(leaves, [
    "toolbar/compose",
    "toolbar/search",
    "messages/invoice-from-bob/delete",
    "messages/lunch/delete",
    "form/password",
  ]);
});

Deno.test("filter: text matches label, value, description; never a secure value", () => {
  const out = filterTree(app(), { text: "invoice" });
  assert.ok(refs(out.root).includes("messages/invoice-from-bob/txt"));
  assert.equal(filterTree(app(), { text: "bob-secret" }).root, null);
  assert.equal(filterTree(app(), { text: "no such text" }).root, null);
  assert.equal(filterTree(app(), { text: "no such text" }).kept, 0);
});

Deno.test("filter: roles and text combine (both must hold)", () => {
  const out = filterTree(app(), { roles: parseRoles("txt"), text: "lunch" });
  assert.equal(refs(out.root).at(-1), "messages/lunch/txt");
  assert.equal(flatten(out.root!).filter((e) => e.r === "txt").length, 1);
});

Deno.test("filter: depth limits printed levels below the root", () => {
  assert.deepEqual(refs(filterTree(app(), { depth: 0 }).root), ["mail"]);
  // The unlabeled group and scroll area are not printed, so they add no level:
  // the list is at printed level 2, like the toolbar's neighbours.
  assert.deepEqual(refs(filterTree(app(), { depth: 2 }).root), [
    "mail",
    "window",
    "toolbar",
    "group",
    "scroll",
    "messages",
    "form",
  ]);
});

Deno.test("filter: depth N prints N levels below the root however deep the anonymous nesting", () => {
  let inner: Element = el("btn", "Deep");
  for (let k = 0; k < 6; k++) inner = el("group", undefined, [inner]);
  const root = el("app", "Calc", [el("window", "Calc", [inner])]);
  assignIds(root);
  assignRefs(root);
  const out = filterTree(root, { depth: 2 }).root!;
  const shown: string[] = [];
  const visit = (e: Element) => {
    if (e.t) shown.push(e.t);
    (e.c ?? []).forEach(visit);
  };
  visit(out);
  assert.deepEqual(shown, ["Calc", "Calc", "Deep"]);
  // With prune the groups are lifted out and the count is the same.
  assert.equal(flatten(filterTree(root, { depth: 2, prune: true }).root!).length, 3);
});

Deno.test("filter: focused keeps the focused element and its ancestors", () => {
  const out = filterTree(app(), { focused: true });
  assert.deepEqual(refs(out.root), ["mail", "window", "toolbar", "toolbar/search"]);
});

Deno.test("filter: scope-ref keeps one subtree, resolved like --ref", () => {
  const out = filterTree(app(), { scopeRef: "messages" });
  assert.equal(out.root?.ref, "messages");
  assert.equal(out.kept, 7);
  const deep = filterTree(app(), { scopeRef: "form", depth: 0 });
  assert.deepEqual(refs(deep.root), ["form"]);
  throwsCode(() => filterTree(app(), { scopeRef: "nowhere" }), "ELEMENT_NOT_FOUND");
  throwsCode(() => filterTree(app(), { scopeRef: "delete" }), "AMBIGUOUS_TARGET");
  throwsCode(() => filterTree(app(), { scopeRef: "a//b" }), "INVALID_ARGS");
});

Deno.test("filter: max-elements keeps a document-order prefix and counts the cut", () => {
  const out = filterTree(app(), { maxElements: 5 });
  assert.deepEqual(refs(out.root), [
    "mail",
    "window",
    "toolbar",
    "toolbar/compose",
    "toolbar/search",
  ]);
  assert.equal(out.kept, 5);
  assert.equal(out.truncated, 12);
  const roomy = filterTree(app(), { maxElements: 100 });
  assert.equal(roomy.truncated, 0);
  assert.equal(roomy.kept, 17);
});

Deno.test("filter: prune lifts the children of anonymous containers", () => {
  const out = filterTree(app(), { prune: true });
  const window = out.root!.c![0];
  assert.deepEqual(window.c!.map((e) => e.ref), ["toolbar", "messages", "form"]);
  assert.equal(out.kept, 15);
  // A labeled group is not anonymous.
  const labeled = el("app", "A", [
    el("group", "Sidebar", [el("btn", "X")]),
    el("group", undefined, [el("btn", "Y")]),
  ]);
  assignIds(labeled);
  assignRefs(labeled);
  assert.deepEqual(filterTree(labeled, { prune: true }).root!.c!.map((e) => e.r + (e.t ?? "")), [
    "groupSidebar",
    "btnY",
  ]);
});

Deno.test("filter: bad numbers are INVALID_ARGS", () => {
  throwsCode(() => filterTree(app(), { depth: -1 }), "INVALID_ARGS");
  throwsCode(() => filterTree(app(), { depth: 1.5 }), "INVALID_ARGS");
  throwsCode(() => filterTree(app(), { maxElements: 0 }), "INVALID_ARGS");
});

Deno.test("filter: refs are those of the full read", () => {
  const full = new Set(refs(app()));
  for (const r of refs(filterTree(app(), { roles: parseRoles("btn,txt"), prune: true }).root)) {
    assert.ok(full.has(r), r);
  }
});

Deno.test("filter: menuitem keeps a menu bar's labeled menus (GTK 3's File, Edit), not popups", () => {
  const root: Element = {
    i: 1,
    r: "menubar",
    c: [
      { i: 2, r: "menu", t: "File" },
      { i: 3, r: "menu", t: "Tabs", c: [{ i: 4, r: "menuitem", t: "Next Tab" }] },
      { i: 5, r: "menu" },
    ],
  };
  const out = filterTree(root, { roles: new Set(["menuitem" as const]) });
  const kept = (out.root?.c ?? []).map((e) => e.t ?? "(popup)");
  assert.deepEqual(kept, ["File", "Tabs"]);
});

Deno.test("filter: --interactive keeps the text that tells twins apart when their rows are groups", () => {
  const watch = (name: string, price: string) =>
    el("group", undefined, [el("txt", name), el("txt", price), el("btn", "Remove")]);
  const root = el("app", "Shop", [
    el("window", "Shop", [
      el("region", "Watchlist", [
        watch("Ada", "$101"),
        watch("Alan", "$112"),
        watch("Grace", "$123"),
      ]),
      el("txt", "Prices every 5 s"),
      el("btn", "Refresh"),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  const out = filterTree(root, { roles: parseRoles("interactive") }).root!;
  const lines = flatten(out).filter((e) => e.r !== "group").map((e) => `${e.r} ${e.t}`);
  // Each Remove comes after its own row's name, and only that: not the prices, not the
  // text beside the unique Refresh button.
  assert.deepEqual(lines.slice(3), [
    "txt Ada",
    "btn Remove",
    "txt Alan",
    "btn Remove",
    "txt Grace",
    "btn Remove",
    "btn Refresh",
  ]);
  const twins = flatten(out).filter((e) => e.r === "btn" && e.t === "Remove").map((e) => e.ref);
  assert.equal(new Set(twins).size, 3);
  // Twins that are siblings have no row of their own: nothing is added for them.
  const flat = el("app", "A", [
    el("toolbar", "T", [el("txt", "Tools"), el("btn", "Go"), el("btn", "Go")]),
  ]);
  assignIds(flat);
  assignRefs(flat);
  const kept = flatten(filterTree(flat, { roles: parseRoles("interactive") }).root!);
  assert.deepEqual(kept.map((e) => e.r), ["app", "toolbar", "btn", "btn"]);
});
