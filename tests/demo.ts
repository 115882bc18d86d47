/**
 * `deno task demo`: a tour of desktop on a saved snapshot of a checkout page
 * in Chromium (tests/fixtures/browser_form.json): the agent tree, find, ref
 * resolution, an ambiguous target, ids across reads, and a diff.
 *
 * A live mode (a real app on a headless desktop) plugs in through
 * {@link liveDemoAvailable} and {@link runLiveDemo}.
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url).pathname;
const CLI = `${ROOT}cli.ts`;
const FORM = "tests/fixtures/browser_form.json";
const AFTER = "tests/fixtures/browser_form_after.json";

const bold = (s: string) => Deno.noColor ? s : `\x1b[1m${s}\x1b[0m`;
const dim = (s: string) => Deno.noColor ? s : `\x1b[2m${s}\x1b[0m`;

/** Runs `desktop <args>` and shows the command, its stdout and its stderr. */
async function show(args: string[], env: Record<string, string>, maxLines = 60): Promise<void> {
  console.log(
    dim(`$ desktop ${args.map((a) => /[\s"]/.test(a) ? JSON.stringify(a) : a).join(" ")}`),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  const lines = dec.decode(out.stdout).replace(/\n$/, "").split("\n");
  const shown = lines.length > maxLines
    ? [...lines.slice(0, maxLines), dim(`... ${lines.length - maxLines} more lines`)]
    : lines;
  if (shown.join("")) console.log(shown.join("\n"));
  const err = dec.decode(out.stderr).trim();
  if (err) {
    // Errors are one JSON object: show it with one candidate per line, at most three.
    try {
      const { candidates, ...rest } = JSON.parse(err);
      console.log(`stderr (exit ${out.code}): ${JSON.stringify(rest)}`);
      if (Array.isArray(candidates)) {
        for (const c of candidates.slice(0, 3)) console.log(`  candidate ${JSON.stringify(c)}`);
        if (candidates.length > 3) console.log(dim(`  ... ${candidates.length - 3} more`));
      }
    } catch {
      console.log(`stderr (exit ${out.code}): ${err}`);
    }
  }
  console.log();
}

function heading(text: string): void {
  console.log(bold(`== ${text}`));
}

/**
 * Whether a live demo can run here (a test desktop harness and Xvfb).
 * The replay tour runs otherwise.
 *
 * @returns false until a live tour is written
 */
export function liveDemoAvailable(): Promise<boolean> {
  return Promise.resolve(false);
}

/**
 * The live tour: start a real app on a headless desktop and drive it.
 *
 * @returns when done
 */
export function runLiveDemo(): Promise<void> {
  return Promise.reject(new Error("no live demo in this build"));
}

/**
 * The replay tour.
 *
 * @param env environment for the CLI (a private state directory)
 */
export async function runReplayDemo(env: Record<string, string>): Promise<void> {
  heading("1. Read a UI once: every element gets an id and a stable landmark ref");
  await show(["read", "--from", FORM], env);

  heading("2. Read less: only what an agent can act on, inside one landmark");
  await show(["read", "--from", FORM, "--interactive", "--scope-ref", "form"], env);

  heading("3. Find by text (exactly one element, or an error with candidates)");
  await show(["find", "--from", FORM, "--text", "Full Name"], env);

  heading("4. Resolve refs: a full ref, and a unique suffix");
  await show(["find", "--from", FORM, "--ref", "form/email"], env);
  await show(["find", "--from", FORM, "--ref", "submit"], env);

  heading("5. Ambiguous: never a guess, but candidates with refs to retry with");
  await show(["find", "--from", FORM, "--text", "Delete", "--roles", "btn"], env);
  await show(["find", "--from", FORM, "--ref", "invoice-2024-03/delete"], env);

  heading("6. Ids mean 'element N of the last read', found again after the UI shifts");
  await show(["read", "--from", FORM, "--scope-ref", "invoice-2024-01"], env);
  console.log(dim("(later a row is inserted above: every id below it shifts by 9)\n"));
  await show(["find", "--from", AFTER, "--id", "130"], env);

  heading("7. A snapshot is read-only: actions need the live app");
  await show(["click", "--from", FORM, "--ref", "submit"], env);

  heading("8. Diff two reads by ref: a row inserted, the email filled, the dialog closed");
  await show(["diff", FORM, AFTER, "--ignore-bounds"], env);
  await show(["diff", FORM, AFTER, "--ignore-bounds", "--format", "jsonl"], env, 4);
}

if (import.meta.main) {
  const stateDir = await Deno.makeTempDir({ prefix: "desktop-demo-" });
  const env = { DESKTOP_STATE_DIR: stateDir };
  try {
    if (await liveDemoAvailable()) {
      await runLiveDemo();
    } else {
      console.log(dim(`replaying ${FORM} (a checkout page in Chromium)\n`));
      await runReplayDemo(env);
    }
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
}
