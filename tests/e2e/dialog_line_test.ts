/**
 * An action's one line says when a window or dialog opened or closed, even
 * without `--diff`: the next keys go there. mousepad's Save As dialog, by
 * keys; witness: the app's top-level windows as pyatspi lists them.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

Deno.test({
  name: "action line: a dialog that opened or closed is said without --diff (mousepad Save As)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "mousepad" });
    const windows = () => pyatspiJson<string[]>(d, "print(json.dumps([w.name for w in app]))");
    const opened = await runCliOk(d, ["key", "ctrl+s", "--app", d.appName]);
    assert.match(opened.stdout, /^ok key .*; opened dialog "Save As" \[[^\]]+\] \(--diff shows/);
    assert.equal(opened.stdout.trim().split("\n").length, 1, "one line: no changes listed");
    assert.ok((await windows()).includes("Save As"), "pyatspi sees the dialog");
    const closed = await runCliOk(d, ["key", "Escape", "--app", d.appName]);
    assert.match(closed.stdout, /; closed dialog "Save As"/);
    assert.ok(!(await windows()).includes("Save As"), "pyatspi sees it gone");
    // A key that opens nothing says nothing of windows.
    const typed = await runCliOk(d, ["key", "End", "--app", d.appName]);
    assert.doesNotMatch(typed.stdout, /opened|closed/);
  },
});
