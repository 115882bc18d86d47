/**
 * gnome-characters (GTK 4 and libadwaita, written in JavaScript with GJS), an
 * app we did not build for. GTK 4 names a widget the app left unnamed by its
 * type, and GJS names an app's own types `Gjs_<Class>`: every sidebar row
 * read "Gjs_SidebarRow", and the rows' refs were `gjs-sidebarrow.1` to
 * `gjs-sidebarrow.17`, by position. A binding's type name is no label: each
 * row is keyed by the category it shows. GTK 4's menu button, a button
 * holding the button that presses, reads as one line. Witness: pyatspi reads
 * the rows' names and which row is selected after a click by ref.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "gnome-characters (GJS): sidebar rows keyed by their category, not the class name",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-characters" });
    const pid = String(d.pid);
    const rows = () =>
      pyatspiJson<{ name: string; selected: boolean; text: string[] }[]>(
        d,
        `out = []
for o in walk(app):
    if o.getRoleName() in ("list item", "table row"):
        out.append({"name": o.name, "selected": o.getState().contains(pyatspi.STATE_SELECTED),
                    "text": [c.name for c in walk(o) if c.getRoleName() == "label"]})
print(json.dumps(out))`,
      );
    const before = await eventually("the sidebar", async () => {
      const r = await rows();
      return r.some((x) => x.text.includes("Punctuation")) ? r : undefined;
    });
    assert.ok(before.some((r) => r.name === "Gjs_SidebarRow"), JSON.stringify(before));

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.doesNotMatch(read, /gjs|Gjs_/i, read);
    assert.match(read, /\[\d+\|punctuation\] row[^\n]*"Punctuation"/, read);
    assert.match(read, /\[\d+\|arrows\] row/, read);
    // GTK 4's menu button is a button holding a button: one line, the one that presses.
    const lines = read.split("\n");
    const indent = (l: string) => l.length - l.trimStart().length;
    lines.forEach((l, k) => {
      const next = lines[k + 1] ?? "";
      const nested = / btn$/.test(l) && / btn$/.test(next) && indent(next) > indent(l);
      assert.ok(!nested, `a wrapper button has a line of its own:\n${l}\n${next}`);
    });

    await runCliOk(d, ["click", "--pid", pid, "--ref", "punctuation"]);
    await eventually("Punctuation selected", async () => {
      const r = await rows();
      return r.find((x) => x.text.includes("Punctuation"))?.selected || undefined;
    });
  },
});
