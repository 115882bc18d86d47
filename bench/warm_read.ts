/**
 * Warm reads (Linux): what a read costs when the process that answers it
 * kept the app's tree (src/platform/linux/live_tree.ts), against the peers,
 * in the same run on the same 3,000-node Chromium page:
 *
 * - an MCP `read` of the unchanged page (the server's worker keeps the tree)
 *   against Playwright's in-browser AI snapshot of the same page
 *   (`locator('body').ariaSnapshot({mode:'ai'})`, npm playwright-core with
 *   the same system Chromium, headless, its own browser);
 * - an MCP `read` after one row of the page changed;
 * - a whole `desktop read` process with the background process running
 *   (src/daemon/), and without it (`--no-daemon`: nothing kept), next to
 *   `desktop --version` (the command tree's start-up) and an empty script
 *   (Deno's own start: the floor of any CLI process);
 * - a pyatspi walk of the same attributes (bench/pyatspi_walk.py);
 * - a large page (5,000 rows, about 25,000 objects, more than a read's
 *   default 10 s can walk on a slow machine): a whole read in the CLI's own
 *   process with time enough, and through the background process the first
 *   read (TIMEOUT while the app answers, read on), the time until a read is
 *   whole, an unchanged read, and a click with its changes.
 *
 * Times are medians of `BENCH_ROUNDS` rounds (default 7), measured from the
 * caller's side (the MCP client, the shell that starts the process).
 *
 * Run: `deno run -A bench/warm_read.ts` (prints the section);
 * `deno run -A bench/warm_read.ts --section` also writes the section
 * "Warm reads (Linux)" of BENCHMARKS.md.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { chromium } from "playwright-core";
import { runCli } from "../tests/harness/cli.ts";
import { REPO_ROOT, startDesktop } from "../tests/harness/desktop.ts";
import { rowsPage } from "../tests/harness/rows_page.ts";
import { PyPeer } from "./read_speed.ts";
import { machineFacts, percentile, writeSection } from "./report.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 7);
const ROWS = 470;
/** Rows of the large page. */
const LARGE_ROWS = 5000;

const median = (xs: number[]) => percentile(xs, 50);
const fmt = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

/** Playwright's in-browser AI snapshot of the page: each snapshot timed, in its own browser. */
async function playwrightSnapshots(file: string): Promise<{ ms: number[]; chars: number }> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await p.goto(`file://${file}`);
    await p.waitForLoadState("load");
    let chars = 0;
    await p.locator("body").ariaSnapshot({ mode: "ai" });
    const ms: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [t, s] = await time(() => p.locator("body").ariaSnapshot({ mode: "ai" }));
      ms.push(t);
      chars = s.length;
    }
    return { ms, chars };
  } finally {
    await browser.close();
  }
}

/** The 1-minute load average (other work on the machine skews every figure). */
function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  } catch {
    return "?";
  }
}

