/**
 * The live-content scenarios of the identity suite (refs.md section 3), shared
 * by tests/e2e/mutation_live_test.ts and bench/ref_stability.ts: apps whose
 * content changes by itself while an agent works. Two agents (the CLI in its
 * own session, and an MCP connection) read once; then, while values tick,
 * slides rotate and labels flip, each clicks every element it saw by every
 * kind of target (full ref, shortest unique suffix, twin ref, id). Every
 * action must reach the element read: a refusal here is a false refusal. The
 * witness is the app's own log in its window title, read through pyatspi.
 *
 * @module
 */

import type { Element, Snapshot } from "../../src/model/element.ts";
import { runCli } from "../harness/cli.ts";
import { REPO_ROOT, type TestDesktop } from "../harness/desktop.ts";
import { type Attempt, clickAndWitness, findIn, kindsOf, mcpClient } from "./mutation_scenarios.ts";

/** An element of a live app and the uid its log shows when an action reaches it. */
export interface LiveTarget {
  /** For reports. */
  name: string;
  /** What the witness shows when the action reaches the element read. */
  uid: string;
  /** Finds the element in a read. */
  pick: (root: Element) => Element | undefined;
}

/** A live app of the suite. */
export interface LiveApp {
  /** Scenario name in the table. */
  scenario: string;
  /** The elements the agents click. */
  targets: LiveTarget[];
  /** Ref of a button that starts the changes, pressed before the agents read. */
  start?: string;
  /** Whether a read shows the app ready (its targets laid out). */
  ready?: (root: Element) => boolean;
}

/** The live page: tests/fixtures/web/live_content.html. */
export const LIVE_PAGE = `${REPO_ROOT}tests/fixtures/web/live_content.html`;

const byLabel = (r: Element["r"], t: RegExp) => (root: Element) =>
  findIn(root, (e) => e.r === r && t.test(e.t ?? ""));

/** The Refund button in the row of an order, whatever its status and total say. */
const refundOf = (order: string) => (root: Element) => {
  const row = findIn(root, (e) => e.r === "row" && !!findIn(e, (c) => c.t === order));
  return row && findIn(row, (e) => e.r === "btn" && e.t === "Refund");
};

/** The Remove button beside a name in the watchlist (plain groups, no rows). */
const removeOf = (name: string) => (root: Element) => {
  const list = findIn(root, (e) => e.t === "Watchlist" && e.r !== "txt");
  const item = list?.c?.find((g) => !!findIn(g, (c) => c.t === name));
  return item && findIn(item, (e) => e.r === "btn" && e.t === "Remove");
};

/** The page's scenario: ticking orders, a rotating carousel, flipping toggles, a menubar. */
export const LIVE_WEB: LiveApp = {
  scenario: "live page: values tick, slides rotate, labels flip, a menu opens",
  targets: [
    { name: "Refund of SO-1005", uid: "refund-SO-1005", pick: refundOf("SO-1005") },
    {
      name: "carousel's Stop/Start",
      uid: "rotate-toggle",
      pick: byLabel("btn", /automatic slide show/),
    },
    { name: "Pause/Start updates", uid: "pause-toggle", pick: byLabel("btn", /updates$/) },
    { name: "menubar item Font", uid: "font-item", pick: byLabel("menuitem", /^Font$/) },
    { name: "switch Notifications", uid: "notify", pick: byLabel("toggle", /^Notifications$/) },
    {
      name: "Alan's Remove (twins; the price beside it ticks)",
      uid: "remove-Alan",
      pick: removeOf("Alan"),
    },
  ],
  ready: (root) => LIVE_WEB.targets.every((t) => t.pick(root)?.b),
};

/** A cell of the TreeView's row of `item`: the name, or the status beside it. */
function treeCell(item: string, column: "name" | "status") {
  return (root: Element) => {
    const table = findIn(root, (e) => e.r === "table");
    // Cells grouped into rows (as the reader does for tree views), or straight under the table.
    const rows = (table?.c ?? []).filter((e) => e.r === "row");
    const groups = rows.length ? rows.map((r) => r.c ?? []) : [table?.c ?? []];
    for (const group of groups) {
      const cells = group.filter((e) => e.r === "cell");
      const name = cells.find((e) => e.t === item);
      if (!name) continue;
      if (column === "name") return name;
      return cells.find((e) => e !== name && (rows.length > 0 || e.b?.[1] === name.b?.[1]));
    }
    return undefined;
  };
}

/** The GTK 3 TreeView (tests/fixtures/mutation_treeview.py) with its Status column ticking. */
export const LIVE_TREEVIEW: LiveApp = {
  scenario: "GTK TreeView: Status figures tick every 300 ms",
  start: "tick",
  targets: [
    { name: 'Name cell "Item 2"', uid: "u2", pick: treeCell("Item 2", "name") },
    { name: 'Status cell of "Item 2"', uid: "u2", pick: treeCell("Item 2", "status") },
    { name: 'Status cell of "Item 5"', uid: "u5", pick: treeCell("Item 5", "status") },
  ],
  ready: (root) => LIVE_TREEVIEW.targets.every((t) => t.pick(root)?.b),
};

const SESSION = "live-agent";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a live scenario on a started desktop.
 *
 * @param d the test desktop running the app
 * @param live the scenario
 * @returns every click, expected to hit
 */
export async function runLiveSuite(d: TestDesktop, live: LiveApp): Promise<Attempt[]> {
  const pid = String(d.pid);
  const agent = await mcpClient(d);
  const attempts: Attempt[] = [];
  try {
    if (live.start) {
      const r = await runCli(d, [
        "click",
        "--pid",
        pid,
        "--session",
        "live-driver",
        "--ref",
        live.start,
      ]);
      if (r.code !== 0) throw new Error(`start ${live.start}: ${r.stderr}`);
    }
    let cliRoot: Element | undefined;
    for (let k = 0; k < 40; k++) {
      const r = await runCli(d, ["read", "--pid", pid, "--session", SESSION, "--format", "json"]);
      cliRoot = r.code === 0 ? (JSON.parse(r.stdout) as Snapshot).root : undefined;
      if (cliRoot && (live.ready?.(cliRoot) ?? true)) break;
      await sleep(500);
    }
    if (!cliRoot || !live.targets.every((t) => t.pick(cliRoot!))) {
      throw new Error(`${live.scenario}: the targets are not in the agent's read`);
    }
    const mcpRead = await agent.call("read", { pid: d.pid, format: "json" });
    if (mcpRead.isError) throw new Error(`MCP read: ${mcpRead.text}`);
    const mcpRoot = (JSON.parse(mcpRead.text) as Snapshot).root;
    for (const channel of ["cli", "mcp"] as const) {
      const root = channel === "cli" ? cliRoot : mcpRoot;
      for (const t of live.targets) {
        const el = t.pick(root)!;
        for (const k of kindsOf(root, el)) {
          // The content changes between the read and each action.
          await sleep(700);
          attempts.push({
            scenario: live.scenario,
            target: t.name,
            kind: k.kind,
            given: k.ref ?? `id ${k.id}`,
            channel,
            ...await clickAndWitness(d, d.pid, channel, agent, SESSION, k, t.uid),
            expected: "hit",
          });
        }
      }
    }
    return attempts;
  } finally {
    await agent.client.close().catch(() => {});
  }
}
