/**
 * A click on a row of a table whose figures change by themselves (a process
 * monitor's): the figures change whether or not the press landed, so they are
 * no witness of it. A press the app dropped (it was busy) must not be a plain
 * ok; a press that landed must be one.
 * Witness: the fixture's window title names each press the table handled, and
 * pyatspi reads which cells are selected (tests/fixtures/gtk3/live_table.py).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { pyatspiJson, selectedCells } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "a dropped press on a live table's row is not ok; a press that landed is",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/gtk3/live_table.py`,
    });
    const cli = (args: string[]) => runCli(d, [...args, "--app", d.appName, "--timeout", "20000"]);
    const title = () => pyatspiJson<string>(d, `print(json.dumps(app[0].name))`);
    const refOf = async (pattern: RegExp) => {
      const r = await cli(["read"]);
      assert.equal(r.code, 0, r.stderr);
      return pattern.exec(r.stdout)?.[1];
    };
    const busy = await eventually(
      "the Busy check box",
      () => refOf(/\[\d+\|([^\]]+)\] chk "Busy"/),
      30_000,
    );
    const row = (n: number) => refOf(new RegExp(`\\[\\d+\\|([^\\]]+)\\] row: "proc ${n}" \\|`));

    // Busy: the table drops the press, the figures go on changing.
    const on = await cli(["click", "--ref", busy]);
    assert.equal(on.code, 0, on.stderr);
    const dropped = await row(4);
    assert.ok(dropped, "a ref for proc 4");
    const before = await title();
    const click = await cli(["click", "--ref", dropped]);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await title(), before, "the table handled no press");
    assert.deepEqual(await selectedCells(d), [], "no row selected");
    assert.ok(
      click.code !== 0 || /unverified: /.test(click.stdout),
      `a dropped press reported as done: ${click.stdout}${click.stderr}`,
    );

    // Not busy: the press lands, selects the row, and is a plain ok.
    const off = await cli(["click", "--ref", busy]);
    assert.equal(off.code, 0, off.stderr);
    const target = await row(6);
    assert.ok(target, "a ref for proc 6");
    const landed = await cli(["click", "--ref", target]);
    assert.equal(landed.code, 0, landed.stderr);
    assert.match(await title(), /: proc 6$/);
    const cells = await eventually("proc 6 selected", async () => {
      const s = await selectedCells(d);
      return s.includes("proc 6") ? s : undefined;
    }, 5_000);
    assert.ok(cells.includes("proc 6"));
    assert.doesNotMatch(landed.stdout, /unverified/, `a landed press in doubt: ${landed.stdout}`);
  },
});
