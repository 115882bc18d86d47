/**
 * Wayland without X: GNOME's compositor (mutter) headless, apps on their
 * Wayland backends, no X server in the session. Everything the accessibility
 * API can do works by ref: read, click (the element's own action), type
 * (EditableText), set-value (Value), focus; the pointer, which needs a
 * window's place on screen that mutter does not tell, is PLATFORM_NOT_SUPPORTED
 * naming the compositor, never a click at a guessed point. The witness is
 * pyatspi.
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { editableTexts, pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** Whether mutter is installed (scripts/run installs it). */
const hasMutter = (() => {
  try {
    return Deno.statSync("/usr/bin/mutter").isFile;
  } catch {
    return false;
  }
})();

/** The CLI by pid; returns stdout, or the error's JSON for a failing command. */
async function cli(d: TestDesktop, args: string[]): Promise<{ ok: boolean; out: string }> {
  const res = await runCli(d, [...args, "--pid", String(d.pid), "--timeout", "20000"]);
  return { ok: res.code === 0, out: res.code === 0 ? res.stdout : res.stderr };
}

/** Names of the app's labels, by pyatspi. */
function labels(d: TestDesktop): Promise<string[]> {
  return pyatspiJson<string[]>(
    d,
    `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "label"]))`,
  );
}

Deno.test({
  name: "wayland (mutter, no X): a GTK 3 modal dialog is opened, filled and closed by ref",
  ignore: !hasDesktopTools() || !hasMutter,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/gtk3/rename_dialog.py`,
      session: "mutter",
    });
    assert.equal(d.env.DISPLAY, undefined, "no X display in this session");
    const read = await cli(d, ["read"]);
    assert.ok(read.ok, read.out);
    assert.match(read.out, /btn "Rename"/);
    const click = await cli(d, ["click", "--ref", "rename"]);
    assert.ok(click.ok, click.out);
    assert.match(click.out, /via accessible/);
    await eventually("the Rename dialog", async () => {
      const r = await cli(d, ["read"]);
      return r.out.includes('dialog "Rename"') ? true : undefined;
    }, 10_000);
    const typed = await cli(d, ["type", "--ref", "new-name", "Ada"]);
    assert.ok(typed.ok, typed.out);
    assert.match(typed.out, /val="Ada" via accessible \(EditableText, appended\)/);
    assert.ok((await editableTexts(d)).includes("Ada"), "pyatspi reads the typed name");
    const okay = await cli(d, ["click", "--ref", "ok"]);
    assert.ok(okay.ok, okay.out);
    await eventually("the window says it was renamed (pyatspi)", async () => {
      return (await labels(d)).includes("Renamed to Ada") ? true : undefined;
    }, 10_000);
    // The pointer needs a window's place on screen, which mutter does not tell: a clear error
    // naming the compositor, never a click at a guessed point.
    const pointer = await cli(d, ["click", "--x", "20", "--y", "20"]);
    assert.equal(pointer.ok, false);
    const err = JSON.parse(pointer.out.trim().split("\n").pop()!);
    assert.equal(err.code, "PLATFORM_NOT_SUPPORTED");
    assert.match(err.message, /mutter/);
    assert.match(err.suggestion, /click by ref \(its accessible action\)/);
  },
});

Deno.test({
  name: "wayland (mutter, no X): GTK 4 values and a toggle set by ref",
  ignore: !hasDesktopTools() || !hasMutter,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk4-widget-factory", session: "mutter" });
    const read = await cli(d, ["read", "--interactive"]);
    assert.ok(read.ok, read.out);
    const slider = await cli(d, ["set-value", "--ref", "slider.3", "--value", "1"]);
    assert.match(slider.out, /slider val="1" via accessible \(Value\)/);
    const spin = await cli(d, ["set-value", "--ref", "label.1", "--value", "12"]);
    assert.match(spin.out, /spin "label" val="12" via accessible/);
    const toggle = await cli(d, ["click", "--ref", "togglebutton.1"]);
    assert.match(toggle.out, /btn "togglebutton" checked via accessible/);
    // (GTK 4.8's entries give pyatspi no text, so text is witnessed on GTK 3 above.)
    const seen = await pyatspiJson<{ values: number[]; pressed: number }>(
      d,
      `
values = sorted(round(o.queryValue().currentValue) for o in walk(app)
                if o.getRoleName() in ("slider", "spin button") and o.getState().contains(pyatspi.STATE_SENSITIVE))
pressed = sum(1 for o in walk(app) if o.name == "togglebutton" and o.getState().contains(pyatspi.STATE_PRESSED))
print(json.dumps({"values": values, "pressed": pressed}))
`,
    );
    assert.ok(seen.values.includes(1) && seen.values.includes(12), JSON.stringify(seen.values));
    assert.ok(seen.pressed >= 1, "the toggle button is pressed");
  },
});
