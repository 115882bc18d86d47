/**
 * KWrite (KDE Frameworks 5, Qt 5), an editor we did not build for: a new
 * file, text typed by ref, File > Save As by ref through KDE's own file
 * dialog, the name set by ref and Save clicked by ref; the file on disk is
 * the witness. On the way:
 * - Qt marks the status bar's buttons focused with the editor (their focus
 *   proxy): the editor alone reads focused;
 * - the editor is named after its document ("Untitled", then the file's
 *   name), as its window is: it is `input`, the same ref before and after
 *   the save, and the window keeps the bare ref.
 * Witness: pyatspi (the focused buttons, the editor's name) and the file.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually, savedFile } from "../harness/tree.ts";

Deno.test({
  name: "kwrite: type, Save As by ref through KDE's file dialog, the file on disk",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "desktop-kwrite-" });
    try {
      await using d = await startDesktop({ app: "kwrite", registerTimeoutMs: 60000 });
      const pid = String(d.pid);
      const read = async () => (await runCliOk(d, ["read", "--pid", pid])).stdout;
      const welcome = await read();
      const newFile = welcome.match(/\[\d+\|([^\]]+)\] btn "New File"/);
      if (newFile) await runCliOk(d, ["click", "--pid", pid, "--ref", newFile[1]]);
      const editing = await eventually("the editor", async () => {
        const text = await read();
        return /\] input "Untitled"/.test(text) ? text : undefined;
      }, 10000);
      assert.match(editing, /\[\d+\|input\] input "Untitled" focused/, editing);

      const focused = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.getRoleName() for o in walk(app)
                           if o.getState().contains(pyatspi.STATE_FOCUSED)]))`,
      );
      assert.ok(focused.filter((r) => r === "push button").length > 1, focused.join());
      assert.equal(editing.match(/ focused\b/g)?.length, 1, editing);

      await runCliOk(d, ["type", "--pid", pid, "--ref", "input", "--text", "Low Tide at SIX"]);
      const saveAs = editing.match(/\[\d+\|([^\]]+)\] btn "Save As"/)![1];
      await runCliOk(d, ["click", "--pid", pid, "--ref", saveAs]);
      const dialog = await eventually("the Save File dialog", async () => {
        const text = await read();
        return /\] input "File name:"/.test(text) ? text : undefined;
      }, 10000);
      const name = dialog.match(/\[\d+\|([^\]]+)\] input "File name:"/)![1];
      const file = `${out}/tide.txt`;
      await runCliOk(d, ["set-value", "--pid", pid, "--ref", name, "--value", file]);
      // The dialog's own Save (the main window's toolbar has one too).
      const box = dialog.match(/\[\d+\|([^\]]+)\] dialog "Save File"/)![1];
      const inDialog = (await runCliOk(d, ["read", "--pid", pid, "--scope-ref", box])).stdout;
      const save = inDialog.match(/\[\d+\|([^\]]*save)\] btn "Save"/)![1];
      await runCliOk(d, ["click", "--pid", pid, "--ref", save]);
      const saved = await savedFile(file);
      assert.equal(saved.trimEnd(), "Low Tide at SIX");

      // The editor's name followed the document; its ref did not.
      const names = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "text"
                           and o.getState().contains(pyatspi.STATE_EDITABLE)]))`,
      );
      assert.ok(names.includes("tide.txt"), names.join());
      const after = await read();
      assert.match(after, /\[\d+\|tide-txt\] window "tide\.txt"/, after);
      assert.match(after, /\[\d+\|input\] input "tide\.txt"/, after);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
