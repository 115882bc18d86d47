/**
 * GTK 3 combo boxes (gtk3-widget-factory's Left / Middle / Right combos; the
 * same widget as gedit's Save As line-ending combo): a combo is named after
 * its active item, so that name is its value, never its ref; set-value
 * chooses an item through the item's own action (pyatspi is the witness), and
 * the app still takes pointer clicks afterwards. Selecting through the closed
 * popup menu's Selection interface changed nothing and left the menu active:
 * later pointer clicks were ignored.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { allElements, eventually } from "../harness/tree.ts";
import { editableTexts, namesOfRole } from "../harness/pyatspi.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { slug } from "../../src/refs/generate.ts";

Deno.test({
  name: "act: a GTK 3 combo's choice is its value, set-value chooses an item, clicks still work",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const cli = async (args: string[]) => {
      const res = await runCli(d, [...args, "--app", d.appName, "--timeout", "15000"]);
      assert.equal(res.code, 0, `desktop ${args.join(" ")}: ${res.stderr}`);
      return res.stdout;
    };
    const read = async () => JSON.parse(await cli(["read", "--format", "json"])) as Snapshot;
    const choices = ["Left", "Middle", "Right"];
    const combo = await eventually("the Left/Middle/Right combos", async () => {
      const found = allElements((await read()).root).find((e) =>
        e.r === "combo" && e.e !== false && choices.includes(e.v ?? "")
      );
      return found;
    }, 20000);

    // Its name is its active item: a value, so it never enters its ref.
    assert.equal(combo.t, undefined, "the active item is not the combo's label");
    assert.ok(!combo.ref!.split("/").includes(slug(combo.v!)), `ref ${combo.ref}`);

    const want = choices.find((c) => c !== combo.v)!;
    const before = await namesOfRole(d, "combo box");
    assert.ok(before.includes(combo.v!), "pyatspi sees the same active item");
    const out = await cli(["set-value", "--ref", combo.ref!, "--value", want]);
    assert.match(out, /^ok set-value/);
    const after = await eventually("pyatspi to see the new item", async () => {
      const names = await namesOfRole(d, "combo box");
      return names.filter((n) => n === want).length > before.filter((n) => n === want).length
        ? names
        : undefined;
    }, 10000);
    assert.ok(after.includes(want));
    // The same ref, now with the new value.
    const again = allElements((await read()).root).find((e) => e.ref === combo.ref) as Element;
    assert.equal(again?.v, want);

    // A combo box with an entry takes free text into its entry (pyatspi reads it there).
    const withEntry = allElements((await read()).root).find((e) =>
      e.r === "combo" && e.e !== false && e.c?.some((k) => k.r === "input")
    )!;
    assert.ok(withEntry?.ref, "a combo box with an entry");
    const typed = await cli(["set-value", "--ref", withEntry.ref!, "--value", "free text 42"]);
    assert.match(typed, /^ok set-value/);
    await eventually("pyatspi to read the entry's text", async () => {
      const texts = await editableTexts(d);
      return texts.includes("free text 42") ? true : undefined;
    }, 10000);

    // The app still takes pointer clicks: a check button clicked by ref changes state.
    const box = allElements((await read()).root).find((e) =>
      e.r === "chk" && e.e !== false && e.chk !== "mixed" && e.ref && e.b
    )!;
    const clicked = await cli(["click", "--ref", box.ref!, "--diff"]);
    assert.ok(!/unverified/.test(clicked), clicked);
    const now = allElements((await read()).root).find((e) => e.ref === box.ref);
    assert.notEqual(now?.chk === true, box.chk === true, "the check button changed state");
  },
});
