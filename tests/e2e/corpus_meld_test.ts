/**
 * meld (GTK 3, Python), an app we did not build for: a blank comparison
 * opened and both panes filled by refs only. Each pane sits under a status
 * bar that is empty until there is news; an empty, unlabeled status bar
 * prints no line. GTK 3 lists the panes right one first: the read gives them
 * as laid out, left to right (a one-pixel label in a corner of the grid kept
 * it in the toolkit's order). A pane's Open button runs a modal file chooser:
 * it is clicked with the pointer, even where the hit test stops at the
 * notebook above it, so the app still answers while the dialog is filled.
 * While the modal dialog is up, keys aimed at a pane are refused: they would
 * reach the dialog.
 * Witness: pyatspi reads the panes' texts and places.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCli, runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** The comparison's panes (editable text views), left to right, with their texts (pyatspi). */
function paneTexts(d: TestDesktop): Promise<{ x: number; text: string }[]> {
  return pyatspiJson<{ x: number; text: string }[]>(
    d,
    `out = []
for o in walk(app):
    if o.getRoleName() == "text" and o.getState().contains(pyatspi.STATE_EDITABLE) \\
            and o.getState().contains(pyatspi.STATE_SHOWING):
        t = o.queryText()
        out.append({"x": o.queryComponent().getExtents(0).x, "text": t.getText(0, t.characterCount)})
print(json.dumps(sorted(out, key=lambda p: p["x"])))`,
  );
}

Deno.test({
  name: "meld: a blank comparison filled by refs; empty status bars print no line",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "desktop-meld-" });
    const file = `${dir}/from-disk.txt`;
    await Deno.writeTextFile(file, "from disk\n");
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
    // The panes read left to right (GTK 3 lists the grid's children right pane first).
    const panes2 = await eventually("both panes typed", async () => {
      const p = await paneTexts(d);
      return p.some((x) => x.text === "alpha line") && p.some((x) => x.text === "beta line")
        ? p
        : undefined;
    });
    assert.deepEqual(panes2.map((p) => p.text), ["alpha line", "beta line"]);
    const after = await read();
    assert.match(after, /input\.1\] input val="alpha line"/, after);
    assert.match(after, /input\.2\] input val="beta line"/, after);

    // The left pane's Open button runs a modal file chooser (dialog.run): clicked with the
    // pointer, the app keeps answering while the dialog is filled and confirmed by ref.
    const opened = await runCliOk(d, ["click", "--pid", pid, "--ref", "open.1"]);
    assert.match(opened.stdout, /via input/, opened.stdout);
    const dialog = await eventually("the file chooser", async () => {
      const out = await runCli(d, ["read", "--pid", pid, "--window", "Select File"]);
      return out.code === 0 ? out.stdout : undefined;
    });
    assert.match(dialog, /^\[\d+\|[\w-]+\] dialog "Select File"/, dialog);
    // The dialog is modal: keys aimed at a pane would reach the dialog (its type-ahead search),
    // whatever focus the pane still claims. None is sent.
    const stray = await runCli(d, ["type", "--pid", pid, "--ref", "input.2", "stray keys"]);
    assert.equal(stray.code, 1, stray.stdout);
    assert.match(
      stray.stderr,
      /"code":"ACTION_FAILED".*modal dialog \\"Select File\\"/,
      stray.stderr,
    );
    const texts = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([o.queryText().getText(0, -1) for o in walk(app)
  if o.getState().contains(pyatspi.STATE_EDITABLE)]))`,
    );
    assert.ok(!texts.some((t) => t.includes("stray")), texts.join(" | "));
    await runCliOk(d, ["key", "--pid", pid, "--window", "Select File", "ctrl+l"]);
    const location = await eventually("the location field", async () => {
      const out = await runCliOk(d, ["read", "--pid", pid, "--window", "Select File"]);
      return out.stdout.match(/\[\d+\|([^\]]+)\] input[^\n]* ph="Location"/)?.[1];
    });
    await runCliOk(d, ["type", "--pid", pid, "--window", "Select File", "--ref", location, file]);
    await runCliOk(d, ["click", "--pid", pid, "--window", "Select File", "--ref", "open"]);
    // The pane held typed text: meld asks first, in a second modal dialog.
    const question = await eventually("the discard question", async () => {
      const out = (await runCliOk(d, ["read", "--pid", pid])).stdout;
      return out.includes("Discard unsaved changes") ? out : undefined;
    });
    assert.match(question, /\[\d+\|discard\] btn "Discard"/, question);
    await runCliOk(d, ["click", "--pid", pid, "--ref", "discard"]);
    await eventually("the file in the left pane", async () => {
      const p = await paneTexts(d);
      return p[0]?.text.startsWith("from disk") ? true : undefined;
    });
  },
});
