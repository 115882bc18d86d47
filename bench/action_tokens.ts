/**
 * Tokens an agent reads (o200k, js-tiktoken): the MCP tool list, and an
 * action's result with the changes it caused against a re-read of the same
 * app after the action (the peer: what the agent had to do before actions
 * reported their effect). Three real apps on the headless test desktop.
 *
 * `deno run -A bench/action_tokens.ts [--section]`
 *
 * With `--web`: what four everyday actions on a web page in Chromium report
 * (tests/fixtures/web/diff_actions.html: a scroll of a long list, a sort by a
 * table's header, a menu that opens, a modal dialog that opens), in tokens,
 * through the CLI with `--diff`; the section "Action diffs: tokens".
 *
 * `deno run -A bench/action_tokens.ts --web [--section]`
 *
 * @module
 */

import { getEncoding } from "js-tiktoken";
import { runCli } from "../tests/harness/cli.ts";
import {
  type DesktopApp,
  REPO_ROOT,
  startDesktop,
  type TestDesktop,
} from "../tests/harness/desktop.ts";
import { toolList } from "../src/mcp/tools.ts";
import { INSTRUCTIONS } from "../src/mcp/server.ts";
import { machineFacts, publishResults } from "./report.ts";

const enc = getEncoding("o200k_base");
const tokens = (s: string) => enc.encode(s).length;

async function cli(d: TestDesktop, args: string[]): Promise<string> {
  const r = await runCli(d, args);
  if (r.code !== 0) throw new Error(`desktop ${args.join(" ")}: ${r.stderr}`);
  // As printed: tokens are counted on what an agent reads.
  return r.printed.replace(/\n$/, "");
}

/** One action on the web page: its CLI words after `--app NAME`. */
interface WebStep {
  what: string;
  words: string[];
  /** CLI words that undo the step before the next one (a menu left open holds the pointer). */
  after?: string[];
}

const WEB_PAGE = `${REPO_ROOT}tests/fixtures/web/diff_actions.html`;

const WEB_STEPS: WebStep[] = [
  {
    what: "scroll a 400-item list down 10 steps",
    words: ["scroll", "--ref", "inbox", "--direction", "down", "--amount", "10"],
  },
  { what: "sort a 12-row table by its Name header", words: ["click", "--ref", "name/btn"] },
  { what: "sort it back (key Return on the header)", words: ["key", "Return"] },
  {
    what: "open a menu button's menu (4 items)",
    words: ["click", "--ref", "actions"],
    after: ["key", "Escape"],
  },
  { what: "open a modal dialog (6 fields)", words: ["click", "--ref", "new-contact"] },
];

/** One app: how to find the element to act on, and the action's CLI words. */
interface Case {
  app: DesktopApp;
  what: string;
  /** The action's words after `--app NAME` (with --diff: the text MCP returns). */
  act: (d: TestDesktop) => Promise<string[]>;
}

const CASES: Case[] = [
  {
    app: "gtk3-widget-factory",
    what: "click a check box",
    act: async (d) => {
      // The first check box that takes input (the factory disables some on purpose).
      const boxes = JSON.parse(
        await cli(d, ["find", "--app", d.appName, "--roles", "chk", "--all", "--format", "json"]),
      ) as Array<{ ref: string; e?: false }>;
      const box = boxes.find((b) => b.e !== false);
      if (!box) throw new Error("no enabled check box");
      return ["click", "--ref", box.ref];
    },
  },
  {
    app: "gnome-calculator",
    what: "press the 7 key",
    act: () => Promise.resolve(["key", "7"]),
  },
  {
    app: "mousepad",
    what: "type a word into the document",
    act: async (d) => {
      const [editor] = JSON.parse(
        await cli(d, ["find", "--app", d.appName, "--roles", "input", "--all", "--format", "json"]),
      );
      return ["type", "--ref", editor.ref, "--text", "hello"];
    },
  },
  {
    // A live table: its figures change every second or two, whatever the agent does.
    app: "gnome-system-monitor",
    what: "sort the live process table by Memory",
    act: () => Promise.resolve(["click", "--ref", "table/memory"]),
  },
];

interface Row {
  app: string;
  what: string;
  action: number;
  reread: number;
  changes: number;
}

if (Deno.args.includes("--web")) {
  await webActions();
  Deno.exit(0);
}

