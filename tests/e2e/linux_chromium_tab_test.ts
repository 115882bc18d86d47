/**
 * Chromium names each tab after its page and the memory the page uses ("New
 * Tab - Memory usage - 33.3 MB"), a figure that changes by the second and
 * that the tab does not show (its hover card does). The tab reads as its
 * title, and no ref carries the figure: `tablist/settings-acme-account`, not
 * `settings-acme-account-memory-usage-113-mb`.
 * Chromium also keeps untitled top-level frames around empty documents
 * (`window.1`, `window.2`): they print no line, and its omnibox popup's
 * frames, untitled with boxes inside the browser's window, take no title
 * from it (the window keeps its bare ref).
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

    // Typing into the address bar opens the omnibox popup: untitled frames with boxes inside
    // the browser's window. They take no title from it, and the window keeps its bare ref.
    await runCliOk(d, ["type", "--pid", String(d.pid), "--ref", "address-and-search-bar", "acme"]);
    const popups = await eventually("the popup frames' boxes", async () => {
      const boxes = await pyatspiJson<number[][]>(
        d,
        `print(json.dumps([list(w.queryComponent().getExtents(0)) for w in app
  if w.getRoleName() == "frame" and w.name == "" and w.getState().contains(pyatspi.STATE_SHOWING)]))`,
      );
      return boxes.some((b) => b[2] > 0 && b[3] > 0) ? boxes : undefined;
    }, 10000);
    assert.ok(popups.length > 0);
    const withPopup = (await runCliOk(d, ["read", "--pid", String(d.pid)])).stdout;
    const titled = withPopup.match(/\] window "[^"]*"/g) ?? [];
    assert.equal(titled.length, 1, withPopup.slice(0, 3000));
    assert.match(withPopup, /\[\d+\|[a-z0-9-]+\] window "/, withPopup.slice(0, 500));
  },
});
