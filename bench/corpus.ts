/**
 * The real-app corpus on Linux, one table row per app: the wall time of a
 * whole `desktop read` process against a pyatspi walk of the same app
 * collecting the same attributes (bench/pyatspi_walk.py), in the same run;
 * node coverage against the pyatspi reference walker
 * (tests/harness/pyatspi_tree.py); and the tokens of the default read.
 * Writes the section "Real-app corpus (Linux)" of BENCHMARKS.md with
 * `--section`, and bench/results/corpus.md.
 *
 * Run: `deno run -A bench/corpus.ts` (`BENCH_ROUNDS` rounds per app, default
 * 5, after one warm-up round; `BENCH_APPS=evince,thunar` picks apps).
 *
 * @module
 */

import { encodePng } from "../src/output/png.ts";
import { getEncoding } from "js-tiktoken";
import { runCli } from "../tests/harness/cli.ts";
import { type DesktopApp, type DesktopOptions, startDesktop } from "../tests/harness/desktop.ts";
import { compareWithReference, coverage, pyatspiTree } from "../tests/harness/pyatspi_compare.ts";
import { drive } from "../tests/harness/desktop.ts";
import { tinyPdf } from "../tests/harness/pdf.ts";
import type { Snapshot } from "../src/model/element.ts";
import { PyPeer } from "./read_speed.ts";
import { machineFacts, percentile, publishResults } from "./report.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 5);
const encoder = getEncoding("o200k_base");

const PAGE = `<!doctype html><html><head><title>Corpus page</title></head><body>
<h1>Order form</h1><p>Fill in the <b>order</b> and press send.</p>
<form><label>Name <input placeholder="Your name"></label>
<label>Quantity <select><option>One</option><option selected>Two</option></select></label>
<label><input type="checkbox"> Gift wrap</label><button type="submit">Send</button></form>
<ul>${
  Array.from({ length: 40 }, (_, i) => `<li>Item ${i} <a href="#i${i}">open</a></li>`).join("")
}</ul></body></html>`;

/** One corpus app and how it is opened. */
interface Case {
  key: string;
  app: DesktopApp;
  label: string;
  setup?: (dir: string) => Promise<Partial<DesktopOptions>>;
}

