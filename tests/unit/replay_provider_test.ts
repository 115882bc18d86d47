import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import { openReplayProvider, snapshotToText } from "../../src/platform/replay/mod.ts";
import { parseSnapshot } from "../../src/output/snapshot.ts";

const FIXTURE = new URL("../fixtures/browser_form.json", import.meta.url).pathname;
const OPTS = { timeoutMs: 1000 };

async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DesktopError, `expected DesktopError, got ${err}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    assert.ok(err.suggestion, "every error carries a suggestion");
    return true;
  });
}

Deno.test("replay: bad snapshot files are SNAPSHOT_INVALID", async () => {
  const good = await Deno.readTextFile(FIXTURE);
  const cases: Array<[string, string | null, RegExp]> = [
    ["missing file", null, /no such file/],
    ["corrupt", "{{{ not json", /not JSON/],
    ["truncated", good.slice(0, good.length / 2), /truncated/],
    ["empty", "", /empty/],
    ["wrong version", good.replace('"version": 1', '"version": 99'), /version 99/],
    [
      "wrong format",
      good.replace('"desktop-snapshot"', '"something-else"'),
      /format is not "desktop-snapshot"/,
    ],
    ["array", "[1,2,3]", /expected a JSON object/],
    [
      "no app",
      JSON.stringify({ format: "desktop-snapshot", version: 1, readAt: "", root: {} }),
      /app/,
    ],
    [
      "bad element",
      JSON.stringify({
        format: "desktop-snapshot",
        version: 1,
        app: { name: "A", pid: 1 },
        readAt: "",
        root: { i: 1, r: "app", c: [{ i: 2 }] },
      }),
      /root\.c\[0\]/,
    ],
  ];
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, text, message] of cases) {
      const path = `${dir}/${name.replaceAll(" ", "_")}.json`;
      if (text !== null) await Deno.writeTextFile(path, text);
      await rejectsWith(openReplayProvider(path, OPTS), "SNAPSHOT_INVALID", message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay: read returns the whole snapshot, scoped by app name or pid", async () => {
  const p = await openReplayProvider(FIXTURE, OPTS);
  for (
    const scope of [{}, { app: "Chromium" }, { app: "chromium" }, { app: "chrom" }, { pid: 4242 }]
  ) {
    const snap = await p.read(scope);
    assert.equal(snap.app.name, "Chromium");
    assert.equal(snap.root.r, "app");
  }
  await rejectsWith(p.read({ app: "Firefox" }), "APP_NOT_FOUND", /holds Chromium/);
  await rejectsWith(p.read({ pid: 1 }), "APP_NOT_FOUND");
  await rejectsWith(p.read({ app: "Chromium", pid: 1 }), "APP_NOT_FOUND");
});

Deno.test("replay: reads are copies; mutating one does not change the next", async () => {
  const p = await openReplayProvider(FIXTURE, OPTS);
  const a = await p.read({});
  a.root.c = [];
  const b = await p.read({});
  assert.ok(b.root.c && b.root.c.length > 0);
});

Deno.test("replay: window scope returns the window's subtree; unknown windows fail", async () => {
  const p = await openReplayProvider(FIXTURE, OPTS);
  const wins = await p.listWindows({});
  assert.deepEqual(wins.map((w) => [w.id, w.title]), [[1, "Checkout - Chromium"]]);
  for (const scope of [{ window: "checkout" }, { windowId: 1 }]) {
    const snap = await p.read(scope);
    assert.equal(snap.root.r, "window");
    assert.equal(snap.window?.title, "Checkout - Chromium");
  }
  await rejectsWith(p.read({ window: "Settings" }), "WINDOW_NOT_FOUND");
  await rejectsWith(p.read({ windowId: 9 }), "WINDOW_NOT_FOUND");
  await rejectsWith(p.listWindows({ app: "Firefox" }), "APP_NOT_FOUND");
});

Deno.test("replay: listApps reports the snapshot's app", async () => {
  const p = await openReplayProvider(FIXTURE, OPTS);
  const apps = await p.listApps();
  assert.deepEqual(apps.map((a) => [a.name, a.pid, a.windows]), [["Chromium", 4242, 1]]);
  assert.equal(p.platform, "replay");
});

Deno.test("replay: every action is PLATFORM_NOT_SUPPORTED because a snapshot is read-only", async () => {
  const p = await openReplayProvider(FIXTURE, OPTS);
  const el = (await p.read({})).root;
  const actions = [
    { kind: "click" as const },
    { kind: "type" as const, text: "x" },
    { kind: "key" as const, combo: "Return" },
    { kind: "focus" as const },
  ];
  for (const action of actions) {
    await rejectsWith(p.act({}, { element: el }, action), "PLATFORM_NOT_SUPPORTED", /read-only/);
  }
  await rejectsWith(
    p.act({}, { point: { x: 1, y: 1 } }, { kind: "click" }),
    "PLATFORM_NOT_SUPPORTED",
    /read-only/,
  );
});

Deno.test("replay: a secure field's value never survives loading or saving", () => {
  const text = JSON.stringify({
    format: "desktop-snapshot",
    version: 1,
    app: { name: "A", pid: 1 },
    readAt: "2026-01-01T00:00:00Z",
    root: { i: 1, r: "app", c: [{ i: 2, r: "input", t: "Password", sec: true, v: "hunter2" }] },
  });
  const snap = parseSnapshot(text);
  assert.equal(snap.root.c?.[0].v, undefined);
  snap.root.c![0].v = "hunter2"; // a misbehaving backend
  const saved = snapshotToText(snap);
  assert.ok(!saved.includes("hunter2"));
  assert.equal(parseSnapshot(saved).root.c?.[0].sec, true);
});
