/**
 * `type` enters text, and never presses a button. A dialog that takes the
 * focus leaves a button focused (zenity's "Delete everything?" focuses
 * "Yes"; LibreOffice's tip of the day its "OK"); text typed there presses it
 * with its first space, answering a question the agent never saw. `type`
 * with no target, or aimed at a button, fails with ACTION_NOT_SUPPORTED and
 * sends no key. Witness: pyatspi still sees the dialog, and the process runs
 * until a click by ref answers it.
 */

import assert from "node:assert/strict";
import { cliError, runCli, runCliOk } from "../harness/cli.ts";
import { alive, hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "type never presses a focused button: a question stays unanswered",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "zenity",
      url: "--question\0--text=Delete everything?",
    });
    const pid = String(d.pid);
    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\[\d+\|yes\] btn "Yes" focused/, read);

    for (
      const args of [["type", "--pid", pid, "hello world"], [
        "type",
        "--pid",
        pid,
        "--ref",
        "yes",
        "ok then",
      ]]
    ) {
      const err = cliError(await runCli(d, args));
      assert.equal(err.code, "ACTION_NOT_SUPPORTED", JSON.stringify(err));
      assert.match(String(err.message), /btn "Yes"/);
    }
    // Nothing was pressed: the dialog is still up.
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(alive(d.pid), "zenity still runs");
    const titles = await pyatspiJson<string[]>(d, `print(json.dumps([w.name for w in app]))`);
    assert.deepEqual(titles, ["Question"]);

    await runCliOk(d, ["click", "--pid", pid, "--ref", "no"]);
    await eventually("zenity to exit", () => Promise.resolve(alive(d.pid) ? undefined : true));
  },
});
