/**
 * set-value on a text field sets what the page holds, in every browser. Firefox's text inputs
 * answer EditableText's SetTextContents and keep their text: the field is then typed over, as a
 * user would, and the page's own input handler (the title) sees the new value.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli, runCliOk } from "../harness/cli.ts";
import { type DesktopApp, hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pageTitle } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

for (const app of ["firefox-esr", "chromium"] as DesktopApp[]) {
  Deno.test({
    name: `${app}: set-value on a text field and a text area sets what the page holds`,
    ignore: !hasDesktopTools(),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using d = await startDesktop({
        app,
        url: `${REPO_ROOT}tests/fixtures/web/text_fields.html`,
      });
      const title = () => pageTitle(d);
      await eventually("the fields", async () => {
        const r = await runCli(d, ["read", "--app", d.appName, "--no-daemon"]);
        return r.code === 0 && r.stdout.includes('input "Notes"') ? r.stdout : undefined;
      }, 30_000);
      const city = await runCliOk(d, [
        "set-value",
        "--app",
        d.appName,
        "--ref",
        "city",
        "--value",
        "Nice",
        "--no-daemon",
      ]);
      assert.match(city.stdout, /^ok set-value \[\d+\|main\/city\] input "City" .*val="Nice"/);
      assert.doesNotMatch(city.stdout, /unverified/);
      assert.equal(await title(), "Fields: city=Nice");
      const notes = await runCliOk(d, [
        "set-value",
        "--app",
        d.appName,
        "--ref",
        "notes",
        "--value",
        "second",
        "--no-daemon",
      ]);
      assert.match(notes.stdout, /val="second"/);
      assert.equal(await title(), "Fields: notes=second");
    },
  });
}
