/**
 * gnome-calculator (GTK 4): compute 12×3= by clicking buttons found by their
 * labels and acted on by refs, then read the result. Witness: pyatspi reads
 * the display's text.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";
import { focusableFieldText } from "../harness/pyatspi.ts";

interface FlatEl {
  ref: string;
  r: string;
  t?: string;
  v?: string;
  d?: string;
  f?: boolean;
}

async function flat(d: TestDesktop): Promise<FlatEl[]> {
  const res = await runCliOk(d, ["read", "--app", d.appName, "--flat", "--format", "json"]);
  return JSON.parse(res.stdout).elements as FlatEl[];
}

Deno.test({
  name: "gnome-calculator: 12×3= by refs shows 36 (pyatspi agrees), = reports the change, " +
    "a right click opens the display's context menu",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-calculator" });
    let els: FlatEl[] = [];
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      els = await flat(d);
      if (els.some((e) => e.r === "btn" && e.d === "Calculate Result")) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    // Buttons are named "7 7" (GTK 4 adds the child label's text); operators by their help text.
    const button = (pick: (e: FlatEl) => boolean, what: string) => {
      const b = els.find((e) => e.r === "btn" && pick(e));
      assert.ok(b, `no ${what} button in ${JSON.stringify(els.filter((e) => e.r === "btn"))}`);
      return b.ref;
    };
    const digit = (n: string) => button((e) => (e.t ?? "").split(" ")[0] === n, n);
    const keys = [
      digit("1"),
      digit("2"),
      button((e) => (e.d ?? "").startsWith("Multiply"), "×"),
      digit("3"),
    ];
    for (const ref of keys) await runCliOk(d, ["click", "--app", d.appName, "--ref", ref]);
    const equals = await runCliOk(d, [
      "click",
      "--app",
      d.appName,
      "--ref",
      button((e) => e.d === "Calculate Result", "="),
      "--diff",
    ]);
    // The action's own report shows the display going from the expression to the result.
    assert.match(equals.stdout, /v: "12×3" -> "36"/);
    const display = (await flat(d)).find((e) => e.r === "input" && e.f);
    assert.ok(display, "the focused display");
    assert.equal(display?.v, "36");
    assert.equal((await focusableFieldText(d)).trim(), "36");

    // A right click uses the element's context-menu action, as on macOS (AXShowMenu).
    const right = await runCliOk(d, [
      "click",
      "--app",
      d.appName,
      "--ref",
      display.ref,
      "--button",
      "right",
      "--diff",
    ]);
    assert.match(right.stdout, /via accessible \(menu\.popup\)/);
    assert.match(right.stdout, /\+ +\[-\|[^\]]*\] menuitem "Copy"/); // new since the last read: no id yet
    assert.match(await witnessShowing(d), /^Copy$/m);
  },
});

/** Names of the menus and menu items pyatspi sees (the popover is new: it was not in the tree). */
async function witnessShowing(d: TestDesktop): Promise<string> {
  const script = `
import pyatspi
def walk(a):
    for c in a:
        if c is None: continue
        yield c
        yield from walk(c)
for app in pyatspi.Registry.getDesktop(0):
    if app is None or app.name != ${JSON.stringify(d.appName)}: continue
    for c in walk(app):
        if "menu" in c.getRoleName() and c.name:
            print(c.name)
`;
  const out = await new Deno.Command("timeout", {
    args: ["60", "/usr/bin/python3", "-c", script],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}