const CASES: Case[] = [
  {
    key: "mousepad",
    app: "mousepad",
    label: "mousepad (GTK3), a text file",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/notes.txt`, "Shopping list\nmilk\n");
      return { url: `${dir}/notes.txt` };
    },
  },
  { key: "gnome-calculator", app: "gnome-calculator", label: "gnome-calculator (GTK4)" },
  {
    key: "evince",
    app: "evince",
    label: "evince (GTK3), a one-page PDF",
    setup: async (dir) => {
      await Deno.writeFile(`${dir}/report.pdf`, tinyPdf([["Quarterly report", "Revenue grew."]]));
      return { url: `${dir}/report.pdf` };
    },
  },
  {
    key: "thunar",
    app: "thunar",
    label: "thunar (GTK3), a folder of 20 files",
    setup: async (dir) => {
      for (let i = 0; i < 20; i++) await Deno.writeTextFile(`${dir}/file${i}.txt`, `${i}`);
      return { url: dir };
    },
  },
  {
    key: "file-chooser",
    app: "zenity",
    label: "GTK3 file chooser (zenity), 20 files",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/files`);
      for (let i = 0; i < 20; i++) await Deno.writeTextFile(`${dir}/files/f${i}.txt`, `${i}`);
      return { url: ["--file-selection", `--filename=${dir}/files/`].join("\0") };
    },
  },
  {
    key: "firefox-esr",
    app: "firefox-esr",
    label: "Firefox ESR, a local form and 40-item list",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/page.html`, PAGE);
      return { url: `${dir}/page.html` };
    },
  },
  {
    key: "chromium",
    app: "chromium",
    label: "Chromium, the same page",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/page.html`, PAGE);
      return { url: `${dir}/page.html` };
    },
  },
  {
    key: "libreoffice-writer",
    app: "libreoffice-writer",
    label: "LibreOffice Writer (gtk3), a short letter",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/letter.txt`, "Dear reader,\n\nThe figures follow.\n");
      return { url: `${dir}/letter.txt` };
    },
  },
  { key: "libreoffice-calc", app: "libreoffice-calc", label: "LibreOffice Calc (gtk3), new sheet" },
  {
    key: "gnome-system-monitor",
    app: "gnome-system-monitor",
    label: "gnome-system-monitor (GTK3), the process table",
  },
  { key: "keepassxc", app: "keepassxc", label: "KeePassXC (Qt 5), the welcome page" },
  {
    key: "nautilus",
    app: "nautilus",
    label: "nautilus (GTK 4), a folder of 20 files in its grid view",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/files`);
      for (let i = 0; i < 20; i++) await Deno.writeTextFile(`${dir}/files/f${i}.txt`, `${i}`);
      return { url: `${dir}/files` };
    },
  },
  {
    key: "geany",
    app: "geany",
    label: "Geany (GTK3), a C file with its symbol tree",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/sum.c`, "int add(int a, int b) { return a + b; }\n");
      return { url: `${dir}/sum.c` };
    },
  },
  {
    key: "eog",
    app: "eog",
    label: "eog (GTK3), a PNG with its properties pane",
    setup: async (dir) => {
      await Deno.writeFile(`${dir}/square.png`, await squarePng());
      return { url: `${dir}/square.png` };
    },
  },
  { key: "dconf-editor", app: "dconf-editor", label: "dconf-editor (GTK3), the schema folders" },
  { key: "xfce4-terminal", app: "xfce4-terminal", label: "xfce4-terminal (GTK3, VTE), a shell" },
  {
    key: "pcmanfm-qt",
    app: "pcmanfm-qt",
    label: "pcmanfm-qt (Qt 5), a folder of 20 files in its icon view",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/files`);
      for (let i = 0; i < 20; i++) await Deno.writeTextFile(`${dir}/files/f${i}.txt`, `${i}`);
      return { url: `${dir}/files` };
    },
  },
  { key: "gnome-clocks", app: "gnome-clocks", label: "gnome-clocks (GTK 4, libadwaita)" },
  { key: "abiword", app: "abiword", label: "AbiWord (GTK3), a new document" },
  {
    key: "gnome-font-viewer",
    app: "gnome-font-viewer",
    label: "gnome-font-viewer (GTK 4), the installed fonts' grid",
  },
  { key: "gnome-text-editor", app: "gnome-text-editor", label: "gnome-text-editor (GTK 4)" },
  { key: "gedit", app: "gedit", label: "gedit (GTK3), a new document" },
  { key: "kwrite", app: "kwrite", label: "KWrite (KDE Frameworks 5, Qt 5), the welcome view" },
  { key: "kcalc", app: "kcalc", label: "KCalc (KDE Frameworks 5, Qt 5)" },
  { key: "galculator", app: "galculator", label: "galculator (GTK3)" },
  { key: "meld", app: "meld", label: "meld (GTK3, Python), the new-comparison page" },
  {
    key: "qpdfview",
    app: "qpdfview",
    label: "qpdfview (Qt 5), a three-page PDF",
    setup: async (dir) => {
      await Deno.writeFile(`${dir}/three.pdf`, tinyPdf([["One"], ["Two"], ["Three"]]));
      return { url: `${dir}/three.pdf` };
    },
  },
  { key: "konsole", app: "konsole", label: "Konsole (KDE Frameworks 5, Qt 5), a shell" },
];

/** A 48x48 grey PNG. */
function squarePng(): Promise<Uint8Array> {
  return encodePng({ width: 48, height: 48, data: new Uint8Array(48 * 48 * 4).fill(200) });
}

/** One app's figures. */
interface Row {
  label: string;
  ours: number[];
  pyatspi: number[];
  pyNodes: number;
  refNodes: number;
  common: number;
  extra: number;
  showing: number;
  ourNodes: number;
  tokens: number;
  error?: string;
}

