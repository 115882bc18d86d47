import assert from "node:assert/strict";
import { connect } from "../../mod.ts";
import { DesktopError } from "../../src/errors.ts";

const FIXTURE = new URL("../fixtures/browser_form.json", import.meta.url).pathname;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    assert.ok(e instanceof DesktopError, String(e));
    return e.code;
  }
}

Deno.test("a snapshot has no screen, apps, windows or clipboard: PLATFORM_NOT_SUPPORTED", async () => {
  const desktop = await connect({ from: FIXTURE });
  try {
    assert.equal(await code(desktop.screenshot({})), "PLATFORM_NOT_SUPPORTED");
    assert.equal(await code(desktop.launch("mousepad")), "PLATFORM_NOT_SUPPORTED");
    assert.equal(await code(desktop.quit({ app: "Chromium" })), "PLATFORM_NOT_SUPPORTED");
    assert.equal(
      await code(desktop.window({ app: "Chromium" }, [{ kind: "raise" }])),
      "PLATFORM_NOT_SUPPORTED",
    );
    assert.equal(await code(desktop.clipboardGet()), "PLATFORM_NOT_SUPPORTED");
    assert.equal(await code(desktop.clipboardSet("x")), "PLATFORM_NOT_SUPPORTED");
  } finally {
    desktop.close();
  }
});

Deno.test("screenshot: a scale outside (0, 1] is INVALID_ARGS before anything is captured", async () => {
  const desktop = await connect({ from: FIXTURE });
  try {
    assert.equal(await code(desktop.screenshot({}, { scale: 0 })), "INVALID_ARGS");
    assert.equal(await code(desktop.screenshot({}, { scale: 1.5 })), "INVALID_ARGS");
  } finally {
    desktop.close();
  }
});
