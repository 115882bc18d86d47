/**
 * meld (GTK 3, Python), an app we did not build for: a blank comparison
 * opened and both panes filled by refs only. Each pane sits under a status
 * bar that is empty until there is news; an empty, unlabeled status bar
 * prints no line. Witness: pyatspi reads the panes' texts.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { editableTexts } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "meld: a blank comparison filled by refs; empty status bars print no line",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "meld" });
    const pid = String(d.pid);
    const read = () => runCliOk(d, ["read", "--pid", pid]).then((r) => r.stdout);
    await runCliOk(d, ["click", "--pid", pid, "--ref", "file"]);
    await runCliOk(d, ["click", "--pid", pid, "--ref", "blank-comparison"]);
    const panes = await eventually("the comparison open", async () => {
      const out = await read();
      return out.includes("input.2") ? out : undefined;
    });
    assert.doesNotMatch(panes, /\] statusbar\n/, panes);
    assert.match(panes, /\[\d+\|[\w/-]*file-1\] toggle "File 1"/, panes);

    await runCliOk(d, ["type", "--pid", pid, "--ref", "input.1", "alpha line"]);
    await runCliOk(d, ["type", "--pid", pid, "--ref", "input.2", "beta line"]);
    const texts = await eventually("both panes typed", async () => {
      const t = await editableTexts(d);
      return t.includes("alpha line") && t.includes("beta line") ? t : undefined;
    });
    // Each text went to its own pane, in the order the read showed them.
    assert.ok(texts.indexOf("alpha line") < texts.indexOf("beta line"), texts.join(" | "));
    const after = await read();
    assert.match(after, /input\.1\] input val="alpha line"/, after);
    assert.match(after, /input\.2\] input val="beta line"/, after);
  },
});
