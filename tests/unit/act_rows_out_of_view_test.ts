import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import {
  holdersFor,
  moreRowsHint,
  pageNotches,
  rowHolders,
} from "../../src/act/rows_out_of_view.ts";

const row = (i: number, t: string, y: number): Element => ({
  i,
  r: "treeitem",
  t,
  b: [0, y, 200, 20],
});

Deno.test("rows out of view: a tree whose scroll bar stands before its end holds more rows", () => {
  // A scroll pane with the tree and its bars, as GTK and Qt expose them.
  const tree: Element = {
    i: 3,
    r: "tree",
    t: "Settings",
    ref: "settings",
    b: [0, 0, 200, 100],
    c: [row(4, "Audio", 0), row(5, "Video", 20)],
  };
  const bar = (v: string, max: number): Element => ({
    i: 6,
    r: "scroll",
    v,
    min: 0,
    max,
    b: [200, 0, 12, 100],
  });
  const pane = (b: Element): Element => ({ i: 2, r: "scroll", c: [tree, b] });
  assert.deepEqual(
    rowHolders({ i: 1, r: "window", c: [pane(bar("0", 400))] }).map((h) => h.why),
    ["scrollbar"],
  );
  assert.deepEqual(rowHolders({ i: 1, r: "window", c: [pane(bar("400", 400))] }), []);
  // A horizontal bar says nothing of rows below.
  const wide: Element = { i: 7, r: "scroll", v: "0", min: 0, max: 50, b: [0, 100, 200, 12] };
  assert.deepEqual(rowHolders({ i: 1, r: "window", c: [pane(wide)] }), []);
});

Deno.test("rows out of view: which container a target may lie in, and what the error says", () => {
  const files = {
    el: { i: 2, r: "list" as const, t: "Files", ref: "files" },
    why: "clipped" as const,
  };
  const mail = {
    el: { i: 3, r: "list" as const, t: "Mail", ref: "mail" },
    why: "clipped" as const,
  };
  assert.deepEqual(holdersFor([files, mail], { ref: "mail/inbox/re-hello" }), [mail]);
  assert.deepEqual(holdersFor([files, mail], { text: "report" }), []);
  assert.deepEqual(holdersFor([files], { text: "report" }), [files]);
  const hint = moreRowsHint([files, mail]);
  assert.match(hint, /^list "Files" \[files\], list "Mail" \[mail\] hold more rows than they show/);
  assert.match(hint, /scroll --ref files --direction down/);
  assert.equal(moreRowsHint([]), "");
});

Deno.test("rows out of view: pages overlap whatever a notch is worth", () => {
  const list = (rows: Element[]): Element => ({ i: 1, r: "list", b: [0, 0, 200, 300], c: rows });
  // 3 notches moved "b" by 360 px: 120 px a notch, so 240 px (2 notches) a page.
  assert.equal(
    pageNotches(list([row(2, "a", 0), row(3, "b", 380)]), list([row(3, "b", 20)]), 3),
    2,
  );
  // No row in both reads: the last count is kept.
  assert.equal(pageNotches(list([row(2, "a", 0)]), list([row(3, "z", 0)]), 3), 3);
});
