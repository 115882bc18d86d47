/**
 * Two single clicks on one row, one right after the other (the library, or an
 * MCP server, answers fast enough for that), must stay two single clicks: the
 * app must not see a double click, which opens the row. Witness: the fixture's
 * window title counts each button press and each activation
 * (tests/fixtures/mutation_treeview.py), read with pyatspi.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

Deno.test({
  name: "two clicks in a row on one GTK row are two presses, never a double click that opens it",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/mutation_treeview.py`,
    });
    const title = () => pyatspiJson<string>(d, `print(json.dumps(app[0].name))`);
    const count = (t: string) => Number(/^log (\d+):/.exec(t)?.[1] ?? 0);
    const before = count(await title());
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${REPO_ROOT}tests/fixtures/two_clicks.ts`,
        String(d.pid),
        "item-2/status",
      ],
      env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state-clicks` },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    await new Promise((r) => setTimeout(r, 800)); // a late activation would show by now
    const after = await title();
    // Two presses on Item 2's row; a double click would add an activation (three).
    assert.equal(count(after) - before, 2, after);
    assert.match(after, /u2 Item 2$/);
  },
});
