import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import { openProvider } from "../../src/platform/load.ts";

const FORM = new URL("../fixtures/browser_form.json", import.meta.url).pathname;

Deno.test("load: --from opens the replay backend on any OS", async () => {
  for (const os of ["linux", "darwin", "windows", "freebsd"]) {
    const p = await openProvider({ from: FORM, timeoutMs: 1000, os });
    assert.equal(p.platform, "replay");
    assert.equal((await p.read({})).app.name, "Chromium");
    p.close();
  }
});

Deno.test("load: an OS without a backend is PLATFORM_NOT_SUPPORTED suggesting --from", async () => {
  for (const os of ["windows", "freebsd", "android"]) {
    await assert.rejects(openProvider({ timeoutMs: 1000, os }), (err: unknown) => {
      assert.ok(err instanceof DesktopError);
      assert.equal(err.code, "PLATFORM_NOT_SUPPORTED");
      assert.match(err.message, new RegExp(os));
      assert.match(err.suggestion ?? "", /--from/);
      return true;
    });
  }
});

Deno.test("load: a bad --from file is SNAPSHOT_INVALID, not a crash", async () => {
  await assert.rejects(
    openProvider({ from: `${FORM}.missing`, timeoutMs: 1000 }),
    (err: unknown) => err instanceof DesktopError && err.code === "SNAPSHOT_INVALID",
  );
});
