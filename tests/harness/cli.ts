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

/** An element of a flat JSON read, with the fields the e2e tests look at. */
export interface FlatElement {
  ref: string;
  r: string;
  t?: string;
  d?: string;
  v?: string;
  e?: boolean;
  sel?: [number, number];
}

/**
 * The app's elements as a flat JSON read (`read --flat --format json`).
 *
 * @param d the test desktop
 * @returns the elements, in document order
 */
export async function readFlat(d: TestDesktop): Promise<FlatElement[]> {
  const res = await runCliOk(d, ["read", "--app", d.appName, "--flat", "--format", "json"]);
  return JSON.parse(res.stdout).elements as FlatElement[];
}

/**
 * Polls flat reads until `pick` finds an element (the UI settles on its own
 * time), for at most 20 s; the failure says what never appeared and what the
 * last read held.
 *
 * @param d the test desktop
 * @param what what is waited for, for the failure message
 * @param pick finds the element in a read
 * @returns the element found
 */
export async function waitForElement(
  d: TestDesktop,
  what: string,
  pick: (els: FlatElement[]) => FlatElement | undefined,
): Promise<FlatElement> {
  const until = Date.now() + 20_000;
  let last: FlatElement[] = [];
  while (Date.now() < until) {
    last = await readFlat(d);
    const hit = pick(last);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} never appeared; last read: ${JSON.stringify(last.slice(0, 40))}`);
}
