/**
 * Runs the `desktop` CLI against a test desktop and captures what it prints.
 *
 * @module
 */

import assert from "node:assert/strict";
import { writeRefsOut } from "../../src/output/agent_parse.ts";
import { REPO_ROOT, type TestDesktop } from "./desktop.ts";

/** What one CLI run produced. */
export interface CliResult {
  /** Exit code. */
  code: number;
  /**
   * Standard output, with every ref written out: a read line whose handle is
   * its id alone (`[15] chk "Remember me"`, its ref being its label's slug)
   * reads `[15|remember-me] chk "Remember me"` here, so tests find lines by
   * ref (writeRefsOut, the library's own reading of the format).
   */
  stdout: string;
  /** Standard output exactly as printed. */
  printed: string;
  /** Standard error. */
  stderr: string;
}

/**
 * Runs `deno run -A cli.ts ...args` with the desktop's environment.
 *
 * @param desktop the test desktop
 * @param args CLI arguments
 * @returns exit code and output
 */
export async function runCli(
  desktop: TestDesktop,
  args: string[],
  stdin?: string,
): Promise<CliResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, ...args],
    cwd: REPO_ROOT,
    env: { ...desktop.env, DESKTOP_STATE_DIR: `${desktop.env.XDG_RUNTIME_DIR}/state` },
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  const printed = dec.decode(out.stdout);
  return { code: out.code, stdout: writeRefsOut(printed), printed, stderr: dec.decode(out.stderr) };
}

/**
 * Runs the CLI like {@link runCli} and asserts it succeeded; the failure
 * message carries the command and its output.
 *
 * @param desktop the test desktop
 * @param args CLI arguments
 * @returns exit code (0) and output
 */
export async function runCliOk(desktop: TestDesktop, args: string[]): Promise<CliResult> {
  const res = await runCli(desktop, args);
  assert.equal(res.code, 0, `desktop ${args.join(" ")}\n${res.stdout}\n${res.stderr}`);
  return res;
}

/**
 * Parses the JSON error object the CLI prints on stderr.
 *
 * @param res a failed run
 * @returns the error's code (and the whole object)
 */
export function cliError(
  res: Pick<CliResult, "code" | "stderr">,
): { code: string; [k: string]: unknown } {
  const line = res.stderr.trim().split("\n").reverse().find((l) => l.trim().startsWith("{"));
  if (!line) throw new Error(`no JSON error on stderr (exit ${res.code}): ${res.stderr}`);
  return JSON.parse(line);
}
