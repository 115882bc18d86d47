/**
 * Hung and dying apps, the parts that need no desktop: how a silent app is
 * named and found focused, `quit --force` on an app that does not answer,
 * `wait` on an app that quit, and durations in whole milliseconds. The live
 * counterparts are in tests/e2e/fault_apps_test.ts.
 */

import assert from "node:assert/strict";
import { quitApp } from "../../src/apps/apps.ts";
import type { Desktop } from "../../src/desktop_types.ts";
import { DesktopError, wholeMilliseconds } from "../../src/errors.ts";
import type { Provider } from "../../src/platform/provider.ts";
import { liveApps } from "../../src/platform/linux/apps.ts";
import type { BusApp } from "../../src/platform/linux/discover.ts";
import { commandNames } from "../../src/platform/linux/hung.ts";
import { waitUntil } from "../../src/session/wait.ts";

function busApp(over: Partial<BusApp>): BusApp {
  return {
    bus: ":1.1",
    path: "/org/a11y/atspi/accessible/root",
    pid: 1,
    name: "",
    windowCount: 0,
    focused: false,
    responsive: true,
    ...over,
  };
}

Deno.test("fault apps: a silent app is named by its WM_CLASS and script, not python3", () => {
  const apps = liveApps([
    busApp({ bus: ":1.1", pid: 10, responsive: false, stopped: true }),
    busApp({ bus: ":1.2", pid: 20, name: "zenity", windowCount: 1 }),
  ], () => ({
    names: new Map([[10, ["fault_apps.py", "Fault_apps.py", "python3"]]]),
    focusPid: 10,
  }));
  assert.equal(apps[0].name, "fault_apps.py");
  assert.deepEqual(apps[0].aliases, ["fault_apps.py", "Fault_apps.py", "python3"]);
  // No app that answers has the focus: the silent one holding the X focus is the focused app.
  assert.equal(apps[0].focused, true);
  assert.equal(apps[1].name, "zenity");
});

Deno.test("fault apps: a silent app is not taken as focused while one that answers says it is", () => {
  const apps = liveApps([
    busApp({ bus: ":1.1", pid: 10, responsive: false }),
    busApp({ bus: ":1.2", pid: 20, name: "zenity", focused: true }),
  ], () => ({ names: new Map(), focusPid: 10 }));
  assert.equal(apps[0].focused, false);
  assert.equal(apps[1].focused, true);
});

Deno.test("fault apps: an interpreter's app goes by its script's name first", () => {
  assert.deepEqual(commandNames(["/usr/bin/python3", "/tmp/fault_apps.py"]), [
    "fault_apps.py",
    "python3",
  ]);
  assert.deepEqual(commandNames(["/usr/bin/gjs", "-m", "/usr/share/app/main.js"]), [
    "main.js",
    "gjs",
  ]);
  assert.deepEqual(commandNames(["/usr/lib/chromium/chromium --type=renderer"]), ["chromium"]);
  assert.deepEqual(commandNames([""]), []);
});

Deno.test("fault apps: durations in error messages are whole milliseconds", () => {
  const e = new DesktopError("TIMEOUT", "condition not met within 2915.69189453125 ms: x", {
    suggestion: "waited 12.5ms",
  });
  assert.equal(e.message, "condition not met within 2916 ms: x");
  assert.equal(e.suggestion, "waited 13ms");
  assert.equal(
    wholeMilliseconds("version 2.46 of libatspi, 300 ms"),
    "version 2.46 of libatspi, 300 ms",
  );
});

/** A provider whose read fails as a hung app's does, and whose process ends on a signal. */
function hungProvider(ignoreTerm: boolean) {
  const signals: string[] = [];
  let running = true;
  const provider = {
    platform: "linux",
    read: () =>
      Promise.reject(
        new DesktopError("APP_UNRESPONSIVE", "fault_apps.py (pid 42) does not answer", {
          details: { pid: 42, app: "fault_apps.py" },
        }),
      ),
    closeApp: () => Promise.resolve(0),
    processRunning: (pid: number) => pid === 42 && running,
    endProcess: (_pid: number, force: boolean) => {
      signals.push(force ? "KILL" : "TERM");
      if (force || !ignoreTerm) running = false;
    },
  } as unknown as Provider;
  return { desktop: { provider } as unknown as Desktop, signals };
}

Deno.test("fault apps: quit --force ends an app that does not answer, SIGKILL when SIGTERM is ignored", async () => {
  const term = hungProvider(false);
  const quit = await quitApp(term.desktop, { app: "fault_apps.py" }, {
    force: true,
    timeoutMs: 2000,
  });
  assert.deepEqual([quit.app, quit.via, term.signals], [
    { name: "fault_apps.py", pid: 42 },
    "signal",
    ["TERM"],
  ]);
  const stubborn = hungProvider(true);
  const t0 = Date.now();
  await quitApp(stubborn.desktop, { pid: 42 }, { force: true, timeoutMs: 2000 });
  assert.deepEqual(stubborn.signals, ["TERM", "KILL"]);
  assert.ok(Date.now() - t0 < 2000 + 1000, "within the deadline");
  // Without --force a hung app stays APP_UNRESPONSIVE, and nothing is signalled.
  const polite = hungProvider(false);
  await assert.rejects(
    quitApp(polite.desktop, { app: "fault_apps.py" }, { timeoutMs: 2000 }),
    (e: DesktopError) => e.code === "APP_UNRESPONSIVE",
  );
  assert.deepEqual(polite.signals, []);
});

Deno.test("fault apps: a wait whose app quit after a read ends at once with APP_NOT_FOUND", async () => {
  const provider = { platform: "linux" } as unknown as Provider;
  let reads = 0;
  const t0 = Date.now();
  await assert.rejects(
    waitUntil(provider, { app: "fault_apps.py" }, 20_000, () => {
      if (reads++ === 0) return Promise.resolve({ done: false, element: null, seen: "not yet" });
      return Promise.reject(
        new DesktopError("APP_NOT_FOUND", 'no running app matches --app "fault_apps.py"'),
      );
    }),
    (e: DesktopError) => e.code === "APP_NOT_FOUND" && /quit/.test(e.message),
  );
  assert.ok(Date.now() - t0 < 5000, `ended after ${Date.now() - t0} ms`);
  // An app not seen yet by name may still be starting: that is not an answer yet.
  let tries = 0;
  await assert.rejects(
    waitUntil(provider, { app: "later" }, 600, () => {
      tries++;
      return Promise.reject(new DesktopError("APP_NOT_FOUND", "no running app matches"));
    }),
    (e: DesktopError) => e.code === "TIMEOUT",
  );
  assert.ok(tries > 1);
});
