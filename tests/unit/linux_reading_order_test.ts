import assert from "node:assert/strict";
import {
  gridOrder,
  gridsInReadingOrder,
  readingOrder,
} from "../../src/platform/linux/reading_order.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";

const label = (name: string, extents?: [number, number, number, number]): AtspiRawNode => ({
  bus: ":1.1",
  path: `/${name}`,
  role: 29,
  name,
  description: "",
  states: [0, 0],
  interfaces: [],
  children: [],
  extents,
});

Deno.test("reading order: a GTK grid's keys and values, attached most recent first, read row by row", () => {
  // eog's properties: GTK lists the last attached first, values apart from their keys.
  const grid: AtspiRawNode = {
    ...label("grid", [0, 0, 200, 60]),
    role: 39,
    children: [
      label("PNG image", [90, 20, 93, 17]),
      label("48 × 48 pixels", [90, 0, 93, 17]),
      label("Type", [0, 20, 82, 17]),
      label("Size", [0, 0, 82, 17]),
      label("hidden", [-2147483648, -2147483648, 1, 1]),
    ],
  };
  gridsInReadingOrder({ ...label("window"), role: 22, children: [grid] });
  assert.deepEqual(grid.children.map((k) => k.name), [
    "Size",
    "48 × 48 pixels",
    "Type",
    "PNG image",
    "hidden",
  ]);
});

Deno.test("reading order: a box a little lower on the same row is on that row; a taller one spans", () => {
  assert.deepEqual(readingOrder([[100, 3, 50, 20], [0, 0, 50, 26]]), [1, 0]);
  // A tall box on the left spanning two rows, then the two rows on its right.
  assert.deepEqual(readingOrder([[60, 30, 50, 20], [60, 0, 50, 20], [0, 0, 50, 50]]), [2, 1, 0]);
});

Deno.test("reading order: overlapping children (an overlay) and panels that are not GTK grids keep their order", () => {
  assert.equal(gridOrder([[0, 0, 400, 300], [10, 100, 40, 40]]), undefined);
  assert.equal(gridOrder([[0, 0, 10, 10]]), undefined);
  const box: AtspiRawNode = {
    ...label("box"),
    role: 20, // filler (GtkBox): its order is the app's
    children: [label("b", [0, 20, 10, 10]), label("a", [0, 0, 10, 10])],
  };
  gridsInReadingOrder(box);
  assert.deepEqual(box.children.map((k) => k.name), ["b", "a"]);
});
