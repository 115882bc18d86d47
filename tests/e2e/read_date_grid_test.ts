/**
 * A date picker's days carry the handles an agent copies. The days are cells with a click
 * handler, each holding its number as a text; a read used to print a week as `row: "8" | "9"`,
 * with no id or ref for a day, so an agent had to guess `8/tu` or `find` it. The read now
 * prints a header with each column's ref (`<row>/tu`) and each day's id; both reach the day
 * (the page's title says which day its handler saw), also after the grid is drawn anew.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli, runCliOk } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pageTitle } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "chromium: a date grid's days are read with their ids and column refs, and clicked by them",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "chromium",
      url: `${REPO_ROOT}tests/fixtures/web/date_grid.html`,
    });
    const title = () => pageTitle(d);
    const read = () =>
      eventually("the grid", async () => {
        const r = await runCli(d, ["read", "--app", d.appName, "--no-daemon"]);
        return r.code === 0 && r.stdout.includes('"30"') ? r.stdout : undefined;
      }, 30_000);
    const first = await read();
    assert.match(first, /rows: \[id\|<row>\/mo\] cell "…" \| \[id\|<row>\/tu\] cell "…"/, first);
    // The second week: 8 is a Monday; the id printed before "10" is Wednesday the 10th's.
    const id = first.match(/\[(\d+)\] "10"/)?.[1];
    assert.ok(id, first);
    const byId = await runCliOk(d, ["click", "--app", d.appName, "--id", id, "--no-daemon"]);
    assert.match(byId.stdout, new RegExp(`^ok click \\[${id}\\|main/june-2026/8/we\\] cell`));
    assert.equal(await title(), "Date: 2026-06-10");
    // Drawn anew: the chosen day says so on its row's line, the run unbroken; the ref made from
    // the row's key and the column's header reaches another day.
    const again = await read();
    assert.match(again, /\[\d+\] "10" selected \|/, again);
    await runCliOk(d, ["click", "--app", d.appName, "--ref", "15/th", "--no-daemon"]);
    assert.equal(await title(), "Date: 2026-06-18");
  },
});
