/**
 * A press whose effect shows late (a handler that answers after a round
 * trip) is made once. The accessible press moves the keyboard focus at once
 * and its effect comes 0.8 s or 2 s later: it must not be taken for a press
 * with no effect and made again with the pointer (two orders, two payments).
 * The witness is the page's own counters, read by pyatspi.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/late_effect.html`;

/** pyatspi: the page's counters, as the window's title says them (the page sets it). */
function counters(d: TestDesktop): Promise<string> {
  return pyatspiJson<string>(
    d,
    `
print(json.dumps(next(w.name for w in app if (w.name or "").startswith("Orders placed:")).split(" - ")[0]))
`,
  );
}

Deno.test({
  name: "act: a press whose effect shows late is made once, not again with the pointer",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    const run = async (args: string[]) => {
      const r = await runCli(d, [...args, "--app", d.appName, "--timeout", "20000"]);
      assert.equal(r.code, 0, `desktop ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    await eventually("the page", async () => {
      const r = await runCli(d, ["find", "--app", d.appName, "--text", "Pay invoice"]);
      return r.code === 0 ? true : undefined;
    }, 30_000);
    await run(["read"]);

    for (
      const [ref, after] of [
        ["place-order", "Orders placed: 1; Payments sent: 0"],
        ["pay-invoice", "Orders placed: 1; Payments sent: 1"],
      ] as const
    ) {
      await t.step(`${ref}: one press`, async () => {
        const out = await run(["click", "--ref", ref, "--diff"]);
        // Time enough for a second press's effect to show too.
        await new Promise((r) => setTimeout(r, 3000));
        assert.equal(await counters(d), after, out);
        assert.doesNotMatch(out, /had no visible effect|unverified/, out);
        assert.match(out, /^ok click .* via accessible/);
      });
    }
  },
});
