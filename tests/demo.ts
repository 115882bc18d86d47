/**
 * `deno task demo`: on Linux with the test desktop installed, a live tour of
 * desktop driving Chromium on a private headless desktop (tests/demo_live.ts);
 * elsewhere, or with `--replay`, a tour on a saved snapshot of a checkout page
 * (tests/fixtures/browser_form.json): the agent tree, find, ref resolution, an
 * ambiguous target, ids across reads, and a diff.
 *
 * @module
 */

import { liveDemoMissing, runLiveDemo } from "./demo_live.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CLI = `${ROOT}cli.ts`;
const FORM = "tests/fixtures/browser_form.json";
const AFTER = "tests/fixtures/browser_form_after.json";

const bold = (s: string) => Deno.noColor ? s : `\x1b[1m${s}\x1b[0m`;
const dim = (s: string) => Deno.noColor ? s : `\x1b[2m${s}\x1b[0m`;

/**
 * Runs `desktop <args>` and shows the command, its stdout and its stderr.
 * The live tour passes the test desktop's whole environment (`clearEnv`), so
 * that the user's own session is never touched.
 */
async function show(
  args: string[],
  env: Record<string, string>,
  maxLines = 60,
  clearEnv = false,
): Promise<void> {
  console.log(
    dim(`$ desktop ${args.map((a) => /[\s"]/.test(a) ? JSON.stringify(a) : a).join(" ")}`),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd: ROOT,
    env,
    clearEnv,
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
  console.log(
    dim("(later a row is inserted above: the button is element 139 now, yet --id 130 finds it)\n"),
  );
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
  const missing = Deno.args.includes("--replay") ? ["--replay"] : liveDemoMissing();
  try {
    if (missing.length === 0) {
      await runLiveDemo({
        heading,
        note: (text) => console.log(dim(text)),
        show: (args, env, maxLines) => show(args, env, maxLines, true),
      }, stateDir);
      console.log(
        dim("The same tour on a saved snapshot, with no live app: deno task demo --replay"),
      );
    } else {
      if (!Deno.args.includes("--replay")) {
        console.log(
          dim(`no live desktop here (missing: ${missing.join(", ")}); replaying instead`),
        );
      }
      console.log(dim(`replaying ${FORM} (a checkout page in Chromium)\n`));
      await runReplayDemo(env);
    }
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
}