/** What the large page's reads and a click on it cost, through the background process. */
async function largePage(): Promise<string[]> {
  const file = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(file, rowsPage(LARGE_ROWS, "Large page", 37));
  await using d = await startDesktop({ app: "chromium", url: `file://${file}` });
  const cli = (args: string[]) => time(() => runCli(d, args));
  try {
    const long = ["--timeout", "120000"];
    let objects = 0;
    let coldMs = 0;
    for (let i = 0; i < 40 && objects === 0; i++) {
      const [t, r] = await cli(["read", "--app", d.appName, "--no-daemon", "--format", "json"]
        .concat(long));
      if (r.code === 0 && r.stdout.includes(`Select ${LARGE_ROWS - 1}`)) {
        objects = (r.stdout.match(/"r":/g) ?? []).length;
        coldMs = t;
      } else await new Promise((r) => setTimeout(r, 500));
    }
    if (!objects) throw new Error("the large page was never read whole");
    const [oneShot] = await cli(["read", "--app", d.appName, "--no-daemon", ...long]);
    await runCli(d, ["daemon", "start"]);
    try {
      const started = performance.now();
      const [firstMs, first] = await cli(["read", "--app", d.appName]);
      const firstSays = first.code === 0
        ? "whole"
        : (JSON.parse(first.stderr.trim().split("\n").at(-1)!) as { code: string }).code;
      let wholeAfter = first.code === 0 ? firstMs : 0;
      for (let i = 0; i < 30 && !wholeAfter; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const [, r] = await cli(["read", "--app", d.appName]);
        if (r.code === 0) wholeAfter = performance.now() - started;
      }
      const unchanged: number[] = [];
      for (let i = 0; i < ROUNDS; i++) unchanged.push((await cli(["read", "--app", d.appName]))[0]);
      const [clickMs, click] = await cli([
        "click",
        "--app",
        d.appName,
        "--ref",
        "select-10",
        "--diff",
      ]);
      if (click.code !== 0) throw new Error(`click: ${click.stderr}`);
      const [oneShotClick, again] = await cli(
        ["click", "--app", d.appName, "--ref", "select-10", "--diff", "--no-daemon", ...long],
      );
      if (again.code !== 0) throw new Error(`click: ${again.stderr}`);
      const verified = (out: string) => out.includes("unverified") ? "unverified" : "verified";
      return [
        "",
        `Large page: ${LARGE_ROWS} rows (${objects} elements in our JSON read), same machine and ` +
        "run. A read's default deadline is 10 s.",
        "",
        "| What | Time | |",
        "| --- | ---: | --- |",
        `| whole \`desktop read --no-daemon --timeout 120000\` process (cold) | ${
          fmt(oneShot)
        } | ` +
        `(the JSON read: ${fmt(coldMs)}) |`,
        `| first read through the background process | ${fmt(firstMs)} | ${firstSays} |`,
        `| until a read through it is whole (read again each second) | ${fmt(wholeAfter)} | |`,
        `| read of the unchanged page through it | ${fmt(median(unchanged))} | |`,
        `| \`click --ref select-10 --diff\` through it | ${fmt(clickMs)} | ${
          verified(click.stdout)
        } |`,
        `| the same click in the CLI's own process (\`--no-daemon --timeout 120000\`) | ` +
        `${fmt(oneShotClick)} | ${verified(again.stdout)} |`,
        "",
        "A read the deadline cuts while the app still answers says TIMEOUT with how far it got; " +
        "the background process reads on (a minute at most) and keeps the tree, so the next read " +
        "is answered from it (tests/e2e/large_tree_test.ts).",
      ];
    } finally {
      await runCli(d, ["daemon", "stop"]);
    }
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  // On a desktop of its own, first: the figures below are not taken beside it.
  const large = Deno.args.includes("--no-large") ? [] : await largePage();
  const file = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(file, rowsPage(ROWS, "Warm reads", 37));
  await using d = await startDesktop({ app: "chromium", url: `file://${file}` });
  const client = new Client({ name: "warm-read-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "mcp"],
      cwd: REPO_ROOT,
      env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
      stderr: "pipe",
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args }) as {
      content: Array<{ text?: string }>;
      isError?: boolean;
    };
    const text = res.content.map((c) => c.text ?? "").join("\n");
    if (res.isError) throw new Error(`${name}: ${text}`);
    return text;
  };
  // A generous timeout: a worker starts slowly on a busy machine (the times are measured anyway).
  const read = () => call("read", { app: d.appName, timeout: 60_000 });
  let nodes = 0;
  try {
    // The page in the app, whole (the first read may come before the page is built).
    for (let i = 0; i < 40; i++) {
      const cli = await runCli(d, ["read", "--app", d.appName, "--format", "json"]);
      if (cli.code === 0 && cli.stdout.includes(`Select ${ROWS - 1}`)) {
        nodes = (cli.stdout.match(/"r":/g) ?? []).length;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const [first] = await time(read);
    const warm: number[] = [];
    let warmText = "";
    for (let i = 0; i < ROUNDS; i++) {
      const [t, text] = await time(read);
      warm.push(t);
      warmText = text;
    }
    const changed: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await call("click", {
        app: d.appName,
        text: "Change one row",
        roles: "btn",
        timeout: 60_000,
      });
      // The page's events reach the worker while it idles.
      await new Promise((r) => setTimeout(r, 300));
      const [t, text] = await time(read);
      if (!text.includes(`Changed ${i + 1}`)) throw new Error(`row ${i + 1} not seen changed`);
      changed.push(t);
    }
    const cold: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [t, res] = await time(() => runCli(d, ["read", "--app", d.appName, "--no-daemon"]));
      if (res.code !== 0) throw new Error(res.stderr);
      cold.push(t);
    }
    const viaDaemon: number[] = [];
    const version: number[] = [];
    const bare: number[] = [];
    const emptyScript = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(emptyScript, "export {};\n");
    const cliEnv = { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` };
    const runProcess = async (args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, ...args],
        cwd: REPO_ROOT,
        env: cliEnv,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
      return new TextDecoder().decode(out.stderr);
    };
    await runProcess(["daemon", "start"]);
    try {
      await runProcess(["read", "--app", d.appName]);
      for (let i = 0; i < ROUNDS; i++) {
        const [t, stderr] = await time(() => runProcess(["read", "--app", d.appName]));
        if (stderr) throw new Error(`not through the background process: ${stderr}`);
        viaDaemon.push(t);
        version.push((await time(() => runProcess(["--version"])))[0]);
        bare.push(
          (await time(() =>
            new Deno.Command(Deno.execPath(), {
              args: ["run", "-A", "--quiet", emptyScript],
              cwd: REPO_ROOT,
              stdout: "null",
              stderr: "null",
            }).output()
          ))[0],
        );
      }
    } finally {
      await Deno.remove(emptyScript).catch(() => {});
      await runProcess(["daemon", "stop"]);
    }
    const py = new PyPeer(d.pid, d.env);
    const pyMs: number[] = [];
    let pyNodes = 0;
    try {
      await py.walk();
      for (let i = 0; i < ROUNDS; i++) {
        const [t, r] = await time(() => py.walk());
        pyMs.push(t);
        pyNodes = r.nodes;
      }
    } finally {
      await py.close();
    }
    await client.close();
    const pw = await playwrightSnapshots(file);
    const facts = await machineFacts();
    const verdict = (ok: boolean) => ok ? "met" : "**missed**";
    const mcpWarm = median(warm);
    const pwMs = median(pw.ms);
    const cliMs = median(cold);
    const pyMed = median(pyMs);
    const body = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. Command: ` +
      "`deno run -A bench/warm_read.ts --section` (`BENCH_ROUNDS` sets the rounds, default 7; " +
      "medians, timed from the caller's side).",
      "",
      `Machine: ${facts.cpu}, ${facts.cores} cores; Deno ${facts.deno}; ${facts.chromium}; ` +
      `at-spi2-core ${facts.atspi}. Page: generated, ${ROWS} rows of link, button and checkbox ` +
      `(${nodes} elements in our JSON read; pyatspi walks ${pyNodes} objects). Load average ` +
      `(1 min) ${loadBefore} at the start, ${loadAverage()} at the end, on ${facts.cores} cores.`,
      "",
      "| What | Time | Target | |",
      "| --- | ---: | --- | --- |",
      `| MCP \`read\`, first (cold, worker already started) | ${fmt(first)} | | |`,
      `| MCP \`read\` of the unchanged page (kept tree) | ${fmt(mcpWarm)} | ≤ Playwright | ${
        verdict(mcpWarm <= pwMs)
      } |`,
      `| Playwright AI snapshot, in the browser (${pw.chars} characters) | ${fmt(pwMs)} | peer | |`,
      `| MCP \`read\` after one row changed | ${fmt(median(changed))} | in proportion to ` +
      `the change | **missed**: the app's part is re-read alone, the page's text is made anew |`,
      `| whole \`desktop read\` process, background process running | ${
        fmt(median(viaDaemon))
      } | ≤ 50 ms | ${verdict(median(viaDaemon) <= 50)} |`,
      `| whole \`desktop --version\` process (start-up floor) | ${fmt(median(version))} | | |`,
      `| whole \`deno run\` of an empty script (Deno's own start) | ${fmt(median(bare))} | | |`,
      `| whole \`desktop read --no-daemon\` process (cold, nothing kept) | ${fmt(cliMs)} | | |`,
      `| pyatspi walk of the same attributes | ${fmt(pyMed)} | ≥ 10x the cold process | ${
        verdict(pyMed >= 10 * cliMs)
      } (${(pyMed / cliMs).toFixed(1)}x) |`,
      "",
      `Warm read output: ${warmText.split("\n").length} lines. After a change the kept tree ` +
      "re-reads only the parts the app's events name (on by default, `DESKTOP_LIVE_PATCH=0` " +
      "turns it off; a few nodes for one row: tests/e2e/warm_reads_test.ts), but ids, refs " +
      "and the agent text of the whole page are made again, so that part of the cost follows " +
      "the page. A read of an unchanged app repeats the last answer without fetching the " +
      "app's tree (the backend's version of its kept tree still holds: " +
      "`Provider.unchangedSince`, src/state/read_memo.ts), and with the app named it asks " +
      "the registry and that app once instead of listing every app. A CLI read through the " +
      "background process loads only the client (not the command tree that `--version` " +
      "loads), so its floor is Deno's own start (the empty-script row) plus the round trip.",
      ...large,
    ].join("\n");
    console.log(body);
    if (Deno.args.includes("--section")) await writeSection("Warm reads (Linux)", body);
  } finally {
    await client.close().catch(() => {});
    await Deno.remove(file).catch(() => {});
  }
}

if (import.meta.main) await main();
