/**
 * Runs every benchmark in bench/ one after another (`deno task bench`). Each
 * writes its own section of BENCHMARKS.md.
 *
 * @module
 */

/** Benchmark scripts, in the order they run; each gets `--section`. */
export const BENCHMARKS: readonly string[] = [
  "read_speed.ts",
  "corpus.ts",
  "tokens.ts",
  "ref_stability.ts",
  "observe.ts",
  "scaling.ts",
  "startup.ts",
];

if (import.meta.main) {
  let failed = 0;
  for (const file of BENCHMARKS) {
    const path = new URL(`./${file}`, import.meta.url).pathname;
    console.error(`bench: ${file}`);
    const status = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", path, "--section"],
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    if (!status.success) {
      console.error(`bench: ${file} failed`);
      failed++;
    }
  }
  Deno.exit(failed ? 1 : 0);
}
