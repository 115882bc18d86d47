/**
 * Start-up benchmark: how long `desktop` takes to answer before it does any
 * work, against bare Deno start-up (`deno eval 0`) measured in the same run:
 * `desktop --version`, `desktop read --from` a saved snapshot (module graph,
 * CLI parsing, snapshot loading, refs, rendering), and `desktop --help`.
 * Target: under 3x bare Deno start-up.
 *
 * Run: deno run -A bench/startup.ts [--section]
 * (`--section` also replaces this benchmark's section of BENCHMARKS.md)
 *
 * @module
 */

import { machineFacts, percentile, publishResults } from "./report.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 21);
const WARMUP = 3;

/** One command line to time, and how the report names it. */
interface Case {
  /** Label in the table. */
  label: string;
  /** Arguments to `deno`. */
  args: string[];
}

const CASES: readonly Case[] = [
  { label: "`deno eval 0` (bare Deno, the peer)", args: ["eval", "0"] },
  { label: "`desktop --version`", args: ["run", "-A", "cli.ts", "--version"] },
  {
    label: "`desktop read --from tests/fixtures/browser_form.json`",
    args: ["run", "-A", "cli.ts", "read", "--from", "tests/fixtures/browser_form.json"],
  },
  { label: "`desktop --help`", args: ["run", "-A", "cli.ts", "--help"] },
];

/** Wall time of one run of `deno <args>`, in milliseconds; fails loudly on a non-zero exit. */
async function timeOnce(args: string[]): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { DESKTOP_STATE_DIR: `${ROOT}.tmp/bench-state`, NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  if (!out.success) {
    throw new Error(`deno ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

/**
 * Times every case in interleaved rounds (so that machine noise hits all of
 * them alike) and returns the samples per case.
 */
async function measure(): Promise<number[][]> {
  const samples: number[][] = CASES.map(() => []);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let k = 0; k < CASES.length; k++) {
      const ms = await timeOnce(CASES[k].args);
      if (round >= WARMUP) samples[k].push(ms);
    }
  }
  return samples;
}

if (import.meta.main) {
  const samples = await measure();
  const base = percentile(samples[0], 50);
  const facts = await machineFacts();
  const rows = CASES.map((c, k) => {
    const med = percentile(samples[k], 50);
    return `| ${c.label} | ${med.toFixed(1)} | ${percentile(samples[k], 90).toFixed(1)} | ${
      (med / base).toFixed(2)
    }x |`;
  });
  const worst = Math.max(...samples.slice(1).map((s) => percentile(s, 50) / base));
  const body = [
    "Command: `deno run -A bench/startup.ts`",
    "",
    `- date: ${facts.date}; ${facts.cpu}, ${facts.cores} cores; deno ${facts.deno}`,
    `- ${ROUNDS} interleaved rounds after ${WARMUP} warm-up rounds (module cache warm), wall time`,
    "  of the whole process, from spawn to exit",
    "",
    "| command | median ms | p90 ms | vs bare Deno |",
    "|---|---:|---:|---:|",
    ...rows,
    "",
    `Target: under 3x bare Deno start-up. Result: at most ${worst.toFixed(2)}x.`,
    "",
  ].join("\n");
  await publishResults("startup.md", "Start-up", body);
}
