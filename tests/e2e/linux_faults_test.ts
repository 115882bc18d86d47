/**
 * Faults in other apps or in the environment do not spread: stopped
 * neighbours cost a read of a healthy app no more than its deadline, `list`
 * marks them, and a missing session bus address fails with a code instead of
 * autolaunching a bus that would take over the display's accessibility bus.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AppInfo, Snapshot } from "../../src/model/element.ts";
import { cliError, runCli } from "../harness/cli.ts";
import {
  drive,
  hasDesktopTools,
  REPO_ROOT,
  startDesktop,
  type TestApp,
  type TestDesktop,
} from "../harness/desktop.ts";
import { allElements } from "../harness/tree.ts";

/** The names pyatspi (an independent AT-SPI client) sees on the desktop's display. */
async function pyatspiApps(env: Record<string, string>): Promise<string[]> {
  const script = `
import json, pyatspi
print(json.dumps([a.name for a in pyatspi.Registry.getDesktop(0)]))
`;
  const res = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (res.code !== 0) throw new Error(`pyatspi failed: ${dec.decode(res.stderr)}`);
  return JSON.parse(dec.decode(res.stdout));
}

Deno.test({
  name: "linux faults: five stopped apps cost a read of a healthy app no more than its deadline",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    // zenity runs one process per dialog, so several can share the session.
    const others: TestApp[] = [];
    for (let i = 0; i < 5; i++) {
      others.push(await d.startApp({ app: "zenity", url: `--text=neighbour ${i}` }));
    }
    for (const o of others) o.signalApp("SIGSTOP");
    try {
      // Asked one by one at a quarter of the deadline each, five stopped apps
      // alone would take longer than the whole deadline.
      const timeoutMs = 4000;
      const res = await drive<{ ms: number; value?: Snapshot; failed?: { code: string } }>(d, {
        op: "timed",
        req: { op: "read", scope: { app: d.appName }, timeoutMs },
      });
      assert.ok(res.ok, JSON.stringify(res));
      const { ms, value, failed } = res.value;
      assert.equal(failed, undefined, `the healthy app is read: ${JSON.stringify(failed)}`);
      assert.ok(allElements(value!.root).length > 50, "the whole tree of the healthy app");
      // The deadline, plus slack for timers and the scheduler on a loaded machine.
      assert.ok(
        ms <= timeoutMs + 500,
        `the read returned within its deadline (${Math.round(ms)} ms)`,
      );

      const list = await runCli(d, ["list", "--format", "json", "--timeout", String(timeoutMs)]);
      assert.equal(list.code, 0, list.stderr);
      const apps = JSON.parse(list.stdout) as AppInfo[];
      for (const o of others) {
        const a = apps.find((x) => x.pid === o.pid);
        assert.ok(a, `the stopped app ${o.pid} is listed: ${list.stdout}`);
        assert.equal(a.unresponsive, true, `${o.pid} is marked unresponsive`);
      }
      const healthy = apps.find((x) => x.pid === d.pid);
      assert.ok(healthy && !healthy.unresponsive && healthy.windows === 1, list.stdout);
      const text = await runCli(d, ["list", "--timeout", String(timeoutMs)]);
      assert.equal(text.stdout.split("\n").filter((l) => l.endsWith(" unresponsive")).length, 5);

      // A stopped app named explicitly is APP_UNRESPONSIVE, within the deadline.
      const stopped = await runCli(d, [
        "read",
        "--pid",
        String(others[0].pid),
        "--timeout",
        "2000",
      ]);
      assert.equal(cliError(stopped).code, "APP_UNRESPONSIVE");
    } finally {
      for (const o of others) o.signalApp("SIGCONT");
    }
  },
});

/** Runs xprop on the desktop's root window and returns what it prints. */
async function xprop(d: TestDesktop, args: string[]): Promise<string> {
  const out = await new Deno.Command("xprop", {
    args: ["-root", ...args],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return dec.decode(out.stdout) + dec.decode(out.stderr);
}

/** Runs the CLI with the desktop's environment minus `drop`. */
async function cliWithout(d: TestDesktop, drop: string[], args: string[]) {
  const env: Record<string, string> = { ...d.env };
  for (const k of drop) delete env[k];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, ...args],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "linux faults: without a session bus address, fail with a code and start no bus",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    assert.ok((await pyatspiApps(d.env)).includes(d.appName), "pyatspi sees the app first");

    // cron, ssh, a reduced MCP client environment: DISPLAY set, no session bus address.
    const res = await cliWithout(d, ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"], ["list"]);
    assert.equal(res.code, 1, `list fails: ${res.stdout}${res.stderr}`);
    const err = cliError(res);
    assert.equal(err.code, "PERMISSION_DENIED");
    assert.match(String(err.message), /DBUS_SESSION_BUS_ADDRESS/);
    assert.match(String(err.suggestion), /DBUS_SESSION_BUS_ADDRESS/);

    // The display's accessibility bus is still the one every client finds.
    assert.ok((await pyatspiApps(d.env)).includes(d.appName), "pyatspi still sees the app");
    const after = await runCli(d, ["list"]);
    assert.equal(after.code, 0, after.stderr);
    assert.match(after.stdout, new RegExp(d.appName));

    // Without the display's AT_SPI_BUS property (a server that reset, or one
    // whose launcher never set it), libatspi would autolaunch a session bus
    // and bus launcher that publish a new, empty accessibility bus there.
    await xprop(d, ["-remove", "AT_SPI_BUS"]);
    const bare = await cliWithout(d, ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"], ["list"]);
    assert.equal(cliError(bare).code, "PERMISSION_DENIED");
    assert.doesNotMatch(await xprop(d, ["AT_SPI_BUS"]), /unix:/, "no bus published on the display");
    assert.ok((await pyatspiApps(d.env)).includes(d.appName), "pyatspi still sees the app");

    // The per-user socket $XDG_RUNTIME_DIR/bus is libdbus's own default: it is used.
    const viaRuntime = await cliWithout(d, ["DBUS_SESSION_BUS_ADDRESS"], ["list"]);
    assert.equal(viaRuntime.code, 0, viaRuntime.stderr);
    assert.match(viaRuntime.stdout, new RegExp(d.appName));
  },
});
