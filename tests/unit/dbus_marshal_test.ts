import assert from "node:assert/strict";
import { marshal, Writer } from "../../src/platform/linux/dbus/marshal.ts";
import { unmarshal } from "../../src/platform/linux/dbus/unmarshal.ts";
import { parseSignature, signatureOf } from "../../src/platform/linux/dbus/signature.ts";
import { variant } from "../../src/platform/linux/dbus/value.ts";
import type { DBusValue } from "../../src/platform/linux/dbus/value.ts";
import { DesktopError } from "../../src/errors.ts";

const roundTrips: Array<[string, DBusValue[]]> = [
  ["y", [255]],
  ["b", [true]],
  ["n", [-32768]],
  ["q", [65535]],
  ["i", [-123456]],
  ["u", [4294967295]],
  ["x", [-9007199254740993n]],
  ["t", [18446744073709551615n]],
  ["d", [3.25]],
  ["s", ["héllo wörld"]],
  ["o", ["/org/a11y/atspi/accessible/root"]],
  ["g", ["a{sv}"]],
  ["ys", [1, "after one byte"]],
  ["yt", [7, 42n]],
  ["as", [["a", "", "ccc"]]],
  ["at", [[1n, 2n]]],
  ["ay", [[]]],
  ["a(so)", [[[":1.5", "/a"], [":1.6", "/b"]]]],
  ["a{sv}", [[["Name", variant("s", "x")], ["Count", variant("i", 3)]]]],
  ["a{ss}", [[]]],
  ["(so)(so)iiassusau", [
    [":1.0", "/x"],
    [":1.0", "/root"],
    3,
    0,
    ["org.a11y.atspi.Accessible"],
    "OK",
    43,
    "",
    [1, 2],
  ]],
  ["a((so)(so)(so)iiassusau)", [[[
    [":1.0", "/x"],
    [":1.0", "/r"],
    [":1.0", "/p"],
    1,
    2,
    ["a", "b"],
    "n",
    7,
    "d",
    [0, 0],
  ]]]],
  ["a(ua(so))", [[[15, [[":1.2", "/l"]]], [2, []]]]],
  ["v", [variant("(iiii)", [1, -2, 3, 4])]],
  ["v", [variant("av", [variant("s", "nested"), variant("d", 0.5)])]],
  ["aai", [[[1], [], [2, 3]]]],
  ["(y(yt))", [[1, [2, 3n]]]],
];

for (const [sig, values] of roundTrips) {
  Deno.test(`dbus marshal: "${sig}" round-trips`, () => {
    const bytes = marshal(sig, values);
    assert.deepEqual(unmarshal(sig, bytes), values);
  });
}

const layouts: Array<[string, DBusValue[], number[]]> = [
  // u32 length 5, "hello", NUL
  ["s", ["hello"], [5, 0, 0, 0, 104, 101, 108, 108, 111, 0]],
  // byte, 3 pad bytes, u32
  ["yu", [1, 2], [1, 0, 0, 0, 2, 0, 0, 0]],
  // byte, pad to 8, u64
  ["yt", [9, 1n], [9, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]],
  // array length 8 excludes padding before the first 8-aligned element
  ["at", [[5n]], [8, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]],
  // empty array of structs still pads to 8 after the length
  ["a(i)", [[]], [0, 0, 0, 0, 0, 0, 0, 0]],
  // signature: length byte, chars, NUL
  ["g", ["ai"], [2, 97, 105, 0]],
  // variant: signature "u", pad, value
  ["v", [variant("u", 7)], [1, 117, 0, 0, 7, 0, 0, 0]],
  // boolean is 4 bytes
  ["b", [false], [0, 0, 0, 0]],
];

for (const [sig, values, bytes] of layouts) {
  Deno.test(`dbus marshal: "${sig}" has the specified wire layout`, () => {
    assert.deepEqual([...marshal(sig, values)], bytes);
    assert.deepEqual(unmarshal(sig, new Uint8Array(bytes)), values);
  });
}

Deno.test("dbus marshal: alignment counts from the message start, not the buffer", () => {
  const w = new Writer(4);
  w.writeAll("t", [1n]);
  // At message offset 4 a u64 needs 4 pad bytes.
  assert.equal(w.length, 12);
});

Deno.test("dbus unmarshal: big-endian messages read correctly", () => {
  assert.deepEqual(unmarshal("u", new Uint8Array([0, 0, 1, 2]), false), [258]);
  assert.deepEqual(unmarshal("as", new Uint8Array([0, 0, 0, 6, 0, 0, 0, 1, 120, 0]), false), [[
    "x",
  ]]);
});

const badValues: Array<[string, DBusValue[]]> = [
  ["s", [1]],
  ["u", ["1"]],
  ["y", [256]],
  ["t", [1]],
  ["(ii)", [[1]]],
  ["v", ["not a variant"]],
  ["b", [1]],
  ["ii", [1]],
];

for (const [sig, values] of badValues) {
  Deno.test(`dbus marshal: ${JSON.stringify(values)} as "${sig}" is an INTERNAL error`, () => {
    assert.throws(
      () => marshal(sig, values),
      (e) => e instanceof DesktopError && e.code === "INTERNAL",
    );
  });
}

const badBytes: Array<[string, number[]]> = [
  ["u", [1, 0]],
  ["s", [5, 0, 0, 0, 104]],
  ["s", [1, 0, 0, 0, 104, 1]],
  ["b", [2, 0, 0, 0]],
  ["as", [100, 0, 0, 0]],
  ["u", [1, 0, 0, 0, 9]],
  ["v", [2, 105, 105, 0]],
];

for (const [sig, bytes] of badBytes) {
  Deno.test(`dbus unmarshal: malformed "${sig}" ${JSON.stringify(bytes)} is an INTERNAL error`, () => {
    assert.throws(
      () => unmarshal(sig, new Uint8Array(bytes)),
      (e) => e instanceof DesktopError && e.code === "INTERNAL",
    );
  });
}

const badSignatures = ["a", "(", "()", "a{vs}", "a{sss}", "(i", "z", "{ss}", "a".repeat(33) + "i"];
for (const sig of badSignatures) {
  Deno.test(`dbus signature: "${sig}" is rejected with INTERNAL`, () => {
    assert.throws(
      () => parseSignature(sig),
      (e) => e instanceof DesktopError && e.code === "INTERNAL",
    );
  });
}

Deno.test("dbus signature: parsing and printing are inverse", () => {
  for (const sig of ["a((so)(so)(so)iiassusau)", "a{sa{sv}}", "(yv)", "aai"]) {
    assert.equal(parseSignature(sig).map(signatureOf).join(""), sig);
  }
});
