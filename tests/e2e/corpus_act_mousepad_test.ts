/**
 * mousepad (GTK 3): type a document, save it through File > Save As, all by
 * refs, and check the file on disk. The menu item's action opens the dialog
 * with gtk_dialog_run; acting through it must not leave the app frozen.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCliOk, waitForElement } from "../harness/cli.ts";

/** The app's window titles as pyatspi (the independent witness) sees them. */
async function witnessTitles(d: TestDesktop): Promise<string[]> {
  const script = `
import pyatspi
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.name == ${JSON.stringify(d.appName)}:
        for w in app:
            print(w.name)
`;
  const out = await new Deno.Command("timeout", {
    args: ["30", "/usr/bin/python3", "-c", script],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim().split("\n");
}

Deno.test({
  name: "mousepad: type, File > Save As by refs, type a path into the dialog, save; the file " +
    "holds the text and the app still answers",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "mousepad" });
    const dir = await Deno.makeTempDir();
    const path = `${dir}/saved.txt`;
    try {
      const editor = await waitForElement(
        d,
        "the text view",
        (els) => els.find((e) => e.r === "input"),
      );
      // The action reports its effect: the text view's value, old and new.
      const typed = await runCliOk(d, [
        "type",
        "--app",
        d.appName,
        "--ref",
        editor.ref,
        "--text",
        "hello corpus",
        "--diff",
      ]);
      assert.ok(typed.stdout.includes(`|${editor.ref}] v: `), typed.stdout);
      assert.ok(typed.stdout.includes(`-> "hello corpus"`), typed.stdout);

      const saveAs = await waitForElement(
        d,
        "File > Save As",
        (els) => els.find((e) => e.r === "menuitem" && e.t === "Save As..."),
      );
      await runCliOk(d, ["click", "--app", d.appName, "--ref", saveAs.ref]);

      const name = await waitForElement(
        d,
        "the dialog's Name field",
        (els) => els.find((e) => e.r === "input" && e.t === "Name:"),
      );
      await runCliOk(d, ["set-value", "--app", d.appName, "--ref", name.ref, "--value", ""]);
      await runCliOk(d, ["type", "--app", d.appName, "--ref", name.ref, "--text", path]);
      const save = await waitForElement(
        d,
        "the enabled Save button",
        (els) => els.find((e) => e.r === "btn" && e.t === "Save" && e.e !== false),
      );
      await runCliOk(d, ["click", "--app", d.appName, "--ref", save.ref]);

      // The file on disk is the witness of the save.
      const until = Date.now() + 20_000;
      let text = "";
      while (Date.now() < until) {
        text = await Deno.readTextFile(path).catch(() => "");
        if (text.includes("hello corpus")) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.match(text, /hello corpus/);

      // And the app is alive: pyatspi sees the window titled after the file, and so do we.
      const win = await waitForElement(
        d,
        "the renamed window",
        (els) => els.find((e) => e.r === "window" && (e.t ?? "").includes("saved.txt")),
      );
      assert.ok(win);
      assert.ok((await witnessTitles(d)).some((t) => t.includes("saved.txt")));

      // The named action is the same press: Save As again through `action`, then a key
      // into the dialog (Escape closes it), and the app still answers.
      const again = await waitForElement(
        d,
        "File > Save As",
        (els) => els.find((e) => e.r === "menuitem" && e.t === "Save As..."),
      );
      await runCliOk(d, ["action", "--app", d.appName, "--ref", again.ref, "--name", "click"]);
      await waitForElement(
        d,
        "the dialog",
        (els) => els.find((e) => e.r === "input" && e.t === "Name:"),
      );
      await runCliOk(d, ["key", "--app", d.appName, "Escape"]);
      await waitForElement(
        d,
        "the dialog to close",
        (els) => els.some((e) => e.t === "Name:") ? undefined : els[0],
      );
      assert.ok((await witnessTitles(d)).some((t) => t.includes("saved.txt")));
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
