import assert from "node:assert/strict";
import { parseKeyCombo } from "../../src/platform/macos/keys.ts";
import { DesktopError } from "../../src/errors.ts";

const CMD = 0x100000, CTRL = 0x40000, ALT = 0x80000, SHIFT = 0x20000, FN = 0x800000;

Deno.test("macos keys: combos map to virtual key codes and CGEventFlags", () => {
  const table: [string, number, number][] = [
    ["Return", 36, 0],
    ["enter", 36, 0],
    ["Tab", 48, 0],
    ["shift+Tab", 48, SHIFT],
    ["cmd+a", 0, CMD],
    ["Cmd+Shift+Z", 6, CMD | SHIFT],
    ["ctrl+alt+Delete", 117, CTRL | ALT],
    ["Backspace", 51, 0],
    ["option+Left", 123, ALT],
    ["meta+q", 12, CMD],
    ["Escape", 53, 0],
    ["F5", 96, 0],
    ["fn+F12", 111, FN],
    ["PageDown", 121, 0],
    ["cmd+1", 18, CMD],
    ["cmd+/", 44, CMD],
    ["space", 49, 0],
  ];
  for (const [combo, code, flags] of table) {
    assert.deepEqual(parseKeyCombo(combo), { code, flags }, combo);
  }
});

Deno.test("macos keys: bad combos fail with INVALID_ARGS", () => {
  for (const combo of ["", "  ", "cmd+", "+a", "cmd", "hyper+a", "cmd+nosuchkey", "a+b"]) {
    assert.throws(
      () => parseKeyCombo(combo),
      (e: unknown) => e instanceof DesktopError && e.code === "INVALID_ARGS" && !!e.suggestion,
      JSON.stringify(combo),
    );
  }
});
