/**
 * Token benchmark: what an agent pays to see one page. Our agent format of
 * tests/fixtures/web/form.html (a form and a 300-row list) read through
 * AT-SPI in Chromium, against Playwright's AI aria snapshot of the same page
 * (`locator('body').ariaSnapshot({mode: 'ai'})`), both counted with the
 * o200k tokenizer. Also checks that every interactive element stays
 * addressable: each one in our output carries a ref.
 *
 * Run: deno run -A bench/tokens.ts [--section]
 * (`--section` also replaces this benchmark's section of BENCHMARKS.md)
 *
 * @module
 */

import { getEncoding } from "js-tiktoken";
import { chromium } from "playwright-core";
import { runCli } from "../tests/harness/cli.ts";
import { agentTargets } from "../src/output/agent_parse.ts";
import { REPO_ROOT, startDesktop, type TestDesktop } from "../tests/harness/desktop.ts";
import type { Element } from "../src/model/element.ts";
import { INTERACTIVE_ROLES } from "../src/model/roles.ts";
import { machineFacts, publishResults } from "./report.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/form.html`;
const TITLE = "Desktop test form";
const PLAYWRIGHT_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** ARIA roles Playwright prints that an agent can act on. */
const PW_INTERACTIVE = new Set([
  "button",
  "textbox",
  "searchbox",
  "checkbox",
  "radio",
  "switch",
  "link",
  "combobox",
  "listbox",
  "option",
  "slider",
  "spinbutton",
  "tab",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "treeitem",
]);

const encoder = getEncoding("o200k_base");

/** o200k tokens of a text. */
export function tokens(text: string): number {
  return encoder.encode(text).length;
}

/** Agent text with the `(x,y,w,h)` bounds removed: what the format costs without them. */
/** Agent text without numeric ids (`[12|form/email]` -> `[form/email]`). */
function refsOnly(text: string): string {
  return text.replace(/\[\d+\|/g, "[");
}

/** Runs the CLI and fails loudly on an error. */
async function cli(d: TestDesktop, args: string[]): Promise<string> {
  const res = await runCli(d, args);
  if (res.code !== 0) throw new Error(`desktop ${args.join(" ")} failed: ${res.stderr}`);
  return res.stdout;
}

/** Every element of a tree, depth-first. */
function* elements(el: Element): Generator<Element> {
  yield el;
  for (const c of el.c ?? []) yield* elements(c);
}

/** Our side: the page read through AT-SPI, in the agent format. */
async function ours(): Promise<{
  page: string;
  app: string;
  interactiveOnly: string;
  noBounds: string;
  interactive: number;
  withRef: number;
  missing: string[];
}> {
  await using d = await startDesktop({ app: "chromium", url: PAGE });
  // The page fills its list from a script: wait until the last row is in the tree.
  let full = "";
  for (let tries = 0; tries < 60 && !full.includes("Item 300"); tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 500));
    full = await cli(d, ["read", "--app", d.appName]);
  }
  if (!full.includes("Item 300")) throw new Error("the page never finished loading");
  const doc = JSON.parse(await cli(d, ["read", "--app", d.appName, "--format", "json"]));
  const web = [...elements(doc.root as Element)].find((e) => e.r === "web" && e.t === TITLE);
  if (!web?.ref) throw new Error(`no web document "${TITLE}" in the tree`);
  const page = await cli(d, ["read", "--app", d.appName, "--scope-ref", web.ref]);
  const interactiveOnly = await cli(d, [
    "read",
    "--app",
    d.appName,
    "--scope-ref",
    web.ref,
    "--interactive",
  ]);
  const noBounds = await cli(d, [
    "read",
    "--app",
    d.appName,
    "--scope-ref",
    web.ref,
    "--no-bounds",
  ]);
  const printed = new Set(agentTargets(page).map((t) => t.ref));
  let interactive = 0;
  let withRef = 0;
  const missing: string[] = [];
  for (const el of elements(web)) {
    if (!INTERACTIVE_ROLES.has(el.r)) continue;
    interactive++;
    // Addressable: the agent output gives its ref (a uniform row's `[40]` cell
    // counts with the ref its header derives: agentTargets).
    if (el.ref && printed.has(el.ref)) withRef++;
    else missing.push(`${el.r} ${JSON.stringify(el.t ?? "")}`);
  }
  return { page, app: full, interactiveOnly, noBounds, interactive, withRef, missing };
}

