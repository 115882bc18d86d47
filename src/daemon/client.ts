/**
 * The CLI's side of the background process (server.ts): which command lines
 * it may run, starting it on demand, and asking it within a bounded time.
 * A process that does not answer in half the command's time (stopped,
 * hung), or that goes away during the call, leaves the command to be read
 * in the CLI's own process, with a note on stderr: the command's deadline
 * always holds.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS } from "../desktop_types.ts";
import { DesktopError } from "../errors.ts";
import { daemonPaths } from "./paths.ts";
import type { DaemonRequest, RunReply, StatusReply } from "./server.ts";

/** The option that keeps a command in its own process. */
export const NO_DAEMON_FLAG = "--no-daemon";

/** How a command line goes: through the background process, or not. */
export interface DaemonChoice {
  /** The command line without {@link NO_DAEMON_FLAG}. */
  argv: string[];
  /** Whether it may go through the background process. */
  use: boolean;
  /** Whether a background process may be started for it when none runs. */
  start: boolean;
  /**
   * Whether running it twice could do twice what it does (an action): once
   * its request is out, it never runs again in this process.
   */
  acts: boolean;
}

/** Options whose meaning depends on this process (its directory, its stdin): such lines stay here. */
const LOCAL_OPTIONS = new Set([
  "--from",
  "--save",
  "--text-file",
  "--help",
  "-h",
  "--version",
  "-V",
]);

/** Verbs that only look: when the background process fails them, this process may run them. */
const LOOKING_VERBS = new Set(["read", "find"]);
/**
 * Verbs that act, each done once by whichever process gets it: the kept trees make their
 * resolving read and the check of their effect warm. (`wait` and `observe` hold the process
 * for their whole time; `run` and `fill` read files: they stay here.)
 */
const ACTING_VERBS = new Set([
  "click",
  "type",
  "key",
  "set-value",
  "scroll",
  "focus",
  "action",
  "drag",
]);

/**
 * Whether a command line may go through the background process: a live
 * `read` or `find`, or an action (`click`, `type`, `key`,
 * `set-value`, `scroll`, `focus`, `action`, `drag`), with no option that
 * names a file of this process (`--from`, `--save`, `--text-file`), without
 * `--no-daemon` and without `DESKTOP_NO_DAEMON=1`. One is started on demand
 * with `DESKTOP_DAEMON=1`; otherwise only a running one (`desktop daemon
 * start`) is used.
 *
 * @param args the command line
 * @param env reads a variable
 * @returns the choice
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { daemonChoice } from "./client.ts";
 * const none = () => undefined;
 * assert.equal(daemonChoice(["read", "--app", "gedit"], none).use, true);
 * assert.equal(daemonChoice(["read", "--no-daemon"], none).use, false);
 * assert.deepEqual(daemonChoice(["read", "--no-daemon"], none).argv, ["read"]);
 * assert.equal(daemonChoice(["click", "--ref", "a"], none).use, true);
 * assert.equal(daemonChoice(["click", "--ref", "a"], none).acts, true);
 * assert.equal(daemonChoice(["read"], none).acts, false);
 * assert.equal(daemonChoice(["wait", "--text", "Done"], none).use, false);
 * assert.equal(daemonChoice(["type", "--text-file", "-"], none).use, false);
 * assert.equal(daemonChoice(["read"], (k) => k === "DESKTOP_NO_DAEMON" ? "1" : undefined).use, false);
 * ```
 */
export function daemonChoice(
  args: readonly string[],
  env: (k: string) => string | undefined,
): DaemonChoice {
  const argv = args.filter((a) => a !== NO_DAEMON_FLAG);
  const off = argv.length !== args.length || env("DESKTOP_NO_DAEMON") === "1";
  const verb = argv.find((a) => !a.startsWith("-"));
  const local = argv.some((a) => LOCAL_OPTIONS.has(a.split("=")[0]));
  const acts = ACTING_VERBS.has(verb ?? "");
  const use = !off && verb === argv[0] && (acts || LOOKING_VERBS.has(verb ?? "")) && !local;
  return { argv, use, start: use && env("DESKTOP_DAEMON") === "1", acts };
}

