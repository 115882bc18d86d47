/**
 * `--timeout` is the whole command's deadline: with the app stopped
 * (SIGSTOP), `click`, `type`, `wait` and `read` each answer with a code and a
 * suggestion within the deadline plus a fixed margin for process start-up,
 * and the app is unharmed once it runs again.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cliError, runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";

const CHECK = "checkbutton.2"; // the enabled, unchecked check button of the first page

/** The deadline each command gets, and the margin allowed past it (the product's contract). */
const TIMEOUT_MS = 2000;
const MARGIN_MS = 3000;

Deno.test({
  name: "deadline e2e (gtk3): commands on a stopped app answer within --timeout",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const app = ["--app", d.appName, "--timeout", String(TIMEOUT_MS)];
    const before = await runCli(d, ["read", "--app", d.appName, "--roles", "chk"]);
    assert.equal(before.code, 0, before.stderr);
    // Off: a check box line says "checked" only when it is on.
    const first = before.stdout.split("\n").find((l) => l.includes(`|${CHECK}]`));
    assert.ok(first && !/\bchecked\b/.test(first), before.stdout);

    const commands: Array<[string, string[], string[]]> = [
      ["click", ["click", ...app, "--ref", CHECK], ["APP_UNRESPONSIVE", "TIMEOUT"]],
      ["type", ["type", ...app, "--text", "xyz"], ["APP_UNRESPONSIVE", "TIMEOUT"]],
      ["wait", ["wait", ...app, "--for-text", "never shown anywhere"], ["TIMEOUT"]],
      ["read", ["read", ...app], ["APP_UNRESPONSIVE", "TIMEOUT"]],
    ];
    d.signalApp("SIGSTOP");
    try {
      for (const [name, args, codes] of commands) {
        const start = Date.now();
        const res = await runCli(d, args);
        const ms = Date.now() - start;
        assert.equal(res.code, 1, `${name}: ${res.stdout}${res.stderr}`);
        const err = cliError(res);
        assert.ok(codes.includes(err.code), `${name}: ${JSON.stringify(err)}`);
        assert.ok(typeof err.suggestion === "string" && err.suggestion.length > 0, name);
        // The contract, not a speed figure: the deadline plus process start-up.
        assert.ok(ms < TIMEOUT_MS + MARGIN_MS, `${name} answered after ${ms} ms`);
      }
    } finally {
      d.signalApp("SIGCONT");
    }

    // Unharmed: it answers again, and nothing was clicked or typed while it was stopped.
    const after = await runCli(d, ["read", "--app", d.appName, "--roles", "chk"]);
    assert.equal(after.code, 0, after.stderr);
    const line = after.stdout.split("\n").find((l) => l.includes(`|${CHECK}]`));
    assert.ok(line && !/\bchecked\b/.test(line), after.stdout);
    const click = await runCli(d, ["click", "--app", d.appName, "--ref", CHECK]);
    assert.equal(click.code, 0, click.stderr);

    // A stream is not one command: observe's reads each get --timeout, so it
    // keeps reading past it (here every 200 ms for 3 s, at a 1 s timeout).
    const obs = await runCli(d, [
      "observe",
      "--app",
      d.appName,
      "--duration",
      "3",
      "--interval",
      "200",
      "--timeout",
      "1000",
    ]);
    assert.equal(obs.code, 0, obs.stderr);
    const types = obs.stdout.trim().split("\n").map((l) => JSON.parse(l).type);
    assert.deepEqual([types[0], types.at(-1)], ["snapshot", "done"], obs.stdout);
    assert.ok(!types.includes("error"), obs.stdout);
  },
});
