/**
 * A read of an app whose content changes while it is read (tests/fixtures/
 * churn.py: a GTK 3 window replacing a row every 5 ms, as a system monitor's
 * process table does) never fails: an object that goes away between being
 * listed and being asked for its children is skipped. Found on
 * gnome-system-monitor, whose read failed with STALE_REF once in a while.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";

Deno.test({
  name: "read: an app whose rows come and go while it is read is read whole, every time",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/churn.py`,
    });
    for (let i = 0; i < 15; i++) {
      const res = await runCli(d, ["read", "--app", d.appName]);
      assert.equal(res.code, 0, `read ${i}: ${res.stderr}`);
      assert.match(res.stdout, /Process \d+/, "the rows are read");
    }
  },
});
