import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import { matchApp, matchWindow, windowId } from "../../src/platform/linux/scope.ts";

const apps = [
  { name: "gtk3-widget-factory", pid: 10 },
  { name: "gtk4-widget-factory", pid: 11, focused: true },
  { name: "Chromium", pid: 12 },
  { name: "chromium-helper", pid: 13 },
];

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DesktopError);
    return e.code;
  }
  throw new Error("expected an error");
}

Deno.test("scope: --app matches exactly (case-insensitive) before substrings", () => {
  assert.equal(matchApp(apps, { app: "chromium" }), 2);
  assert.equal(matchApp(apps, { app: "GTK3" }), 0);
  assert.equal(matchApp(apps, { app: "helper" }), 3);
});

Deno.test("scope: an ambiguous or unknown --app is APP_NOT_FOUND with candidates", () => {
  for (const app of ["widget", "nothing-like-it", "  "]) {
    try {
      matchApp(apps, { app });
      assert.fail("expected an error");
    } catch (e) {
      assert.ok(e instanceof DesktopError);
      assert.equal(e.code, "APP_NOT_FOUND");
      assert.ok((e.candidates?.length ?? 0) > 0, app);
    }
  }
});

Deno.test("scope: --pid picks by process id and must agree with --app", () => {
  assert.equal(matchApp(apps, { pid: 12 }), 2);
  assert.equal(code(() => matchApp(apps, { pid: 99 })), "APP_NOT_FOUND");
  assert.equal(code(() => matchApp(apps, { pid: 12, app: "gtk" })), "APP_NOT_FOUND");
});

Deno.test("scope: an empty scope means the focused app, or the only app", () => {
  assert.equal(matchApp(apps, {}), 1);
  assert.equal(matchApp([{ name: "solo", pid: 1 }], {}), 0);
  assert.equal(
    code(() => matchApp(apps.map((a) => ({ ...a, focused: false })), {})),
    "APP_NOT_FOUND",
  );
  assert.equal(code(() => matchApp([], {})), "APP_NOT_FOUND");
});

Deno.test("scope: windows by id, exact title, unique substring; else WINDOW_NOT_FOUND", () => {
  const wins = [{ id: 5, title: "Main" }, { id: 6, title: "Main settings" }, {
    id: 7,
    title: "About",
  }];
  assert.equal(matchWindow(wins, {}), -1);
  assert.equal(matchWindow(wins, { windowId: 7 }), 2);
  assert.equal(matchWindow(wins, { window: "main" }), 0);
  assert.equal(matchWindow(wins, { window: "sett" }), 1);
  assert.equal(code(() => matchWindow(wins, { window: "a" })), "WINDOW_NOT_FOUND");
  assert.equal(code(() => matchWindow(wins, { windowId: 1 })), "WINDOW_NOT_FOUND");
  assert.equal(code(() => matchWindow(wins, { window: "zzz" })), "WINDOW_NOT_FOUND");
});

Deno.test("scope: window ids are positive, deterministic and differ by path", () => {
  const a = windowId(":1.2", "/org/a11y/atspi/accessible/1");
  assert.equal(a, windowId(":1.2", "/org/a11y/atspi/accessible/1"));
  assert.notEqual(a, windowId(":1.2", "/org/a11y/atspi/accessible/2"));
  assert.ok(a > 0 && a <= 0x7fffffff);
});
