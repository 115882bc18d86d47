/**
 * Shared helpers of the benchmarks: percentiles, machine facts, and writing
 * one section of BENCHMARKS.md without touching the others.
 *
 * @module
 */

/** Where the results go. */
export const BENCHMARKS_MD: string = new URL("../BENCHMARKS.md", import.meta.url).pathname;

/**
 * The p-th percentile (nearest rank) of some samples.
 *
 * @param samples the values
 * @param p 0..100
 * @returns the percentile, or NaN for no samples
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank];
}

/** Facts about the machine a benchmark ran on. */
export interface MachineFacts {
  /** ISO date (UTC). */
  date: string;
  /** CPU model. */
  cpu: string;
  /** Logical cores. */
  cores: number;
  /** Deno version. */
  deno: string;
  /** at-spi2-core package version. */
  atspi: string;
  /** Chromium version line. */
  chromium: string;
  /** Python version. */
  python: string;
  /** pyatspi package version. */
  pyatspi: string;
}

async function run(cmd: string, args: string[]): Promise<string> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
    return new TextDecoder().decode(out.stdout).trim();
  } catch {
    return "unknown";
  }
}

/**
 * Collects the machine facts every result is printed with.
 *
 * @returns the facts
 */
export async function machineFacts(): Promise<MachineFacts> {
  let cpu = "unknown";
  try {
    const info = await Deno.readTextFile("/proc/cpuinfo");
    cpu = /^model name\s*:\s*(.*)$/m.exec(info)?.[1] ?? cpu;
  } catch {
    // not Linux
  }
  const dpkg = (pkg: string) => run("dpkg-query", ["-W", "-f=${Version}", pkg]);
  return {
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    cpu,
    cores: navigator.hardwareConcurrency,
    deno: Deno.version.deno,
    atspi: await dpkg("at-spi2-core"),
    chromium: (await run("chromium", ["--version"])).split("\n").pop() ?? "unknown",
    python: (await run("/usr/bin/python3", ["--version"])).replace("Python ", ""),
    pyatspi: await dpkg("python3-pyatspi"),
  };
}

/**
 * Replaces (or appends) one `## title` section of BENCHMARKS.md.
 *
 * @param title the section heading without `## `
 * @param body the section's text
 */
export async function writeSection(title: string, body: string): Promise<void> {
  let text = "";
  try {
    text = await Deno.readTextFile(BENCHMARKS_MD);
  } catch {
    text = "# Benchmarks\n\nEvery figure with the command that reproduces it.\n";
  }
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(heading + "\n");
  if (start < 0) {
    text = text.trimEnd() + "\n\n" + section;
  } else {
    const next = text.indexOf("\n## ", start + heading.length);
    text = text.slice(0, start) + section + (next < 0 ? "" : text.slice(next));
  }
  await Deno.writeTextFile(BENCHMARKS_MD, text);
  // Keep the file as `deno fmt --check` (part of the test task) wants it.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", BENCHMARKS_MD] }).output();
}

/**
 * Publishes one benchmark's results: writes `bench/results/<file>` (the
 * section as a document, formatted as `deno fmt --check` wants it), replaces
 * the section of BENCHMARKS.md when the run was given `--section`, and
 * prints the text.
 *
 * @param file results file name, e.g. `tokens.md`
 * @param title section title (without `## `)
 * @param body section body
 */
export async function publishResults(file: string, title: string, body: string): Promise<void> {
  const text = `## ${title}\n\n${body}`;
  const results = new URL("./results/", import.meta.url);
  await Deno.mkdir(results, { recursive: true });
  const path = new URL(file, results).pathname;
  await Deno.writeTextFile(path, text);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", path] }).output();
  if (Deno.args.includes("--section")) await writeSection(title, body);
  console.log(text);
}
