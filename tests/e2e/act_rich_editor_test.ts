/**
 * Typing into a rich text editor (a contenteditable box whose second paragraph is a child of
 * the box): the keys land in the paragraph, and the tool must say so. It read the box's own
 * text, where that paragraph is one U+FFFC: a first `type` of two lines was "unverified: the
 * value does not hold the typed text", a second `type` ACTION_FAILED "took none of the keys"
 * though every key went in (an agent retrying would type it twice). Witness: the page's title,
 * which says the text the box holds.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pageTitle } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "chromium: typing into a rich editor's paragraphs is ok and its value holds them all",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "chromium",
      url: `${REPO_ROOT}tests/fixtures/web/rich_editor.html`,
    });
    const cli = async (args: string[]) => {
      const r = await runCli(d, [...args, "--app", d.appName]);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    await eventually("the editor", async () => {
      const r = await runCli(d, ["find", "--app", d.appName, "--ref", "note-body"]);
      return r.code === 0 ? true : undefined;
    }, 30_000);
    const title = () => pageTitle(d);
    const first = await cli(["type", "--ref", "note-body", "--text", "Line one\nLine two"]);
    assert.equal(await title(), "Editor: Line one / Line two");
    assert.doesNotMatch(first, /unverified/);
    assert.match(first, /val="Line one\\nLine two"/);
    const more = await cli(["type", "--ref", "note-body", "--text", " plus", "--diff"]);
    assert.equal(await title(), "Editor: Line one / Line two plus");
    assert.match(more, /v: "Line one\\nLine two" -> "Line one\\nLine two plus"/);
    // The paragraphs are the value, not lines of their own.
    const read = await cli(["read", "--scope-ref", "note-body"]);
    assert.doesNotMatch(read, /^\s*"Line two plus"$/m);
  },
});
