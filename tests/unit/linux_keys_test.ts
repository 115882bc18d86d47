import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import { keysymFor, parseCombo } from "../../src/platform/linux/keys.ts";
import { keyRuns } from "../../src/platform/linux/input.ts";

Deno.test("keys: combos map to X modifier masks and keysyms", () => {
  const cases: Array<[string, number, number]> = [
    ["ctrl+a", 4, 0x61],
    ["Return", 0, 0xff0d],
    ["shift+Tab", 1, 0xff09],
    ["ctrl+shift+Z", 5, 0x5a],
    ["alt+F4", 8, 0xffc1],
    ["super+space", 64, 0x20],
    ["Escape", 0, 0xff1b],
    ["BackSpace", 0, 0xff08],
    ["ctrl++", 4, 0x2b],
    ["Page_Down", 0, 0xff56],
    ["é", 0, 0xe9],
    ["ж", 0, 0x1000436],
  ];
  for (const [combo, mask, keysym] of cases) {
    assert.deepEqual(parseCombo(combo), { mask, keysym }, combo);
  }
});

Deno.test("keys: bad combos are INVALID_ARGS", () => {
  for (const combo of ["", "ctrl+", "hyper+a", "ctrl+NoSuchKey", "a++b"]) {
    try {
      parseCombo(combo);
      assert.fail(`expected an error for ${JSON.stringify(combo)}`);
    } catch (e) {
      assert.ok(e instanceof DesktopError, combo);
      assert.equal(e.code, "INVALID_ARGS", combo);
    }
  }
});

Deno.test("keys: single names resolve case-insensitively, control characters do not", () => {
  assert.equal(keysymFor("RETURN"), 0xff0d);
  assert.equal(keysymFor("f12"), 0xffc9);
  assert.equal(keysymFor("\u0007"), undefined);
  assert.equal(keysymFor("ab"), undefined);
});

Deno.test("typing: characters off the keyboard map are typed one keysym at a time", () => {
  assert.deepEqual(keyRuns("ab c\n"), ["ab c\n"]);
  // Latin-1 keysyms are the code point; others 0x01000000 + code point.
  assert.deepEqual(keyRuns("aé€b"), ["a", 0xe9, 0x010020ac, "b"]);
  assert.deepEqual(keyRuns("日本"), [0x010065e5, 0x0100672c]);
  assert.deepEqual(keyRuns(""), []);
});
