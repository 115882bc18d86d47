import assert from "node:assert/strict";
import { Shim } from "../shim/shim.ts";
import { libraryPaths, openMacosLibraries } from "../../src/ffi/macos/libraries.ts";
import { CoreFoundation } from "../../src/ffi/macos/cf.ts";
import { type AxValue, createAxValue, readAxValue } from "../../src/ffi/macos/ax_value.ts";
import { AX_ERROR, axError, axErrorCode } from "../../src/ffi/macos/ax_error.ts";

const shim = new Shim();

function withCf(fn: (cf: CoreFoundation, libs: ReturnType<typeof openMacosLibraries>) => void) {
  shim.reset("browser");
  const libs = openMacosLibraries(libraryPaths(Deno.env.get("DESKTOP_AX_SHIM")));
  try {
    fn(CoreFoundation.fromLibraries(libs), libs);
  } finally {
    libs.close();
  }
  const stats = shim.stats();
  assert.equal(stats.leaks, 0, "every owned CF reference was released");
  assert.equal(stats.doubleFrees, 0, "no reference was released twice");
  assert.equal(stats.badUses, 0, "no freed object was used");
}

Deno.test("macos cf: CFString round-trips ASCII, accents, CJK, emoji and empty text", () => {
  withCf((cf) => {
    for (const text of ["Submit", "Crème brûlée", "日本語のラベル", "ok 😀 ✓", ""]) {
      using s = cf.string(text);
      assert.equal(cf.kind(s.ptr), "string");
      assert.equal(cf.readString(s.ptr), text);
    }
  });
});

Deno.test("macos cf: a long CFString can be cut on the CF side, by UTF-16 units", () => {
  withCf((cf) => {
    using s = cf.string(`${"x".repeat(5000)}tail`);
    assert.equal(cf.readString(s.ptr, 2000), "x".repeat(2000));
    using jp = cf.string("日本語のテキスト😀です");
    assert.equal(cf.readString(jp.ptr, 3), "日本語");
    assert.equal(cf.readString(jp.ptr, 10), "日本語のテキスト😀");
    assert.equal(cf.readString(jp.ptr, 100), "日本語のテキスト😀です");
  });
});

Deno.test("macos cf: a non-string reads as an empty string", () => {
  withCf((cf) => {
    using n = cf.number(3);
    assert.equal(cf.readString(n.ptr), "");
    assert.equal(cf.readString(null), "");
  });
});

Deno.test("macos cf: CFNumber keeps integers and doubles", () => {
  withCf((cf) => {
    for (const n of [0, 42, -7, 2 ** 40, 0.25, -1.5e3]) {
      using num = cf.number(n);
      assert.equal(cf.kind(num.ptr), "number");
      assert.equal(cf.readNumber(num.ptr), n);
    }
  });
});

Deno.test("macos cf: booleans are the static kCFBooleanTrue/False and are never released", () => {
  withCf((cf) => {
    assert.equal(cf.readBoolean(cf.boolean(true)), true);
    assert.equal(cf.readBoolean(cf.boolean(false)), false);
    assert.equal(cf.kind(cf.boolean(true)), "boolean");
    using s = cf.string("x");
    assert.equal(cf.readBoolean(s.ptr), undefined);
  });
});

Deno.test("macos cf: a CFArray retains its items, which outlive their own wrappers", () => {
  withCf((cf) => {
    const texts = ["AXRole", "AXTitle", "AXValue"];
    const strings = texts.map((t) => cf.string(t));
    using arr = cf.array(strings.map((s) => s.ptr));
    for (const s of strings) s[Symbol.dispose]();
    assert.equal(cf.kind(arr.ptr), "array");
    assert.deepEqual(cf.arrayItems(arr.ptr).map((p) => cf.readString(p)), texts);
  });
});

Deno.test("macos cf: an empty CFArray has no items", () => {
  withCf((cf) => {
    using arr = cf.array([]);
    assert.deepEqual(cf.arrayItems(arr.ptr), []);
  });
});

Deno.test("macos cf: CFDictionary lookups find values by equal keys", () => {
  withCf((cf) => {
    using k = cf.string("AXTrustedCheckOptionPrompt");
    using v = cf.number(7);
    using dict = cf.dictionary([[k.ptr, v.ptr]]);
    using other = cf.string("AXTrustedCheckOptionPrompt");
    assert.equal(cf.readNumber(cf.dictGet(dict.ptr, other.ptr)), 7);
    using missing = cf.string("nope");
    assert.equal(cf.dictGet(dict.ptr, missing.ptr), null);
  });
});

