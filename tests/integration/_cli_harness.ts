/**
 * What the CLI integration tests share: the CLI as a process over a private
 * state directory, the snapshot fixtures, and the one-line error check.
 *
 * @module
 */

import assert from "node:assert/strict";

/** The CLI entry point. */
export const CLI: string = new URL("../../cli.ts", import.meta.url).pathname;
/** A saved read of a browser form (the replay fixture). */
export const FORM: string = new URL("../fixtures/browser_form.json", import.meta.url).pathname;
/** The same form after it was filled in. */
export const AFTER: string =
  new URL("../fixtures/browser_form_after.json", import.meta.url).pathname;

/** What one CLI run gave back. */
export interface Run {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/**
 * Runs the CLI as a process with its own state directory.
 *
 * @param args the command line after `cli.ts`
 * @param stateDir where the ref store lives ($DESKTOP_STATE_DIR)
 * @returns exit code and both streams
 */
export async function run(args: string[], stateDir: string): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    env: { DESKTOP_STATE_DIR: stateDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Runs `fn` with a fresh state directory, removed afterwards.
 *
 * @param fn the test body
 */
export async function withState(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "desktop-cli-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The error a failed run wrote: exactly one JSON line on stderr, no stack,
 * with a message and a suggestion.
 *
 * @param r the run
 * @returns the parsed error
 */
export function errorOf(
  r: Run,
): { code: string; message: string; suggestion?: string; candidates?: unknown[] } {
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /\n\s+at |Stack backtrace|Uncaught/);
  const err = JSON.parse(lines[0]);
  assert.equal(err.error, true);
  assert.equal(typeof err.message, "string");
  assert.equal(typeof err.suggestion, "string");
  return err;
}
