/**
 * LXAppearance (GTK 2), an app we did not build for: its widget preview
 * shows a progress bar GTK 2 reports at 60.0000023841858 (60 percent of a
 * single-precision fraction) and a slider whose text starts with a
 * left-to-right mark ("\u200E0.0"). The read shows 60 and "0.0": noise
 * digits and direction marks cost tokens and say nothing. A tab chosen by
 * ref is the one whose page pyatspi reads showing.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

Deno.test({
  name: "lxappearance (GTK 2): a progress bar's figure and a slider's text without noise",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "lxappearance" });
    const pid = String(d.pid);
    const raw = await pyatspiJson<{ progress: number; slider: string }>(
      d,
      `p = [o for o in walk(app) if o.getRoleName() == "progress bar"][0]
s = [o for o in walk(app) if o.getRoleName() == "slider"][0]
print(json.dumps({"progress": p.queryValue().currentValue, "slider": s.queryValue().text}))`,
    ).catch(() => undefined);
    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\] progress val="60" range=0\.\.100/, read);
    assert.doesNotMatch(read, /\u200E/, "no direction mark");
    if (raw) assert.notEqual(raw.progress, 60, "GTK 2 reports a noisy figure");

    await runCliOk(d, ["click", "--pid", pid, "--ref", "font"]);
    // GTK 2 marks no tab selected: the witness is which tab's page shows.
    await eventually("the Font tab's page shown", async () => {
      const shown = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([t.name for t in walk(app) if t.getRoleName() == "page tab"
  and any(c.getState().contains(pyatspi.STATE_SHOWING) for c in t)]))`,
      );
      return shown.includes("Font") && !shown.includes("Widget") || undefined;
    });
  },
});
