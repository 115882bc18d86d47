/**
 * gnome-text-editor (GTK 4.8), an editor we did not build for: text typed by
 * ref, then File > Save As through its own shortcut, the name set by ref and
 * Save clicked by ref; the file on disk is the witness. On the way:
 * - GTK 4.8 reports the Save As dialog as a filler, a window of its own: it
 *   reads as a `dialog`, not a group;
 * - the text view lists every widget command installed on it as an action
 *   ("clipboard.paste", "page.zoom-in"...): none is printed;
 * - the places sidebar's rows have a tooltip and no name: each is keyed by
 *   the text it shows (`home`), not by its tooltip.
 * Witness: pyatspi (the dialog's role, the text view's actions, the rows'
 * tooltips) and the saved file.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually, savedFile } from "../harness/tree.ts";

Deno.test({
  name: "gnome-text-editor: type, Save As by ref, the file on disk",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "desktop-gte-" });
    try {
      await using d = await startDesktop({ app: "gnome-text-editor" });
      const pid = String(d.pid);
      const actions = await pyatspiJson<string[]>(
        d,
        `
view = next(o for o in walk(app) if o.getRoleName() == "text")
a = view.queryAction()
print(json.dumps([a.getName(i) for i in range(a.nActions)]))
`,
      );
      assert.ok(actions.includes("clipboard.paste"), actions.join());

      const first = (await runCliOk(d, ["read", "--pid", pid])).stdout;
      assert.doesNotMatch(first, /actions=|clipboard\.paste/, first);
      const input = first.match(/\[\d+\|([^\]]*input)\] input/);
      assert.ok(input, first);
      await runCliOk(d, ["type", "--pid", pid, "--ref", input[1], "--text", "Tide tables"]);
      await runCliOk(d, ["key", "--pid", pid, "ctrl+shift+s"]);

      const dialog = await eventually("the Save As dialog", async () => {
        const text = (await runCliOk(d, ["read", "--pid", pid])).stdout;
        return /\] dialog "Save As"/.test(text) ? text : undefined;
      }, 10000);
      const witness = await pyatspiJson<{ role: string; tips: string[] }>(
        d,
        `
dlg = [w for w in app][-1]
tips = [o.description for o in walk(dlg) if o.getRoleName() == "list item" and o.description]
print(json.dumps({"role": dlg.getRoleName(), "tips": tips}))
`,
      );
      assert.equal(witness.role, "filler");
      assert.ok(witness.tips.includes("Open your personal folder"), witness.tips.join());
      assert.match(
        dialog,
        /\[\d+\|home\] listitem desc="Open your personal folder": "Home"/,
        dialog,
      );

      const name = dialog.match(/\[\d+\|([^\]]+)\] input "Name:"/)![1];
      const file = `${out}/tides.txt`;
      await runCliOk(d, ["set-value", "--pid", pid, "--ref", name, "--value", file]);
      await runCliOk(d, ["click", "--pid", pid, "--ref", "save-as/save"]);
      const saved = await savedFile(file);
      assert.match(saved, /^Tide tables/);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
