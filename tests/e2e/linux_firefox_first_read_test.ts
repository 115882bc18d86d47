/**
 * Firefox builds a page's document when a client first asks for it: the first
 * read after it starts found the tab's frame empty, or holding a document
 * laid out nowhere yet, and printed no page at all (the browser's toolbars
 * alone). The read waits a bounded moment for a frame's document on its way,
 * until it holds still. The frames around the page and those of background
 * tabs print no line (`window.1`, `window.2` were noise), and the app is not
 * printed as disabled.
 * Witness: pyatspi reads the page's heading.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/corpus/article.html`;

Deno.test({
  name: "firefox: the first read after the browser starts shows the page",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "firefox-esr", url: PAGE });
    // The first read of the page, before anything else asks for it.
    const read = (await runCliOk(d, ["read", "--pid", String(d.pid)])).stdout;
    // The witness, once Firefox has built the page (it may take a moment after it is asked).
    const headings = await eventually("the page's heading", async () => {
      const names = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "heading"]))`,
      );
      return names.includes("How tide pools work") ? names : undefined;
    }, 15000);
    assert.ok(headings.includes("How tide pools work"));
    assert.match(read, /\] heading "How tide pools work" lv=1/, read);
    // Firefox's application object reports neither ENABLED nor SENSITIVE: an app is no control.
    const appStates = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([pyatspi.stateToString(s) for s in app.getState().getStates()]))`,
    );
    assert.ok(!appStates.includes("enabled") && !appStates.includes("sensitive"), appStates.join());
    assert.match(read, /^\[\d+\|firefox\] app "Firefox"$/m, "the app is not printed as disabled");
    assert.match(read, /"Anemones in a pool on the Cornish coast at low tide\."/, read);
    assert.doesNotMatch(
      read,
      /\|window(\.\d+)?\] window\s*$/m,
      "no line for a frame that says nothing",
    );
  },
});
