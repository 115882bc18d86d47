/**
 * The scenarios of the identity mutation suite on its two apps: a page in
 * Chromium (tests/fixtures/web/mutation_identity.html) and a GTK 3 TreeView
 * (tests/fixtures/mutation_treeview.py). Run by tests/e2e/mutation_*_test.ts
 * and bench/ref_stability.ts.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { REPO_ROOT } from "../harness/desktop.ts";
import {
  allOf,
  type Attempt,
  findIn,
  gtkCell,
  type Scenario,
  type SuiteApp,
  type TargetSpec,
} from "./mutation_scenarios.ts";

/** The page of the suite. */
export const PAGE = `${REPO_ROOT}tests/fixtures/web/mutation_identity.html`;

/** The Open button next to the text `text` inside the element labelled `landmark`. */
function openIn(landmark: string, text: string): (root: Element) => Element | undefined {
  const isOpen = (e: Element) => e.r === "btn" && e.t === "Open";
  const holds = (e: Element) => !!findIn(e, (x) => x.t === text) && !!findIn(e, isOpen);
  // The smallest container holding both: the row, whatever role the toolkit gave it.
  const narrow = (e: Element): Element => {
    const inner = (e.c ?? []).find(holds);
    return inner ? narrow(inner) : e;
  };
  return (root) => {
    const host = findIn(root, (e) => e.t === landmark && e.r !== "txt");
    if (!host || !holds(host)) return undefined;
    return findIn(narrow(host), isOpen);
  };
}

export const ITEM_2: TargetSpec = {
  name: 'Open in list row "Item 2"',
  uid: "u2",
  pick: openIn("Items", "Item 2"),
};
const ROW_2: TargetSpec = {
  name: 'Open in grid row "Row 2"',
  uid: "u7",
  pick: openIn("Grid", "Row 2"),
};
const POST_2: TargetSpec = {
  name: 'Open in feed row "Post 2"',
  uid: "u11",
  pick: openIn("Feed", "Post 2"),
};
const SUBMIT: TargetSpec = {
  name: "the Order form's Submit",
  uid: "form-submit",
  pick: (root) => {
    const form = findIn(root, (e) => e.t === "Order" && e.r !== "txt");
    return form && findIn(form, (e) => e.r === "btn" && e.t === "Submit");
  },
};

/** The scenarios on the page, in order. */
export const WEB_SCENARIOS: Scenario[] = [
  {
    name: "in-place re-render (non-keyed rows)",
    targets: [ITEM_2, ROW_2],
    expect: "refuse",
    mutate: (ctx) => ctx.press("scenarios/in-place"),
  },
  {
    name: "virtualised list, rows recycled by scrolling",
    targets: [POST_2],
    expect: "refuse",
    mutate: (ctx) => ctx.press("scenarios/recycle"),
  },
  {
    name: "newcomer in another landmark",
    targets: [SUBMIT],
    expect: "refuse",
    mutate: (ctx) => ctx.press("scenarios/newcomer"),
  },
  {
    name: "sort a table (keyed rows move)",
    targets: [ITEM_2, ROW_2],
    expect: "hit",
    mutate: (ctx) => ctx.press("scenarios/sort"),
  },
  {
    name: "rename a row",
    targets: [ITEM_2, ROW_2],
    expect: "refuse",
    mutate: (ctx) => ctx.press("scenarios/rename"),
  },
  {
    name: "a second identical row",
    targets: [ITEM_2, ROW_2],
    expect: "hit",
    mutate: (ctx) => ctx.press("scenarios/duplicate"),
  },
  {
    name: "replay read of an older snapshot",
    targets: [ITEM_2, ROW_2],
    expect: "hit",
    // The agent saved a snapshot, the page changed, the agent read again; then it reads
    // the old snapshot (same app, same pid) and acts on what its live read showed.
    before: async (ctx) => {
      await ctx.agentCli(["read", "--pid", String(ctx.pid()), "--save", `${ctx.dir}/old.json`]);
    },
    mutate: (ctx) => ctx.press("scenarios/insert-above"),
    readAfter: true,
    after: async (ctx) => {
      await ctx.agentCli(["read", "--from", `${ctx.dir}/old.json`]);
    },
  },
  {
    name: "two sessions (another agent reads after a change)",
    targets: [ITEM_2, ROW_2],
    expect: "hit",
    mutate: (ctx) => ctx.press("scenarios/insert-above"),
    after: async (ctx) => {
      await ctx.otherCli("other-agent", ["read", "--pid", String(ctx.pid())]);
    },
  },
];

