/**
 * Read speed on Linux: our AT-SPI read against a pyatspi walk collecting the
 * same attributes, in the same run on the same app, on gtk3-widget-factory
 * and on Chromium (tests/fixtures/web/form.html, a denser generated page, and
 * form.html again with the page in the app's own cache). Writes the section
 * "Read speed (Linux)" of BENCHMARKS.md and appends the run's ratios to
 * bench/results/read_speed_history.jsonl.
 *
 * Run: `deno task bench` (all benchmarks) or `deno run -A bench/read_speed.ts`.
 * Each app runs in its own child process (`--one <app>`), because libatspi,
 * which the full `desktop read` path uses, binds to one bus per process.
 *
 * @module
 */

import { runCli } from "../tests/harness/cli.ts";
import { startDesktop } from "../tests/harness/desktop.ts";
import { AtspiBus } from "../src/platform/linux/dbus/atspi_bus.ts";
import { BENCHMARKS_MD, machineFacts, percentile, writeSection } from "./report.ts";

/** Timed rounds per app (after warm-up). */
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 15);
const WARMUP = 2;
const FORM = new URL("../tests/fixtures/web/form.html", import.meta.url).pathname;

type AppKey =
  | "gtk3-widget-factory"
  | "chromium"
  | "chromium-dense"
  | "chromium-3000"
  | "chromium-3000-cached"
  | "chromium-cached";

/**
 * A denser page than form.html (about 1,800 accessible nodes with the browser
 * window): 300 rows of link, button and checkbox under a small form.
 */
function densePage(count = 300): string {
  const rows = Array.from(
    { length: count },
    (_, i) =>
      `<li><a href="#r${i}">Row ${i}</a> <button>Edit ${i}</button> ` +
      `<input type="checkbox" aria-label="Select ${i}"></li>`,
  ).join("\n");
  return `<!doctype html><html><head><title>Dense list</title></head><body>
<h1>Orders</h1><form><label>Name <input placeholder="Your name"></label>
<label>Quantity <input type="range" min="0" max="10" value="3"></label>
<select><option>One</option><option>Two</option></select>
<button type="submit">Send</button></form>
<ul aria-label="orders">${rows}</ul></body></html>`;
}

const LABELS: Record<AppKey, string> = {
  "gtk3-widget-factory": "gtk3-widget-factory",
  chromium: "Chromium, tests/fixtures/web/form.html (form + 300-row list)",
  "chromium-dense": "Chromium, generated page (300 rows of link, button, checkbox)",
  "chromium-3000":
    "Chromium, generated page (470 rows: about 3,000 nodes), opened after the first contact (not in the app's cache)",
  "chromium-3000-cached":
    "Chromium, the same 3,000-node page, loaded before the first contact (in the app's cache)",
  "chromium-cached": "Chromium, form.html, page in the app's cache (first contact after load)",
};

/** Where each run's headline ratios are kept, so that BENCHMARKS.md can show the spread. */
const HISTORY = new URL("./results/read_speed_history.jsonl", import.meta.url).pathname;

/** One app's measurements, in milliseconds. */
interface AppResult {
  app: AppKey;
  label: string;
  nodes: { bus: number; full: number | null; pyatspi: number };
  bus: number[];
  full: number[] | null;
  /** A whole `desktop read` process (Deno start-up included), timed from outside. */
  process: number[];
  pyatspi: number[];
  /** CPU time the app itself spent per read (utime+stime of its process). */
  appCpu: { bus: number[]; pyatspi: number[] };
  profile: Record<string, unknown> | null;
  fullError?: string;
}

/** A long-lived pyatspi peer (bench/pyatspi_walk.py): one walk per request, timed inside Python. */
export class PyPeer {
  #proc: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;

