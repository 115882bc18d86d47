/**
 * qpdfview (Qt 5), a PDF viewer we did not build for: a three-page PDF paged
 * through by refs only. On the way:
 * - its tool bars are titled with Qt's mnemonic marker ("&File", "&Edit"):
 *   they read "File" and "Edit";
 * - the page spin box (its number 1, shown as "1 / 3": its value text)
 *   holds its own line editor saying the same "1 / 3": the spin box's line
 *   says it once.
 * Witness: pyatspi reads the tool bars' names and the spin box's value.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { tinyPdf } from "../harness/pdf.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "qpdfview (Qt 5): tool bars without their mnemonic, pages turned by ref",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "desktop-qpdfview-" });
    try {
      const file = `${dir}/three.pdf`;
      await Deno.writeFile(file, tinyPdf([["Page one"], ["Page two"], ["Page three"]]));
      await using d = await startDesktop({ app: "qpdfview", url: file });
      const pid = String(d.pid);
      const toolbars = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "tool bar"]))`,
      );
      assert.ok(toolbars.includes("&Edit"), toolbars.join(", "));
      const page = () =>
        pyatspiJson<number>(
          d,
          `print(json.dumps([o.queryValue().currentValue for o in walk(app)
  if o.getRoleName() == "spin button"][0]))`,
        );

      const read = await eventually("the document open", async () => {
        const out = (await runCliOk(d, ["read", "--pid", pid])).stdout;
        return out.includes('valtext="1 / 3"') ? out : undefined;
      });
      assert.match(read, /\[\d+\|edit\] toolbar "Edit"\n/, read);
      assert.doesNotMatch(read, /"&/, read);
      assert.equal(read.split('"1 / 3"').length - 1, 1, read);

      await runCliOk(d, ["click", "--pid", pid, "--ref", "next-page"]);
      await eventually("page 2", async () => (await page()) === 2 || undefined);
      await runCliOk(d, ["click", "--pid", pid, "--ref", "next-page"]);
      await eventually("page 3", async () => (await page()) === 3 || undefined);
      const last = (await runCliOk(d, ["read", "--pid", pid, "--scope-ref", "edit"])).stdout;
      assert.match(last, /spin val="3" valtext="3 \/ 3"/, last);
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
