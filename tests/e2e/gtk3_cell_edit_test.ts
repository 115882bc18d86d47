/**
 * A GTK 3 tree view's cells take text only through their editor, which opens
 * when a selected cell is clicked once more and which is in no accessibility
 * tree (its focus events alone name it). Keys typed into the view itself
 * select rows and search: `type` used to send them there (GTK's search popup
 * took the text and the cell kept its own). Now `type` and `set-value` edit
 * the cell as a user does and commit it; a cell that opens no editor gets no
 * keys. GTK's own demo (gtk3-demo's Editable Cells), pyatspi the witness.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cliError, runCli, runCliOk, waitForElement } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

/** Every table cell's name, and the text of every text object of the app's other windows. */
function witness(d: TestDesktop): Promise<{ cells: string[]; texts: string[] }> {
  return pyatspiJson(
    d,
    `
cells, texts = [], []
for o in walk(app):
    if o.getRoleName() == "table cell":
        cells.append(o.name)
    elif o.getRoleName() == "text":
        texts.append(o.queryText().getText(0, -1))
print(json.dumps({"cells": cells, "texts": texts}))
`,
  );
}

Deno.test({
  name: "gtk3-demo editable cells: type and set-value edit a cell in its editor and commit it; " +
    "a cell that opens no editor gets no keys (pyatspi agrees)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-demo", url: "editable_cells" });
    const noodles = await waitForElement(
      d,
      "the noodles cell",
      (els) => els.find((e) => e.r === "cell" && e.t === "packages of noodles"),
    );
    const scope = ["--app", d.appName];
    // The demo's window is too small to show every row and the Yummy column.
    await runCliOk(d, ["window", ...scope, "--window", "Editable Cells", "--resize", "700,400"]);
    const replaced = await runCliOk(d, [
      "type",
      ...scope,
      "--ref",
      noodles.ref,
      "--text",
      "Kiwis",
      "--replace",
      "--diff",
    ]);
    assert.match(replaced.stdout, /^ok type .*cell "Kiwis" via input \(keyboard, in the editor/);
    assert.doesNotMatch(replaced.stdout, /unverified/);
    assert.match(replaced.stdout, /t: "packages of noodles" -> "Kiwis"/);
    let seen = await witness(d);
    assert.ok(seen.cells.includes("Kiwis"), JSON.stringify(seen.cells));
    assert.ok(!seen.cells.includes("packages of noodles"));

    const eggs = await waitForElement(
      d,
      "the eggs cell",
      (els) => els.find((e) => e.r === "cell" && e.t === "eggs"),
    );
    const set = await runCliOk(d, ["set-value", ...scope, "--ref", eggs.ref, "--value", "Lemons"]);
    assert.match(set.stdout, /^ok set-value .*cell "Lemons"/);
    const appended = await runCliOk(d, ["type", ...scope, "--ref", eggs.ref, "--text", " (ripe)"]);
    assert.match(appended.stdout, /cell "Lemons \(ripe\)"/);
    assert.doesNotMatch(appended.stdout, /unverified/);
    seen = await witness(d);
    assert.ok(seen.cells.includes("Lemons (ripe)"), JSON.stringify(seen.cells));

    // The Yummy column draws a progress bar: no editor opens, and no key goes to the view.
    const yummy = await waitForElement(
      d,
      "a Yummy cell",
      (els) => els.find((e) => e.r === "cell" && e.ref.endsWith("/yummy")),
    );
    const refused = await runCli(d, ["type", ...scope, "--ref", yummy.ref, "--text", "abc"]);
    assert.equal(cliError(refused).code, "ACTION_NOT_SUPPORTED", refused.stderr);
    assert.match(String(cliError(refused).message), /nothing was typed/);
    seen = await witness(d);
    assert.ok(!seen.texts.some((t) => t.includes("abc")), JSON.stringify(seen.texts));
    assert.ok(seen.cells.includes("Kiwis") && seen.cells.includes("Lemons (ripe)"));
  },
});
