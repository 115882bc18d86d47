/**
 * GTK 3 spin buttons that show their number as words (gtk3-demo's Spin
 * Buttons: a month, a time of day) took only numbers: `set-value --value
 * March` was INVALID_ARGS "not a number", though the read shows
 * `val="January"`. It now reads as a slider with a value text does
 * (`val="1" valtext="January"`), and a value in words is reached with the
 * keys, as a user does; one it never shows leaves it as it was. pyatspi the
 * witness.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cliError, runCli, runCliOk, waitForElement } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

/** Each spin button's shown text and number, in order. */
function witness(d: TestDesktop): Promise<Array<[string, number]>> {
  return pyatspiJson(
    d,
    `
out = []
for o in walk(app):
    if o.getRoleName() == "spin button":
        out.append([o.queryText().getText(0, -1), o.queryValue().currentValue])
print(json.dumps(out))
`,
  );
}

Deno.test({
  name:
    "gtk3-demo spin buttons: set-value takes the words a spin button shows (a month, a time), " +
    "reached with its keys; a value it never shows lists the ones it does (pyatspi agrees)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-demo", url: "spinbutton" });
    const month = await waitForElement(
      d,
      "the month spin button",
      (els) => els.find((e) => e.r === "spin" && (e as { vt?: string }).vt === "January"),
    );
    const time = await waitForElement(
      d,
      "the time spin button",
      (els) => els.find((e) => e.r === "spin" && (e as { vt?: string }).vt === "00:00"),
    );
    const scope = ["--app", d.appName];
    const march = await runCliOk(d, [
      "set-value",
      ...scope,
      "--ref",
      month.ref,
      "--value",
      "March",
    ]);
    assert.match(
      march.stdout,
      /^ok set-value .*spin "Month".* val="3" valtext="March" via input \(keys: \d+ presses\)/,
    );
    await runCliOk(d, ["set-value", ...scope, "--ref", time.ref, "--value", "01:30"]);
    let seen = await witness(d);
    assert.ok(seen.some(([t, v]) => t === "March" && v === 3), JSON.stringify(seen));
    assert.ok(seen.some(([t, v]) => t === "01:30" && v === 90), JSON.stringify(seen));

    const unknown = await runCli(d, [
      "set-value",
      ...scope,
      "--ref",
      month.ref,
      "--value",
      "Smarch",
    ]);
    const err = cliError(unknown);
    assert.equal(err.code, "ACTION_FAILED", unknown.stderr);
    assert.ok((err.details as { values: string[] }).values.includes("December"), unknown.stderr);
    // A number still goes through the Value.
    const five = await runCliOk(d, ["set-value", ...scope, "--ref", month.ref, "--value", "5"]);
    assert.match(five.stdout, /val="5" valtext="May"/);
    // Asked for what it already shows: nothing to do, and no failure.
    await runCliOk(d, ["set-value", ...scope, "--ref", month.ref, "--value", "May"]);
    seen = await witness(d);
    assert.ok(seen.some(([t, v]) => t === "May" && v === 5), JSON.stringify(seen));
  },
});
