import assert from "node:assert/strict";
import { parseAddress, socketPath, socketPaths } from "../../src/platform/linux/dbus/address.ts";
import {
  authRequest,
  expectOk,
  hexUid,
  LineBuffer,
  parseAuthLine,
} from "../../src/platform/linux/dbus/auth.ts";
import {
  dbusErrorName,
  errorFromReply,
  noReplyError,
} from "../../src/platform/linux/dbus/errors.ts";
import { DesktopError } from "../../src/errors.ts";

const addresses: Array<[string, string[]]> = [
  ["unix:path=/run/user/1000/bus", ["/run/user/1000/bus"]],
  ["unix:path=/root/.cache/at-spi/bus_0,guid=9f1f", ["/root/.cache/at-spi/bus_0"]],
  ["unix:abstract=/tmp/dbus-XYZ,guid=00", ["\0/tmp/dbus-XYZ"]],
  ["unix:path=/tmp/a%20b", ["/tmp/a b"]],
  ["tcp:host=localhost,port=1;unix:path=/x", ["/x"]],
  ["unix:path=/a;unix:abstract=b", ["/a", "\0b"]],
];

for (const [address, paths] of addresses) {
  Deno.test(`dbus address: "${address}" connects to ${JSON.stringify(paths)}`, () => {
    assert.deepEqual(socketPaths(address), paths);
  });
}

const badAddresses = [
  "",
  "nocolon",
  "unix:path",
  "unix:path=/a,path=/b",
  "unix:path=%zz",
  "tcp:host=localhost,port=5",
  "unix:tmpdir=/tmp",
];

for (const address of badAddresses) {
  Deno.test(`dbus address: "${address}" is PLATFORM_NOT_SUPPORTED`, () => {
    assert.throws(
      () => socketPaths(address),
      (e) => e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED",
    );
  });
}

Deno.test("dbus address: parameters are kept per entry", () => {
  const [a] = parseAddress("unix:path=/x,guid=abc");
  assert.deepEqual(a, { transport: "unix", params: { path: "/x", guid: "abc" } });
  assert.equal(socketPath(a), "/x");
});

Deno.test("dbus auth: the uid is sent as hex of its decimal digits", () => {
  assert.equal(hexUid(1000), "31303030");
  assert.equal(new TextDecoder().decode(authRequest(0)), "\0AUTH EXTERNAL 30\r\n");
});

const authLines: Array<[string, ReturnType<typeof parseAuthLine>]> = [
  ["OK 9f1f629cd0705bbd", { kind: "ok", guid: "9f1f629cd0705bbd" }],
  ["REJECTED EXTERNAL DBUS_COOKIE_SHA1", {
    kind: "rejected",
    mechanisms: ["EXTERNAL", "DBUS_COOKIE_SHA1"],
  }],
  ["DATA 3130", { kind: "data", data: "3130" }],
  ["ERROR bad command", { kind: "error", message: "bad command" }],
  ["AGREE_UNIX_FD", { kind: "agree-unix-fd" }],
  ["HELLO", { kind: "unknown", line: "HELLO" }],
];

for (const [line, parsed] of authLines) {
  Deno.test(`dbus auth: "${line}" parses`, () => assert.deepEqual(parseAuthLine(line), parsed));
}

Deno.test("dbus auth: OK yields the server guid", () => {
  assert.equal(expectOk("OK 1234"), "1234");
});

Deno.test("dbus auth: REJECTED is PERMISSION_DENIED", () => {
  assert.throws(
    () => expectOk("REJECTED DBUS_COOKIE_SHA1"),
    (e) => e instanceof DesktopError && e.code === "PERMISSION_DENIED",
  );
});

Deno.test("dbus auth: ERROR is INTERNAL", () => {
  assert.throws(() => expectOk("ERROR"), (e) => e instanceof DesktopError && e.code === "INTERNAL");
});

Deno.test("dbus auth: lines split across reads are joined", () => {
  const lb = new LineBuffer();
  const enc = new TextEncoder();
  assert.deepEqual(lb.push(enc.encode("OK 12")), []);
  assert.deepEqual(lb.push(enc.encode("34\r\nDATA\r\n")), ["OK 1234", "DATA"]);
});

Deno.test("dbus auth: an endless line is INTERNAL", () => {
  const lb = new LineBuffer();
  assert.throws(
    () => lb.push(new Uint8Array(20000).fill(65)),
    (e) => e instanceof DesktopError && e.code === "INTERNAL",
  );
});

const replies: Array<[string, string]> = [
  ["org.freedesktop.DBus.Error.ServiceUnknown", "APP_NOT_FOUND"],
  ["org.freedesktop.DBus.Error.NameHasNoOwner", "APP_NOT_FOUND"],
  ["org.freedesktop.DBus.Error.NoReply", "APP_UNRESPONSIVE"],
  ["org.freedesktop.DBus.Error.UnknownObject", "STALE_REF"],
  ["org.freedesktop.DBus.Error.UnknownMethod", "ACTION_NOT_SUPPORTED"],
  ["org.freedesktop.DBus.Error.AccessDenied", "PERMISSION_DENIED"],
  ["org.example.Weird", "INTERNAL"],
];

for (const [name, code] of replies) {
  Deno.test(`dbus errors: reply ${name} becomes ${code}`, () => {
    const e = errorFromReply(name, "detail", "org.a11y.atspi.Cache.GetItems");
    assert.equal(e.code, code);
    assert.equal(dbusErrorName(e), name);
    assert.ok(e.suggestion);
    assert.match(e.message, /GetItems failed/);
  });
}

Deno.test("dbus errors: a missed deadline is APP_UNRESPONSIVE", () => {
  const e = noReplyError("org.a11y.atspi.Component.GetExtents", ":1.9");
  assert.equal(e.code, "APP_UNRESPONSIVE");
  assert.equal(dbusErrorName(e), undefined);
});