const rows: Row[] = [];
for (const c of CASES) {
  await using d = await startDesktop({ app: c.app });
  const app = ["--app", d.appName];
  const words = await c.act(d);
  await cli(d, ["read", ...app]); // the read an agent starts from, and acts on
  const acted = await cli(d, [...words, ...app, "--diff"]);
  const reread = await cli(d, ["read", ...app]);
  rows.push({
    app: c.app,
    what: c.what,
    action: tokens(acted),
    reread: tokens(reread),
    changes: acted.split("\n").length - 1,
  });
}

const tools = toolList();
const listTokens = tokens(JSON.stringify({ tools }));
const facts = await machineFacts();
const body = [
  "`deno run -A bench/action_tokens.ts` (tokens: o200k_base, js-tiktoken). " +
  `${facts.date}, ${facts.cpu}, Deno ${facts.deno}.`,
  "",
  `MCP tool list (\`tools/list\` result): **${listTokens} tokens** for ${tools.length} tools ` +
  `(${Math.round(listTokens / tools.length)} per tool); the server's instructions, which ` +
  `describe the shared parameters once, are ${tokens(INSTRUCTIONS)} more.`,
  "",
  "An action's result with the changes it caused (what `click`/`type` return over MCP, and " +
  "with `--diff` on the CLI) against reading the app again after the action:",
  "",
  "| app | action | result + changes | re-read | ratio | change lines |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows.map((r) =>
    `| ${r.app} | ${r.what} | ${r.action} | ${r.reread} | ${
      (r.action / r.reread).toFixed(3)
    }x | ${r.changes} |`
  ),
  "",
  "The live table's figure depends on what the machine does meanwhile: its diff also lists the " +
  "processes that started or ended and the figures the app updated by itself during the " +
  "action (all true changes, none caused by the click); by hand, beside other work, the same " +
  "sort printed 25 change lines.",
  "",
].join("\n");
await publishResults(
  "action_tokens.md",
  "Tokens: tool list, and an action's effect vs a re-read",
  body,
);

/** The web page's actions, each right after a read, in tokens; published as its own section. */
async function webActions(): Promise<void> {
  await using d = await startDesktop({ app: "chromium", url: WEB_PAGE });
  const app = ["--app", d.appName];
  for (let k = 0; k < 60; k++) {
    const r = await runCli(d, ["find", ...app, "--text", "Katherine Johnson"]);
    if (r.code === 0) break;
    await new Promise((ok) => setTimeout(ok, 500));
  }
  const out: Array<{ what: string; cmd: string; tokens: number; lines: number; reread: number }> =
    [];
  let boxed = 0;
  for (const step of WEB_STEPS) {
    await cli(d, ["read", ...app]); // the read an agent starts from, and acts on
    if (step.words[0] === "scroll") {
      // The same scroll with --bounds (what every action reported before), then back up.
      boxed = tokens(await cli(d, [...step.words, ...app, "--diff", "--bounds"]));
      await cli(d, ["scroll", ...app, "--ref", "inbox", "--direction", "up", "--amount", "10"]);
      await cli(d, ["read", ...app]);
    }
    const acted = await cli(d, [...step.words, ...app, "--diff"]);
    if (/unverified/.test(acted)) throw new Error(`${step.what}: ${acted}`);
    out.push({
      what: step.what,
      cmd: `desktop ${step.words.join(" ")} --diff`,
      tokens: tokens(acted),
      lines: acted.split("\n").length - 1,
      reread: tokens(await cli(d, ["read", ...app])),
    });
    if (step.after) await cli(d, [...step.after, ...app]);
  }
  const facts = await machineFacts();
  const body = [
    "`deno run -A bench/action_tokens.ts --web` (tokens: o200k_base, js-tiktoken; Chromium " +
    `${facts.chromium.replace(/^Chromium /, "")} on the headless test desktop). ` +
    `${facts.date}, ${facts.cpu}, Deno ${facts.deno}.`,
    "",
    "What an action prints with `--diff` (its ok line and the changes it caused; MCP returns " +
    "the same text) on tests/fixtures/web/diff_actions.html, each right after a read, against " +
    "reading the app again. Every action is verified (no `unverified`). Target: under 300.",
    "",
    "| action | command | result + changes | change lines | re-read |",
    "| --- | --- | --- | --- | --- |",
    ...out.map((r) => `| ${r.what} | \`${r.cmd}\` | ${r.tokens} | ${r.lines} | ${r.reread} |`),
    "",
    `The same scroll with \`--bounds\` (every box that moved, as actions reported before): ` +
    `${boxed} tokens.`,
    "",
  ].join("\n");
  await publishResults("action_diffs.md", "Action diffs: tokens", body);
}
