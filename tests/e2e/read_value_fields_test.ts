/**
 * A read never harms the app it reads. Chromium aborted (libdbus: "end_dict_entry was written",
 * building an `a{sv}`) when asked for all the Value properties of an empty number field at once:
 * the ATK bridge could not convert the value it had none of, and left its reply unfinished. The
 * page holds fields whose value is missing or not a number yet; the read must show them, and the
 * browser must still answer afterwards (a click changes the page's title, read with pyatspi).
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pageTitle, pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "chromium: reading fields with no value yet leaves the browser running",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "chromium",
      url: `${REPO_ROOT}tests/fixtures/web/value_fields.html`,
    });
    const read = await eventually("the page's fields", async () => {
      const r = await runCli(d, ["read", "--app", d.appName, "--no-daemon"]);
      return r.code === 0 && r.stdout.includes('spin "Parcels"') ? r.stdout : undefined;
    }, 30_000);
    assert.match(read, /spin "Weight \(kg\)"/);
    assert.match(read, /spin "Parcels" val="2"/);
    // Fields left empty show no value, though Chromium's Value says 0 (one holding 0 says so).
    assert.match(read, /spin "Boxes" range=0\.\.50\n/);
    assert.match(read, /spin "Pallets" val="0" range=0\.\.50\n/);
    assert.match(read, /spin "Hours Pickup" range=1\.\.12\n/);
    const shown = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([o.queryText().getText(0, -1) for o in walk(app) if o.name in ("Boxes", "Pallets")]))`,
    );
    assert.deepEqual(shown, ["", "0"]);
    assert.match(read, /progress "Upload"/);
    assert.match(read, /slider "Volume" val="50"/);
    // A field the page marks as rejected says so.
    assert.match(read, /input "Postcode" val="ABC" invalid/);
    // The browser still runs and answers: the button's click retitles the page.
    const click = await runCli(d, ["click", "--app", d.appName, "--ref", "check", "--no-daemon"]);
    assert.equal(click.code, 0, click.stderr);
    const title = await pageTitle(d);
    assert.equal(title, "Value fields: clicked");
  },
});
