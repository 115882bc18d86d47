/**
 * A toolbox built like GIMP's (tests/fixtures/gtk3/toolbox.py): picture-only
 * toggle buttons with no name, each inside an event box carrying the tooltip.
 * The read names each button by that tooltip's title (`move-tool`), prints
 * no line for the wrapper, and a click by that ref presses the right button.
 * Witness: pyatspi reads the buttons' checked states.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name:
    "GTK toolbox: unnamed buttons take their wrapper's tooltip, and a click by ref hits the one named",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/gtk3/toolbox.py`,
    });
    const pid = String(d.pid);
    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    const lines = read.split("\n").filter((l) => l.includes("Tool:"));
    assert.equal(lines.length, 3, read);
    for (const l of lines) assert.match(l, /^\s+\[\d+\|[a-z-]+-tool\] toggle /, read);
    assert.doesNotMatch(read, /\] group desc=/, "the wrapper prints no line");

    // pyatspi: each toggle's checked state, keyed by its wrapper's tooltip.
    const checked = () =>
      pyatspiJson<Record<string, boolean>>(
        d,
        `print(json.dumps({o.parent.description.split(":")[0]: o.getState().contains(pyatspi.STATE_CHECKED)
                   for o in walk(app) if o.getRoleName() == "toggle button"}))`,
      );
    assert.deepEqual(await checked(), {
      "Move Tool": false,
      "Crop Tool": false,
      "Text Tool": false,
    });
    await runCliOk(d, ["click", "--pid", pid, "--ref", "crop-tool"]);
    await eventually("the crop tool is pressed", async () => {
      const now = await checked();
      return now["Crop Tool"] ? now : undefined;
    }).then((now) =>
      assert.deepEqual(now, { "Move Tool": false, "Crop Tool": true, "Text Tool": false })
    );
  },
});
