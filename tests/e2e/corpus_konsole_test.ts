/**
 * Konsole (KDE Frameworks 5, Qt 5), a terminal we did not build for: a
 * command typed by ref and run with Return; the screen's text is the
 * terminal's value. Konsole's terminal holds its hidden search bar, so it is
 * no leaf: its text was never read, the read showed an empty `input`, and a
 * typed command reported that nothing changed. A terminal's text is its value
 * whatever it holds. Witness: pyatspi reads the terminal's text.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCli, runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "konsole (Qt 5): a command typed by ref, its output in the terminal's value",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "konsole", registerTimeoutMs: 60000 });
    const pid = String(d.pid);
    const screen = () =>
      pyatspiJson<string>(
        d,
        `t = [o for o in walk(app) if o.getRoleName() == "terminal"][0].queryText()
print(json.dumps(t.getText(0, t.characterCount)))`,
      );
    const terminal = await eventually("the terminal", async () => {
      const out = (await runCliOk(d, ["read", "--pid", pid])).stdout;
      return out.match(/\[\d+\|([^\]]+)\] input val="/)?.[1];
    }, 15000);

    const typed = await runCli(d, ["type", "--pid", pid, "--ref", terminal, "echo $((6*7))"]);
    assert.equal(typed.code, 0, typed.stderr);
    await runCliOk(d, ["key", "--pid", pid, "--ref", terminal, "Return"]);
    await eventually("the answer on screen", async () => /^42$/m.test(await screen()) || undefined);
    const read = (await runCliOk(d, ["read", "--pid", pid, "--scope-ref", terminal])).stdout;
    assert.match(read, /val="[^"]*echo \$\(\(6\*7\)\)\\n42\\n/, read);
  },
});
