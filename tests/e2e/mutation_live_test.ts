/**
 * Never a false refusal on live content, never the wrong element (refs.md
 * section 3): a page whose order statuses and totals tick every 300 ms, whose
 * carousel rotates, whose toggles flip their labels and whose menubar opens a
 * menu named like its item (tests/fixtures/web/live_content.html), in
 * Chromium over AT-SPI. Two agents (the CLI in its own session, and an MCP
 * connection) read once, then act by full ref, short ref and id while the page
 * changes under them. Every action must reach the element read, as the page's
 * own log in its title says (read through pyatspi, not through desktop).
 */

import assert from "node:assert/strict";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { type Attempt, findIn, kindsOf, mcpClient, witness } from "./mutation_scenarios.ts";
import { assertNoWrongElement } from "./mutation_suites.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/live_content.html`;
const SESSION = "live-agent";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A target of the page and the uid its log shows when an action reaches it. */
interface LiveTarget {
  name: string;
  uid: string;
  pick: (root: Element) => Element | undefined;
}

const byLabel = (r: Element["r"], t: RegExp) => (root: Element) =>
  findIn(root, (e) => e.r === r && t.test(e.t ?? ""));

/** The Refund button in the row of an order, whatever its status and total say. */
const refundOf = (order: string) => (root: Element) => {
  const row = findIn(root, (e) => e.r === "row" && !!findIn(e, (c) => c.t === order));
  return row && findIn(row, (e) => e.r === "btn" && e.t === "Refund");
};

export const LIVE_TARGETS: LiveTarget[] = [
  {
    name: "Refund of SO-1005 (status and total tick)",
    uid: "refund-SO-1005",
    pick: refundOf("SO-1005"),
  },
  {
    name: "carousel's Stop (slides rotate, label flips)",
    uid: "rotate-toggle",
    pick: byLabel("btn", /automatic slide show/),
  },
  { name: "Pause updates (label flips)", uid: "pause-toggle", pick: byLabel("btn", /updates$/) },
  {
    name: "menubar item Font (its menu is named Font)",
    uid: "font-item",
    pick: byLabel("menuitem", /^Font$/),
  },
  {
    name: "switch Notifications (a heading of its name)",
    uid: "notify",
    pick: byLabel("toggle", /^Notifications$/),
  },
];

Deno.test({
  name: "live content (chromium): every action by ref and id reaches the element read, CLI and MCP",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    const pid = String(d.pid);
    const agent = await mcpClient(d);
    const attempts: Attempt[] = [];
    try {
      // The page's first layout: wait until the orders table shows.
      let cliRoot: Element | undefined;
      for (let k = 0; k < 40; k++) {
        const r = await runCli(d, ["read", "--pid", pid, "--session", SESSION, "--format", "json"]);
        cliRoot = r.code === 0 ? (JSON.parse(r.stdout) as Snapshot).root : undefined;
        if (cliRoot && LIVE_TARGETS.every((t) => t.pick(cliRoot!)?.b)) break;
        await sleep(500);
      }
      assert.ok(cliRoot && LIVE_TARGETS.every((t) => t.pick(cliRoot!)), "the page's targets");
      const mcpRead = await agent.call("read", { pid: d.pid, format: "json" });
      assert.ok(!mcpRead.isError, mcpRead.text);
      const mcpRoot = (JSON.parse(mcpRead.text) as Snapshot).root;

      for (const channel of ["cli", "mcp"] as const) {
        const root = channel === "cli" ? cliRoot! : mcpRoot;
        for (const t of LIVE_TARGETS) {
          const el = t.pick(root)!;
          for (const k of kindsOf(root, el)) {
            // Values tick, slides rotate, labels flip between the read and each action.
            await sleep(700);
            const w0 = await witness(d.pid, d.env);
            let code: string | undefined;
            const target = k.ref !== undefined ? { ref: k.ref } : { id: k.id };
            if (channel === "cli") {
              const args = ["click", "--pid", pid, "--session", SESSION];
              args.push(...(k.ref !== undefined ? ["--ref", k.ref] : ["--id", String(k.id)]));
              const r = await runCli(d, args);
              if (r.code !== 0) code = JSON.parse(r.stderr.trim().split("\n").pop()!).code;
            } else {
              const r = await agent.call("click", { pid: d.pid, ...target });
              if (r.isError) code = JSON.parse(r.text).code;
            }
            let w = await witness(d.pid, d.env);
            const until = Date.now() + 8000;
            while (code === undefined && w.n === w0.n && Date.now() < until) {
              await sleep(100);
              w = await witness(d.pid, d.env);
            }
            attempts.push({
              scenario: "live content",
              target: t.name,
              kind: k.kind,
              given: k.ref ?? `id ${k.id}`,
              channel,
              outcome: w.n !== w0.n
                ? (code === undefined && w.n === w0.n + 1 && w.uid === t.uid ? "hit" : "wrong")
                : code === undefined
                ? "missed"
                : "refused",
              ...(code ? { code } : {}),
              ...(w.n !== w0.n ? { witnessed: `${w.uid} ${w.text}` } : {}),
              expected: "hit",
            });
          }
        }
      }
      // A cell whose text is a ticking value is found by the ref read, long after the read.
      const status = findIn(
        cliRoot!,
        (e) => e.r === "cell" && /so-1005\/status$/.test(e.ref ?? ""),
      );
      assert.ok(status?.ref, "the status cell of SO-1005 has a ref keyed by its column");
      const found = await runCli(d, [
        "find",
        "--pid",
        pid,
        "--session",
        SESSION,
        "--ref",
        status.ref,
      ]);
      assert.equal(found.code, 0, found.stderr);
    } finally {
      await agent.client.close().catch(() => {});
    }
    const falseRefusals = attempts.filter((a) => a.outcome === "refused");
    console.log(
      `live content: ${attempts.length} actions, ${
        attempts.filter((a) => a.outcome === "hit").length
      } hits, ${falseRefusals.length} false refusals, ${
        attempts.filter((a) => a.outcome === "wrong").length
      } wrong`,
    );
    assertNoWrongElement(attempts);
    assert.ok(attempts.length >= 25, `${attempts.length} attempts`);
  },
});
