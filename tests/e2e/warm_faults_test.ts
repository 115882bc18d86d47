/**
 * Warm reads keep the fault handling: an MCP worker that holds an app's tree
 * never answers for an app that stopped (SIGSTOP) or quit (SIGKILL). Each
 * read ends by its deadline with the codes a cold read gives, and once the
 * stopped app runs again, the warm read equals a cold one. Witnesses: the
 * app's process state (/proc) and a one-shot CLI read (nothing kept). The
 * app is stopped right after a change the worker has events for, so the read
 * that would re-read the changed parts meets the stopped app.
 */

import { writeRefsOut } from "../../src/output/agent_parse.ts";
import assert from "node:assert/strict";
import { alive, hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { mcpClient } from "./mutation_scenarios.ts";

/** The process state letter (R, S, T...) from /proc. */
function procState(pid: number): string {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

Deno.test({
  name:
    "warm reads: a stopped app is APP_UNRESPONSIVE by the deadline, a killed one an error by the deadline, never its kept tree",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const { client, call } = await mcpClient(d);
    const timeout = 3000;
    const code = (text: string) => (JSON.parse(text) as { code: string }).code;
    try {
      const cold = await runCli(d, ["read", "--app", d.appName]);
      assert.equal(cold.code, 0, cold.stderr);
      // Twice: the second read is answered from the worker's kept tree.
      for (let i = 0; i < 2; i++) {
        const warm = await call("read", { app: d.appName });
        assert.equal(warm.isError, false, warm.text);
        assert.equal(warm.text.trim(), cold.printed.trim());
      }
      // A change the worker has events for and has not read yet: the stopped app's parts
      // are never answered from the kept tree, and once it runs again they are read in.
      const boxes = await call("find", { app: d.appName, roles: "chk", all: true });
      const ref = /^\[(?:\d+|-)\|([^\]]+)\] chk (?!.*\bdisabled\b)/m.exec(writeRefsOut(boxes.text))
        ?.[1];
      assert.ok(ref, `an enabled check box:\n${boxes.text}`);
      const clicked = await call("click", { app: d.appName, ref });
      assert.equal(clicked.isError, false, clicked.text);

      Deno.kill(d.pid, "SIGSTOP");
      try {
        // The signal takes effect a moment later on a busy machine.
        for (let i = 0; i < 40 && procState(d.pid) !== "T"; i++) {
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(procState(d.pid), "T", "the app is stopped");
        const started = Date.now();
        const hung = await call("read", { app: d.appName, timeout });
        const elapsed = Date.now() - started;
        assert.equal(hung.isError, true, `a stopped app's kept tree was printed: ${hung.text}`);
        assert.match(code(hung.text), /^(APP_UNRESPONSIVE|TIMEOUT)$/, hung.text);
        // The deadline is the contract: the timeout plus the round trip.
        assert.ok(elapsed < timeout + 3000, `answered after ${elapsed} ms`);
      } finally {
        Deno.kill(d.pid, "SIGCONT");
      }
      const back = await call("read", { app: d.appName });
      assert.equal(back.isError, false, back.text);
      const coldBack = await runCli(d, ["read", "--app", d.appName]);
      assert.equal(back.text.trim(), coldBack.printed.trim(), "warm equals cold after SIGCONT");

      d.signalApp("SIGKILL");
      for (let i = 0; i < 50 && alive(d.pid); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(alive(d.pid), false, "the app is gone");
      const started = Date.now();
      const gone = await call("read", { app: d.appName, timeout });
      const elapsed = Date.now() - started;
      assert.equal(gone.isError, true, `a dead app's kept tree was printed: ${gone.text}`);
      assert.ok(elapsed < timeout + 3000, `answered after ${elapsed} ms`);
      // The code a cold read gives: APP_NOT_FOUND, or APP_UNRESPONSIVE while the bus still
      // lists the dead app's connection.
      assert.match(code(gone.text), /^(APP_NOT_FOUND|APP_UNRESPONSIVE)$/, gone.text);
      const coldGone = await runCli(d, ["read", "--app", d.appName, "--timeout", String(timeout)]);
      assert.notEqual(coldGone.code, 0);
      assert.match(coldGone.stderr, /"code":"(APP_NOT_FOUND|APP_UNRESPONSIVE)"/);
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name:
    "warm reads: an app of the same name that registers after a kept read makes the name ambiguous, never an answer from the kept tree",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "zenity", url: "--text=first of two" });
    const { client, call } = await mcpClient(d);
    try {
      // The second read of the unchanged app is answered from the kept tree (one look at the
      // registry and the app, not a listing of every app).
      for (let i = 0; i < 2; i++) {
        const warm = await call("read", { app: d.appName });
        assert.equal(warm.isError, false, warm.text);
        assert.match(warm.text, /first of two/);
      }
      const second = await d.startApp({ app: "zenity", url: "--text=second of two" });
      const both = await call("read", { app: d.appName });
      assert.equal(both.isError, true, `the kept tree was printed: ${both.text}`);
      const err = JSON.parse(both.text) as { code: string; message: string };
      assert.equal(err.code, "APP_NOT_FOUND", both.text);
      assert.match(err.message, /matches 2 apps/);
      // By process id, each is its own app again, the first one still from its kept tree.
      for (const [pid, text] of [[d.pid, /first of two/], [second.pid, /second of two/]] as const) {
        const one = await call("read", { pid });
        assert.equal(one.isError, false, one.text);
        assert.match(one.text, text);
      }
    } finally {
      await client.close();
    }
  },
});
