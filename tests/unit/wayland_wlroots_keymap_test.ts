/**
 * The virtual keyboard's keymap, compiled by libxkbcommon itself (the
 * library compositors and apps parse it with): each keysym on its own
 * keycode, and the modifier masks the keyboard sends are the keymap's
 * Shift, Control, Mod1 (Alt) and Mod4 (Super).
 */

import assert from "node:assert/strict";
import {
  buildKeymap,
  typedKeysym,
  XKB_MODIFIER_MASKS,
} from "../../src/platform/linux/wayland/wlroots_keymap.ts";

const XKB = {
  xkb_context_new: { parameters: ["i32"], result: "pointer" },
  xkb_context_unref: { parameters: ["pointer"], result: "void" },
  xkb_keymap_new_from_string: {
    parameters: ["pointer", "buffer", "i32", "i32"],
    result: "pointer",
  },
  xkb_keymap_unref: { parameters: ["pointer"], result: "void" },
  xkb_keymap_key_get_syms_by_level: {
    parameters: ["pointer", "u32", "u32", "u32", "buffer"],
    result: "i32",
  },
  xkb_keymap_mod_get_index: { parameters: ["pointer", "buffer"], result: "u32" },
  xkb_keymap_max_keycode: { parameters: ["pointer"], result: "u32" },
} as const satisfies Deno.ForeignLibraryInterface;

function openXkb(): Deno.DynamicLibrary<typeof XKB> | undefined {
  try {
    return Deno.dlopen("libxkbcommon.so.0", XKB);
  } catch {
    return undefined;
  }
}

const xkb = Deno.build.os === "linux" ? openXkb() : undefined;
const cstr = (s: string) => new TextEncoder().encode(`${s}\0`);

Deno.test({
  name:
    "wlroots keymap: libxkbcommon compiles it with one keysym per keycode and the standard modifier masks",
  ignore: xkb === undefined,
  fn() {
    const lib = xkb!.symbols;
    const text = "Hé€\n\t";
    const syms = [...text].map(typedKeysym);
    const km = buildKeymap([...syms, 0xff1b]);
    const ctx = lib.xkb_context_new(0);
    const keymap = lib.xkb_keymap_new_from_string(ctx, cstr(km.text), 1, 0);
    try {
      assert.ok(keymap, "libxkbcommon compiles the keymap");
      for (const [sym, code] of km.codes) {
        const out = new BigUint64Array(1);
        const n = lib.xkb_keymap_key_get_syms_by_level(
          keymap,
          code + 8,
          0,
          0,
          new Uint8Array(out.buffer),
        );
        assert.equal(n, 1, `keycode ${code} holds one keysym`);
        const got = new Deno.UnsafePointerView(Deno.UnsafePointer.create(out[0])!).getUint32(0);
        assert.equal(got, sym, `keycode ${code} sends 0x${sym.toString(16)}`);
      }
      assert.deepEqual([...km.codes.keys()], [0x48, 0xe9, 0x10020ac, 0xff0d, 0xff09, 0xff1b]);
      const index = (name: string) => lib.xkb_keymap_mod_get_index(keymap, cstr(name));
      assert.equal(1 << index("Shift"), XKB_MODIFIER_MASKS.shift);
      assert.equal(1 << index("Control"), XKB_MODIFIER_MASKS.ctrl);
      assert.equal(1 << index("Mod1"), XKB_MODIFIER_MASKS.alt);
      assert.equal(1 << index("Mod4"), XKB_MODIFIER_MASKS.super);
    } finally {
      if (keymap) lib.xkb_keymap_unref(keymap);
      lib.xkb_context_unref(ctx);
    }
  },
});

Deno.test("wlroots keymap: keysyms repeated take one key, in first-seen order; an empty keymap still compiles a key", () => {
  assert.deepEqual([...buildKeymap([0x61, 0x62, 0x61]).codes], [[0x61, 1], [0x62, 2]]);
  assert.equal(buildKeymap([]).codes.size, 1);
  assert.equal(typedKeysym("\r"), 0xff0d);
  assert.equal(typedKeysym("~"), 0x7e);
  assert.equal(typedKeysym("\u00a0"), 0xa0);
  assert.equal(typedKeysym("😀"), 0x0101f600);
});
