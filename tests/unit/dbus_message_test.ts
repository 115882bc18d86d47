import assert from "node:assert/strict";
import {
  decodeMessage,
  encodeMessage,
  type Message,
  messageLength,
  MessageType,
} from "../../src/platform/linux/dbus/message.ts";
import { variant } from "../../src/platform/linux/dbus/value.ts";
import { DesktopError } from "../../src/errors.ts";

const call: Message = {
  type: MessageType.METHOD_CALL,
  flags: 2,
  serial: 7,
  destination: ":1.42",
  path: "/org/a11y/atspi/accessible/3",
  interface: "org.freedesktop.DBus.Properties",
  member: "GetAll",
  signature: "s",
  body: ["org.a11y.atspi.Value"],
};

Deno.test("dbus message: a method call round-trips with its header fields", () => {
  const bytes = encodeMessage(call);
  assert.equal(messageLength(bytes), bytes.length);
  assert.deepEqual(decodeMessage(bytes), call);
});

Deno.test("dbus message: a reply with a variant dict body round-trips", () => {
  const reply: Message = {
    type: MessageType.METHOD_RETURN,
    flags: 0,
    serial: 9,
    replySerial: 7,
    sender: ":1.42",
    signature: "a{sv}",
    body: [[["CurrentValue", variant("d", 3)], ["Text", variant("s", "3 items")]]],
  };
  assert.deepEqual(decodeMessage(encodeMessage(reply)), reply);
});

Deno.test("dbus message: the header is padded to 8 before the body", () => {
  const bytes = encodeMessage(call);
  const fieldsLen = new DataView(bytes.buffer).getUint32(12, true);
  const bodyStart = 16 + fieldsLen + ((8 - (fieldsLen % 8)) % 8);
  assert.equal(bodyStart % 8, 0);
  assert.equal(bytes.length - bodyStart, new DataView(bytes.buffer).getUint32(4, true));
});

Deno.test("dbus message: length is unknown until 16 bytes have arrived", () => {
  assert.equal(messageLength(encodeMessage(call).subarray(0, 15)), -1);
});

Deno.test("dbus message: a bad byte-order mark is an INTERNAL error", () => {
  const bytes = encodeMessage(call);
  bytes[0] = 0x58;
  assert.throws(
    () => messageLength(bytes),
    (e) => e instanceof DesktopError && e.code === "INTERNAL",
  );
});

Deno.test("dbus message: a truncated body is an INTERNAL error", () => {
  const bytes = encodeMessage(call);
  assert.throws(
    () => decodeMessage(bytes.subarray(0, bytes.length - 2)),
    (e) => e instanceof DesktopError && e.code === "INTERNAL",
  );
});

Deno.test("dbus message: a wrong protocol version is an INTERNAL error", () => {
  const bytes = encodeMessage(call);
  bytes[3] = 2;
  assert.throws(
    () => decodeMessage(bytes),
    (e) => e instanceof DesktopError && e.code === "INTERNAL",
  );
});
