import assert from "node:assert/strict";
import { DBusConnection } from "../../src/platform/linux/dbus/connection.ts";
import {
  decodeMessage,
  encodeMessage,
  type Message,
  messageLength,
  MessageType,
} from "../../src/platform/linux/dbus/message.ts";
import { DesktopError } from "../../src/errors.ts";

/**
 * A small D-Bus peer on a unix socket: answers the handshake, then replies to
 * each batch of calls it reads in reverse order (so replies arrive out of
 * order). Members: Hello, Echo (returns its argument), Fail (error reply),
 * Hang (never answers), Big (a 1 MiB string), Close (drops the connection).
 */
async function fakeBus(opts: { authReply?: string } = {}) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/bus`;
  const listener = Deno.listen({ transport: "unix", path });
  const conns: Deno.Conn[] = [];
  const serve = async (conn: Deno.Conn) => {
    conns.push(conn);
    const chunk = new Uint8Array(65536);
    let pending = new Uint8Array(0);
    let authed = false;
    let serial = 1000;
    const send = async (m: Omit<Message, "serial" | "flags">) => {
      const bytes = encodeMessage({ ...m, flags: 0, serial: serial++ });
      for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
    };
    try {
      for (;;) {
        const n = await conn.read(chunk);
        if (n === null) return;
        const next = new Uint8Array(pending.length + n);
        next.set(pending);
        next.set(chunk.subarray(0, n), pending.length);
        pending = next;
        if (!authed) {
          const text = new TextDecoder().decode(pending);
          if (text.includes("AUTH EXTERNAL") && !text.includes("BEGIN\r\n")) {
            await conn.write(new TextEncoder().encode((opts.authReply ?? "OK 1234abcd") + "\r\n"));
            if (opts.authReply) return;
          }
          const begin = text.indexOf("BEGIN\r\n");
          if (begin < 0) continue;
          authed = true;
          pending = pending.subarray(begin + 7);
        }
        const batch: Message[] = [];
        for (;;) {
          const len = messageLength(pending);
          if (len < 0 || pending.length < len) break;
          batch.push(decodeMessage(pending.subarray(0, len)));
          pending = pending.subarray(len);
        }
        for (const m of batch.reverse()) {
          const reply = { type: MessageType.METHOD_RETURN, replySerial: m.serial };
          switch (m.member) {
            case "Hello":
              await send({ ...reply, signature: "s", body: [":1.99"] });
              break;
            case "Echo":
              await send({ ...reply, signature: m.signature, body: m.body });
              break;
            case "Fail":
              await send({
                type: MessageType.ERROR,
                replySerial: m.serial,
                errorName: "org.freedesktop.DBus.Error.UnknownMethod",
                signature: "s",
                body: ["no such method"],
              });
              break;
            case "Big":
              await send({ ...reply, signature: "s", body: ["x".repeat(1 << 20)] });
              break;
            case "Close":
              conn.close();
              return;
          }
        }
      }
    } catch {
      // the client went away
    }
  };
  const accepting = (async () => {
    try {
      for await (const c of listener) serve(c);
    } catch {
      // listener closed
    }
  })();
  return {
    address: `unix:path=${path}`,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // already closed
        }
      }
      await accepting;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const call = (member: string, signature = "", body: unknown[] = []) => ({
  destination: "org.example",
  path: "/org/example",
  interface: "org.example.Test",
  member,
  signature,
  body: body as never,
});

const soon = () => Date.now() + 2000;

Deno.test("dbus connection: handshake and Hello give the unique name", async () => {
  await using bus = await fakeBus();
  const c = await DBusConnection.open(bus.address, 2000);
  assert.equal(c.uniqueName, ":1.99");
  c.close();
});

Deno.test("dbus connection: many calls in flight are matched to their replies", async () => {
  await using bus = await fakeBus();
  const c = await DBusConnection.open(bus.address, 2000);
  const n = 500;
  const replies = await Promise.all(
    Array.from({ length: n }, (_, i) => c.call(call("Echo", "si", [`call ${i}`, i]), soon())),
  );
  assert.deepEqual(replies, Array.from({ length: n }, (_, i) => [`call ${i}`, i]));
  // Calls made in one tick share socket writes.
  assert.ok(c.stats.writes < n / 10, `${c.stats.writes} writes`);
  c.close();
});

Deno.test("dbus connection: an error reply becomes a DesktopError with the D-Bus name", async () => {
  await using bus = await fakeBus();
  const c = await DBusConnection.open(bus.address, 2000);
  await assert.rejects(c.call(call("Fail"), soon()), (e) => {
    assert.ok(e instanceof DesktopError);
    assert.equal(e.code, "ACTION_NOT_SUPPORTED");
    assert.equal(e.details?.dbusError, "org.freedesktop.DBus.Error.UnknownMethod");
    assert.match(e.message, /no such method/);
    return true;
  });
  // The connection still works afterwards.
  assert.deepEqual(await c.call(call("Echo", "s", ["ok"]), soon()), ["ok"]);
  c.close();
});

Deno.test("dbus connection: a call without a reply fails with APP_UNRESPONSIVE at its deadline", async () => {
  await using bus = await fakeBus();
  const c = await DBusConnection.open(bus.address, 2000);
  const hang = c.call(call("Hang"), Date.now() + 100);
  const echo = c.call(call("Echo", "s", ["still here"]), soon());
  await assert.rejects(hang, (e) => e instanceof DesktopError && e.code === "APP_UNRESPONSIVE");
  assert.deepEqual(await echo, ["still here"]);
  assert.equal(c.inFlight, 0);
  c.close();
});

Deno.test("dbus connection: a reply larger than the receive buffer arrives whole", async () => {
  await using bus = await fakeBus();
  const c = await DBusConnection.open(bus.address, 2000);
  const [big] = await c.call(call("Big"), soon());
  assert.equal((big as string).length, 1 << 20);
  c.close();
});

Deno.test("dbus connection: a dropped connection fails pending and later calls with INTERNAL", async () => {
  await using bus = await fakeBus();
  const c = await DBusConnection.open(bus.address, 2000);
  const hang = c.call(call("Hang"), soon());
  await c.call(call("Close"), soon()).catch(() => {});
  await assert.rejects(hang, (e) => e instanceof DesktopError && e.code === "INTERNAL");
  await assert.rejects(
    c.call(call("Echo", "s", ["x"]), soon()),
    (e) => e instanceof DesktopError && e.code === "INTERNAL",
  );
});

Deno.test("dbus connection: rejected authentication is PERMISSION_DENIED", async () => {
  await using bus = await fakeBus({ authReply: "REJECTED DBUS_COOKIE_SHA1" });
  await assert.rejects(
    DBusConnection.open(bus.address, 2000),
    (e) => e instanceof DesktopError && e.code === "PERMISSION_DENIED",
  );
});

Deno.test("dbus connection: a socket that does not exist is INTERNAL with a suggestion", async () => {
  await assert.rejects(
    DBusConnection.open("unix:path=/nonexistent/desktop-test-bus", 500),
    (e) => e instanceof DesktopError && e.code === "INTERNAL" && !!e.suggestion,
  );
});

Deno.test("dbus connection: an unsupported transport is PLATFORM_NOT_SUPPORTED", async () => {
  await assert.rejects(
    DBusConnection.open("tcp:host=127.0.0.1,port=1", 500),
    (e) => e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED",
  );
});

Deno.test("dbus connection: a silent server fails the handshake with TIMEOUT", async () => {
  const dir = await Deno.makeTempDir();
  const listener = Deno.listen({ transport: "unix", path: `${dir}/silent` });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of listener) held.push(c);
  })().catch(() => {});
  try {
    await assert.rejects(
      DBusConnection.open(`unix:path=${dir}/silent`, 200),
      (e) => e instanceof DesktopError && e.code === "TIMEOUT",
    );
  } finally {
    listener.close();
    for (const c of held) c.close();
    await accepting;
    await Deno.remove(dir, { recursive: true });
  }
});
