/**
 * eog (GTK 3), an image viewer we did not build for, with a PNG open:
 *
 * - its side pane lists the image's properties in a GtkGrid, whose children
 *   GTK gives most recently attached first: keys apart from their values, in
 *   no order a person sees. The read lists them as laid out, row by row:
 *   "Size", then its value;
 * - its zoom entry's icon is named after the icon theme ("go-down-symbolic"):
 *   not a label, no line;
 * - its split pane's value is where the divider sits: no value;
 * - the folder is a link inside a label with no name of its own: it is named
 *   by the part of the label's text it covers (Hyperlink's start and end).
 *
 * Witness: pyatspi reads the grid's child order and boxes, the icon's name
 * and the pane's value.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";
import { encodePng } from "../../src/output/png.ts";

interface Witness {
  /** The properties grid's labels, in the toolkit's child order: [name, x, y]. */
  grid: [string, number, number][];
  /** Names of icons named after the icon theme. */
  icons: string[];
  /** The split panes' values. */
  panes: number[];
  /** Each link: its name and the part of its parent's text it covers. */
  links: [string, string][];
}

Deno.test({
  name:
    "eog: a GTK grid reads row by row (a key, then its value); icon names and pane values say nothing",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "desktop-eog-" });
    const file = `${dir}/square.png`;
    const data = new Uint8Array(48 * 48 * 4).fill(200);
    await Deno.writeFile(file, await encodePng({ width: 48, height: 48, data }));
    await using d = await startDesktop({ app: "eog", url: file });

    const witness = await eventually("the properties pane", async () => {
      const w = await pyatspiJson<Witness>(
        d,
        `
grid, icons, panes, links = [], [], [], []
for o in walk(app):
    role = o.getRoleName()
    if role == "panel" and any(k.name == "Size" for k in o):
        for k in o:
            e = k.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            grid.append([k.name, e.x, e.y])
    elif role == "icon" and o.name.endswith("-symbolic"):
        icons.append(o.name)
    elif role == "split pane":
        panes.append(o.queryValue().currentValue)
    elif role == "link":
        h = o.queryHyperlink()
        links.append([o.name, o.parent.name[h.startIndex:h.endIndex]])
print(json.dumps({"grid": grid, "icons": icons, "panes": panes, "links": links}))
`,
      );
      return w.grid.some(([n]) => n === "PNG image") ? w : undefined;
    }, 30_000);
    // The toolkit's order: "Size" comes after its value; on screen it is on its left.
    const at = (name: string) => witness.grid.findIndex(([n]) => n === name);
    const size = witness.grid[at("Size")];
    const value = witness.grid.find(([, x, y]) => y === size[2] && x > size[1]);
    assert.ok(value, JSON.stringify(witness.grid));
    assert.ok(at("Size") > witness.grid.indexOf(value), "GTK lists the value first");
    assert.ok(witness.icons.length > 0, "an icon is named after the theme");
    assert.ok(witness.panes.some((v) => v > 0), "a pane has a divider position");

    const read = (await runCliOk(d, ["read", "--pid", String(d.pid)])).stdout;
    const lines = read.split("\n").map((l) => l.trim());
    const sizeLine = lines.indexOf('"Size"');
    assert.ok(sizeLine >= 0, read);
    assert.equal(lines[sizeLine + 1], `"${value[0]}"`, read);
    assert.equal(lines[sizeLine + 2], '"Type"', read);
    assert.equal(lines[sizeLine + 3], '"PNG image"', read);
    for (const icon of witness.icons) assert.ok(!read.includes(icon), read);
    // The folder's link: unnamed for pyatspi, named by the text it covers in the read.
    const folder = dir.split("/").pop()!;
    assert.deepEqual(witness.links, [["", folder]]);
    assert.ok(
      lines.some((l) => l.endsWith(`lnk "${folder}"`) || l.includes(`lnk "${folder}" `)),
      read,
    );
    const saying = lines.filter((l) => l.includes(`"${folder}"`));
    assert.equal(saying.length, 1, `the label is the link, no line of its own:\n${read}`);
    // The pane carries nothing else: with no value, it prints no line of its own.
    for (const v of witness.panes) assert.ok(!read.includes(`"${v}"`), read);
    assert.ok(!lines.some((l) => /\] group$/.test(l)), read);
  },
});