async function measure(c: Case): Promise<Row> {
  const dir = await Deno.makeTempDir({ prefix: "desktop-bench-corpus-" });
  try {
    const extra = c.setup ? await c.setup(dir) : {};
    await using d = await startDesktop({ app: c.app, registerTimeoutMs: 120_000, ...extra });
    // Let the app settle: pages and folders fill in after the window shows.
    await new Promise((r) => setTimeout(r, 5000));
    const row: Row = {
      label: c.label,
      ours: [],
      pyatspi: [],
      pyNodes: 0,
      refNodes: 0,
      common: 0,
      extra: 0,
      showing: 0,
      ourNodes: 0,
      tokens: 0,
    };
    const peer = new PyPeer(d.pid, d.env);
    try {
      for (let i = 0; i < 1 + ROUNDS; i++) {
        const py = await peer.walk();
        const t0 = performance.now();
        const res = await runCli(d, ["read", "--app", d.appName, "--timeout", "30000"]);
        const ms = performance.now() - t0;
        if (res.code !== 0) throw new Error(`desktop read failed: ${res.stderr}`);
        if (i === 0) {
          row.tokens = encoder.encode(res.printed).length;
          continue;
        }
        row.ours.push(ms);
        row.pyatspi.push(py.ms);
        row.pyNodes = py.nodes;
      }
    } finally {
      await peer.close();
    }
    const snap = await drive<Snapshot>(d, { op: "read", scope: { pid: d.pid }, timeoutMs: 30000 });
    if (!snap.ok) throw new Error(`read failed: ${JSON.stringify(snap.error)}`);
    const conf = compareWithReference(snap.value.root, await pyatspiTree(d));
    row.refNodes = conf.refNodes;
    row.common = conf.common;
    row.extra = conf.extra.length;
    row.showing = conf.showing.length;
    row.ourNodes = conf.ourNodes;
    return row;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(0);
}

async function main(): Promise<void> {
  const pick = Deno.env.get("BENCH_APPS")?.split(",");
  const rows: Row[] = [];
  for (const c of CASES.filter((x) => !pick || pick.includes(x.key))) {
    console.error(`corpus: ${c.key} (${ROUNDS} rounds)...`);
    try {
      rows.push(await measure(c));
    } catch (e) {
      const error = e instanceof Error ? e.message.split("\n")[0] : String(e);
      rows.push({
        label: c.label,
        ours: [],
        pyatspi: [],
        pyNodes: 0,
        refNodes: 0,
        common: 0,
        extra: 0,
        showing: 0,
        ourNodes: 0,
        tokens: 0,
        error,
      });
    }
  }
  const facts = await machineFacts();
  const lines = [
    "| app | `desktop read` median ms (whole process) | pyatspi walk median ms | pyatspi / ours | nodes (pyatspi walk) | coverage vs pyatspi | ours only | showing cells | tokens (default read) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    if (r.error) {
      lines.push(`| ${r.label} | failed: ${r.error.replaceAll("|", "/")} | | | | | | | |`);
      continue;
    }
    const o = percentile(r.ours, 50);
    const p = percentile(r.pyatspi, 50);
    const cov = coverage({ refNodes: r.refNodes, common: r.common } as never);
    lines.push(
      `| ${r.label} | ${fmt(o)} | ${fmt(p)} | ${(p / o).toFixed(1)}x | ${r.pyNodes} | ${
        cov.toFixed(1)
      }% (${r.common}/${r.refNodes}) | ${r.extra} | ${r.showing} | ${r.tokens} |`,
    );
  }
  const body = [
    `Measured ${facts.date}. Command: \`deno run -A bench/corpus.ts --section\` (also run by`,
    "`deno task bench`; `BENCH_ROUNDS` rounds per app, default 5, after one warm-up round).",
    "",
    `Machine: ${facts.cpu}, ${facts.cores} cores; Deno ${facts.deno}; at-spi2-core ${facts.atspi};`,
    `${facts.chromium}; Python ${facts.python} with pyatspi ${facts.pyatspi}; Debian 12 packages`,
    "of each app.",
    "",
    "Each round, on one test desktop per app: a pyatspi walk collecting the attributes",
    "`desktop read` prints (bench/pyatspi_walk.py, one long-lived Python process, timed",
    "inside it: interpreter start-up excluded), then a whole `desktop read --app X`",
    "process (Deno start-up, connecting, reading, refs, agent render), timed from outside.",
    "Coverage: the share of the nodes the reference walker (tests/harness/pyatspi_tree.py,",
    "the same deliberate choices as the reader: hidden subtrees, documents not showing,",
    "containers that manage their descendants) finds that our read has too; `ours only`",
    "counts nodes we read that it did not find; `showing cells` counts what we read of",
    "containers that manage their descendants and that the reference does not enter",
    "(Calc's sheet: the visible cells). Tokens: o200k_base (npm js-tiktoken) of the",
    "default `desktop read --app X` output.",
    "",
    `Load average (1 minute) when the run ended: ${
      Deno.loadavg()[0].toFixed(1)
    } on ${facts.cores} cores.`,
    "",
    lines.join("\n"),
    "",
    "gnome-system-monitor lists the processes of the run itself (the walker, each `desktop`",
    "process): its table changes between the two reads, so its coverage misses the rows of",
    "processes that came and went, and `ours only` counts the ones that came. qpdfview's one",
    "missed node is an unnamed panel with no box in the table of its hidden Properties dock: a",
    "container that manages its descendants is read where it shows, and a hidden dock shows",
    "nothing.",
  ].join("\n");
  await publishResults("corpus.md", "Real-app corpus (Linux)", body);
}

if (import.meta.main) await main();
