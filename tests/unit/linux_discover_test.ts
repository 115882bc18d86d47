import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import {
  a11yBusAddress,
  AppDirectory,
  sessionBusAddress,
} from "../../src/platform/linux/discover.ts";
import { getProperties } from "../../src/platform/linux/dbus/props.ts";
import type { DBusValue } from "../../src/platform/linux/dbus/value.ts";

const envOf = (vars: Record<string, string>) => (k: string) => vars[k];

Deno.test("session bus: DBUS_SESSION_BUS_ADDRESS wins when its socket exists", () => {
  const addr = "unix:path=/run/user/7/bus,guid=ab";
  assert.equal(
    sessionBusAddress(envOf({ DBUS_SESSION_BUS_ADDRESS: addr }), (p) => p === "/run/user/7/bus"),
    addr,
  );
  // Abstract sockets have no file to check.
  assert.equal(
    sessionBusAddress(envOf({ DBUS_SESSION_BUS_ADDRESS: "unix:abstract=/tmp/x" }), () => false),
    "unix:abstract=/tmp/x",
  );
});

Deno.test("session bus: a named socket that is gone is PERMISSION_DENIED", () => {
  assert.throws(
    () => sessionBusAddress(envOf({ DBUS_SESSION_BUS_ADDRESS: "unix:path=/gone" }), () => false),
    (e) => e instanceof DesktopError && e.code === "PERMISSION_DENIED" && /\/gone/.test(e.message),
  );
});

Deno.test("session bus: without an address, $XDG_RUNTIME_DIR/bus is used when it exists", () => {
  assert.equal(
    sessionBusAddress(envOf({ XDG_RUNTIME_DIR: "/run/user/7" }), (p) => p === "/run/user/7/bus"),
    "unix:path=/run/user/7/bus",
  );
});

Deno.test("session bus: DISPLAY alone never leads to a bus (no autolaunch)", () => {
  const cases: Record<string, string>[] = [
    { DISPLAY: ":0" },
    { DISPLAY: ":0", XDG_RUNTIME_DIR: "/run/user/7" },
  ];
  for (const vars of cases) {
    assert.throws(
      () => sessionBusAddress(envOf(vars), () => false),
      (e) =>
        e instanceof DesktopError && e.code === "PERMISSION_DENIED" &&
        /DBUS_SESSION_BUS_ADDRESS/.test(e.message) &&
        /DBUS_SESSION_BUS_ADDRESS/.test(e.suggestion ?? ""),
      JSON.stringify(vars),
    );
  }
});

Deno.test("properties: one Get per property, never GetAll; missing ones are left out", async () => {
  const members: string[] = [];
  const call = (_p: string, iface: string, member: string, _s?: string, body?: DBusValue[]) => {
    members.push(`${iface}.${member}`);
    if (body?.[1] === "Missing") {
      return Promise.reject(new Error("org.freedesktop.DBus.Error.UnknownProperty: no"));
    }
    return Promise.resolve([{ signature: "s", value: `v:${body?.[1]}` }] as DBusValue[]);
  };
  const m = await getProperties(call, "/o", "org.a11y.atspi.Accessible", ["Name", "Missing"]);
  assert.deepEqual([...m], [["Name", "v:Name"]]);
  assert.deepEqual(members, [
    "org.freedesktop.DBus.Properties.Get",
    "org.freedesktop.DBus.Properties.Get",
  ]);
});

Deno.test("properties: an app that does not answer fails the read", async () => {
  const call = () => Promise.reject(new DesktopError("APP_UNRESPONSIVE", "no reply"));
  await assert.rejects(
    getProperties(call, "/o", "org.a11y.atspi.Value", ["CurrentValue"]),
    (e) => e instanceof DesktopError && e.code === "APP_UNRESPONSIVE",
  );
});

/** A bus that takes connections and never answers: a desktop too busy to answer in time. */
async function withSilentBus(fn: (address: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const listener = Deno.listen({ transport: "unix", path: `${dir}/bus` });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of listener) held.push(c);
  })().catch(() => {});
  try {
    await fn(`unix:path=${dir}/bus`);
  } finally {
    listener.close();
    for (const c of held) c.close();
    await accepting;
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("buses: one that is there but does not answer in time is TIMEOUT, not PERMISSION_DENIED", async () => {
  await withSilentBus(async (address) => {
    const late = (e: unknown) =>
      e instanceof DesktopError && e.code === "TIMEOUT" &&
      /did not answer in time/.test(e.message) &&
      /retry|--timeout/.test(e.suggestion ?? "");
    await assert.rejects(a11yBusAddress(address, Date.now() + 200), late);
    await assert.rejects(AppDirectory.open(address, Date.now() + 200), late);
  });
  // No bus at all is still PERMISSION_DENIED, with how to get one.
  await assert.rejects(
    a11yBusAddress("unix:path=/nonexistent/bus", Date.now() + 200),
    (e) => e instanceof DesktopError && e.code === "PERMISSION_DENIED",
  );
});
