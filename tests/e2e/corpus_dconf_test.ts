/**
 * dconf-editor (GTK 3), a settings browser we did not build for: its first-run
 * warning is dismissed by ref, and opening a folder by ref replaces the list's
 * rows. The action's diff prints each new row as a read does, its label on the
 * row's line (`option: "desrt"`: a list box's rows are its options), not a row line and a text line apiece. Its
 * window, titled as the app is named, is `window`, not the app's twin.
 * Witness: pyatspi reads the list items' labels after the click.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "dconf-editor: a folder opened by ref; the diff prints each new row on one line",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "dconf-editor" });
    const pid = String(d.pid);
    const first = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    const careful = first.match(/\[\d+\|([^\]]+)\] btn "I’ll be careful\."/);
    if (careful) await runCliOk(d, ["click", "--pid", pid, "--ref", careful[1]]);

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    // Its window is titled as the app is named: no twin of the app, named by its role.
    const titles = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([app.name] + [w.name for w in app if w.getRoleName() == "frame"]))`,
    );
    assert.deepEqual(titles, ["dconf-editor", "dconf Editor"]);
    assert.match(
      read,
      /^\[\d+\|dconf-editor\] app "dconf-editor"\n {2}\[\d+\|window\] window "dconf Editor"/,
    );
    const ca = read.match(/\[\d+\|([^\]]+)\] option[^\n]*: "ca"$/m);
    assert.ok(ca, read);
    const res = await runCliOk(d, ["click", "--pid", pid, "--ref", ca[1], "--diff"]);

    const labels = await eventually("the ca folder's rows", async () => {
      const names = await pyatspiJson<string[]>(
        d,
        `
names = []
for item in walk(app):
    if item.getRoleName() == "list item":
        names += [o.name for o in walk(item) if o.getRoleName() == "label"]
print(json.dumps(names))
`,
      );
      return names.includes("desrt") ? names : undefined;
    });
    assert.ok(labels.includes("desrt"));
    assert.match(res.stdout, /^\+ \[-\|[^\]]*desrt\] option[^\n]*: "desrt"$/m, res.stdout);
    assert.doesNotMatch(res.stdout, /^\+ +\[[^\]]*\] "desrt"$/m, "no text line of its own");
  },
});
