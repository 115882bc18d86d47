/**
 * A text's selection is part of what a read and a diff say: selecting text
 * with the keys, and a search bar's Next button that selects the next match
 * in the document (FeatherPad, Qt), are changes an agent sees, verified, where
 * they were "nothing changed". pyatspi is the witness of the selection.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { type FlatElement, runCliOk, waitForElement } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

/** The first selected range of every multi-line editable text, as pyatspi sees it. */
function witnessSelections(d: TestDesktop): Promise<Array<[number, number] | null>> {
  return pyatspiJson(
    d,
    `
out = []
for o in walk(app):
    st = o.getState()
    if st.contains(pyatspi.STATE_EDITABLE) and st.contains(pyatspi.STATE_MULTI_LINE):
        t = o.queryText()
        out.append(list(t.getSelection(0)) if t.getNSelections() > 0 else None)
print(json.dumps(out))
`,
  );
}

Deno.test({
  name: "featherpad: keys that select text, and the search bar's Next, show as the document's " +
    "selection in the read and the diff (pyatspi agrees)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "featherpad" });
    const doc = await waitForElement(d, "the document", (els) => els.find((e) => e.r === "input"));
    await runCliOk(d, [
      "type",
      "--app",
      d.appName,
      "--ref",
      doc.ref,
      "--text",
      "Hello world hello",
    ]);
    // Shift+Home selects back to the line's start: the diff says so.
    const selected = await runCliOk(d, ["key", "--app", d.appName, "shift+Home", "--diff"]);
    assert.match(selected.stdout, /sel: 17\.\.17 -> 0\.\.17/, selected.stdout);
    assert.doesNotMatch(selected.stdout, /unverified/, selected.stdout);
    assert.deepEqual(await witnessSelections(d), [[0, 17]]);
    const read = await runCliOk(d, ["read", "--app", d.appName]);
    assert.match(read.stdout, /input val="Hello world hello" (focused )?sel=0\.\.17/, read.stdout);

    // The search bar: typing "hello" into it, then Next, selects a match in the document.
    const search = await waitForElement(
      d,
      "the search field",
      (els) => els.find((e) => e.r === "input" && e.d === "Search..."),
    );
    await runCliOk(d, ["type", "--app", d.appName, "--ref", search.ref, "--text", "hello"]);
    const next = await waitForElement(
      d,
      "the Next button",
      (els) => els.find((e) => e.r === "btn" && (e.d ?? "").startsWith("Next")),
    );
    const before = await witnessSelections(d);
    const clicked = await runCliOk(d, ["click", "--app", d.appName, "--ref", next.ref, "--diff"]);
    const after = await witnessSelections(d);
    assert.notDeepEqual(after, before, "Next selected another match (pyatspi)");
    assert.doesNotMatch(clicked.stdout, /unverified/, clicked.stdout);
    const [start, end] = after[0]!;
    assert.ok(
      clicked.stdout.includes(`sel: `) && clicked.stdout.includes(`-> ${start}..${end}`),
      clicked.stdout,
    );
    // What the read says matches the witness, through the background process and without it.
    for (const extra of [[], ["--no-daemon"]]) {
      const els = JSON.parse(
        (await runCliOk(d, ["read", "--app", d.appName, "--flat", "--format", "json", ...extra]))
          .stdout,
      ).elements as FlatElement[];
      assert.deepEqual(els.find((e) => e.ref === doc.ref)?.sel, [start, end], extra.join(" "));
    }
  },
});
