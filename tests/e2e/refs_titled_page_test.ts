/**
 * Refs never carry the page a dialog shows: LibreOffice Writer's Options
 * dialog is titled after its current page ("Options - LibreOffice - User
 * Data"), and so is the tree that picks the pages. Choosing another page by
 * ref must change no ref, and the refs of the first read keep working.
 * Witness: pyatspi reads the dialog's title and the selected page.
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** The Options dialog's title, as pyatspi reads it. */
const optionsTitle = (d: Parameters<typeof pyatspiJson>[0]) =>
  pyatspiJson<string>(
    d,
    `print(json.dumps(next((w.name for w in app if w is not None and w.name.startswith("Options")), "")))`,
  );

Deno.test({
  name: "libreoffice writer: the Options dialog's refs stay the same whatever page it shows",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "libreoffice-writer" });
    const pid = String(d.pid);
    const cli = (...args: string[]) => runCli(d, [...args, "--pid", pid, "--timeout", "30000"]);
    await eventually("the Options dialog", async () => {
      if (!(await optionsTitle(d))) await cli("key", "alt+F12");
      return (await optionsTitle(d)) || undefined;
    }, 60_000);
    const refsOf = async () => {
      const r = await cli("read", "--window", "Options", "--format", "json");
      assert.equal(r.code, 0, r.stderr);
      return new Set(r.stdout.match(/"ref":"[^"]+"/g) ?? []);
    };
    const first = await refsOf();
    const title1 = await optionsTitle(d);
    assert.ok(first.has('"ref":"options/print"'), [...first].slice(0, 30).join(" "));
    const click = await cli("click", "--window", "Options", "--ref", "options/print");
    assert.equal(click.code, 0, click.stderr);
    assert.doesNotMatch(click.stdout, /now gone/, "the row is still there");
    const title2 = await eventually("the Print page", async () => {
      const t = await optionsTitle(d);
      return t !== title1 && /Print/.test(t) ? t : undefined;
    }, 15_000);
    assert.match(title2, /Options - LibreOffice - Print/);
    const second = await refsOf();
    // The page list and the dialog keep their refs; so does every row of the page list.
    for (const ref of ["options", "options/print", "options/user-data", "options/view"]) {
      assert.ok(second.has(`"ref":"${ref}"`), `${ref} after choosing Print`);
    }
    // The first read's refs still resolve: back to the first page by them.
    const back = await cli("click", "--window", "Options", "--ref", "options/user-data");
    assert.equal(back.code, 0, back.stderr);
    await eventually("the User Data page", async () => {
      const t = await optionsTitle(d);
      return /User Data/.test(t) ? t : undefined;
    }, 15_000);
    await cli("click", "--window", "Options", "--ref", "options/cancel");
  },
});
