/**
 * `read --interactive` tells twins apart: the live page's watchlist is three
 * plain groups, each a name, a ticking price and a Remove button, so the
 * buttons are twins (`remove.1`..`remove.3`). One interactive read must say
 * which name each Remove sits beside, and clicking the twin read beside a
 * name must remove that name. Witness: the page logs the button it got in
 * its title, read through pyatspi.
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/live_content.html`;

Deno.test({
  name: "read --interactive: each twin Remove comes with the name of its row",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "chromium", url: PAGE, firstContactDelayMs: 2000 });
    const cli = (...args: string[]) =>
      runCli(d, [...args, "--pid", String(d.pid), "--timeout", "30000"]);
    const read = await eventually("the watchlist's buttons", async () => {
      const r = await cli("read", "--interactive");
      return /remove\.3\] btn "Remove"/.test(r.stdout) ? r.stdout : undefined;
    }, 60_000);
    const lines = read.split("\n").map((l) => l.trim());
    const start = lines.findIndex((l) => /region "Watchlist"/.test(l));
    assert.ok(start >= 0, read);
    // The twin right after each name is that name's Remove.
    const twinOf = new Map<string, string>();
    for (let k = start + 1; k < lines.length - 1; k++) {
      const name = lines[k].match(/^"(\w+)"$/)?.[1];
      const ref = lines[k + 1].match(/^\[\d+\|([^\]]+)\] btn "Remove"$/)?.[1];
      if (name && ref) twinOf.set(name, ref);
    }
    assert.deepEqual([...twinOf.keys()], ["Ada", "Alan", "Grace"], read);
    assert.equal(new Set(twinOf.values()).size, 3, read);
    for (const name of ["Grace", "Alan"]) {
      const click = await cli("click", "--ref", twinOf.get(name)!);
      assert.equal(click.code, 0, click.stderr);
      const title = await eventually(`the page logs remove-${name}`, async () => {
        const t = await pyatspiJson<string>(
          d,
          `print(json.dumps(next((w.name for w in app if w is not None and "log " in w.name), "")))`,
        );
        return t.includes(`remove-${name}`) ? t : undefined;
      }, 15_000);
      assert.match(title, new RegExp(`log \\d+: remove-${name} Remove`));
    }
  },
});
