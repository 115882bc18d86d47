/**
 * AbiWord (GTK 3), a word processor we did not build for. Its toolbar combos
 * (Style, Font, Font Size, Zoom) have no name: the tooltip sits on a box two
 * levels up (a tool item, then a box). The combo takes the tooltip, and the
 * boxes print no line: `[n|style] combo val="Normal" desc="Style"`, and
 * set-value by that ref picks a style.
 * Witness: pyatspi reads the unnamed combo, the tooltip on its box's box, and
 * the combo's new choice.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** The Style combo as pyatspi reads it: its name, its grandparent's description, its choice. */
function styleCombo(d: Parameters<typeof pyatspiJson>[0]) {
  return pyatspiJson<{ name: string; tooltip: string; choice: string }>(
    d,
    `
combo = next(o for o in walk(app) if o.getRoleName() == "combo box"
              and o.parent.parent.description == "Style")
chosen = [k.name for m in combo for k in m if k.getState().contains(pyatspi.STATE_SELECTED)]
print(json.dumps({"name": combo.name, "tooltip": combo.parent.parent.description,
                  "choice": chosen[0] if chosen else combo.name}))
`,
  );
}

Deno.test({
  name: "abiword: toolbar combos take the tooltip of the boxes around them; set-value by ref",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "abiword" });
    const pid = String(d.pid);
    const before = await styleCombo(d);
    assert.equal(before.tooltip, "Style");
    assert.equal(before.name, "Normal", "named by its choice, no label of its own");
    assert.notEqual(before.choice, "Heading 1");

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\[\d+\|style\] combo val="Normal" desc="Style"/, read);
    assert.match(read, /\[\d+\|font-size\] combo val="12" desc="Font Size"/, read);
    assert.doesNotMatch(read, /\] group desc="(Style|Font|Font Size|Zoom)"/, "no wrapper line");

    await runCliOk(d, ["set-value", "--pid", pid, "--ref", "style", "--value", "Heading 1"]);
    const after = await eventually("the style chosen", async () => {
      const c = await styleCombo(d);
      return c.choice === "Heading 1" ? c : undefined;
    });
    assert.equal(after.choice, "Heading 1");
  },
});
