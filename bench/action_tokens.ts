/**
 * Tokens an agent reads (o200k, js-tiktoken): the MCP tool list, and an
 * action's result with the changes it caused against a re-read of the same
 * app after the action (the peer: what the agent had to do before actions
 * reported their effect). Three real apps on the headless test desktop.
 *
 * `deno run -A bench/action_tokens.ts [--section]`
 *
 * @module
 */

import { getEncoding } from "js-tiktoken";
import { runCli } from "../tests/harness/cli.ts";
import { type DesktopApp, startDesktop, type TestDesktop } from "../tests/harness/desktop.ts";
import { toolList } from "../src/mcp/tools.ts";
import { INSTRUCTIONS } from "../src/mcp/server.ts";
import { machineFacts, publishResults } from "./report.ts";

const enc = getEncoding("o200k_base");
const tokens = (s: string) => enc.encode(s).length;

async function cli(d: TestDesktop, args: string[]): Promise<string> {
  const r = await runCli(d, args);
  if (r.code !== 0) throw new Error(`desktop ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.replace(/\n$/, "");
}

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
    act: () => Promise.resolve(["click", "--ref", "checkbutton.5"]),
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
];

interface Row {
  app: string;
  what: string;
  action: number;
  reread: number;
  changes: number;
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
].join("\n");
await publishResults(
  "action_tokens.md",
  "Tokens: tool list, and an action's effect vs a re-read",
  body,
);
