/**
 * A scroll says where the view went: the first and last elements it shows
 * now, and showed before (its boxes are out of the changes). A view that
 * takes the wheel for itself (a viewer that zooms on it) scrolls nothing
 * with it: the scroll turns its scroll bar as far instead and says so. The
 * witness is pyatspi: the scroll bar's value and the rows on screen.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

/** pyatspi: the list's scroll bar value, and the first and last rows wholly inside the list. */
function shown(d: TestDesktop): Promise<{ bar: number; first: string; last: string }> {
  return pyatspiJson(
    d,
    `
box = lambda o: o.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
table = next(o for o in walk(app) if o.getRoleName() in ("table", "tree table"))
bar = next(o for o in walk(app) if o.getRoleName() == "scroll bar" and box(o).height > 1)
t = box(table)
rows = [c.name for c in walk(table) if (c.name or "").startswith("Photo ")
        and box(c).y >= t.y - 1 and box(c).y + box(c).height <= t.y + t.height + 1]
print(json.dumps({"bar": bar.queryValue().currentValue, "first": rows[0], "last": rows[-1]}))
`,
  );
}

Deno.test({
  name: "scroll: says what shows now; a view that takes the wheel is scrolled by its scroll bar",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/gtk3/wheel_taken.py`,
    });
    const run = async (args: string[]) => {
      const r = await runCli(d, [...args, "--pid", String(d.pid), "--timeout", "15000"]);
      assert.equal(r.code, 0, `desktop ${args.join(" ")}: ${r.stderr}\n${d.appLog()}`);
      return r.stdout;
    };
    await run(["read"]);
    const top = await shown(d);
    assert.equal(top.bar, 0);
    const out = await run(["scroll", "--ref", "table", "--direction", "down", "--amount", "3"]);
    const now = await shown(d);
    assert.ok(now.bar > 0, "pyatspi: the scroll bar moved");
    assert.match(
      out,
      new RegExp(`via accessible \\(scroll bar 0 -> ${now.bar}; the wheel moved nothing\\)`),
    );
    assert.ok(
      out.includes(
        `in view: "${now.first}" to "${now.last}" (was "${top.first}" to "${top.last}")`,
      ),
      `${out}\npyatspi: ${JSON.stringify(now)}`,
    );
    assert.doesNotMatch(out, /unverified/);
  },
});
