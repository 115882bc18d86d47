/**
 * Runs every benchmark in bench/ one after another (`deno task bench`). Each
 * writes its own section of BENCHMARKS.md.
 *
 * @module
 */

/** Benchmark scripts (with their arguments), in the order they run; each gets `--section`. */
export const BENCHMARKS: readonly string[] = [
  "read_speed.ts",
  "corpus.ts",
  "tokens.ts",
  "action_tokens.ts",
  "ref_stability.ts",
  "ref_stability.ts --identity",
  "observe.ts",
  "scaling.ts",
  "startup.ts",
];

if (import.meta.main) {
  let failed = 0;
  for (const entry of BENCHMARKS) {
    const [file, ...args] = entry.split(" ");
    const path = new URL(`./${file}`, import.meta.url).pathname;
    console.error(`bench: ${entry}`);
    const status = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", path, ...args, "--section"],
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    if (!status.success) {
      console.error(`bench: ${entry} failed`);
      failed++;
    }
  }
  Deno.exit(failed ? 1 : 0);
}
