/**
 * Typing into a GTK 3 spin button puts text in its field; the spin takes the
 * number only when it is committed (Return, Tab, leaving the field). The tool
 * must not say the spin holds the typed number before then: the read shows
 * the value it holds with the field's text as its value text, and `type` is
 * `unverified`, saying how to commit. Witness: the window's title, set from
 * the spin's value-changed signal, read with pyatspi.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

Deno.test({
  name: "gtk3 spin button: a typed number not yet committed is not reported as its value",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/gtk3/spin_commit.py`,
    });
    const title = () => pyatspiJson<string>(d, `print(json.dumps(app[0].name))`);
    const cli = async (args: string[]) => {
      const r = await runCli(d, [...args, "--pid", String(d.pid)]);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    assert.match(await cli(["read"]), /spin "Minutes" val="10"/);
    const typed = await cli(["type", "--ref", "minutes", "--replace", "--text", "5"]);
    assert.equal(await title(), "Minutes: 10", "the spin does not hold 5 yet");
    assert.match(typed, /unverified: the field shows "5" but the spin still holds 10/);
    assert.match(await cli(["read"]), /spin "Minutes" val="10" valtext="5"/);
    // Committed, it holds the number: the line and the read say so.
    const committed = await cli(["key", "Return", "--ref", "minutes", "--diff"]);
    assert.equal(await title(), "Minutes: 5");
    assert.match(committed, /v: "10" -> "5"/);
    assert.match(await cli(["read"]), /spin "Minutes" val="5"(?! valtext)/);
  },
});
