/**
 * xfce4-terminal (GTK 3, VTE), a terminal we did not build for: a command
 * typed by ref runs, its output is waited for and read back, and the screen's
 * empty rows below the prompt print as one newline, not one `\n` per row.
 * Witness: pyatspi reads the terminal's text (with every empty row).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

Deno.test({
  name: "xfce4-terminal: a command typed by ref runs; the screen's empty rows are one newline",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "xfce4-terminal" });
    const pid = String(d.pid);
    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    const terminal = read.split("\n").find((l) => /\] input "Terminal"/.test(l));
    assert.ok(terminal, read);
    const ref = terminal.match(/\[\d+\|([^\]]+)\]/)![1];

    await runCliOk(d, ["type", "--pid", pid, "--ref", ref, "--text", "echo sum=$((6*7))"]);
    await runCliOk(d, ["key", "--pid", pid, "--ref", ref, "Return"]);
    await runCliOk(d, ["wait", "--pid", pid, "--for-text", "sum=42", "--timeout", "10000"]);

    const screen = await pyatspiJson<string>(
      d,
      `
for o in walk(app):
    if o.getRoleName() == "terminal":
        t = o.queryText()
        print(json.dumps(t.getText(0, t.characterCount)))
        break
`,
    );
    assert.match(screen, /\nsum=42\n/, "the command ran");
    assert.match(screen, /\n\n\n\n\n$/, "the screen ends in empty rows");

    const after = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    const line = after.split("\n").find((l) => l.includes(`|${ref}]`)) ?? "";
    assert.match(line, /val="[^"]*sum=42\\n\$ \\n"/, after);
    assert.doesNotMatch(line, /\\n\\n/, "no run of empty rows");
  },
});
