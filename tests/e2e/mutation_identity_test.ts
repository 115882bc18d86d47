/**
 * Never the wrong element, on a real page (Chromium over AT-SPI): the
 * identity mutation suite (tests/e2e/mutation_suites.ts) on
 * tests/fixtures/web/mutation_identity.html, through the CLI and MCP.
 */

import assert from "node:assert/strict";
import type { Snapshot } from "../../src/model/element.ts";
import { cliError, runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runSuite, witness } from "./mutation_scenarios.ts";
import { assertNoWrongElement, ITEM_2, PAGE, WEB_SUITE } from "./mutation_suites.ts";

Deno.test({
  name: "mutation suite (chromium): no action ever reaches another element, CLI and MCP",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    await t.step("a point target stays inside the scoped app's windows", async () => {
      const code = async (args: string[]) => {
        const r = await runCli(d, ["click", ...args]);
        return r.code === 0 ? "ok" : cliError(r).code;
      };
      // The page may still be laying out right after start: wait for the button's box.
      let b: number[] | undefined;
      for (let k = 0; k < 30 && !b; k++) {
        const out = (await runCli(d, ["read", "--pid", String(d.pid), "--format", "json"])).stdout;
        b = out ? ITEM_2.pick((JSON.parse(out) as Snapshot).root)?.b : undefined;
        if (!b) await new Promise((r) => setTimeout(r, 500));
      }
      assert.ok(b, "the Open button of Item 2 has bounds");
      const [x, y] = [String(b[0] + (b[2] >> 1)), String(b[1] + (b[3] >> 1))];
      const before = await witness(d.pid, d.env);
      assert.equal(await code(["--app", "NoSuchApp", "--x", x, "--y", y]), "APP_NOT_FOUND");
      assert.equal(await code(["--pid", "1", "--x", x, "--y", y]), "APP_NOT_FOUND");
      assert.equal(
        await code(["--window", "No such window", "--x", x, "--y", y]),
        "WINDOW_NOT_FOUND",
      );
      assert.equal(
        await code(["--pid", String(d.pid), "--x", "5000", "--y", y]),
        "WINDOW_NOT_FOUND",
      );
      assert.equal((await witness(d.pid, d.env)).n, before.n, "no click landed");
      assert.equal(await code(["--pid", String(d.pid), "--x", x, "--y", y]), "ok");
      let after = await witness(d.pid, d.env);
      for (let k = 0; k < 50 && after.n === before.n; k++) {
        await new Promise((r) => setTimeout(r, 100));
        after = await witness(d.pid, d.env);
      }
      assert.equal(after.uid, ITEM_2.uid, "the point reached the button under it");
    });
    const { attempts, peers } = await runSuite(d, WEB_SUITE);
    assertNoWrongElement(attempts);
    assert.ok(attempts.length >= 40, `${attempts.length} attempts`);
    assert.ok(attempts.some((a) => a.kind === "twin ref"), "twin refs were tried");
    // The peers, scored on the same trees, do land elsewhere: the suite can tell.
    assert.ok(peers.some((p) => p.sequential.wrong + p.positional.wrong > 0));
  },
});
