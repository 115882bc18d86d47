import assert from "node:assert/strict";
import {
  assertClean,
  CHROMIUM,
  find,
  get,
  LEGACY_CHAT,
  rejectsWith,
  SAFARI,
  scenario,
  shim,
} from "./macos_shim_helpers.ts";
import { createMacosProvider } from "../../src/platform/macos/mod.ts";

async function withEnv(key: string, value: string, fn: () => Promise<void>): Promise<void> {
  const old = Deno.env.get(key);
  Deno.env.set(key, value);
  try {
    await fn();
  } finally {
    if (old === undefined) Deno.env.delete(key);
    else Deno.env.set(key, old);
  }
}

Deno.test("macos permission: untrusted names the terminal to allow and shows the prompt", async () => {
  shim.reset("browser");
  shim.setTrusted(0);
  await withEnv("TERM_PROGRAM", "iTerm.app", async () => {
    const err = await rejectsWith(createMacosProvider({ timeoutMs: 2000 }), "PERMISSION_DENIED");
    assert.match(
      err.message,
      /allow iTerm in System Settings > Privacy & Security > Accessibility/,
    );
    assert.match(err.suggestion ?? "", /iTerm/);
  });
  assert.ok(shim.log().includes("trust prompt"), "macOS was asked to show its prompt");
  assertClean();
});

Deno.test("macos permission: a stale grant (trusted, yet refused) is caught by the probe", async () => {
  shim.reset("browser");
  shim.setTrusted(2);
  await withEnv("TERM_PROGRAM", "Apple_Terminal", async () => {
    const err = await rejectsWith(createMacosProvider({ timeoutMs: 2000 }), "PERMISSION_DENIED");
    assert.match(err.message, /Terminal/);
  });
  assertClean();
});

Deno.test("macos permission: a grant revoked mid-session fails reads and actions", async () => {
  await scenario("browser", async (p) => {
    const submit = get(await p.read({ app: "Safari" }), "btn", "Submit");
    shim.setTrusted(2);
    await rejectsWith(p.read({ app: "Safari" }), "PERMISSION_DENIED");
    await rejectsWith(p.act({}, { element: submit }, { kind: "click" }), "PERMISSION_DENIED");
    await rejectsWith(p.watch!({ app: "Safari" }, () => {}), "PERMISSION_DENIED");
    shim.setTrusted(1);
  });
});

Deno.test("macos chromium: AXManualAccessibility brings the web content in", async () => {
  await scenario("chromium", async (p) => {
    const snap = await p.read({ app: "Chromium" });
    const heading = find(snap.root, (e) => e.r === "heading");
    assert.equal(heading?.t, "Welcome to Chromium");
    assert.equal(heading?.lv, 1);
    assert.ok(get(snap, "btn", "Sign in"));
    assert.equal(shim.attr(CHROMIUM, "", "AXManualAccessibility"), "true");
    assert.equal(shim.attr(CHROMIUM, "", "AXEnhancedUserInterface"), "false");
  });
});

Deno.test("macos chromium: AXEnhancedUserInterface is the fallback, and close() restores it", async () => {
  await scenario("chromium", async (p) => {
    const snap = await p.read({ app: "Legacy Chat" });
    assert.ok(get(snap, "input", "Message"), "the web area's children appeared");
    assert.equal(shim.attr(LEGACY_CHAT, "", "AXEnhancedUserInterface"), "true");
    await p.read({ app: "Legacy Chat" });
  });
  assert.equal(shim.attr(LEGACY_CHAT, "", "AXEnhancedUserInterface"), "false");
});

Deno.test("macos chromium: ordinary apps are left alone", async () => {
  await scenario("browser", async (p) => {
    await p.read({ app: "Safari" });
    await p.read({ app: "Finder" }); // has an empty (minimized) window
    assert.ok(!shim.log().some((l) => /AXManualAccessibility|AXEnhancedUserInterface/.test(l)));
  });
});

Deno.test("macos hang: an app that never answers is APP_UNRESPONSIVE", async () => {
  await scenario("browser", async (p) => {
    const submit = get(await p.read({ app: "Safari" }), "btn", "Submit");
    shim.setHang(SAFARI, -25204);
    const err = await rejectsWith(p.read({ app: "Safari" }), "APP_UNRESPONSIVE");
    assert.match(err.message, /Safari/);
    await rejectsWith(p.act({}, { element: submit }, { kind: "click" }), "APP_UNRESPONSIVE");
    shim.setHang(SAFARI, 0);
    assert.ok(await p.read({ app: "Safari" }));
  });
});

Deno.test("macos hang: the messaging timeout cuts a stalled call short", async () => {
  await scenario("browser", async (p) => {
    shim.setHang(SAFARI, 20_000);
    await rejectsWith(p.read({ app: "Safari" }), "APP_UNRESPONSIVE");
  }, { timeoutMs: 1000 });
});

Deno.test("macos hang: a slow app hits our own deadline", async () => {
  await scenario("browser", async (p) => {
    shim.setHang(SAFARI, 15);
    const err = await rejectsWith(p.read({ app: "Safari" }), "APP_UNRESPONSIVE");
    assert.match(err.message, /within 300 ms/);
  }, { timeoutMs: 300 });
});

Deno.test("macos gone: an app that quits mid-session is APP_NOT_FOUND", async () => {
  await scenario("browser", async (p) => {
    const submit = get(await p.read({ app: "Safari" }), "btn", "Submit");
    shim.removeApp(SAFARI);
    await rejectsWith(p.act({}, { element: submit }, { kind: "click" }), "APP_NOT_FOUND");
    await rejectsWith(p.read({ app: "Safari" }), "APP_NOT_FOUND");
    assert.deepEqual((await p.listApps()).map((a) => a.name), ["Finder"]);
  });
});

Deno.test("macos: invalid provider options fail with INVALID_ARGS", async () => {
  shim.reset("browser");
  await rejectsWith(createMacosProvider({ timeoutMs: 0 }), "INVALID_ARGS");
  assertClean();
});
