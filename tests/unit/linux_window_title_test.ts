import assert from "node:assert/strict";
import { type Client, titleOfSameBox } from "../../src/platform/linux/windows.ts";
import type { Bounds } from "../../src/model/element.ts";

const client = (title: string, b: Bounds): Client => ({ win: 1n, title, b, viewable: true });

Deno.test("untitled window: the X window of the same box names it, give or take a border", () => {
  // KCalc: the accessible box is the X window's.
  assert.equal(
    titleOfSameBox([client("KCalc", [506, 375, 268, 288])], [506, 375, 268, 288]),
    "KCalc",
  );
  // GTK 3 draws a shadow around its content: the X window is a little larger.
  assert.equal(
    titleOfSameBox([client("Files", [90, 90, 840, 640])], [116, 110, 788, 600]),
    "Files",
  );
  // A box at 0,0 is relative to its window: the size decides.
  assert.equal(
    titleOfSameBox([client("Clocks", [300, 200, 600, 400])], [0, 0, 600, 400]),
    "Clocks",
  );
});

Deno.test("untitled window: a window inside another takes no title from it (Chromium's popups)", () => {
  const browser = client("Settings - Chromium", [10, 10, 1050, 1004]);
  assert.equal(titleOfSameBox([browser], [113, 35, 712, 88]), undefined);
  assert.equal(titleOfSameBox([browser], [113, 35, 712, 178]), undefined);
  // The closest of two windows of that box wins.
  const two = [client("Far", [0, 0, 830, 630]), client("Near", [100, 100, 800, 600])];
  assert.equal(titleOfSameBox(two, [101, 101, 800, 600]), "Near");
});
