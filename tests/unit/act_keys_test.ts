import assert from "node:assert/strict";
import { parseKeyChord } from "../../src/act/keys.ts";
import { parseCombo } from "../../src/platform/linux/keys.ts";
import { parseKeyCombo } from "../../src/platform/macos/keys.ts";
import { DesktopError } from "../../src/errors.ts";

const invalid = (e: unknown) => e instanceof DesktopError && e.code === "INVALID_ARGS";

Deno.test("keys: one grammar, one meaning on both platforms", () => {
  // delete deletes forward and backspace backward, on Linux and on macOS alike.
  assert.equal(parseCombo("Delete").keysym, 0xffff);
  assert.equal(parseKeyCombo("Delete").code, 117);
  assert.equal(parseCombo("BackSpace").keysym, 0xff08);
  assert.equal(parseKeyCombo("BackSpace").code, 51);
  // cmd, super and meta are one modifier: Command on macOS, Super on Linux.
  for (const m of ["cmd", "super", "meta", "Command"]) {
    assert.deepEqual(parseKeyChord(`${m}+a`), { mods: ["super"], key: "a" });
    assert.equal(parseCombo(`${m}+a`).mask, 64);
    assert.equal(parseKeyCombo(`${m}+a`).flags, 0x100000);
  }
  // Aliases fold to one name; modifiers come out in one order, once each.
  assert.deepEqual(parseKeyChord("Shift+ctrl+shift+Page_Down"), {
    mods: ["ctrl", "shift"],
    key: "pagedown",
  });
  assert.deepEqual(parseKeyChord("ctrl++"), { mods: ["ctrl"], key: "+" });
  assert.equal(parseKeyChord("esc").key, parseKeyChord("Escape").key);
  assert.equal(parseKeyChord("Enter").key, "return");
});

Deno.test("keys: a character by its keysym name, and the keypad's own keys", () => {
  // As xdotool and keymaps name them: `asterisk` types `*` (galculator's multiply).
  assert.deepEqual(parseKeyChord("asterisk"), { mods: [], key: "*" });
  assert.equal(parseCombo("asterisk").keysym, 0x2a);
  assert.equal(parseCombo("shift+plus").keysym, 0x2b);
  assert.equal(parseKeyCombo("minus").code, 27);
  // The keypad is not the main block: KP_Enter is its own keysym and key code.
  assert.equal(parseKeyChord("KP_Enter").key, "kpenter");
  assert.equal(parseCombo("KP_Enter").keysym, 0xff8d);
  assert.equal(parseKeyCombo("kp_enter").code, 76);
  assert.equal(parseCombo("KP_Multiply").keysym, 0xffaa);
  assert.equal(parseCombo("KP_7").keysym, 0xffb7);
  assert.equal(parseKeyCombo("KP_7").code, 89);
});

Deno.test("keys: what a platform cannot press is INVALID_ARGS with the grammar as suggestion", () => {
  assert.throws(() => parseCombo("fn+F1"), invalid);
  assert.throws(() => parseKeyCombo("F20"), invalid);
  for (const combo of ["", "ctrl+", "hyper+a", "a+b", "ctrl+shift", "ctrl+NoSuchKey"]) {
    assert.throws(() => parseKeyChord(combo), invalid, JSON.stringify(combo));
  }
});
