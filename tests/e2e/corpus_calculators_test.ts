/**
 * Two calculators we did not build for, each driven by refs only.
 *
 * - KCalc (KDE Frameworks 5, Qt 5) shows its result in a custom widget that
 *   Qt reports as a frame inside the window, named by the number it shows and
 *   described "Result Display". Read as a window, the number made its ref
 *   (`0.1`) and twinned the button showing the same digit (`0.2`, then `3.2`
 *   once the display read "3"). It is a text display keyed by its description,
 *   its number its value. Its main window has no accessible name; the X
 *   window's title names it.
 * - galculator (GTK 3) has a "Calculator" menu holding only submenus: closed,
 *   it is one line like the others.
 *
 * Witnesses: pyatspi reads each display; xprop reads KCalc's window title.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** Clicks each ref in turn, as an agent keys in a sum. */
async function press(d: TestDesktop, refs: string[]): Promise<void> {
  for (const ref of refs) await runCliOk(d, ["click", "--pid", String(d.pid), "--ref", ref]);
}

/** The title X has for the app's window (xwininfo, xprop), "" when it has none. */
async function xTitle(d: TestDesktop): Promise<string> {
  const run = async (args: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command("xprop", { args, env: d.env, stdout: "piped", stderr: "null" })
        .output()).stdout,
    );
  // Without a window manager there is no client list: every top-level X window is asked.
  const list = await new Deno.Command("xwininfo", {
    args: ["-root", "-children"],
    env: d.env,
    stdout: "piped",
    stderr: "null",
  }).output();
  for (const win of new TextDecoder().decode(list.stdout).match(/0x[0-9a-f]+/g) ?? []) {
    const props = await run(["-id", win, "_NET_WM_PID", "_NET_WM_NAME"]);
    if (props.includes(`= ${d.pid}`)) return props.match(/_NET_WM_NAME\(\w+\) = "(.*)"/)?.[1] ?? "";
  }
  return "";
}

Deno.test({
  name: "KCalc (Qt 5): the result display is keyed by its description, digits are never twins",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "kcalc" });
    const pid = String(d.pid);
    const display = () =>
      pyatspiJson<string>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.description == "Result Display"][0]))`,
      );
    assert.equal(await display(), "0");

    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /\[\d+\|result-display\] "Result Display" val="0"/, read);
    assert.match(read, /\[\d+\|0\] btn "0"/, read);
    assert.doesNotMatch(read, /\|0\.\d\]/, read);
    // Qt leaves the main window's accessible name empty; X has its title.
    const title = await xTitle(d);
    assert.ok(title, "xprop reads a title");
    assert.ok(read.includes(`window "${title}"`), read);

    await press(d, ["1", "2", "multiplication", "3", "result"]);
    await eventually("the product shown", async () => (await display()) === "36" || undefined);
    const after = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(after, /\[\d+\|result-display\] "Result Display" val="36"/, after);
    assert.match(after, /\[\d+\|3\] btn "3"/, after);
  },
});

Deno.test({
  name: "galculator (GTK 3): a closed menu of submenus is one line; a sum keyed in by refs",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "galculator" });
    const pid = String(d.pid);
    const read = (await runCliOk(d, ["read", "--pid", pid])).stdout;
    assert.match(read, /menu "Calculator" \(closed, 3 items[):]/, read);
    // How to see a closed menu's items is said once, with the first.
    assert.equal(read.match(/: open it, or read --scope-ref /g)?.length, 1, read);
    assert.doesNotMatch(read, /Number bases|Angle units/, read);

    await press(d, ["1", "2", "multiply", "3", "enter"]);
    const shown = () =>
      pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.queryText().getText(0, -1) for o in walk(app)
  if o.getRoleName() == "text"]))`,
      );
    await eventually("the product shown", async () => (await shown()).includes("36") || undefined);
    const scoped = (await runCliOk(d, ["read", "--pid", pid, "--scope-ref", "calculator"])).stdout;
    assert.match(scoped, /menu "Number bases"/, scoped);
  },
});
