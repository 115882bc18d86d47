/**
 * A Java Swing form (tests/fixtures/java), through the ATK wrapper: Java's
 * accessibility bridge on Linux. Labels set with setLabelFor fold into their
 * fields (`name`, `city`); a text field lists Swing's 56 editing commands as
 * actions ("caret-forward", "cut-to-clipboard"...), none of which is printed;
 * the form is filled and sent by ref.
 * Witness: pyatspi reads the fields' actions, the check box's state and the
 * status label the Send button writes.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "java swing: a form read, filled and sent by ref",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "java-swing", registerTimeoutMs: 60000 });
    const pid = String(d.pid);
    const counts = await pyatspiJson<number[]>(
      d,
      `print(json.dumps([o.queryAction().nActions for o in walk(app) if o.getRoleName() == "text"]))`,
    );
    assert.ok(counts.length === 2 && counts.every((n) => n > 20), counts.join());

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\[\d+\|name\] input "Name:"/, read);
    assert.match(read, /\[\d+\|city\] input "City:"/, read);
    assert.doesNotMatch(read, /actions=/, read);

    await runCliOk(d, ["type", "--pid", pid, "--ref", "name", "--text", "Ada Lovelace"]);
    await runCliOk(d, ["type", "--pid", pid, "--ref", "city", "--text", "London"]);
    await runCliOk(d, ["click", "--pid", pid, "--ref", "express-delivery"]);
    await runCliOk(d, ["click", "--pid", pid, "--ref", "send"]);
    const status = await eventually("the form sent", async () => {
      const w = await pyatspiJson<{ labels: string[]; checked: boolean }>(
        d,
        `
box = next(o for o in walk(app) if o.getRoleName() == "check box")
print(json.dumps({"labels": [o.name for o in walk(app) if o.getRoleName() == "label"],
                  "checked": box.getState().contains(pyatspi.STATE_CHECKED)}))
`,
      );
      return w.labels.some((l) => l.startsWith("Sent to")) ? w : undefined;
    });
    assert.ok(
      status.labels.includes("Sent to Ada Lovelace in London, express"),
      status.labels.join(),
    );
    assert.equal(status.checked, true);
  },
});
