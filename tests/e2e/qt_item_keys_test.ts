/**
 * Keys typed into a Qt list's item select rows and search: `type --replace`
 * aimed at a file in pcmanfm-qt sent select-all and Backspace to the view,
 * which went up a folder, and its letters searched there. Qt offers no sign
 * that an item's editor is open (the focus it reports stays on the item), so
 * text aimed at such an item is refused with nothing sent; the agent opens
 * the editor as the app does (F2) and types with no target. The file on disk
 * is the witness, and pyatspi the window's title (still the folder).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { cliError, runCli, runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "pcmanfm-qt: text aimed at a file's item is refused with no key sent; F2, then type " +
    "with no target and Return, renames it (the file on disk agrees)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const folder = await Deno.makeTempDir({ prefix: "desktop-qt-keys-" });
    try {
      for (const name of ["alpha.txt", "beta.txt"]) {
        await Deno.writeTextFile(`${folder}/${name}`, `${name}\n`);
      }
      await using d = await startDesktop({ app: "pcmanfm-qt", url: folder });
      const scope = ["--app", d.appName];
      const ref = await eventually("the beta.txt item", async () => {
        const out = (await runCliOk(d, ["read", ...scope])).stdout;
        return out.match(/\[\d+(?:\|([^\]]+))?\] listitem "beta\.txt"/)?.[1] ?? (
          out.includes('listitem "beta.txt"') ? "beta-txt" : undefined
        );
      });
      const title = () => pyatspiJson<string[]>(d, `print(json.dumps([w.name for w in app]))`);
      const before = await title();

      const aimed = await runCli(d, [
        "type",
        ...scope,
        "--ref",
        ref,
        "--text",
        "delta.txt",
        "--replace",
      ]);
      assert.equal(cliError(aimed).code, "ACTION_NOT_SUPPORTED", aimed.stderr);
      assert.deepEqual(await title(), before, "still the same folder");
      assert.deepEqual([...Deno.readDirSync(folder)].map((e) => e.name).sort(), [
        "alpha.txt",
        "beta.txt",
      ]);

      await runCliOk(d, ["click", ...scope, "--ref", ref]);
      await runCliOk(d, ["key", ...scope, "F2"]);
      await runCliOk(d, ["type", ...scope, "--text", "delta.txt", "--replace"]);
      await runCliOk(d, ["key", ...scope, "Return"]);
      const names = await eventually("the file renamed", () => {
        const now = [...Deno.readDirSync(folder)].map((e) => e.name).sort();
        return Promise.resolve(now.includes("delta.txt") ? now : undefined);
      });
      assert.deepEqual(names, ["alpha.txt", "delta.txt"]);
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});
