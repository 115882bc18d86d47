/**
 * gedit (GTK 3), an editor we did not build for. GTK 3 names every menu
 * button "Menu" unless told otherwise, so gedit's recent-files button and its
 * main menu were twins, `menu.1` and `menu.2`; the recent-files button's
 * tooltip says which menu it opens, and names it: `open-a-recently-used-file`,
 * whose printed ref opens that menu.
 * Witness: pyatspi reads both toggles named "Menu", one with the tooltip, and
 * the menu's item showing after the click.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "gedit: a menu button named only 'Menu' is named by its tooltip; its ref opens it",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gedit" });
    const pid = String(d.pid);
    const toggles = await pyatspiJson<Array<[string, string]>>(
      d,
      `print(json.dumps([[o.name, o.description] for o in walk(app)
                         if o.getRoleName() == "toggle button" and o.name == "Menu"]))`,
    );
    assert.ok(
      toggles.some(([, tip]) => tip === "Open a recently used file"),
      JSON.stringify(toggles),
    );
    assert.ok(toggles.some(([, tip]) => tip === ""), JSON.stringify(toggles));

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\[\d+\|open-a-recently-used-file\] toggle "Open a recently used file"/);
    assert.doesNotMatch(read, /\|menu\.\d+\]/, read);

    await runCliOk(d, ["click", "--pid", pid, "--ref", "open-a-recently-used-file"]);
    await eventually("the recent-files menu open", async () => {
      const showing = await pyatspiJson<boolean>(
        d,
        `print(json.dumps(any(o.getRoleName() == "menu item" and o.name == "No items found"
                              and o.getState().contains(pyatspi.STATE_SHOWING) for o in walk(app))))`,
      );
      return showing ? true : undefined;
    });
  },
});
