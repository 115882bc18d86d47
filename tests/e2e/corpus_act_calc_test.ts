/**
 * LibreOffice Calc: type into a cell by its ref, commit with Return, read the
 * cell back. Witness: pyatspi reads the cell through the sheet's Table
 * interface.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCliOk } from "../harness/cli.ts";

interface FlatEl {
  ref: string;
  r: string;
  t?: string;
  v?: string;
}

async function cells(d: TestDesktop): Promise<FlatEl[]> {
  const res = await runCliOk(d, [
    "read",
    "--app",
    d.appName,
    "--roles",
    "cell",
    "--flat",
    "--format",
    "json",
    "--timeout",
    "60000",
  ]);
  return (JSON.parse(res.stdout).elements as FlatEl[]).filter((e) => e.r === "cell");
}

/** Cell B2's text as pyatspi reads it through the sheet's Table interface. */
async function witnessB2(d: TestDesktop): Promise<string> {
  const script = `
import pyatspi
def walk(a, depth=0):
    if depth > 12: return
    for c in a:
        if c is None: continue
        yield c
        if c.getRoleName() != "table": yield from walk(c, depth + 1)
for app in pyatspi.Registry.getDesktop(0):
    if app is None or app.name != ${JSON.stringify(d.appName)}: continue
    for c in walk(app):
        if c.getRoleName() == "table" and c.name.startswith("Sheet"):
            cell = c.queryTable().getAccessibleAt(1, 1)
            print(cell.name, "=", cell.queryText().getText(0, -1))
            raise SystemExit(0)
`;
  const out = await new Deno.Command("timeout", {
    args: ["120", "/usr/bin/python3", "-c", script],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "libreoffice calc: type into cell B2 by ref, Return, and read it back (pyatspi agrees)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "libreoffice-calc", registerTimeoutMs: 120_000 });
    let b2: FlatEl | undefined;
    const until = Date.now() + 120_000;
    while (!b2 && Date.now() < until) {
      b2 = (await cells(d)).find((e) => e.t === "B2");
      if (!b2) await new Promise((r) => setTimeout(r, 1000));
    }
    assert.ok(b2, "cell B2 shows");
    // A cell is keyed by its address (its name), not by its place among its row's cells.
    assert.match(b2.ref, /\/a2\/b2$/);
    const scope = ["--app", d.appName, "--timeout", "60000"];
    // The short ref an agent writes.
    await runCliOk(d, ["type", ...scope, "--ref", "b2", "--text", "42"]);
    const committed = await runCliOk(d, ["key", ...scope, "Return", "--diff"]);
    // The key's own report names the cell and its new value.
    assert.ok(committed.stdout.includes(`|${b2.ref}] v: none -> "42"`), committed.stdout);
    assert.equal((await cells(d)).find((e) => e.t === "B2")?.v, "42");
    assert.equal(await witnessB2(d), "B2 = 42");
  },
});