/** The command's `--timeout` in ms (the default when absent or unreadable). */
function timeoutOf(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = a === "--timeout" ? argv[i + 1] : a.startsWith("--timeout=") ? a.slice(10) : null;
    if (v !== null && v !== undefined && /^\d+$/.test(v)) return Number(v);
  }
  return DEFAULT_TIMEOUT_MS;
}

/** The command that starts the background process: this program, as `daemon serve`. */
function serveCommand(): string[] {
  if (Deno.build.standalone) return [Deno.execPath(), "daemon", "serve"];
  const path = (u: URL) => decodeURIComponent(u.pathname);
  return [
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    "--config",
    path(new URL("../../deno.json", import.meta.url)),
    path(new URL("../../cli.ts", import.meta.url)),
    "daemon",
    "serve",
  ];
}

/** A union's members, each without `K`. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * How long before this process stops waiting the background process answers (at most; a
 * tenth of the time it has, when less): what it prints takes time on a busy machine too.
 */
const ANSWER_MARGIN_MS = 1000;

/** No process listens on the socket (it was killed): a socket file left over. */
const REFUSED = Symbol("refused");

/**
 * Sends one request and reads the one-line answer, within `ms`: null when
 * none came, {@link REFUSED} when the request never reached a process
 * (nothing listens on the socket, or it could not be sent whole).
 */
async function exchange<T>(
  req: DistributiveOmit<DaemonRequest, "token">,
  ms: number,
  clock: "timer" | "signal" = "timer",
): Promise<T | null | typeof REFUSED> {
  if (ms <= 0) return null;
  let conn: Deno.UnixConn | undefined;
  const until = Date.now() + ms;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expire: (v: null) => void = () => {};
  const expired = new Promise<null>((resolve) => (expire = resolve));
  let sent = false;
  const work = (async (): Promise<T | null | typeof REFUSED> => {
    const paths = daemonPaths();
    try {
      conn = await Deno.connect({ transport: "unix", path: paths.socket });
    } catch (e) {
      if (e instanceof Deno.errors.ConnectionRefused || e instanceof Deno.errors.NotFound) {
        return REFUSED;
      }
      throw e;
    }
    const token = await Deno.readTextFile(paths.token);
    const bytes = new TextEncoder().encode(JSON.stringify({ ...req, token }) + "\n");
    for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
    // A request is one line: until its end is out, no process can have run it.
    sent = true;
    // The deadline's clock starts once the request is out, while the background process works.
    // What comes before cannot block (a unix socket's connect fails at once when its queue is
    // full; the request fits the socket's buffer).
    const left = Math.max(0, until - Date.now());
    if (clock === "timer") timer = setTimeout(() => expire(null), left);
    else AbortSignal.timeout(left).addEventListener("abort", () => expire(null));
    const dec = new TextDecoder();
    let text = "";
    const buf = new Uint8Array(256 * 1024);
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return null; // it went away mid-call
      text += dec.decode(buf.subarray(0, n), { stream: true });
      const nl = text.indexOf("\n");
      if (nl !== -1) return JSON.parse(text.slice(0, nl)) as T;
    }
  })().catch(() => sent ? null : REFUSED);
  try {
    return await Promise.race([work, expired]);
  } finally {
    // Only a timer that was made: the process's first use of the timers costs about 10 ms.
    if (timer !== undefined) clearTimeout(timer);
    try {
      conn?.close();
    } catch {
      // Closed.
    }
  }
}

/** {@link exchange}, with no answer and no listener alike null. */
async function ask<T>(
  req: DistributiveOmit<DaemonRequest, "token">,
  ms: number,
): Promise<T | null> {
  const r = await exchange<T>(req, ms);
  return r === REFUSED ? null : r;
}

/**
 * The running background process's state, or null when none answers within `ms`.
 *
 * @param ms how long to wait
 * @returns its status
 */
export function daemonStatus(ms = 3000): Promise<StatusReply | null> {
  return ask<StatusReply>({ type: "status" }, ms);
}

/**
 * Tells the running background process to end.
 *
 * @param ms how long to wait for its answer
 * @returns whether one answered
 */
export async function stopDaemon(ms = 3000): Promise<boolean> {
  return (await ask<{ stopped: boolean }>({ type: "stop" }, ms))?.stopped === true;
}

