/**
 * GTK 4's drop-down keeps its choices in a popover that exists only while
 * open, with no relation naming it, and whose items have no names of their
 * own (their labels are inside). `set-value` found no option ("options: []")
 * and left the popover open. Now it opens the popover, finds the option by
 * the label inside it, and picks it with the keys (the popover holds the
 * keyboard; on X11 its items' boxes are not where they show). gtk4-demo's
 * Dropdowns demo, pyatspi the witness (the chosen item's label, and the spin
 * button the demo keeps at the chosen index).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cliError, type FlatElement, runCli, runCliOk, waitForElement } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

/** The third drop-down's shown choice, the spin button's value and whether a popover is up. */
function witness(d: TestDesktop): Promise<{ fonts: string[]; spin: number; open: boolean }> {
  return pyatspiJson(
    d,
    `
fonts, spin, open = [], None, False
for o in walk(app):
    r = o.getRoleName()
    if r == "combo box":
        button = o[0]
        open = open or button.getState().contains(pyatspi.STATE_PRESSED)
        labels = [x.name for x in walk(button) if x.getRoleName() == "label" and x.name != "(None)"]
        fonts.append(labels[-1] if labels else "")
    elif r == "spin button":
        spin = o.queryValue().currentValue
print(json.dumps({"fonts": fonts, "spin": spin, "open": open}))
`,
  );
}

/** The demo's drop-down of fonts, as it starts (showing "Cantarell"). */
function fontsDropDown(d: TestDesktop): Promise<FlatElement> {
  return waitForElement(
    d,
    "the fonts drop-down",
    (els) => els.find((e) => e.r === "combo" && e.v === "Cantarell"),
  );
}

Deno.test({
  name: "gtk4-demo drop-down: set-value opens its popover and picks the item by its label, with " +
    "the keys; an unknown one lists the items and closes it (pyatspi agrees)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk4-demo", url: "dropdown" });
    const fonts = await fontsDropDown(d);
    const scope = ["--app", d.appName, "--ref", fonts.ref];
    const set = await runCliOk(d, ["set-value", ...scope, "--value", "Nimbus Sans"]);
    assert.match(
      set.stdout,
      /^ok set-value .*combo val="Nimbus Sans" via input \(popup opened, keys/,
    );
    let seen = await witness(d);
    assert.ok(seen.fonts.includes("Nimbus Sans"), JSON.stringify(seen));
    assert.equal(seen.open, false, "the popover closed");
    const index = seen.spin;
    assert.ok(index > 0, JSON.stringify(seen));

    const unknown = await runCli(d, ["set-value", ...scope, "--value", "Helvetica"]);
    const err = cliError(unknown);
    assert.equal(err.code, "ELEMENT_NOT_FOUND", unknown.stderr);
    assert.ok((err.details as { options: string[] }).options.includes("Cantarell"), unknown.stderr);
    seen = await witness(d);
    assert.equal(seen.open, false, "left closed, as it was");
    assert.ok(seen.fonts.includes("Nimbus Sans") && seen.spin === index, JSON.stringify(seen));

    await runCliOk(d, ["set-value", ...scope, "--value", "Cantarell"]);
    seen = await witness(d);
    assert.ok(seen.fonts.includes("Cantarell") && seen.spin === 0, JSON.stringify(seen));
  },
});

Deno.test({
  name: "gtk4-demo drop-down: a click on an item of its open popover lands on that item " +
    "(GTK 4 on X11 reports a popover's boxes tens of pixels off: the item above took the click)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk4-demo", url: "dropdown" });
    const fonts = await fontsDropDown(d);
    const scope = ["--app", d.appName];
    for (const name of ["Nimbus Mono PS", "URW Gothic", "C059"]) {
      await runCliOk(d, ["click", ...scope, "--ref", fonts.ref]);
      // The item's label is the text inside it (flat JSON: `<item>/txt`).
      const label = await waitForElement(
        d,
        `the item ${name}`,
        (els) => els.find((e) => e.r === "txt" && e.t === name && /\/txt$/.test(e.ref)),
      );
      const item = { ref: label.ref.replace(/\/txt$/, "") };
      const clicked = await runCliOk(d, ["click", ...scope, "--ref", item.ref]);
      assert.match(clicked.stdout, new RegExp(`^ok click .*listitem`));
      const seen = await witness(d);
      assert.ok(seen.fonts.includes(name), `${name}: ${JSON.stringify(seen)}`);
    }
  },
});
