/**
 * gnome-clocks (GTK 4.8, libadwaita), an app we did not build for. GTK 4.8
 * names a button after its mnemonic label and the label it is labelled by
 * together ("_Add World Clock Add World Clock"); the button reads "Add World
 * Clock", ref `add-world-clock`. Its dialog's header bar shows the dialog's
 * title as a label: the window keeps the bare ref, no twin index.
 * Witness: pyatspi reads the buttons' names and the app's windows.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** The app's windows' titles, as pyatspi reads them. */
function windows(d: Parameters<typeof pyatspiJson>[0]): Promise<string[]> {
  return pyatspiJson<string[]>(d, `print(json.dumps([w.name for w in app]))`);
}

Deno.test({
  name: "gnome-clocks: mnemonic-doubled names read once; a dialog is not its title's twin",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-clocks" });
    const pid = String(d.pid);
    const names = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "push button"]))`,
    );
    assert.ok(names.includes("_Add World Clock Add World Clock"), names.join("\n"));

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\[\d+\|add-world-clock\] btn "Add World Clock"/, read);
    assert.doesNotMatch(read, /_Add/);

    await runCliOk(d, ["click", "--pid", pid, "--ref", "add-world-clock"]);
    await eventually("the dialog open", async () => {
      return (await windows(d)).includes("Add a New World Clock") ? true : undefined;
    });
    const dialog = await eventually("the dialog read", async () => {
      const out = (await runCliOk(d, ["read", "--pid", pid])).stdout;
      return out.includes('window "Add a New World Clock"') ? out : undefined;
    });
    assert.match(dialog, /\[\d+\|add-a-new-world-clock\] window "Add a New World Clock"/, dialog);
    assert.match(dialog, /\[\d+\|cancel\] btn "Cancel"/, dialog);

    await runCliOk(d, ["click", "--pid", pid, "--ref", "cancel"]);
    await eventually("the dialog closed", async () => {
      return (await windows(d)).includes("Add a New World Clock") ? undefined : true;
    });
  },
});
