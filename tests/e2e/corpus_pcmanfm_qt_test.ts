/**
 * pcmanfm-qt (Qt 5), a file manager we did not build for. Its icon view is a
 * list that manages its descendants and has a Table interface of eight
 * columns (name, type, size, dates, owner...), all hidden but the name: each
 * item is the one showing cell of its table row. The item is its row: keyed
 * by the file's name (`beta`), never a made-up row around it keyed by
 * position (`row.2`). A double click by ref opens the folder.
 * Witness: pyatspi reads the table's shape, the items' names and the window's
 * title after the double click.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "pcmanfm-qt: icon view items are keyed by name, and a double click by ref opens a folder",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const folder = await Deno.makeTempDir({ prefix: "desktop-pcmanfm-" });
    try {
      for (const name of ["alpha", "beta", "gamma docs"]) await Deno.mkdir(`${folder}/${name}`);
      await Deno.writeTextFile(`${folder}/notes.txt`, "hello\n");
      await using d = await startDesktop({ app: "pcmanfm-qt", url: folder });
      const pid = String(d.pid);

      // The witness: a table of more columns than show, its first column's items named by file.
      const shape = await pyatspiJson<{ columns: number; names: string[] }>(
        d,
        `
view = next(o for o in walk(app) if o.getRoleName() == "list"
            and o.getState().contains(pyatspi.STATE_MANAGES_DESCENDANTS) and o.childCount > 8)
t = view.queryTable()
print(json.dumps({"columns": t.nColumns,
                  "names": [t.getAccessibleAt(r, 0).name for r in range(t.nRows)]}))
`,
      );
      assert.ok(shape.columns > 1, `a table of hidden columns: ${shape.columns}`);
      assert.deepEqual([...shape.names].sort(), ["alpha", "beta", "gamma docs", "notes.txt"]);

      const read = await eventually("the folder's items", async () => {
        const out = (await runCliOk(d, ["read", "--pid", pid])).stdout;
        return out.includes('"notes.txt"') ? out : undefined;
      });
      for (
        const [ref, name] of [["alpha", "alpha"], ["beta", "beta"], ["gamma-docs", "gamma docs"]]
      ) {
        assert.match(read, new RegExp(`\\[\\d+\\|(?:[^\\]]*/)?${ref}\\] row "${name}"`), read);
      }
      assert.doesNotMatch(read, /\|row\.\d+\]/, "no row keyed by position");
      assert.doesNotMatch(read, /\] row[^\n]*: \[\d+\|/, "no row made around an item");

      const beta = read.match(/\[\d+\|((?:[^\]]*\/)?beta)\] row "beta"/)![1];
      await runCliOk(d, ["click", "--pid", pid, "--ref", beta, "--double"]);
      const title = await eventually("the beta folder open", async () => {
        const titles = await pyatspiJson<string[]>(d, `print(json.dumps([w.name for w in app]))`);
        return titles.includes("beta") ? titles : undefined;
      });
      assert.ok(title.includes("beta"));
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});
