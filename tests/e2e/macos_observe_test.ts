import assert from "node:assert/strict";
import {
  assertClean,
  eventually,
  get,
  rejectsWith,
  SAFARI,
  scenario,
  shim,
} from "./macos_shim_helpers.ts";
import { createMacosProvider } from "../../src/platform/macos/mod.ts";

Deno.test("macos watch: a value the app changes itself triggers onChange", async () => {
  await scenario("browser", async (p) => {
    let calls = 0;
    const stop = await p.watch!({ app: "Safari" }, () => calls++);
    try {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(calls, 0, "nothing changed yet");
      shim.setAttr(SAFARI, "status", "AXValue", "Saved");
      assert.ok(await eventually(() => calls > 0), "AXValueChanged arrived");
    } finally {
      stop();
    }
  });
});

Deno.test("macos watch: elements created and destroyed by actions are reported", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({ app: "Safari" });
    let calls = 0;
    const stop = await p.watch!({ pid: SAFARI }, () => calls++);
    try {
      await p.act({}, { element: get(snap, "btn", "Add row") }, { kind: "click" });
      assert.ok(await eventually(() => calls > 0), "AXCreated arrived");
      const before = calls;
      shim.apply(SAFARI, [{ remove: "row-1" }]);
      assert.ok(await eventually(() => calls > before), "AXUIElementDestroyed arrived");
    } finally {
      stop();
    }
  });
});

Deno.test("macos watch: after stop no more calls arrive, and stop twice is safe", async () => {
  await scenario("browser", async (p) => {
    let calls = 0;
    const stop = await p.watch!({ app: "Safari" }, () => calls++);
    stop();
    stop();
    shim.setAttr(SAFARI, "status", "AXValue", "late");
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(calls, 0);
  });
});

Deno.test("macos watch: close() stops watchers and releases observer, source and callback", async () => {
  shim.reset("browser");
  const p = await createMacosProvider({ timeoutMs: 4000 });
  let calls = 0;
  await p.watch!({ app: "Safari" }, () => calls++);
  await p.watch!({ app: "Finder" }, () => calls++);
  p.close();
  shim.setAttr(SAFARI, "status", "AXValue", "after close");
  await new Promise((r) => setTimeout(r, 120));
  assert.equal(calls, 0);
  assertClean();
});

Deno.test("macos watch: an unknown app fails with APP_NOT_FOUND", async () => {
  await scenario("browser", async (p) => {
    await rejectsWith(p.watch!({ app: "Nope" }, () => {}), "APP_NOT_FOUND");
  });
});

Deno.test("macos watch: stopping after the app quit still releases everything", async () => {
  await scenario("browser", async (p) => {
    const stop = await p.watch!({ app: "Safari" }, () => {});
    shim.removeApp(SAFARI);
    await new Promise((r) => setTimeout(r, 60));
    stop();
  });
});
