/**
 * gnome-font-viewer (GTK 4), an app we did not build for. Its fonts are a
 * grid view: each item shows the sample "Aa" above the font's name. Every
 * item shows "Aa", so the item is keyed by its name (`c059-bold`), never by
 * the sample with a position (`aa.3`); each such ref finds the item that
 * shows that name, where pyatspi places it. GTK 4's scroll bars hold a filler
 * whose value is the bar's position: no line says "0".
 * Witness: pyatspi reads the items' texts and boxes, and the fillers' values.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

interface Item {
  texts: string[];
  box: [number, number, number, number];
}

Deno.test({
  name: "gnome-font-viewer: grid items keyed by the text that tells them apart; no scroll noise",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-font-viewer" });
    const pid = String(d.pid);
    const witness = await eventually("the fonts shown", async () => {
      const w = await pyatspiJson<{ items: Item[]; fillers: number[] }>(
        d,
        `
grid = next(o for o in walk(app) if o.getRoleName() == "table")
items = []
for cell in grid:
    texts = [o.name for o in walk(cell) if o.getRoleName() == "label"]
    e = cell.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    items.append({"texts": texts, "box": [e.x, e.y, e.width, e.height]})
fillers = [k.queryValue().currentValue for o in walk(app) if o.getRoleName() == "scroll bar"
           for k in o if k.getRoleName() == "filler"]
print(json.dumps({"items": items, "fillers": fillers}))
`,
      );
      return w.items.length > 2 ? w : undefined;
    });
    assert.ok(witness.items.every((i) => i.texts[0] === "Aa"), JSON.stringify(witness.items));
    assert.ok(witness.fillers.includes(0), "a scroll bar's filler holds its position, 0");

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.doesNotMatch(read, /\|(?:[^\]]*\/)?aa(?:\.\d+)?\]/, read);
    assert.doesNotMatch(read, /^\s*"0" range=/m, read);
    // Each item's printed ref finds the item that shows its name, at pyatspi's box.
    const cells = [...read.matchAll(/\[\d+\|([^\]]+)\] cell\n\s+"Aa"\n\s+"([^"]+)"/g)];
    assert.ok(cells.length >= 3, read);
    for (const [, ref, name] of cells.slice(0, 4)) {
      const found = JSON.parse(
        (await runCliOk(d, ["find", "--pid", pid, "--ref", ref, "--format", "json"])).stdout,
      );
      const box = found[0].b;
      // GTK 4 places its boxes off by the window's shadow (see act_gtk4_offset_test.ts): the
      // item is the one nearest the box found, and it shows the name.
      const dist = (i: Item) => Math.abs(i.box[0] - box[0]) + Math.abs(i.box[1] - box[1]);
      const nearest = [...witness.items].sort((a, b) => dist(a) - dist(b))[0];
      assert.equal(nearest.texts[1], name, `${ref} -> ${JSON.stringify(box)}`);
      assert.ok(dist(nearest) < 40, `${ref} -> ${JSON.stringify(box)}`);
    }
  },
});
