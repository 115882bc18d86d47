/**
 * Chromium names each tab after its page and the memory the page uses ("New
 * Tab - Memory usage - 33.3 MB"), a figure that changes by the second and
 * that the tab does not show (its hover card does). The tab reads as its
 * title, and no ref carries the figure: `tablist/settings-acme-account`, not
 * `settings-acme-account-memory-usage-113-mb`.
 * Chromium also keeps untitled top-level frames around empty documents
 * (`window.1`, `window.2`): they print no line.
 * Witness: pyatspi reads the tab's name with the memory figure, and the
 * untitled frames.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/corpus/settings.html`;

Deno.test({
  name: "chromium: a tab reads as its title, without the memory figure Chromium adds to its name",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    const tabs = await eventually("the tab named with its memory", async () => {
      const names = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "page tab"]))`,
      );
      return names.some((n) => /Memory usage/.test(n)) ? names : undefined;
    }, 20000);
    assert.ok(
      tabs.some((n) => /^Settings · Acme Account - Memory usage - [\d.]+ [KMG]?B$/.test(n)),
    );

    const read = (await runCliOk(d, ["read", "--pid", String(d.pid)])).stdout;
    assert.match(
      read,
      /\[\d+\|(?:tablist\/)?settings-acme-account\] tab "Settings · Acme Account"/,
    );
    assert.doesNotMatch(read, /memory/i, read);

    // Chromium keeps untitled top-level frames around empty documents: they print no line.
    const frames = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([w.name for w in app if w.getRoleName() == "frame"]))`,
    );
    assert.ok(frames.includes(""), JSON.stringify(frames));
    assert.doesNotMatch(read, /\|window(\.\d+)?\] window\s*$/m, read);
  },
});
