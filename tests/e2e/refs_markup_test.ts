/**
 * Markup is never a label or a ref: a PyQt6 window whose combo box is named
 * only by its tooltip, a Qt HTML document (as VLC's preferences are), reads
 * as the tooltip's text, and its ref is made of that text. Witness: pyatspi
 * reads the raw HTML description, so the markup really is there.
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

Deno.test({
  name: "qt6: a rich-text tooltip reads as its text, and names the ref",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "qt6-script",
      url: `${REPO_ROOT}tests/fixtures/qt6/rich_tooltips.py`,
    });
    const raw = await pyatspiJson<string[]>(
      d,
      `print(json.dumps([o.description for o in walk(app) if o.getRoleName() == "combo box"]))`,
    );
    assert.match(raw[0] ?? "", /<html><head><meta name="qrichtext"/, "the tooltip is HTML");
    const r = await runCli(d, ["read", "--pid", String(d.pid)]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /<|qrichtext|html/, r.stdout);
    assert.match(
      r.stdout,
      /\|select-the-audio-output-module\] combo val="ALSA" desc="Select the audio output module"/,
    );
    assert.match(r.stdout, /\|apply\] btn "Apply" desc="Apply the settings now"/);
    const click = await runCli(d, [
      "click",
      "--pid",
      String(d.pid),
      "--ref",
      "select-the-audio-output-module",
    ]);
    assert.equal(click.code, 0, click.stderr);
  },
});
