/**
 * Rows out of view: a virtual list (tests/fixtures/web/virtual_list.html in
 * Chromium) creates only the rows it shows. An action by the ref of a row
 * scrolled away reaches it by scrolling the list, a page at a time, and says
 * so; a target that is in no page is ELEMENT_NOT_FOUND naming the list and
 * how to scroll it. Witness: the page's title, which it sets when a row's
 * Open button is pressed, read through pyatspi.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { cliError, runCli } from "../harness/cli.ts";
import { firstWindowTitle as title } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/virtual_list.html`;

Deno.test({
  name: "act: a row of a virtual list scrolled away is reached by scrolling the list",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    const cli = (args: string[]) => runCli(d, [...args, "--app", d.appName, "--timeout", "30000"]);
    await eventually("the list's first rows", async () => {
      const res = await cli(["read"]);
      return res.stdout.includes('"report-001.pdf"') ? res.stdout : undefined;
    }, 20_000);
    const before = await cli(["read"]);
    assert.doesNotMatch(before.stdout, /report-120/, "row 120 is not created before it scrolls");

    // With its changes: what the effect check saw, said if the page does not agree.
    const res = await cli(["click", "--ref", "open-report-120-pdf", "--diff"]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /btn "Open report-120\.pdf"/);
    assert.match(res.stdout, /scrolled list "Files" down \d+x to reach it/);
    assert.doesNotMatch(res.stdout, /unverified/);
    await eventually(`the page opened row 120 (pyatspi) after:\n${res.stdout}`, async () => {
      return (await title(d)).startsWith("opened=report-120.pdf") ? true : undefined;
    }, 10_000);

    // A row the list does not have: every page is looked at, then the error names the list.
    const missing = await cli(["click", "--ref", "open-report-999-pdf"]);
    assert.notEqual(missing.code, 0);
    const err = cliError(missing);
    assert.equal(err.code, "ELEMENT_NOT_FOUND");
    assert.match(String(err.suggestion), /list "Files" \[[^\]]+\] holds more rows than it shows/);
    assert.match(String(err.suggestion), /scroll --ref \S+ --direction down/);
    assert.ok((await title(d)).startsWith("opened=report-120.pdf"), "nothing else was pressed");
  },
});
