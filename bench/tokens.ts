/**
 * Token benchmark: what an agent pays to see one page or app.
 *
 * Web: each page of the corpus (tests/fixtures/web/corpus/*.html, plus
 * tests/fixtures/web/form.html) is read through AT-SPI in Chromium (`read
 * --scope-ref <page>`, agent format) and compared with Playwright's AI aria
 * snapshot of the same page (`locator('body').ariaSnapshot({mode: 'ai'})`,
 * npm playwright-core with the same system Chromium), in the same run, both
 * counted with the o200k tokenizer. Every interactive element of the page must
 * be addressable by a ref copied from our output (read back with
 * agentTargets and resolved like `--ref`).
 *
 * Pages nobody here wrote can be added with `--page <file> <title>` (any
 * local HTML file, e.g. the Rust documentation rustup installs); they get a
 * table of their own.
 *
 * Apps: the default `read` of each app of the real-app corpus.
 *
 * "Before" is the same read by an older checkout of this repository, when
 * one is given: `--before <dir>` (e.g. a `git archive` of an earlier commit
 * unpacked there), run against the same desktop in the same run.
 *
 * Run: deno run -A bench/tokens.ts [--before <dir>] [--section] [--page <file> <title>]...
 * (`--section` also replaces this benchmark's section of BENCHMARKS.md)
 *
 * @module
 */

import { getEncoding } from "js-tiktoken";
import { chromium } from "playwright-core";
import { runCli } from "../tests/harness/cli.ts";
import { agentTargets } from "../src/output/agent_parse.ts";
import {
  type DesktopApp,
  REPO_ROOT,
  startDesktop,
  type TestDesktop,
} from "../tests/harness/desktop.ts";
import type { Element } from "../src/model/element.ts";
import { INTERACTIVE_ROLES } from "../src/model/roles.ts";
import { resolveRef } from "../src/refs/resolve.ts";
import { machineFacts, publishResults } from "./report.ts";

/** One page of the corpus: file, what it is, and a text that shows it finished loading. */
export interface CorpusPage {
  /** Path below the repository root (or an absolute path). */
  file: string;
  /** What kind of page it is. */
  kind: string;
  /** The page's title (its web document's label). */
  title: string;
}

/** The web corpus: at least 8 kinds of page, written like real sites, not tuned to this tool. */
export const CORPUS: readonly CorpusPage[] = [
  {
    file: "tests/fixtures/web/corpus/orders.html",
    kind: "data table with row actions (200 orders, a Refund button each)",
    title: "Orders · Acme Admin",
  },
  {
    file: "tests/fixtures/web/corpus/article.html",
    kind: "long article",
    title: "How tide pools work · Coastal Notes",
  },
  {
    file: "tests/fixtures/web/corpus/docs.html",
    kind: "nested navigation (docs site)",
    title: "Caching · Framework Docs",
  },
  {
    file: "tests/fixtures/web/corpus/settings.html",
    kind: "settings form",
    title: "Settings · Acme Account",
  },
  {
    file: "tests/fixtures/web/corpus/search.html",
    kind: "search results",
    title: "sourdough starter - Findr Search",
  },
  {
    file: "tests/fixtures/web/corpus/mail.html",
    kind: "mail-like list (50 messages)",
    title: "Inbox (12) - Mailbox",
  },
  {
    file: "tests/fixtures/web/corpus/dialog.html",
    kind: "dialog over a form",
    title: "Checkout · Acme Shop",
  },
  {
    file: "tests/fixtures/web/corpus/iframes.html",
    kind: "page with iframes",
    title: "Benchmarking single-board computers · Dev Weekly",
  },
  {
    file: "tests/fixtures/web/form.html",
    kind: "form + 300-row list (script-filled)",
    title: "Desktop test form",
  },
];

const PLAYWRIGHT_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const encoder = getEncoding("o200k_base");

/** o200k tokens of a text. */
export function tokens(text: string): number {
  return encoder.encode(text).length;
}

/**
 * The quoted strings of an agent text (labels, texts, values), unescaped: what
 * a read prints of the page's words.
 *
 * @param agent agent-format text
 * @returns the strings, in order
 */
