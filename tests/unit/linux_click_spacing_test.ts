import assert from "node:assert/strict";
import { clickSpacingWait, DOUBLE_CLICK_GAP_MS } from "../../src/platform/linux/input.ts";

Deno.test("click spacing: a click near the last one, on its display, waits out the double-click gap", () => {
  const last = { display: ":5", x: 100, y: 200, t: 10_000 };
  assert.equal(clickSpacingWait(last, { x: 104, y: 197 }, 10_100, ":5"), DOUBLE_CLICK_GAP_MS - 100);
  // Far enough away, late enough, another display, or no last click: no wait.
  assert.equal(clickSpacingWait(last, { x: 130, y: 200 }, 10_100, ":5"), 0);
  assert.equal(clickSpacingWait(last, { x: 100, y: 200 }, 10_000 + DOUBLE_CLICK_GAP_MS, ":5"), 0);
  assert.equal(clickSpacingWait(last, { x: 100, y: 200 }, 10_100, ":6"), 0);
  assert.equal(clickSpacingWait(null, { x: 100, y: 200 }, 10_100, ":5"), 0);
  // A clock that went back never makes a click wait.
  assert.equal(clickSpacingWait(last, { x: 100, y: 200 }, 9_000, ":5"), 0);
});
