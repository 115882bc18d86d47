/**
 * KeePassXC (Qt 5): its new-database wizard opens from a button (a Qt modal
 * dialog) and holds combo boxes whose closed popup list Qt 5 keeps SHOWING
 * with no area. The popup's items are the combo's choices, not content: the
 * combo reads as one line with its value, and set-value picks another item.
 * Witness: pyatspi (the combo's name is its current item).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCli, runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** The names of the app's showing combo boxes, as pyatspi reads them. */
function comboNames(d: TestDesktop): Promise<string[]> {
  return pyatspiJson<string[]>(
    d,
    `
print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "combo box"
                  and o.getState().contains(pyatspi.STATE_SHOWING)]))
`,
  );
}

Deno.test({
  name: "qt5 (keepassxc): a closed combo's popup is its choices; set-value picks one",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "keepassxc" });
    const app = ["--app", d.appName];
    await eventually("the welcome page", async () => {
      const res = await runCli(d, ["find", ...app, "--ref", "create-new-database"]);
      return res.code === 0 ? true : undefined;
    }, 60_000);
    await runCliOk(d, ["click", ...app, "--ref", "create-new-database"]);
    await eventually("the wizard", async () => {
      const res = await runCli(d, ["find", ...app, "--ref", "continue"]);
      return res.code === 0 ? true : undefined;
    }, 30_000);
    await runCliOk(d, ["click", ...app, "--ref", "continue"]);
    const combo = await eventually("the database format combo", async () => {
      const res = await runCli(d, [
        "find",
        ...app,
        "--text",
        "Database format",
        "--format",
        "json",
      ]);
      if (res.code !== 0) return undefined;
      return (JSON.parse(res.stdout) as Array<{ ref: string; r: string; v?: string }>)
        .find((e) => e.r === "combo");
    }, 30_000);
    assert.ok((await comboNames(d)).includes(combo.v!), `pyatspi names the combo ${combo.v}`);

    // One line: the popup's items are not printed as its children.
    const scoped = (await runCliOk(d, ["read", ...app, "--scope-ref", combo.ref])).stdout;
    assert.equal(scoped.trim().split("\n").length, 1, scoped);
    assert.ok(!/\brow\b/.test(scoped), scoped);

    const other = combo.v === "KDBX 3" ? "KDBX 4 (recommended)" : "KDBX 3";
    const out =
      (await runCliOk(d, ["set-value", ...app, "--ref", combo.ref, "--value", other, "--diff"]))
        .stdout;
    assert.ok(out.includes(`-> ${JSON.stringify(other)}`), out);
    assert.ok((await comboNames(d)).includes(other), "pyatspi sees the new choice");
    const bad = await runCli(d, ["set-value", ...app, "--ref", combo.ref, "--value", "KDBX 9"]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /ELEMENT_NOT_FOUND/);
    assert.match(bad.stderr, /KDBX 3/);
  },
});