/** The suite on the page. */
export const WEB_SUITE: SuiteApp = {
  scenarios: WEB_SCENARIOS,
  reset: "scenarios/reset",
  applied: (root, presses) => allOf(root).some((e) => e.t === `gen ${presses}`),
  peers: true,
};

/** Fails with every wrong, missed or unexpected click listed. */
export function assertNoWrongElement(attempts: Attempt[]): void {
  const show = (a: Attempt) =>
    `${a.scenario} / ${a.target} / ${a.kind} ${a.given} / ${a.channel}: ${a.outcome}` +
    `${a.code ? ` ${a.code}` : ""}${a.witnessed ? ` (reached ${a.witnessed})` : ""}`;
  const wrong = attempts.filter((a) => a.outcome === "wrong" || a.outcome === "missed");
  assert.deepEqual(wrong.map(show), [], "wrong-element or missed actions");
  const badCode = attempts.filter((a) =>
    a.outcome === "refused" && a.code !== "STALE_REF" && a.code !== "AMBIGUOUS_TARGET"
  );
  assert.deepEqual(badCode.map(show), [], "refusals with another code");
  const unexpected = attempts.filter((a) => (a.expected === "hit") !== (a.outcome === "hit"));
  assert.deepEqual(unexpected.map(show), [], "outcomes other than expected");
}

/** The app of the suite. */
export const TREEVIEW = `${REPO_ROOT}tests/fixtures/mutation_treeview.py`;

const NAME_2: TargetSpec = {
  name: 'Name cell "Item 2"',
  uid: "u2",
  pick: (root) => gtkCell(root, "name", "Item 2"),
};
const STATUS_2: TargetSpec = {
  name: 'Status cell of "Item 2" ("Open" in every row)',
  uid: "u2",
  pick: (root) => gtkCell(root, "status", "Item 2"),
};

/** The scenarios on the TreeView, in order. */
export const GTK_SCENARIOS: Scenario[] = [
  {
    name: "GTK TreeView: rows rewritten in place (cells reused)",
    targets: [NAME_2, STATUS_2],
    expect: "refuse",
    mutate: (ctx) => ctx.press("in-place"),
  },
  {
    name: "GTK TreeView: sort",
    targets: [NAME_2, STATUS_2],
    expect: "hit",
    mutate: (ctx) => ctx.press("sort"),
  },
  {
    name: "GTK TreeView: rename a row",
    targets: [NAME_2, STATUS_2],
    expect: "refuse",
    mutate: (ctx) => ctx.press("rename"),
  },
  {
    name: "GTK TreeView: a second identical row",
    targets: [NAME_2, STATUS_2],
    expect: "hit",
    mutate: (ctx) => ctx.press("duplicate"),
  },
  {
    name: "GTK TreeView: two sessions",
    targets: [NAME_2, STATUS_2],
    expect: "hit",
    mutate: (ctx) => ctx.press("insert"),
    after: async (ctx) => {
      await ctx.otherCli("other-agent", ["read", "--pid", String(ctx.pid())]);
    },
  },
  {
    name: "GTK TreeView: app restart",
    targets: [NAME_2, STATUS_2],
    // Refs name the same item in the new process; an id was of the old one.
    expect: (kind) => kind === "id" ? "refuse" : "hit",
    mutate: async (ctx) => {
      await ctx.restartApp();
    },
  },
];

/** The suite on the TreeView. */
export const GTK_SUITE: SuiteApp = {
  scenarios: GTK_SCENARIOS,
  reset: "reset",
  start: { app: "gtk3-script", url: TREEVIEW },
};
