/**
 * A short ref keeps the meaning the agent's last read gave it. A tab "Permissions" (full ref
 * `detail-tabs/permissions`, printed short as `permissions`) opens a panel named "Permissions"
 * outside the tab list, whose full ref is `permissions`. An action whose changes the agent did
 * not see must not hand that ref to the panel; when it saw them (`--diff`), the ref named two
 * elements and is refused, never guessed. The page's title logs what took the focus.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cliError, runCli, runCliOk } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pageTitle } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "chromium: a ref the last read printed is not taken over by a panel an action opened",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "chromium",
      url: `${REPO_ROOT}tests/fixtures/web/detail_tabs.html`,
    });
    const title = () => pageTitle(d);
    const cli = (...args: string[]) => runCliOk(d, [...args, "--app", d.appName, "--no-daemon"]);
    const read = async () => {
      const out = await eventually("the tabs", async () => {
        const r = await runCli(d, ["read", "--app", d.appName, "--no-daemon", "--interactive"]);
        return r.code === 0 && r.stdout.includes('tab "Permissions"') ? r.stdout : undefined;
      }, 30_000);
      return out;
    };
    // The tab's ref is printed short: `permissions` is what an agent copies.
    const first = await read();
    assert.match(first, /\[\d+(\|permissions)?\] tab "Permissions"/, first);
    await cli("click", "--ref", "permissions");
    const focused = await cli("focus", "--ref", "permissions");
    assert.match(focused.stdout, /^ok focus \[\d+\|detail-tabs\/permissions\] tab "Permissions"/);
    assert.equal(await title(), "Detail: tab Permissions", "the panel never took the focus");

    // Seen with --diff: the panel printed as `permissions` too; the ref is refused with the tab.
    await cli("click", "--ref", "detail-tabs/general");
    assert.match(await read(), /\[\d+(\|permissions)?\] tab "Permissions"/);
    const opened = await cli("click", "--ref", "permissions", "--diff");
    assert.match(opened.stdout, /\+ \[-\|permissions\] tabpanel "Permissions"/, opened.stdout);
    const before = await title();
    const r = await runCli(d, ["focus", "--ref", "permissions", "--app", d.appName, "--no-daemon"]);
    const err = cliError(r);
    assert.equal(err.code, "AMBIGUOUS_TARGET", r.stderr);
    assert.deepEqual((err.candidates as { ref?: string }[]).map((c) => c.ref), [
      "detail-tabs/permissions",
    ]);
    assert.equal(await title(), before, "nothing took the focus");
    // After a new read the ref is the panel's (its full ref), the tab's is its full one.
    assert.match(await read(), /\[\d+\|detail-tabs\/permissions\] tab "Permissions"/);
    await cli("focus", "--ref", "permissions");
    assert.match(await title(), /, panel Permissions$/);
  },
});
