/**
 * Geany (GTK 3), an editor we did not build for, on a C file:
 *
 * - its symbol tree is a GTK 3 tree view whose rows the reader groups from
 *   cells; GTK marks every cell of a tree node (and the icon and text packed in
 *   one) expandable and expanded, so the row says `expanded` once and folds
 *   onto one line, and collapsing it by ref through its action hides its
 *   children;
 * - its toolbar wraps each button in a tool item that is disabled with it:
 *   the wrapper says nothing the button's line does not, and prints no line.
 *
 * Witness: pyatspi reads the cells' EXPANDED state and the tool items'
 * sensitivity.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const SOURCE = `#include <stdio.h>

int add(int a, int b) { return a + b; }

int main(void) { printf("%d\\n", add(2, 3)); return 0; }
`;

Deno.test({
  name: "Geany: a tree node is one row line that says expanded; a disabled tool item prints none",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "desktop-geany-" });
    const file = `${dir}/sum.c`;
    await Deno.writeTextFile(file, SOURCE);
    await using d = await startDesktop({ app: "geany", url: file });
    const pid = String(d.pid);

    // pyatspi: the symbol tree's "Functions" cell (and its packed icon and text) is expanded.
    const functionsExpanded = () =>
      pyatspiJson<boolean | null>(
        d,
        `
found = None
for o in walk(app):
    if o.getRoleName() == "table cell" and o.name == "Functions":
        found = o.getState().contains(pyatspi.STATE_EXPANDED)
print(json.dumps(found))
`,
      );
    assert.equal(
      await eventually("the symbol tree", async () => (await functionsExpanded()) ?? undefined),
      true,
    );
    // pyatspi: the Back button and the tool item around it are both insensitive.
    const back = await pyatspiJson<{ button: boolean; wrapper: boolean; wrapperKids: number }>(
      d,
      `
for o in walk(app):
    if o.getRoleName() == "push button" and o.name == "Back":
        p = o.parent
        print(json.dumps({"button": o.getState().contains(pyatspi.STATE_SENSITIVE),
                          "wrapper": p.getState().contains(pyatspi.STATE_SENSITIVE),
                          "wrapperKids": p.childCount}))
        break
`,
    );
    assert.deepEqual(back, { button: false, wrapper: false, wrapperKids: 1 });

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    const lines = read.split("\n");
    const functions = lines.find((l) => l.includes('"Functions"'));
    assert.match(functions ?? "", /\] row expanded: "Functions"$/, read);
    assert.ok(lines.some((l) => /\] row: "main/.test(l)), read);
    assert.ok(!lines.some((l) => /\] cell\b.*expanded/.test(l)), "no cell repeats the state");
    const backLine = lines.findIndex((l) => / btn "Back" disabled/.test(l));
    assert.ok(backLine > 0, read);
    assert.doesNotMatch(lines[backLine - 1], /\] group disabled$/, read);

    // Collapsed by its ref, with the action the row's cells offer.
    const ref = functions!.match(/\[\d+\|([^\]]+)\]/)![1];
    const res = await runCliOk(d, [
      "action",
      "--pid",
      pid,
      "--ref",
      ref,
      "--name",
      "expand or contract",
      "--diff",
    ]);
    assert.match(res.stdout, /exp: true -> false/, res.stdout);
    assert.equal(
      await eventually("the node collapsed", async () => {
        const now = await functionsExpanded();
        return now === false ? now : undefined;
      }),
      false,
    );
    const after = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(after, /\] row collapsed: "Functions"/, after);
    assert.doesNotMatch(after, /\] row: "main/, after);
  },
});