Deno.test("macos cf: CFOwned releases exactly once, and take() hands ownership over", () => {
  withCf((cf) => {
    const s = cf.string("once");
    s[Symbol.dispose]();
    s[Symbol.dispose]();
    assert.equal(s.alive, false);
    assert.throws(() => s.ptr);
    const t = cf.string("moved");
    const raw = t.take();
    t[Symbol.dispose]();
    cf.sym.CFRelease(raw);
  });
});

Deno.test("macos cf: retain() adds a reference the wrapper releases", () => {
  withCf((cf) => {
    using s = cf.string("shared");
    using extra = cf.retain(s.ptr);
    assert.equal(Number(cf.sym.CFGetRetainCount(s.ptr)), 2);
    assert.equal(cf.readString(extra.ptr), "shared");
  });
});

Deno.test("macos ax value: points, sizes, rects, ranges and error placeholders round-trip", () => {
  withCf((cf, libs) => {
    const cases: AxValue[] = [
      { type: "point", x: -1440, y: 25.5 },
      { type: "size", w: 300, h: 24 },
      { type: "rect", x: 1, y: 2, w: 3, h: 4 },
      { type: "range", location: 5, length: 12 },
      { type: "error", code: AX_ERROR.AttributeUnsupported },
    ];
    for (const value of cases) {
      using v = cf.own(createAxValue(libs.ax, value));
      assert.equal(cf.kind(v.ptr), "axvalue");
      assert.deepEqual(readAxValue(libs.ax, v.ptr), value);
    }
  });
});

Deno.test("macos ax error: codes map onto DesktopError codes", () => {
  const table: [number, boolean, string][] = [
    [AX_ERROR.APIDisabled, false, "PERMISSION_DENIED"],
    [AX_ERROR.CannotComplete, false, "APP_UNRESPONSIVE"],
    [AX_ERROR.InvalidUIElement, true, "STALE_REF"],
    [AX_ERROR.AttributeUnsupported, true, "ACTION_NOT_SUPPORTED"],
    [AX_ERROR.ActionUnsupported, true, "ACTION_NOT_SUPPORTED"],
    [AX_ERROR.IllegalArgument, true, "ACTION_FAILED"],
    [AX_ERROR.Failure, false, "INTERNAL"],
  ];
  for (const [code, acting, expected] of table) {
    assert.equal(axErrorCode(code, acting), expected, `AXError ${code}`);
  }
  const err = axError(AX_ERROR.APIDisabled, { op: "read AXRole", app: "Safari" });
  assert.equal(err.code, "PERMISSION_DENIED");
  assert.match(err.message, /kAXErrorAPIDisabled \(-25211\)/);
  assert.match(err.suggestion ?? "", /Privacy & Security > Accessibility/);
});

Deno.test("macos libraries: DESKTOP_AX_SHIM redirects all three frameworks", () => {
  const shimPaths = libraryPaths("/x/libaxshim.so");
  assert.deepEqual([shimPaths.ax, shimPaths.cf, shimPaths.cg], Array(3).fill("/x/libaxshim.so"));
  const system = libraryPaths(undefined);
  assert.match(system.ax, /ApplicationServices\.framework\/ApplicationServices$/);
  assert.match(system.cf, /CoreFoundation\.framework\/CoreFoundation$/);
  assert.match(system.cg, /CoreGraphics\.framework\/CoreGraphics$/);
});

Deno.test("macos shim: its accounting catches a leak, a double release and a use after free", () => {
  shim.reset("browser");
  const libs = openMacosLibraries(libraryPaths(Deno.env.get("DESKTOP_AX_SHIM")));
  try {
    const cf = CoreFoundation.fromLibraries(libs);
    const leaked = cf.string("leaked").take();
    assert.equal(shim.stats().leaks, 1);
    const twice = cf.string("twice").take();
    cf.sym.CFRelease(twice);
    cf.sym.CFRelease(twice);
    assert.equal(shim.stats().doubleFrees, 1);
    cf.readString(twice);
    assert.ok(shim.stats().badUses > 0);
    cf.sym.CFRelease(leaked);
    assert.equal(shim.stats().leaks, 0);
  } finally {
    libs.close();
  }
});
