/**
 * Randomized (seeded, so reproducible) checks of the ref rules on generated
 * trees: every ref is valid and resolves to its own element, and insertions,
 * removals and value changes elsewhere leave other refs unchanged.
 */

import assert from "node:assert/strict";
import type { Element, Role } from "../../src/model/element.ts";
import { ROLES } from "../../src/model/roles.ts";
import { assignIds, walk } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { resolveRef, validateRef } from "../../src/refs/resolve.ts";
import { rng } from "../harness/rng.ts";

const WORDS = [
  "OK",
  "Cancel",
  "Save",
  "Delete",
  "Name",
  "E-mail",
  "保存",
  "Сохранить",
  "Ünïcödé",
  "  spaced  out  ",
  "a/b.c",
  "!!!",
  "42",
  "x".repeat(60),
];

/** A random tree of about `n` elements; labels from a small pool so duplicates happen. */
function randomTree(seed: number, n: number, unique = false): Element {
  const rand = rng(seed);
  let made = 0;
  const make = (depth: number): Element => {
    made++;
    const r = ROLES[Math.floor(rand() * ROLES.length)] as Role;
    const el: Element = { i: 0, r };
    const pick = rand();
    if (unique) el.t = `Label ${made}`;
    else if (pick < 0.7) el.t = WORDS[Math.floor(rand() * WORDS.length)];
    else if (pick < 0.8) el.ph = WORDS[Math.floor(rand() * WORDS.length)];
    if (rand() < 0.3) el.v = `value ${Math.floor(rand() * 100)}`;
    if (depth < 6 && made < n) {
      const kids = Math.floor(rand() * 5);
      if (kids) el.c = Array.from({ length: kids }, () => make(depth + 1));
    }
    return el;
  };
  const root: Element = { i: 0, r: "app", t: "App", c: [] };
  while (made < n) root.c!.push(make(1));
  return root;
}

function prepare(root: Element): Element {
  assignIds(root);
  assignRefs(root);
  return root;
}

Deno.test("refs property: every generated ref is valid and resolves to its own element", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const root = prepare(randomTree(seed, 300));
    walk(root, (el) => {
      assert.ok(el.ref, "every element has a ref");
      validateRef(el.ref);
      assert.equal(resolveRef(root, el.ref), el, `seed ${seed}: ${el.ref}`);
    });
  }
});

/** Refs by element label, for trees with unique labels. */
function refsByLabel(root: Element): Map<string, string> {
  const out = new Map<string, string>();
  walk(root, (el) => {
    if (el.t) out.set(el.t, el.ref!);
  });
  return out;
}

/**
 * Rows, tree items and cells: their content keys the row, and text inside a
 * cell is a value (keyed by role, so by position among its twins).
 */
function isRowish(el: Element): boolean {
  return el.r === "row" || el.r === "treeitem" || el.r === "listitem" || el.r === "option" ||
    el.r === "cell";
}

/** Containers where an insertion is "elsewhere" for every other element: not inside a row. */
function insertionPoints(root: Element): Element[] {
  const out: Element[] = [];
  walk(root, (el, anc) => {
    if (isRowish(el)) return false;
    if (!anc.some(isRowish)) out.push(el);
  });
  return out;
}

Deno.test("refs property: inserting or removing an element elsewhere keeps other refs", () => {
  for (let seed = 1; seed <= 30; seed++) {
    const before = refsByLabel(prepare(randomTree(seed, 200, true)));
    const rand = rng(seed * 7919);

    const inserted = randomTree(seed, 200, true);
    const points = insertionPoints(inserted);
    const at = points[Math.floor(rand() * points.length)];
    (at.c ??= []).splice(Math.floor(rand() * (at.c.length + 1)), 0, {
      i: 0,
      r: "btn",
      t: "Inserted",
    });
    const afterInsert = refsByLabel(prepare(inserted));
    for (const [label, ref] of before) assert.equal(afterInsert.get(label), ref, `seed ${seed}`);

    const removed = randomTree(seed, 200, true);
    const leaves: Array<{ parent: Element; k: number }> = [];
    walk(removed, (el, anc) => {
      if (anc.some(isRowish)) return false;
      el.c?.forEach((kid, k) => {
        // A table's own cells and column headers are its rows' content: not "elsewhere".
        const tableCell = (el.r === "table" || el.r === "tree") &&
          (kid.r === "cell" || kid.r === "colheader");
        if (!kid.c?.length && !isRowish(kid) && !tableCell) {
          leaves.push({ parent: el, k });
        }
      });
    });
    const gone = leaves[Math.floor(rand() * leaves.length)];
    // A tree whose every leaf sits in a row (a draw of row-like roles) has nothing "elsewhere".
    if (!gone) continue;
    const [cut] = gone.parent.c!.splice(gone.k, 1);
    const afterRemove = refsByLabel(prepare(removed));
    for (const [label, ref] of before) {
      if (label !== cut.t) assert.equal(afterRemove.get(label), ref, `seed ${seed}`);
    }
  }
});

Deno.test("refs property: changing values never changes a ref", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const a = prepare(randomTree(seed, 300));
    const changed = randomTree(seed, 300);
    walk(changed, (el) => {
      el.v = el.v ? undefined : "a brand new value";
    });
    prepare(changed);
    const refsA: string[] = [];
    const refsB: string[] = [];
    walk(a, (el) => {
      refsA.push(el.ref!);
    });
    walk(changed, (el) => {
      refsB.push(el.ref!);
    });
    assert.deepEqual(refsB, refsA, `seed ${seed}`);
  }
});
