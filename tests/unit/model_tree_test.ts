import assert from "node:assert/strict";
import type { Element, Role } from "../../src/model/element.ts";
import { assignIds, flatten, walk } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

function sample(): Element {
  return el("app", "App", [
    el("window", "Main", [
      el("toolbar", undefined, [el("btn", "Back"), el("input", "Search")]),
      el("group", undefined, [el("form", undefined, [el("input", "Email"), el("btn", "Send")])]),
    ]),
  ]);
}

Deno.test("assignIds: numbers depth-first from 1", () => {
  const root = sample();
  assignIds(root);
  const seen: Array<[number, string]> = [];
  walk(root, (e) => {
    seen.push([e.i, e.t ?? e.r]);
  });
  assert.deepEqual(seen, [
    [1, "App"],
    [2, "Main"],
    [3, "toolbar"],
    [4, "Back"],
    [5, "Search"],
    [6, "group"],
    [7, "form"],
    [8, "Email"],
    [9, "Send"],
  ]);
});

Deno.test("walk: ancestors are root first; false skips children", () => {
  const root = sample();
  const paths: string[] = [];
  walk(root, (e, anc) => {
    paths.push([...anc.map((a) => a.r), e.r].join(">"));
    if (e.r === "group") return false;
  });
  assert.deepEqual(paths, [
    "app",
    "app>window",
    "app>window>toolbar",
    "app>window>toolbar>btn",
    "app>window>toolbar>input",
    "app>window>group",
  ]);
  let count = 0;
  walk(root, () => {
    count++;
    return false;
  });
  assert.equal(count, 1, "false on the root stops the walk");
});

Deno.test("flatten: document order, no children, landmark path p", () => {
  const root = sample();
  root.nid = "x";
  assignIds(root);
  assignRefs(root);
  const flat = flatten(root);
  assert.equal(flat.length, 9);
  assert.deepEqual(flat.map((f) => f.i), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  for (const f of flat) assert.ok(!("c" in f));
  const byRef = new Map(flat.map((f) => [f.ref, f]));
  assert.equal(byRef.get("toolbar/search")?.p, "toolbar");
  assert.equal(byRef.get("form/email")?.p, "form");
  assert.equal(byRef.get("toolbar")?.p, undefined, "no landmark ancestors, no p");
  // The input tree is untouched.
  assert.equal(root.c?.[0].c?.length, 2);
});

Deno.test("flatten: p follows the ref rules (labeled groups and rows count)", () => {
  const del = el("btn", "Delete");
  const root = el("window", "W", [
    el("group", "Sidebar", [
      el("list", undefined, [el("row", undefined, [el("txt", "Row A"), del])]),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  const f = flatten(root).find((x) => x.t === "Delete");
  assert.equal(f?.ref, "sidebar/list/row-a/delete");
  assert.equal(f?.p, "group > list > row");
});

Deno.test("walk and flatten: very deep trees do not overflow", () => {
  let leaf: Element = el("btn", "Deep");
  for (let k = 0; k < 50000; k++) leaf = el("group", undefined, [leaf]);
  assignIds(leaf);
  assert.equal(flatten(leaf).length, 50001);
});
