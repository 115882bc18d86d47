/**
 * What every command shares: opening a session, and the wrapper that turns
 * any failure into one JSON error on stderr with the right exit code. (The
 * options themselves come from the table of operations, src/ops.)
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS, type Desktop } from "../desktop.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import { type RefStore, SESSION_ENV, validateSession } from "../state/ref_store.ts";

/** Option values that choose and bound a session. */
export type ScopeOptionValues = {
  /** Deadline in ms (of the whole command). */
  timeout: number;
  /** Snapshot file to read instead of the live desktop. */
  from?: string;
  /** Session whose ids to use and record (else `$DESKTOP_SESSION`, else the default). */
  session?: string;
};

/**
 * A commander argument parser for an integer option.
 *
 * @param flag the option name, for the message
 * @param min smallest accepted value (default 0: coordinates and counts are not negative)
 * @returns the parser; it throws INVALID_ARGS on anything but an integer >= min
 */
export function intOption(flag: string, min = 0): (value: string) => number {
  return (value: string) => {
    const n = Number(value.trim());
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new DesktopError(
        "INVALID_ARGS",
        `${flag} takes an integer of at least ${min}, got "${value}"`,
        { suggestion: `Pass a whole number, e.g. ${flag} ${Math.max(min, 10)}` },
      );
    }
    return n;
  };
}

/**
 * The session the options name: `--session`, else `$DESKTOP_SESSION`, else
 * undefined (the default session).
 *
 * @param opts parsed options
 * @returns the session name, or undefined
 * @throws DesktopError INVALID_ARGS for a bad name in the environment
 */
export function sessionFromOptions(opts: { session?: string }): string | undefined {
  if (opts.session !== undefined) return opts.session;
  let env: string | undefined;
  try {
    env = Deno.env.get(SESSION_ENV);
  } catch {
    return undefined; // no --allow-env: the default session
  }
  return env === undefined || env === "" ? undefined : validateSession(env);
}

/** Opens a live session for the options in a process that keeps its sessions (the daemon). */
export type SessionPool = (opts: { timeout?: number; session?: string }) => Promise<Desktop>;

let pool: SessionPool | null = null;

/**
 * Makes live sessions come from `p` (the background process keeps them
 * between commands; their `close` does nothing), or from a new connection
 * each time again (null).
 *
 * @param p the pool, or null
 */
export function setSessionPool(p: SessionPool | null): void {
  pool = p;
}

/**
 * Opens a session for the options: the replay backend with `--from`, else the
 * live backend; ids and refs of reads are persisted for later commands, in
 * the session's store ({@link sessionFromOptions}).
 *
 * @param opts parsed scope options
 * @param store a store to use instead of the session's file store
 * @returns the session; close it when done
 */
export async function openDesktopFromOptions(
  opts: Partial<ScopeOptionValues>,
  store?: RefStore,
  deadline?: number,
): Promise<Desktop> {
  const session = sessionFromOptions(opts);
  if (pool && opts.from === undefined && !store) {
    return await pool({
      ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
      ...(session !== undefined ? { session } : {}),
    });
  }
  // Dynamic: the library entry stays free of platform code until a command runs.
  const { connect } = await import("../connect.ts");
  return await connect({
    from: opts.from,
    timeoutMs: opts.timeout ?? DEFAULT_TIMEOUT_MS,
    ...(deadline !== undefined ? { deadline } : {}),
    persistRefs: true,
    ...(session !== undefined ? { session } : {}),
    ...(store ? { store } : {}),
  });
}

/**
 * Prints an error as one JSON object on stderr and sets the exit code
 * (2 for INVALID_ARGS, else 1). Never prints a stack trace.
 *
 * @param err whatever was thrown
 */
export function printError(err: unknown): void {
  const e = toDesktopError(err);
  console.error(JSON.stringify(e.toJSON()));
  Deno.exitCode = e.exitCode;
}

/**
 * Wraps a command action so that any failure is printed by {@link printError}.
 *
 * @param fn the action
 * @returns an action for commander
 */
export function runCommand<A extends unknown[]>(
  fn: (...args: A) => Promise<void> | void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      printError(err);
    }
  };
}
