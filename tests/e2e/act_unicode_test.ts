/**
 * Text with characters off the keyboard map (Greek, accents, the euro sign,
 * CJK) typed by ref into a GTK 3 entry arrives as typed: pyatspi reads it
 * back. Each such character goes through one spare keycode that is remapped
 * per character; typed in one burst, every one of them arrived as the last
 * ("αβγδ" as "α本本本") while `type` printed ok.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { allElements, eventually } from "../harness/tree.ts";
import { editableTexts } from "../harness/pyatspi.ts";
import type { Snapshot } from "../../src/model/element.ts";

Deno.test({
  name: "type: characters off the keyboard map arrive as typed (pyatspi reads them back)",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const cli = async (args: string[]) => {
      const res = await runCli(d, [...args, "--app", d.appName, "--timeout", "20000"]);
      assert.equal(res.code, 0, `desktop ${args.join(" ")}: ${res.stderr}`);
      return res.stdout;
    };
    const entry = await eventually("an enabled entry", async () => {
      const snap = JSON.parse(await cli(["read", "--format", "json"])) as Snapshot;
      return allElements(snap.root).find((e) => e.r === "input" && e.e !== false && e.ref);
    }, 20000);
    await cli(["set-value", "--ref", entry.ref!, "--value", "x"]);
    const text = "αβγδ café 10€ ñandú 日本語";
    const out = await cli(["type", "--ref", entry.ref!, "--text", text]);
    assert.match(out, /^ok type/);
    assert.ok(!/unverified/.test(out), out);
    let texts: string[] = [];
    // Typed at the caret (set-value leaves it at the start in GTK 3): the text must be whole.
    const arrived = () => texts.some((t) => t.includes(text));
    for (let k = 0; k < 40 && !arrived(); k++) {
      if (k) await new Promise((r) => setTimeout(r, 250));
      texts = await editableTexts(d);
    }
    assert.ok(arrived(), `${entry.ref}: ${JSON.stringify(texts.slice(0, 3))}; ${out}`);
  },
});