/** The peer: Playwright's AI aria snapshot of the same page, with and without boxes. */
async function playwright(): Promise<{ ai: string; aiBoxes: string; interactive: number }> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: PLAYWRIGHT_FLAGS,
  });
  try {
    const page = await browser.newPage();
    await page.goto(`file://${PAGE}`);
    await page.getByText("Item 300").waitFor();
    const ai = await page.locator("body").ariaSnapshot({ mode: "ai" });
    const aiBoxes = await page.locator("body").ariaSnapshot({ mode: "ai", boxes: true });
    let interactive = 0;
    for (const line of ai.split("\n")) {
      const m = /^\s*- ([a-z]+)\b.*\[ref=e\d+\]/.exec(line);
      if (m && PW_INTERACTIVE.has(m[1])) interactive++;
    }
    return { ai, aiBoxes, interactive };
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const us = await ours();
  const pw = await playwright();
  const dump = Deno.env.get("BENCH_DUMP"); // a directory: keep the compared texts for a look
  if (dump) {
    await Deno.mkdir(dump, { recursive: true });
    for (const [name, text] of Object.entries({ ...us, ...pw })) {
      if (typeof text === "string") await Deno.writeTextFile(`${dump}/${name}.txt`, text);
    }
  }
  const t = {
    page: tokens(us.page),
    app: tokens(us.app),
    pw: tokens(pw.ai),
    pwBoxes: tokens(pw.aiBoxes),
    interactiveOnly: tokens(us.interactiveOnly),
    noBounds: tokens(us.noBounds),
    refsOnly: tokens(refsOnly(us.noBounds)),
  };
  const facts = await machineFacts();
  const ratio = (a: number, b: number) => (a / b).toFixed(2) + "x";
  const body = [
    "Command: `deno run -A bench/tokens.ts`",
    "",
    `- date: ${facts.date}; ${facts.cpu}, ${facts.cores} cores; deno ${facts.deno}; ${facts.chromium}; at-spi2-core ${facts.atspi}`,
    "- page: tests/fixtures/web/form.html (sign-up form + 300 rows, each with a Delete button)",
    "- tokenizer: o200k_base (npm js-tiktoken 1.0.21); peer: npm playwright-core 1.65.1, " +
    "`locator('body').ariaSnapshot({mode:'ai'})`, same system Chromium",
    "",
    "| output | tokens | vs Playwright AI snapshot | interactive elements | addressable |",
    "|---|---:|---:|---:|---:|",
    `| ours: \`read --scope-ref <page>\` (agent, with bounds) | ${t.page} | ${
      ratio(t.page, t.pw)
    } | ${us.interactive} | ${us.withRef} by ref |`,
    `| Playwright AI snapshot | ${t.pw} | 1.00x | ${pw.interactive} | ${pw.interactive} by ref |`,
    `| Playwright AI snapshot with boxes | ${t.pwBoxes} | ${
      ratio(t.pwBoxes, t.pw)
    } | ${pw.interactive} | ${pw.interactive} by ref |`,
    `| ours: \`read\` of the whole browser window | ${t.app} | ${ratio(t.app, t.pw)} | | |`,
    `| ours: \`read --scope-ref <page> --interactive\` | ${t.interactiveOnly} | ${
      ratio(t.interactiveOnly, t.pw)
    } | | |`,
    `| ours: \`read --scope-ref <page> --no-bounds\` | ${t.noBounds} | ${
      ratio(t.noBounds, t.pw)
    } | | |`,
    `| derived: \`--no-bounds\` output without numeric ids (\`[ref]\` only) | ${t.refsOnly} | ${
      ratio(t.refsOnly, t.pw)
    } | | |`,
    "",
    `Target: at most 0.60x with every interactive element addressable. Result: ${
      ratio(t.page, t.pw)
    }, ${us.withRef}/${us.interactive} interactive elements carry a printed ref` +
    (us.missing.length ? ` (without: ${us.missing.slice(0, 10).join(", ")})` : "") + ".",
    "Our output also carries a box for every element on screen (Playwright's boxes option gives",
    "one to every element).",
    "",
  ].join("\n");
  await publishResults("tokens.md", "Tokens: agent format vs Playwright AI snapshot", body);
}
