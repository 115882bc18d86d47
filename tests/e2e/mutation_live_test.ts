/**
 * Never a false refusal on live content, never the wrong element (refs.md
 * section 3): the live scenarios (tests/e2e/mutation_live.ts) on a page whose
 * order statuses and totals tick every 300 ms, whose carousel rotates, whose
 * toggles flip their labels and whose menubar opens a menu named like its
 * item (Chromium), and on a GTK 3 TreeView whose Status figures tick. Every
 * action by full ref, short ref, twin ref and id, through the CLI and MCP,
 * must reach the element read, as the app's own log says (through pyatspi).
 */

import assert from "node:assert/strict";
import type { Snapshot } from "../../src/model/element.ts";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { LIVE_PAGE, LIVE_TREEVIEW, LIVE_WEB, runLiveSuite } from "./mutation_live.ts";
import { type Attempt, witness } from "./mutation_scenarios.ts";
import { assertNoWrongElement, TREEVIEW } from "./mutation_suites.ts";

function summary(attempts: Attempt[]): string {
  const n = (o: string) => attempts.filter((a) => a.outcome === o).length;
  return `${attempts.length} actions: ${n("hit")} hits, ${n("refused")} false refusals, ${
    n("wrong") + n("missed")
  } wrong`;
}

Deno.test({
  name: "live content (chromium): every action by ref and id reaches the element read, CLI and MCP",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "chromium", url: LIVE_PAGE });
    const attempts = await runLiveSuite(d, LIVE_WEB);
    console.log(summary(attempts));
    assertNoWrongElement(attempts);
    assert.ok(attempts.length >= 25, `${attempts.length} attempts`);
    // A cell whose text is a ticking value is found by the ref read, long after the read.
    const read = await runCli(d, ["read", "--pid", String(d.pid), "--format", "json"]);
    const json = JSON.stringify((JSON.parse(read.stdout) as Snapshot).root);
    const status = json.match(/"ref":"([^"]*so-1005\/status)"/)?.[1];
    assert.ok(status, "the status cell of SO-1005 has a ref keyed by its column");
    await new Promise((r) => setTimeout(r, 1000));
    const found = await runCli(d, ["find", "--pid", String(d.pid), "--ref", status]);
    assert.equal(found.code, 0, found.stderr);
    // A choice button named by its label and its choice: the choice is its value, not its ref.
    const pid = String(d.pid);
    const before = await runCli(d, ["find", "--pid", pid, "--ref", "choose-an-element"]);
    assert.match(before.stdout, /btn "Choose an element" val="Neptunium"/, before.stderr);
    const chose = await runCli(d, ["click", "--pid", pid, "--ref", "choose-an-element"]);
    assert.equal(chose.code, 0, chose.stderr);
    const w = await witness(d.pid, d.env);
    assert.equal(`${w.uid} ${w.text}`, "element Curium", "the page's own log");
    const after = await runCli(d, ["find", "--pid", pid, "--ref", "choose-an-element"]);
    assert.match(after.stdout, /btn "Choose an element" val="Curium"/, after.stderr);
  },
});

Deno.test({
  name: "live content (GTK TreeView): cells whose figures tick are the same cells, CLI and MCP",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "gtk3-script", url: TREEVIEW });
    const attempts = await runLiveSuite(d, LIVE_TREEVIEW);
    console.log(summary(attempts));
    assertNoWrongElement(attempts);
    assert.ok(attempts.length >= 12, `${attempts.length} attempts`);
  },
});
