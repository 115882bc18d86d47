/**
 * A large app is not a hung one. A Chromium page of some 15,000 objects
 * takes seconds to read; a read whose deadline comes first while the app is
 * still answering says so (TIMEOUT, how many objects it read, what to do),
 * never APP_UNRESPONSIVE ("wait and retry"). The background process answers
 * before the CLI stops waiting (no second read in the CLI's own process),
 * goes on reading the tree and keeps it: a read again shortly is whole, and
 * equals a read in the CLI's own process with time enough (the witness).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { cliError, runCli } from "../harness/cli.ts";
import { rowsPage } from "../harness/rows_page.ts";
import { eventually } from "../harness/tree.ts";

const ROWS = 3000;
/** Deno's start-up on a busy machine, beyond a command's own timeout. */
const START_UP_MS = 6000;

Deno.test({
  name: "large tree: a read cut by its deadline while the app answers is TIMEOUT; " +
    "the background process reads on and keeps it",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const file = await Deno.makeTempFile({ suffix: ".html" });
    await Deno.writeTextFile(file, rowsPage(ROWS, "Large", 7));
    await using d = await startDesktop({ app: "chromium", url: `file://${file}` });
    const long = ["--timeout", "60000"];
    try {
      // The page whole, read in the CLI's own process with time enough: the witness.
      let cold = "";
      for (let i = 0; i < 40 && !cold.includes(`Select ${ROWS - 1}`); i++) {
        const r = await runCli(d, ["read", "--app", d.appName, "--no-daemon", ...long]);
        if (r.code === 0) cold = r.stdout;
        else await new Promise((r) => setTimeout(r, 500));
      }
      assert.ok(cold.includes(`Select ${ROWS - 1}`), "the page was never read whole");

      // In the CLI's own process: cut short, and said why.
      const timed = async (args: string[]) => {
        const t0 = Date.now();
        const r = await runCli(d, args);
        return { ...r, ms: Date.now() - t0 };
      };
      const oneShot = await timed(["read", "--app", d.appName, "--no-daemon", "--timeout", "1500"]);
      const e1 = cliError(oneShot) as {
        code: string;
        suggestion: string;
        details: { objects: number; answering: boolean; readingOn: boolean };
      };
      assert.equal(e1.code, "TIMEOUT", oneShot.stderr);
      assert.equal(e1.details.answering, true, oneShot.stderr);
      assert.equal(e1.details.readingOn, false, oneShot.stderr);
      // How far it got depends on the machine; that it read some and said so does not.
      assert.ok(e1.details.objects > 0, oneShot.stderr);
      assert.match(e1.suggestion, /--timeout \d+/);
      assert.ok(oneShot.ms < 1500 + START_UP_MS, `took ${oneShot.ms} ms`);

      // The read cut short left the app its calls to answer (they were sent before it ended):
      // until it has, it answers nobody, and a read then is rightly APP_UNRESPONSIVE.
      await eventually("the app to answer again at once", async () => {
        const r = await timed(["list", "--windows", "--app", d.appName, "--no-daemon"]);
        return r.code === 0 && r.ms < 1500 ? true : undefined;
      }, 60_000);

      // Through the background process: it answers in time, and reads on.
      const started = await runCli(d, ["daemon", "start"]);
      assert.equal(started.code, 0, started.stderr);
      const first = await timed(["read", "--app", d.appName, "--timeout", "1500"]);
      const e2 = cliError(first) as typeof e1;
      assert.equal(e2.code, "TIMEOUT", first.stderr);
      assert.equal(e2.details.readingOn, true, first.stderr);
      assert.match(e2.suggestion, /read again/);
      assert.doesNotMatch(first.stderr, /reading in this process/, "the process did not answer");
      assert.ok(first.ms < 1500 + START_UP_MS, `took ${first.ms} ms`);

      // Read again until whole: each read ends by its deadline, and the last equals the witness.
      let warm = "";
      for (let i = 0; i < 20; i++) {
        const r = await timed(["read", "--app", d.appName, "--timeout", "3000"]);
        assert.ok(r.ms < 3000 + START_UP_MS, `took ${r.ms} ms`);
        if (r.code === 0) {
          warm = r.stdout;
          break;
        }
        assert.equal(cliError(r).code, "TIMEOUT", r.stderr);
      }
      assert.equal(warm, cold, "the kept tree's read differs from a read with time enough");
      const status = JSON.parse((await runCli(d, ["daemon", "status"])).stdout) as {
        kept: { trees: number; nodes: number };
      };
      assert.ok(status.kept.trees >= 1 && status.kept.nodes > ROWS * 4, JSON.stringify(status));
    } finally {
      await runCli(d, ["daemon", "stop"]);
      await Deno.remove(file).catch(() => {});
    }
  },
});