export function quotedTexts(agent: string): string[] {
  return [...agent.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`));
}

/**
 * The most tokens a page's read may take: half of Playwright's snapshot, or,
 * on a page whose text alone is over 0.45x of it, that text plus 10%.
 *
 * @param textAlone tokens of the page's texts alone
 * @param pw tokens of Playwright's snapshot
 * @returns the target, in tokens
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetTokens } from "./tokens.ts";
 * assert.equal(targetTokens(100, 1000), 500);
 * assert.equal(targetTokens(600, 1000), 660);
 * ```
 */
export function targetTokens(textAlone: number, pw: number): number {
  return textAlone > 0.45 * pw ? Math.floor(textAlone * 1.1) : Math.floor(0.5 * pw);
}

/** Runs a CLI (ours, or an older checkout's) and fails loudly on an error. */
async function cli(d: TestDesktop, argv: string[], root = REPO_ROOT): Promise<string> {
  // Large pages on a loaded machine: a generous deadline (tokens, not time, are measured).
  const args = [...argv, "--timeout", "120000"];
  if (root === REPO_ROOT) {
    const res = await runCli(d, args);
    if (res.code !== 0) throw new Error(`desktop ${args.join(" ")} failed: ${res.stderr}`);
    // As printed (runCli's stdout has every ref written out for tests): tokens an agent reads.
    return res.printed;
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${root}/cli.ts`, ...args],
    cwd: root,
    env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state-before` },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (out.code !== 0) throw new Error(`before: ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

/** Every element of a tree, depth-first. */
export function* elements(el: Element): Generator<Element> {
  yield el;
  for (const c of el.c ?? []) yield* elements(c);
}

/** What our side of one page gave. */
export interface PageRead {
  /** Agent text of the page (`read --scope-ref <page>`). */
  text: string;
  /** The whole read as JSON (the app's tree, full refs). */
  root: Element;
  /** The page's web document in that tree. */
  web: Element;
  /** The older checkout's agent text of the same page, when asked for. */
  before?: string;
}

/**
 * Reads one page through AT-SPI: waits until its document is in the tree, then
 * returns the agent text scoped to it and the JSON of the whole read.
 *
 * @param d a desktop running Chromium on the page
 * @param title the page's title
 * @param before an older checkout to read the same page with, if any
 * @returns the texts and the tree
 */
export async function readPage(d: TestDesktop, title: string, before?: string): Promise<PageRead> {
  let root: Element | undefined;
  let web: Element | undefined;
  let last = -1;
  for (let tries = 0; tries < 90; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 500));
    const doc = JSON.parse(await cli(d, ["read", "--app", d.appName, "--format", "json"]));
    root = doc.root as Element;
    web = [...elements(root)].find((e) => e.r === "web" && e.t === title);
    // Loaded and settled: the page's document is there and two reads agree in size.
    const size = web ? [...elements(web)].length : -1;
    if (web && size === last && size > 5) break;
    last = size;
  }
  if (!root || !web?.ref) throw new Error(`no web document "${title}" in the tree`);
  const args = ["read", "--app", d.appName, "--scope-ref", web.ref];
  const text = await cli(d, args);
  let old: string | undefined;
  if (before) {
    // The older checkout names the document by its own rules: find it in its JSON.
    const doc = JSON.parse(await cli(d, ["read", "--app", d.appName, "--format", "json"], before));
    const w = [...elements(doc.root as Element)].find((e) => e.r === "web" && e.t === title);
    if (w?.ref) old = await cli(d, ["read", "--app", d.appName, "--scope-ref", w.ref], before);
  }
  return { text, root, web, ...(old !== undefined ? { before: old } : {}) };
}

/**
 * Which interactive elements of the page a ref copied from the text reaches.
 *
 * @param page our read of the page
 * @returns counts and the elements that could not be reached
 */
export function addressable(page: PageRead): { total: number; ok: number; missing: string[] } {
  const byRef = new Map<string, Element>();
  for (const el of elements(page.root)) if (el.ref) byRef.set(el.ref, el);
  const reached = new Set<Element>();
  for (const t of agentTargets(page.text)) {
    try {
      reached.add(resolveRef(page.root, t.ref));
    } catch {
      // Not resolvable: counted as missing below if it was interactive.
    }
  }
  let total = 0;
  const missing: string[] = [];
  for (const el of elements(page.web)) {
    if (!INTERACTIVE_ROLES.has(el.r)) continue;
    total++;
    if (!reached.has(el)) missing.push(`${el.ref} ${el.r} ${JSON.stringify(el.t ?? "")}`);
  }
  return { total, ok: total - missing.length, missing };
}

/** Playwright's AI snapshot of a page. */
async function playwright(file: string): Promise<string> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: PLAYWRIGHT_FLAGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`file://${file.startsWith("/") ? "" : REPO_ROOT}${file}`);
    await page.waitForLoadState("load");
    if (file.endsWith("form.html")) await page.getByText("Item 300").waitFor();
    return await page.locator("body").ariaSnapshot({ mode: "ai" });
  } finally {
    await browser.close();
  }
}

/** One app of the real-app corpus, as the default read prints it. */
interface AppRow {
  app: DesktopApp;
  after: number;
  before?: number;
  lines: number;
}

/** Default read of an app, ours and (optionally) the older checkout's. */
async function readApp(app: DesktopApp, before?: string): Promise<AppRow> {
  const url = app === "zenity"
    ? ["--text=Contact", "--add-entry=Name", "--add-entry=E-mail", "--add-password=Password"]
      .join("\0")
    : undefined;
  await using d = await startDesktop({ app, ...(url ? { url } : {}) });
  // Settled: two reads of the same size.
  let text = "";
  for (let tries = 0, last = -1; tries < 40; tries++) {
    await new Promise((r) => setTimeout(r, tries ? 1000 : 2000));
    text = await cli(d, ["read", "--app", d.appName]);
    const n = text.split("\n").length;
    if (n === last && n > 3) break;
    last = n;
  }
  const old = before ? await cli(d, ["read", "--app", d.appName], before) : undefined;
  return {
    app,
    after: tokens(text),
    ...(old !== undefined ? { before: tokens(old) } : {}),
    lines: text.split("\n").length - 1,
  };
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--before");
  const before = at >= 0 ? Deno.args[at + 1] : undefined;
  const dump = Deno.env.get("BENCH_DUMP"); // a directory: keep the compared texts for a look
  if (dump) await Deno.mkdir(dump, { recursive: true });
  const ratio = (a: number, b: number) => (a / b).toFixed(2) + "x";
  const webRows: string[] = [];
  const worst: number[] = [];
  const misses: string[] = [];
  // `--page <file> <title>` (repeatable): a page of one's own choosing, e.g. a documentation page
  // nobody here wrote, measured the same way in a table of its own.
  const extra: CorpusPage[] = [];
  Deno.args.forEach((a, k) => {
    if (a === "--page") {
      extra.push({
        file: Deno.args[k + 1],
        title: Deno.args[k + 2],
        kind: "page not written here",
      });
    }
  });
  const extraRows: string[] = [];
  for (const page of [...CORPUS, ...extra]) {
    const isExtra = extra.includes(page);
    const url = page.file.startsWith("/") ? page.file : `${REPO_ROOT}${page.file}`;
    let read: PageRead;
    {
      await using d = await startDesktop({ app: "chromium", url });
      if (page.file.endsWith("form.html")) {
        for (let k = 0; k < 60; k++) {
          if ((await cli(d, ["read", "--app", d.appName])).includes("Item 300")) break;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      read = await readPage(d, page.title, before);
    }
    const pw = await playwright(page.file);
    const name = page.file.split("/").pop()!;
    if (dump) {
      await Deno.writeTextFile(`${dump}/${name}.ours.txt`, read.text);
      await Deno.writeTextFile(`${dump}/${name}.pw.txt`, pw);
      if (read.before) await Deno.writeTextFile(`${dump}/${name}.before.txt`, read.before);
    }
    const t = {
      ours: tokens(read.text),
      pw: tokens(pw),
      before: read.before && tokens(read.before),
    };
    const reach = addressable(read);
    const floor = tokens(quotedTexts(read.text).join("\n"));
    // What the read costs without its handles: where a page misses, is it the handles?
    const bare = tokens(read.text.replace(/\[(?:\d+|-)(?:\|[^\]]+)?\] ?/g, ""));
    const goal = targetTokens(floor, t.pw);
    if (!isExtra) worst.push(t.ours / t.pw);
    if (t.ours > goal) misses.push(`${name} (${t.ours}, target ${goal})`);
    (isExtra ? extraRows : webRows).push(
      `| ${name} | ${page.kind} | ${t.before ?? ""} | ${t.ours} | ${t.pw} | ${
        t.before ? ratio(t.before, t.pw) : ""
      } | **${ratio(t.ours, t.pw)}** | ${ratio(floor, t.pw)} | ${ratio(bare, t.pw)} | ${goal} | ${
        t.ours <= goal ? "yes" : "**no**"
      } | ${reach.ok}/${reach.total} |`,
    );
    console.error(
      `${name}: ${t.before ?? "-"} -> ${t.ours} vs ${t.pw}; ${reach.ok}/${reach.total}`,
    );
    if (reach.missing.length) console.error("  not addressable:", reach.missing.slice(0, 5));
  }
  const appRows: string[] = [];
  const apps = [
    "gnome-calculator",
    "zenity",
    "mousepad",
    "libreoffice-writer",
    "gnome-system-monitor",
    "keepassxc",
  ] as const;
  for (const app of apps) {
    try {
      const r = await readApp(app, before);
      appRows.push(`| ${app} | ${r.before ?? ""} | ${r.after} | ${r.lines} |`);
      console.error(`${app}: ${r.before ?? "-"} -> ${r.after}`);
    } catch (e) {
      // An app that does not start on a loaded machine is reported, not a lost run.
      appRows.push(`| ${app} | not measured: ${String(e).split("\n")[0].slice(0, 80)} | | |`);
    }
  }
  const facts = await machineFacts();
  const body = [
    "Command: `deno run -A bench/tokens.ts --before <dir>` (`<dir>`: an older checkout, e.g.",
    "`git archive <commit> | tar -x -C <dir>`, read against the same desktop in the same run)",
    "",
    `- date: ${facts.date}; ${facts.cpu}, ${facts.cores} cores; deno ${facts.deno}; ${facts.chromium}; at-spi2-core ${facts.atspi}`,
    "- ours: `read --scope-ref <page>` (agent format, default options: no boxes, static text without refs,",
    "  short refs); peer: npm playwright-core 1.65.1 `locator('body').ariaSnapshot({mode:'ai'})` of",
    "  the same file, same system Chromium, 1200x800 viewport; tokenizer: o200k_base (npm",
    "  js-tiktoken 1.0.21)",
    "- addressable: interactive elements of the page reached by a ref copied from our output",
    "  (read back with `agentTargets`, resolved like `--ref`)",
    "",
    "- without handles: our read with every handle (`[id|ref]`, or `[id]` where the ref is the",
    "  label's slug) removed (what the handles cost)",
    "- text alone: the page's texts and labels as our read quotes them, one per line, with nothing",
    "  else (no ids, refs, roles or states), against Playwright: no read that keeps every text can",
    "  go below it",
    "",
    "| page | kind | before | ours | Playwright | before vs PW | ours vs PW | text alone vs PW | without handles vs PW | target | met | addressable |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...webRows,
    "",
    "Target (tokens): at most 0.5x Playwright's on every page, except a page whose text alone is " +
    "over 0.45x Playwright's: there, at most its text alone plus 10%. Worst page: " +
    `${Math.max(...worst).toFixed(2)}x; best: ${Math.min(...worst).toFixed(2)}x. ` +
    (misses.length ? `Missed: ${misses.join(", ")}.` : "Every page meets it."),
    "",
    "Why a page misses: each element line starts with a handle, its id alone where the ref is",
    "the label's slug (`[94]`) and its id and ref elsewhere (`[57|hydration-levels.1]`), where",
    "Playwright has one `[ref=eN]`; the column `without handles` is the same read with every",
    "handle taken out. A long article's text alone is most of Playwright's snapshot, and its",
    "paragraphs are printed whole.",
    "",
    ...(extraRows.length
      ? [
        "More pages (`--page <file> <title>`): documentation installed on the machine, not",
        "written for this tool (the Rust documentation rustup installs: mdBook and rustdoc",
        "pages; the Node.js API docs and npm's docs from Debian's nodejs and npm's own",
        "package; KeePassXC's manual), and an issue tracker (`bench/pages/issues.html`,",
        "written for this benchmark), measured the same way:",
        "",
        "| page | kind | before | ours | Playwright | before vs PW | ours vs PW | text alone vs PW | without handles vs PW | target | met | addressable |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ...extraRows,
        "",
      ]
      : []),
    "Real apps, default `read` of the app (tokens; lines of output now):",
    "",
    "| app | before | ours | lines |",
    "|---|---:|---:|---:|",
    ...appRows,
    "",
  ].join("\n");
  await publishResults("tokens.md", "Tokens: agent format vs Playwright AI snapshot", body);
}