/**
 * Starts the background process of this desktop (detached: it outlives
 * this process) and waits until it answers, at most `ms`.
 *
 * @param ms how long to wait
 * @returns its status, or null when it did not answer in time
 */
export async function startDaemon(ms = 5000): Promise<StatusReply | null> {
  const running = await daemonStatus(Math.min(ms, 500));
  if (running) return running;
  const [cmd, ...args] = serveCommand();
  const child = new Deno.Command(cmd, {
    args,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    const status = await daemonStatus(Math.min(500, until - Date.now()));
    if (status) return status;
  }
  return null;
}

/** What {@link runThroughDaemon} gives: the command's output, or why it runs here. */
export type DaemonOutcome = { ran: RunReply } | { fallback: string | null };

/**
 * Runs a command line in the background process, starting one when allowed.
 * A look asks it to answer within half the command's time from this
 * process's start and waits up to three quarters (the rest is for a read
 * here); an action gives it the whole time.
 *
 * Its deadline is an `AbortSignal.timeout`, not a timer: a process's first
 * `setTimeout` costs about 10 ms of a read that takes 60, the signal under
 * one. The signal cannot be cleared, so the process must end by
 * `Deno.exit` once it has printed the outcome (the CLI does).
 *
 * @param choice from {@link daemonChoice}
 * @returns the output, or why the command should run in this process (null: no process runs)
 */
export async function runThroughDaemon(choice: DaemonChoice): Promise<DaemonOutcome> {
  const deadline = performance.timeOrigin + timeoutOf(choice.argv);
  // A look may run here after all, in the time left; an action never runs twice, so its whole
  // time is the background process's.
  const budget = () => Math.floor((deadline - Date.now()) / (choice.acts ? 1 : 2));
  // The process is asked to answer within the budget but waited for a while longer: an answer
  // a little late (a large tree's last reply parsed, a whole read printed) is worth more than a
  // read here against an app that process is still reading. A look keeps a quarter of its time
  // for a read here, for a process that does not answer at all.
  const patience = (ms: number) =>
    choice.acts ? ms : Math.max(ms, Math.floor((deadline - Date.now()) * 3 / 4));
  let paths;
  try {
    paths = daemonPaths();
  } catch {
    return { fallback: null };
  }
  const session = Deno.env.get("DESKTOP_SESSION");
  // The process answers a little before this one stops waiting: its answer (a TIMEOUT saying
  // how far a large read got, which it goes on reading) is worth more than a read here.
  const request = (ms: number) => ({
    type: "run" as const,
    argv: choice.argv,
    answerBy: Date.now() + ms - Math.min(ANSWER_MARGIN_MS, Math.floor(ms / 10)),
    ...(session !== undefined ? { session } : {}),
  });
  let ms = budget();
  let waited = patience(ms);
  let ran = await exchange<RunReply>(request(ms), waited, "signal");
  if (ran === REFUSED) {
    // None runs (or one was killed and left its socket): start one when allowed.
    if (!choice.start) return { fallback: null };
    if (!(await startDaemon(budget()))) {
      return { fallback: "the background process did not start in time" };
    }
    ms = budget();
    waited = patience(ms);
    ran = await exchange<RunReply>(request(ms), waited, "signal");
  }
  if (ran && ran !== REFUSED) return { ran };
  if (choice.start) {
    // Stopped, hung or gone mid-call: the next command starts a fresh one, and this one ends
    // when it sees its socket gone.
    try {
      Deno.removeSync(paths.socket);
    } catch {
      // Gone already.
    }
  }
  if (choice.acts && ran === null) return { ran: outcomeUnknown(waited) };
  return { fallback: `the background process did not answer within ${waited} ms` };
}

/**
 * The answer to an action the background process got but did not answer:
 * it may have been done, so it is not done again here.
 */
function outcomeUnknown(ms: number): RunReply {
  const error = new DesktopError(
    "TIMEOUT",
    `the background process took the command but did not answer within ${ms} ms: ` +
      "whether it was done is unknown",
    {
      suggestion: "Read the app to see whether the action was done before doing it again; " +
        "`desktop daemon stop`, or --no-daemon, runs commands in their own process",
      details: { daemon: true },
    },
  );
  return { stdout: "", stderr: JSON.stringify(error.toJSON()) + "\n", code: error.exitCode };
}
