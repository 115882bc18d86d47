/**
 * A GTK 3 button whose handler runs a modal dialog (gtk_dialog_run) is
 * clicked by ref, text is typed into the dialog by ref and OK clicked: the app
 * stays responsive and pyatspi reads the result. An accessible action would
 * run the handler inside the app's D-Bus request, and the first key typed
 * into the dialog would deadlock the app for good.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { eventually } from "../harness/tree.ts";

/** Every accessible name in the app, read by pyatspi; null when the app does not answer. */
async function pyatspiNames(d: TestDesktop): Promise<string[] | null> {
  const script = `
import json, sys, pyatspi
out = []
def walk(a, depth):
    if a is None or depth > 30: return
    if a.name: out.append(a.name)
    for i in range(a.childCount): walk(a.getChildAtIndex(i), depth + 1)
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.get_process_id() == int(sys.argv[1]): walk(app, 0)
print(json.dumps(out))
`;
  const res = await new Deno.Command("timeout", {
    args: ["10", "/usr/bin/python3", "-c", script, String(d.pid)],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  return res.code === 0 ? JSON.parse(new TextDecoder().decode(res.stdout)) : null;
}

/** Where the X pointer is and the screen's size, by xdotool (an independent witness). */
async function pointerAndScreen(
  d: TestDesktop,
): Promise<{ x: number; y: number; w: number; h: number }> {
  const xdotool = async (args: string[]) => {
    const out = await new Deno.Command("xdotool", {
      args,
      env: d.env,
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return new TextDecoder().decode(out.stdout);
  };
  const at = await xdotool(["getmouselocation", "--shell"]);
  const [w, h] = (await xdotool(["getdisplaygeometry"])).trim().split(/\s+/).map(Number);
  return { x: Number(/X=(\d+)/.exec(at)?.[1]), y: Number(/Y=(\d+)/.exec(at)?.[1]), w, h };
}

/** The CLI against the test app; a failing command fails the test with the app's log. */
function cliOf(d: TestDesktop): (args: string[]) => Promise<string> {
  return async (args) => {
    const res = await runCli(d, [...args, "--pid", String(d.pid), "--timeout", "15000"]);
    assert.equal(res.code, 0, `desktop ${args.join(" ")}: ${res.stderr}\n${d.appLog()}`);
    return res.stdout;
  };
}

/** Starts the rename app and opens its modal Rename dialog by ref. */
async function withRenameDialog(
  fn: (d: TestDesktop, run: (args: string[]) => Promise<string>) => Promise<void>,
) {
  await using d = await startDesktop({
    app: "gtk3-script",
    url: `${REPO_ROOT}tests/fixtures/gtk3/rename_dialog.py`,
  });
  const run = cliOf(d);
  await run(["read"]);
  // A GTK 3 button that may open a modal dialog is clicked with the pointer (the safe way in)...
  assert.match(await run(["click", "--ref", "rename"]), /via input/);
  // ...and the pointer is then parked in the screen's corner, hovering nothing of the app.
  const p = await pointerAndScreen(d);
  assert.deepEqual([p.x, p.y], [p.w - 1, p.h - 1], "the pointer is parked after the click");
  await eventually("the Rename dialog", async () => {
    const out = await run(["read"]);
    return out.includes('dialog "Rename"') ? true : undefined;
  }, 10_000);
  await fn(d, run);
}

Deno.test({
  name: "act: a GTK 3 button that runs a modal dialog is clicked, typed into and closed by ref",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withRenameDialog(async (d, run) => {
      await run(["type", "--ref", "new-name", "Ada"]);
      await run(["click", "--ref", "ok"]);
      await eventually("the window says it was renamed (pyatspi)", async () => {
        const names = await pyatspiNames(d);
        assert.ok(names !== null, "the app still answers pyatspi");
        return names.includes("Renamed to Ada") ? true : undefined;
      }, 10_000);
    }),
});

Deno.test({
  name: "act: a key with no target names the dialog that held the focus and took it",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withRenameDialog(async (d, run) => {
      await run(["focus", "--ref", "new-name"]);
      const line = await run(["key", "Escape"]);
      assert.match(line, /\(the focus was in dialog "Rename"\)/);
      await eventually("the dialog is gone (pyatspi)", async () => {
        const names = await pyatspiNames(d);
        assert.ok(names !== null, "the app still answers pyatspi");
        return !names.includes("New name") && names.includes("Not renamed") ? true : undefined;
      }, 10_000);
    }),
});
