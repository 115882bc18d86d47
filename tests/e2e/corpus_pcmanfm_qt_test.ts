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
        assert.match(read, new RegExp(`\\[\\d+\\|(?:[^\\]]*/)?${ref}\\] listitem "${name}"`), read);
      }
      assert.doesNotMatch(read, /\|row\.\d+\]/, "no row keyed by position");
      assert.doesNotMatch(read, /\] row[^\n]*: \[\d+\|/, "no row made around an item");

      const beta = read.match(/\[\d+\|((?:[^\]]*\/)?beta)\] listitem "beta"/)![1];
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

Deno.test({
  name: "pcmanfm-qt: a folder tree's row clicked by ref opens that folder, never another",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Qt's accessible "Toggle" on a tree view's cell selects another row (a nested item's
    // index within its parent, counted from the top), and the tree's rows are wider than its
    // pane: a click at a row's centre lands beside the pane. The folder must be the one asked.
    // The folder in a home of its own: the tree shows the home first, expanded down to it.
    const home = await Deno.makeTempDir({ prefix: "desktop-pcmanfm-home-" });
    const folder = `${home}/fruit`;
    try {
      for (const name of ["apples", "bananas", "cherries"]) {
        await Deno.mkdir(`${folder}/${name}`, { recursive: true });
      }
      await using d = await startDesktop({
        app: "pcmanfm-qt",
        url: folder,
        extraEnv: { HOME: home },
      });
      const pid = String(d.pid);
      const title = async () =>
        (await pyatspiJson<string[]>(d, `print(json.dumps([w.name for w in app]))`))[0];
      const first = (await runCliOk(d, ["read", "--pid", pid])).stdout;
      const combo = first.match(/\[\d+\|([^\]]+)\] combo val="Lists"/);
      assert.ok(combo, first);
      await runCliOk(d, [
        "set-value",
        "--pid",
        pid,
        "--ref",
        combo[1],
        "--value",
        "Directory Tree",
      ]);
      for (const name of ["bananas", "cherries", "apples"]) {
        // The tree's row is a row of cells (`row collapsed: "apples"`); the icon view shows the
        // folder too, as an item (`row "apples"`): a click there only selects it.
        const line = new RegExp(`\\[\\d+\\|([^\\]]*${name})\\] row[^"\\n]*: "${name}"`);
        const read = await eventually(`the tree's ${name} row`, async () => {
          const out = (await runCliOk(d, ["read", "--pid", pid])).stdout;
          return line.test(out) ? out : undefined;
        });
        const ref = read.match(line)![1];
        await runCliOk(d, ["click", "--pid", pid, "--ref", ref]);
        const now = await eventually(`${name} open`, async () => {
          const t = await title();
          return t === name ? t : undefined;
        }).catch(async () => await title());
        assert.equal(now, name, `clicked ${ref}, the window shows ${now}`);
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