  constructor(pid: number, env: Record<string, string>) {
    this.#proc = new Deno.Command("/usr/bin/python3", {
      args: [new URL("./pyatspi_walk.py", import.meta.url).pathname, String(pid)],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.#proc.stdin.getWriter();
    this.#lines = this.#proc.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new LineSplitter(),
    )[Symbol.asyncIterator]();
  }

  async walk(): Promise<{ ms: number; nodes: number }> {
    await this.#writer.write(new TextEncoder().encode("walk\n"));
    const { value, done } = await this.#lines.next();
    if (done) throw new Error("pyatspi peer exited");
    const r = JSON.parse(value);
    if (r.error) throw new Error(`pyatspi peer: ${r.error}`);
    return r;
  }

  async close(): Promise<void> {
    await this.#writer.write(new TextEncoder().encode("quit\n")).catch(() => {});
    await this.#writer.close().catch(() => {});
    await this.#proc.status;
  }
}

class LineSplitter extends TransformStream<string, string> {
  constructor() {
    let buf = "";
    super({
      transform(chunk, ctl) {
        buf += chunk;
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          ctl.enqueue(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      },
    });
  }
}

/** CPU milliseconds a process has used (10 ms resolution). */
function appCpuMs(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function countNodes(n: { children?: unknown[] }): number {
  let c = 1;
  for (const k of (n.children ?? []) as Array<{ children?: unknown[] }>) c += countNodes(k);
  return c;
}

/** Measures one app in this process. */
async function measureOne(app: AppKey): Promise<AppResult> {
  let url: string | undefined;
  if (app === "chromium" || app === "chromium-cached") url = FORM;
  const big = app === "chromium-3000" || app === "chromium-3000-cached";
  if (app === "chromium-dense" || big) {
    url = await Deno.makeTempFile({ prefix: "desktop-bench-", suffix: ".html" });
    await Deno.writeTextFile(url, densePage(big ? 470 : 300));
  }
  // The ATK bridge builds its object cache at the first client contact: a page
  // loaded by then is in it, one opened later is not (each object then costs
  // the app several calls). Both cases are measured, each made certain:
  // "cached" waits before the first contact, "chromium-3000" opens its page
  // only after one.
  const afterContact = app === "chromium-3000";
  await using desk = await startDesktop(
    url
      ? {
        app: "chromium",
        url: afterContact ? "about:blank" : url,
        ...(app === "chromium-cached" || app === "chromium-3000-cached"
          ? { firstContactDelayMs: 8000 }
          : {}),
      }
      : { app: "gtk3-widget-factory" },
  );
  for (const [k, v] of Object.entries(desk.env)) Deno.env.set(k, v);
  const bus = await AtspiBus.connect(5000);
  try {
    const apps = await bus.listApps();
    const target = apps.find((a) => a.name.toLowerCase() === desk.appName.toLowerCase()) ??
      apps.find((a) => a.name.toLowerCase().includes(app.split("-")[0]));
    if (!target) throw new Error(`${app} is not on the accessibility bus`);
    if (afterContact && url) {
      await bus.readTree(target.bus, target.root, { bounds: false, deadline: Date.now() + 30000 });
      const pid = String(target.pid);
      const typed = await runCli(desk, [
        "type",
        "--pid",
        pid,
        "--ref",
        "address-and-search-bar",
        "--text",
        `file://${url}`,
      ]);
      if (typed.code !== 0) throw new Error(`opening the page failed: ${typed.stderr}`);
      const entered = await runCli(desk, ["key", "--pid", pid, "Enter"]);
      if (entered.code !== 0) throw new Error(`opening the page failed: ${entered.stderr}`);
    }
    // Pages build their lists after load. The first read makes ATK-bridge apps
    // build their object cache; content added later may stay out of it (then
    // both readers fall back to per-object calls), so let the page settle first.
    if (url) await new Promise((r) => setTimeout(r, 6000));
    // Then wait until the node count holds still.
    let last = -1;
    for (let i = 0; i < 100; i++) {
      const tree = await bus.readTree(target.bus, target.root, {
        bounds: false,
        deadline: Date.now() + 30000,
      });
      const n = countNodes(tree);
      if (n === last && n > (big ? 2500 : 50)) break;
      last = n;
      await new Promise((r) => setTimeout(r, 500));
    }

    // The full path: library session → Linux provider → ids, refs → agent render.
    let full: ((n?: { nodes: number }) => Promise<void>) | null = null;
    let fullError: string | undefined;
    try {
      const { connect, renderElements } = await import("../mod.ts");
      const desktop = await connect({ timeoutMs: 30000 });
      full = async (out) => {
        const r = await desktop.read({ pid: target.pid }, {});
        const text = r.view.root ? renderElements(r.view.root, { format: "agent" }) : "";
        if (text.length === 0) throw new Error("empty render");
        if (out) out.nodes = r.view.total;
      };
      await full();
    } catch (e) {
      fullError = e instanceof Error ? e.message : String(e);
      full = null;
    }

    const peer = new PyPeer(target.pid, { ...Deno.env.toObject(), ...desk.env });
    const res: AppResult = {
      app,
      label: LABELS[app],
      nodes: { bus: 0, full: null, pyatspi: 0 },
      bus: [],
      full: full ? [] : null,
      process: [],
      pyatspi: [],
      appCpu: { bus: [], pyatspi: [] },
      profile: null,
      fullError,
    };
    const readBus = async () => {
      const t0 = performance.now();
      const tree = await bus.readTree(target.bus, target.root, {
        bounds: true,
        deadline: Date.now() + 30000,
      });
      const ms = performance.now() - t0;
      res.nodes.bus = countNodes(tree);
      return ms;
    };
    try {
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        const c0 = appCpuMs(target.pid);
        const py = await peer.walk();
        const c1 = appCpuMs(target.pid);
        const ours = await readBus();
        const c2 = appCpuMs(target.pid);
        let fullMs: number | null = null;
        if (full) {
          const n = { nodes: 0 };
          const t0 = performance.now();
          await full(n);
          fullMs = performance.now() - t0;
          res.nodes.full = n.nodes;
        }
        const p0 = performance.now();
        const proc = await runCli(desk, [
          "read",
          "--pid",
          String(target.pid),
          "--timeout",
          "30000",
        ]);
        const processMs = performance.now() - p0;
        if (proc.code !== 0) throw new Error(`desktop read failed: ${proc.stderr}`);
        if (Deno.env.get("BENCH_DEBUG")) console.error(JSON.stringify(bus.lastProfile));
        if (i < WARMUP) continue;
        res.process.push(processMs);
        res.pyatspi.push(py.ms);
        res.appCpu.pyatspi.push(c1 - c0);
        res.appCpu.bus.push(c2 - c1);
        res.nodes.pyatspi = py.nodes;
        res.bus.push(ours);
        if (fullMs !== null) res.full!.push(fullMs);
      }
      res.profile = bus.lastProfile as unknown as Record<string, unknown>;
    } finally {
      await peer.close();
    }
    return res;
  } finally {
    bus.close();
  }
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/** One run's headline ratios (pyatspi median / ours), per app. */
interface HistoryEntry {
  date: string;
  ratios: Partial<Record<AppKey, { bus: number; full?: number }>>;
}

/** Appends this run's ratios to the history file and returns every run, oldest first. */
async function recordRun(date: string, results: AppResult[]): Promise<HistoryEntry[]> {
  const ratios: HistoryEntry["ratios"] = {};
  for (const r of results) {
    const py = percentile(r.pyatspi, 50);
    ratios[r.app] = {
      bus: round1(py / percentile(r.bus, 50)),
      ...(r.full?.length ? { full: round1(py / percentile(r.full, 50)) } : {}),
    };
  }
  await Deno.writeTextFile(HISTORY, JSON.stringify({ date, ratios }) + "\n", { append: true });
  return (await Deno.readTextFile(HISTORY)).trim().split("\n").map((l) => JSON.parse(l));
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function historyTable(history: HistoryEntry[]): string {
  const apps = Object.keys(LABELS) as AppKey[];
  const rows = [
    `| run | ${apps.join(" | ")} |`,
    `|---|${apps.map(() => "---:").join("|")}|`,
  ];
  for (const h of history) {
    const cells = apps.map((a) => {
      const r = h.ratios[a];
      return r ? `${(r.full ?? r.bus).toFixed(1)}x` : "";
    });
    rows.push(`| ${h.date} | ${cells.join(" | ")} |`);
  }
  return rows.join("\n");
}

function table(results: AppResult[]): string {
  const rows = [
    "| app | reader | nodes | median ms | p90 ms | app CPU ms (median) | pyatspi median / ours |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of results) {
    const py = percentile(r.pyatspi, 50);
    rows.push(
      `| ${r.label} | pyatspi walk (peer) | ${r.nodes.pyatspi} | ${fmt(py)} | ${
        fmt(percentile(r.pyatspi, 90))
      } | ${fmt(percentile(r.appCpu.pyatspi, 50))} | 1.0x |`,
    );
    const b = percentile(r.bus, 50);
    rows.push(
      `| ${r.label} | ours: AtspiBus.readTree | ${r.nodes.bus} | ${fmt(b)} | ${
        fmt(percentile(r.bus, 90))
      } | ${fmt(percentile(r.appCpu.bus, 50))} | **${(py / b).toFixed(1)}x** |`,
    );
    if (r.full && r.full.length) {
      const f = percentile(r.full, 50);
      rows.push(
        `| ${r.label} | ours: full \`desktop read\` path | ${r.nodes.full} | ${fmt(f)} | ${
          fmt(percentile(r.full, 90))
        } | | **${(py / f).toFixed(1)}x** |`,
      );
    }
    if (r.process?.length) {
      const w = percentile(r.process, 50);
      rows.push(
        `| ${r.label} | ours: whole \`desktop read\` process | ${r.nodes.full ?? r.nodes.bus} | ${
          fmt(w)
        } | ${fmt(percentile(r.process, 90))} | | **${(py / w).toFixed(1)}x** |`,
      );
    }
  }
  return rows.join("\n");
}

async function main(): Promise<void> {
  const one = Deno.args.indexOf("--one");
  if (one >= 0) {
    const res = await measureOne(Deno.args[one + 1] as AppKey);
    console.log(JSON.stringify(res));
    return;
  }
  const results: AppResult[] = [];
  const apps: AppKey[] = [
    "gtk3-widget-factory",
    "chromium",
    "chromium-dense",
    "chromium-3000",
    "chromium-3000-cached",
    "chromium-cached",
  ];
  for (const app of apps) {
    console.error(`read_speed: measuring ${app} (${ROUNDS} rounds)...`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--one", app],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error(`read_speed: ${app} failed`);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    results.push(JSON.parse(lines[lines.length - 1]));
  }
  const facts = await machineFacts();
  const history = await recordRun(facts.date, results);
  const notes: string[] = [];
  for (const r of results) {
    if (r.fullError) notes.push(`- ${r.label}: the full read path failed: ${r.fullError}`);
    if (r.profile) {
      const p = r.profile as Record<string, number | boolean>;
      notes.push(
        `- ${r.label}, last AtspiBus read: ${p.bulk ? "`Cache.GetItems`" : "no bulk cache"}` +
          ` (${p.uncached} of ${p.nodes} objects missing from it and read field by field), ` +
          `${p.direct ? "direct connection to the app" : "through the bus daemon"}, ` +
          `${p.calls} D-Bus calls in ${p.writes} socket writes, ${
            Math.round(Number(p.bytesIn) / 1024)
          } KiB received, ${Number(p.decodeMs).toFixed(1)} ms decoding, structure known after ${
            Number(p.structureMs).toFixed(1)
          } ms (details already in flight).`,
      );
    }
  }
  const body = [
    `Measured ${facts.date}. Command: \`deno task bench\` (or \`deno run -A bench/read_speed.ts\`;`,
    "`BENCH_ROUNDS` sets the rounds, default 15, after 2 warm-up rounds).",
    "",
    `Machine: ${facts.cpu}, ${facts.cores} cores; Deno ${facts.deno}; at-spi2-core ${facts.atspi};`,
    `${facts.chromium}; Python ${facts.python} with pyatspi ${facts.pyatspi}.`,
    "",
    "Each round reads the same app four ways, one after another: the pyatspi walk,",
    "our `AtspiBus.readTree` (the raw tree with every printed attribute incl. bounds),",
    "the full `desktop read` path (library session, Linux provider, ids, refs, agent",
    "render), and a whole `desktop read --pid N` process (Deno start-up included, timed",
    "from outside). The pyatspi walk runs in one long-lived `/usr/bin/python3` process and",
    "is timed inside it (interpreter start-up excluded); the first two of ours are timed",
    "inside one Deno process the same way. Both skip hidden subtrees by the same rule and collect",
    "role, name, description, states, interfaces, extents, action names, text, value,",
    "labelled-by and the same object attributes (bench/pyatspi_walk.py).",
    "",
    table(results),
    "",
    ...notes,
    "",
    '"App CPU" is the CPU time the app\'s own process spent while one read ran',
    "(from /proc, 10 ms resolution): the work of answering the calls, which no client",
    "can avoid. Our read takes little more wall time than that; pyatspi's walk waits",
    "one round trip per call. On Chromium that app-side cost is the floor: every object",
    "costs one call for its extents and 1 + n for its n action names (the names",
    "`desktop action` accepts come only from `GetName`), and objects missing from the",
    "app's cache cost four more (role, states, interfaces, name/description/child count).",
    "",
    "Which objects the app's cache holds depends on when a client first contacted the",
    "app: the ATK bridge builds its cache then, and follows later changes only where",
    "the app signals them in a way it tracks. Chromium's web document, when it loads",
    "after that first contact, stays out, and each of its objects is read field by field",
    "(by both readers). Whether the first Chromium pages loaded before the test desktop's",
    "first contact varies from run to run; the 3,000-node page is measured both ways, each",
    "made certain: opened after a first read (not cached) and loaded 8 s before any",
    "contact (cached).",
    "",
    "Target: a whole `desktop read` process at least 10x faster than the pyatspi walk on",
    "the 3,000-node page. Met when the page is in the app's cache; missed when it is not:",
    "there Chromium's own CPU time to answer the calls (the app CPU column) alone nearly",
    "fills the time a 10x ratio allows, before our process start-up (about 60 ms for Deno",
    "and its modules) and work. A quarter of those calls read action names (Chromium lists",
    "two on every object); `GetActions` would take one call, but it returns localized",
    'names (empty in Chromium, "Click" for GTK 3\'s "click"), not the ones `desktop',
    "action` takes.",
    "",
    "Runs so far (`pyatspi median / ours`, full `desktop read` path, in",
    "bench/results/read_speed_history.jsonl). The ratio moves between machines of the",
    "same kind mostly with the peer: pyatspi's per-call cost, in the app and in Python,",
    "differs more from machine to machine than ours.",
    "",
    historyTable(history),
    "",
    "Our reader registers one rarely emitted event with the AT-SPI registry, as every",
    "screen reader does; ATK-bridge apps (GTK3, Chromium) publish `Cache.GetItems`",
    "only while some client listens for events. pyatspi's walk runs in the same",
    "state, but libatspi does not read that cache for a walk like this one: its time",
    "is the same with the page cached or not (compare the two form.html rows).",
  ].join("\n");
  await writeSection("Read speed (Linux)", body);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", BENCHMARKS_MD] }).output();
  console.log(table(results));
}

if (import.meta.main) await main();
