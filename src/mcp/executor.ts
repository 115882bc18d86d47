/**
 * Where the MCP server runs an operation, under a deadline that holds.
 *
 * A live backend makes synchronous native calls (libatspi over D-Bus); one
 * on a hung app blocks its thread for up to the D-Bus timeout, several times
 * over. So live calls run in worker processes (`desktop mcp --worker`), one
 * call per process at a time: the server's own thread only waits on
 * messages, keeps answering other requests, and answers TIMEOUT when a
 * call's deadline passes; that process is then killed. Not Web Workers:
 * libatspi is process-global, and a second thread using it while the first
 * is blocked in it crashes the process. The pool is bounded: at most
 * {@link MAX_WORKERS} processes (a few hundred MB each, with a bounded V8
 * heap), idle ones end after a while, and a call that finds every worker
 * busy waits for one within its own deadline. Snapshot files (`--from`)
 * cannot hang and run in-process.
 *
 * @module
 */

import type { Desktop } from "../desktop.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import { type AnyOp, type Args, invoke } from "../ops/mod.ts";

/** Options of one call. */
export interface CallOptions {
  /** Aborted when the client cancels. */
  signal: AbortSignal;
  /** Receives streamed events (observe). */
  onEvent?: (event: unknown) => void;
  /** Milliseconds the whole call may take (Infinity: until aborted). */
  deadlineMs: number;
}

/** Runs operations. */
export interface Executor {
  /**
   * Runs an operation on validated arguments.
   *
   * @returns the result (data)
   * @throws DesktopError from the operation, or TIMEOUT at the deadline
   */
  run(op: AnyOp, args: Args, opts: CallOptions): Promise<unknown>;
  /** Stops everything still running. */
  close(): void;
  /** How many calls can run at once, when bounded (the worker pool's size). */
  readonly capacity?: number;
}

/**
 * The error of a call that did not finish by its deadline.
 *
 * @param op the operation
 * @param ms the deadline
 * @returns the error
 */
export function deadlineError(op: AnyOp, ms: number): DesktopError {
  return new DesktopError("TIMEOUT", `${op.name} did not finish within ${ms} ms`, {
    suggestion: "The app may be hung or busy: check it (list), or pass a larger timeout",
    details: { timeoutMs: ms },
  });
}

/**
 * Races a promise against a deadline and an abort signal.
 *
 * @param work the call
 * @param op the operation (for the error)
 * @param opts deadline and signal
 * @param onGiveUp called when the deadline or the abort wins
 * @returns the call's value
 */
export function withDeadline<T>(
  work: Promise<T>,
  op: AnyOp,
  opts: CallOptions,
  onGiveUp: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener("abort", onAbort);
      fn();
    };
    const timer = Number.isFinite(opts.deadlineMs)
      ? setTimeout(() =>
        finish(() => {
          onGiveUp();
          reject(deadlineError(op, opts.deadlineMs));
        }), opts.deadlineMs)
      : undefined;
    const onAbort = () =>
      finish(() => {
        onGiveUp();
        reject(new DesktopError("TIMEOUT", `${op.name} was cancelled`));
      });
    opts.signal.addEventListener("abort", onAbort);
    work.then((v) => finish(() => resolve(v)), (e) => finish(() => reject(toDesktopError(e))));
  });
}

/**
 * Runs operations in this thread, on sessions opened on first use (one per timeout).
 *
 * @param open opens a session with a per-operation timeout
 * @returns the executor
 */
export function inProcessExecutor(open: (timeoutMs: number) => Promise<Desktop>): Executor {
  const sessions = new Map<number, Promise<Desktop>>();
  const session = (timeoutMs: number) => {
    let s = sessions.get(timeoutMs);
    if (!s) {
      s = open(timeoutMs);
      // A failed open (no desktop bus) is retried by the next call.
      s.catch(() => sessions.delete(timeoutMs));
      sessions.set(timeoutMs, s);
    }
    return s;
  };
  return {
    run(op, args, opts) {
      const ctrl = new AbortController();
      const onAbort = () => ctrl.abort();
      opts.signal.addEventListener("abort", onAbort);
      const work = invoke(op, args, {
        face: "mcp",
        signal: ctrl.signal,
        desktop: () => session((args.timeout as number | undefined) ?? 10_000),
        emit: (ev) => opts.onEvent?.(ev),
      }).finally(() => opts.signal.removeEventListener("abort", onAbort));
      return withDeadline(work, op, opts, () => ctrl.abort());
    },
    close() {
      for (const s of sessions.values()) s.then((d) => d.close(), () => {});
      sessions.clear();
    },
  };
}

/** A message to a worker process (one JSON line). */
export type ToWorker =
  | {
    type: "call";
    id: number;
    op: string;
    args: Args;
    /** When the server stops waiting (ms since epoch): the worker answers by then. */
    answerBy?: number;
  }
  | { type: "cancel"; id: number };

/** A message from a worker process (one JSON line); `ready` (id 0) once it can take calls. */
export type FromWorker =
  | { type: "ready"; id: 0 }
  | { type: "result"; id: number; result: unknown }
  | { type: "error"; id: number; error: ReturnType<DesktopError["toJSON"]> }
  | { type: "event"; id: number; event: unknown };

/** How long before a call's deadline its worker answers (at most; a tenth of the call's time). */
const ANSWER_MARGIN_MS = 500;

/** At most this many worker processes live at once; further calls wait for one (see {@link processExecutor}). */
export const MAX_WORKERS = 3;

/** A worker nobody used for this long is ended (each holds a few hundred MB). */
export const WORKER_IDLE_MS = 60_000;

/** V8 old-space bound of a worker process, in MB: a worker that grows past it ends. */
export const WORKER_HEAP_MB = 512;

/**
 * The command that starts a worker process: this program again, as
 * `mcp --worker` (the compiled binary itself, or `deno run` on cli.ts with
 * its config).
 *
 * @param session the session whose ids the worker's calls use
 * @returns the executable and its arguments
 */
export function workerCommand(session?: string): string[] {
  const tail = ["mcp", "--worker", ...(session !== undefined ? ["--session", session] : [])];
  if (Deno.build.standalone) return [Deno.execPath(), ...tail];
  const cli = new URL("../../cli.ts", import.meta.url);
  const config = new URL("../../deno.json", import.meta.url);
  const path = (u: URL) => u.protocol === "file:" ? decodeURIComponent(u.pathname) : u.href;
  return [
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    "--config",
    path(config),
    path(cli),
    ...tail,
  ];
}

/**
 * The environment a worker process gets besides this one's: its V8 heap
 * bound (`DENO_V8_FLAGS`, read by `deno run` and by a compiled binary alike),
 * after any flags already set.
 *
 * @param heapMb the old-space bound in MB
 * @returns the variables to set
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workerEnv } from "./executor.ts";
 * assert.match(workerEnv(256).DENO_V8_FLAGS, /--max-old-space-size=256$/);
 * ```
 */
export function workerEnv(heapMb: number = WORKER_HEAP_MB): { DENO_V8_FLAGS: string } {
  const before = Deno.env.get("DENO_V8_FLAGS");
  const flag = `--max-old-space-size=${heapMb}`;
  return { DENO_V8_FLAGS: before ? `${before},${flag}` : flag };
}

/** One worker process and its reply lines. */
class WorkerProcess {
  readonly child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Receives each message; replaced per call. */
  onmessage: (m: FromWorker) => void = () => {};
  /** Told once when the process ends. */
  onexit: () => void = () => {};
  /** Set once the process ended. */
  exited = false;
  /** Ends the process when it stays idle (set while it is idle). */
  idleTimer?: ReturnType<typeof setTimeout>;
  /** The apps it read lately (their trees are warm in it), most recent last. */
  readonly apps: string[] = [];

  constructor(command: string[], env: Record<string, string>) {
    this.child = new Deno.Command(command[0], {
      args: command.slice(1),
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.child.status.then(() => {
      this.exited = true;
      clearTimeout(this.idleTimer);
      this.onmessage({ type: "error", id: -1, error: exitedError().toJSON() });
      this.onexit();
    });
    void this.#read();
  }

  async #read(): Promise<void> {
    let rest = "";
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.child.stdout) {
        rest += decoder.decode(chunk, { stream: true });
        let nl;
        while ((nl = rest.indexOf("\n")) !== -1) {
          const line = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          if (line.trim()) this.onmessage(JSON.parse(line));
        }
      }
    } catch {
      // The process was killed.
    }
  }

  send(m: ToWorker): void {
    this.#writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n")).catch(() => {});
  }

  kill(): void {
    clearTimeout(this.idleTimer);
    if (this.exited) return;
    try {
      this.child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

function exitedError(): DesktopError {
  return new DesktopError("INTERNAL", "the worker process ended during the call", {
    suggestion: "Retry the call; if it happens again, report it with the tool and arguments",
  });
}

/** Options of {@link processExecutor}. */
export interface PoolOptions {
  /** Most worker processes alive at once (default {@link MAX_WORKERS}). */
  maxWorkers?: number;
  /** An idle worker is ended after this many ms (default {@link WORKER_IDLE_MS}). */
  idleMs?: number;
  /** V8 old-space bound of each worker in MB (default {@link WORKER_HEAP_MB}). */
  heapMb?: number;
}

/** A call's claim on a worker: waiting for one, then holding it. */
interface Lease {
  /** The worker, once granted. */
  worker?: WorkerProcess;
  /** Set once the call was sent to the worker. */
  sent: boolean;
  /** Set when the deadline or the client gave up on the call. */
  abandoned: boolean;
  /** Wakes the call when a worker is granted (or fails it). */
  wake?: (err?: DesktopError) => void;
  /** The app the call names, if any: a worker that read it lately is preferred. */
  app?: string;
}

/** Apps a worker remembers having served, for routing. */
const WORKER_APPS = 8;

/**
 * The app a call names (`app` or `pid`), as a routing key: calls on one app
 * go to the worker that holds its tree where one is free.
 *
 * @param args the call's arguments
 * @returns the key, or undefined when the call names no app
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appKeyOf } from "./executor.ts";
 * assert.equal(appKeyOf({ app: "Chromium" }), "app:chromium");
 * assert.equal(appKeyOf({ pid: 42 }), "pid:42");
 * assert.equal(appKeyOf({}), undefined);
 * ```
 */
export function appKeyOf(args: Args): string | undefined {
  if (typeof args.pid === "number") return `pid:${args.pid}`;
  if (typeof args.app === "string" && args.app.trim()) {
    return `app:${args.app.trim().toLowerCase()}`;
  }
  return undefined;
}

/**
 * Runs each call in a worker process of a bounded pool, so a call blocked
 * in a native call never blocks the others, and its deadline holds: at the
 * deadline that process is killed. At most `maxWorkers` processes live at
 * once (each holds a few hundred MB); calls wait in one queue and each goes
 * to the first worker that is ready (one that finished a call, or a new one
 * that finished starting), within the call's own deadline. A worker idle
 * for `idleMs` ends; each runs with a bounded V8 heap.
 *
 * @param command the worker command (default {@link workerCommand})
 * @param opts the pool's bounds
 * @returns the executor
 */
export function processExecutor(
  command: string[] = workerCommand(),
  opts: PoolOptions = {},
): Executor {
  const max = Math.max(1, opts.maxWorkers ?? MAX_WORKERS);
  const idleMs = opts.idleMs ?? WORKER_IDLE_MS;
  const env = workerEnv(opts.heapMb ?? WORKER_HEAP_MB);
  const idle: WorkerProcess[] = [];
  const busy = new Set<WorkerProcess>();
  /** Started, not yet ready (loading, connecting to the desktop). */
  const starting = new Set<WorkerProcess>();
  /** Calls waiting for a worker, oldest first. */
  const waiting: Lease[] = [];
  let closed = false;
  let next = 1;

  const live = () => idle.length + busy.size + starting.size;
  const spawn = () => {
    const w = new WorkerProcess(command, env);
    starting.add(w);
    w.onmessage = (m) => {
      if (m.type !== "ready" || !starting.delete(w)) return;
      w.onmessage = () => {};
      park(w);
      serveWaiting();
    };
    w.onexit = () => {
      const at = idle.indexOf(w);
      if (at !== -1) idle.splice(at, 1);
      busy.delete(w);
      // A worker that ends before it is ready fails the oldest waiting call, so a
      // command that cannot start is an error, not a loop of starts.
      if (starting.delete(w) && !closed) {
        const lease = waiting.shift();
        lease?.wake?.(
          new DesktopError("INTERNAL", "the worker process ended while starting", {
            suggestion: "Retry the call; if it happens again, run `desktop mcp` in a terminal to " +
              "see why it cannot start",
          }),
        );
      }
      serveWaiting();
    };
  };
  const park = (w: WorkerProcess) => {
    if (closed) return w.kill();
    idle.push(w);
    w.idleTimer = setTimeout(() => {
      const at = idle.indexOf(w);
      if (at !== -1) idle.splice(at, 1);
      w.kill();
    }, idleMs);
    Deno.unrefTimer(w.idleTimer as unknown as number);
  };
  /** Hands ready workers to waiting calls, oldest first, and starts workers for the rest. */
  const serveWaiting = () => {
    while (!closed && waiting.length && idle.length) {
      const lease = waiting.shift()!;
      // The worker that read this app lately holds its tree: it answers warm.
      let at = lease.app === undefined ? -1 : idle.findIndex((w) => w.apps.includes(lease.app!));
      if (at === -1) at = idle.length - 1;
      const w = idle.splice(at, 1)[0];
      clearTimeout(w.idleTimer);
      busy.add(w);
      if (lease.app !== undefined) {
        const had = w.apps.indexOf(lease.app);
        if (had !== -1) w.apps.splice(had, 1);
        w.apps.push(lease.app);
        if (w.apps.length > WORKER_APPS) w.apps.shift();
      }
      lease.worker = w;
      lease.wake?.();
    }
    while (!closed && waiting.length > starting.size && live() < max) spawn();
  };
  const release = (lease: Lease, drop: boolean) => {
    const at = waiting.indexOf(lease);
    if (at !== -1) waiting.splice(at, 1);
    const w = lease.worker;
    if (!w) return;
    lease.worker = undefined;
    busy.delete(w);
    w.onmessage = () => {};
    if (drop || w.exited || closed) w.kill();
    else park(w);
    serveWaiting();
  };

  // One warm process from the start, so the first call does not pay the start-up.
  spawn();
  return {
    capacity: max,
    run(op, args, callOpts) {
      const lease: Lease = { sent: false, abandoned: false, app: appKeyOf(args) };
      // The worker answers a little before the deadline kills it: its own answer (a TIMEOUT that
      // says a large tree is still being read, and kept) is worth more than this one's.
      const answerBy = Number.isFinite(callOpts.deadlineMs)
        ? Date.now() + callOpts.deadlineMs - Math.min(ANSWER_MARGIN_MS, callOpts.deadlineMs / 10)
        : undefined;
      const granted = new Promise<void>((resolve, reject) => {
        lease.wake = (err) => err ? reject(err) : resolve();
      });
      waiting.push(lease);
      serveWaiting();
      const work = granted.then(() =>
        new Promise<unknown>((resolve, reject) => {
          const w = lease.worker;
          if (!w || lease.abandoned) return reject(deadlineError(op, callOpts.deadlineMs));
          const id = next++;
          w.onmessage = (m) => {
            if (m.id === -1) {
              reject(fromJson(m.type === "error" ? m.error : exitedError().toJSON()));
            }
            if (m.id !== id) return;
            if (m.type === "event") callOpts.onEvent?.(m.event);
            else if (m.type === "result") resolve(m.result);
            else if (m.type === "error") reject(fromJson(m.error));
          };
          lease.sent = true;
          w.send({
            type: "call",
            id,
            op: op.name,
            args,
            ...(answerBy !== undefined ? { answerBy } : {}),
          });
        })
      );
      let dropped = false;
      return withDeadline(work, op, callOpts, () => {
        // Stuck in a native call, or cancelled: this process is not reused. A call
        // still waiting for a worker just leaves the queue.
        lease.abandoned = true;
        dropped = lease.sent;
        const at = waiting.indexOf(lease);
        if (at !== -1) waiting.splice(at, 1);
      }).catch((err) => {
        if (!lease.sent && err instanceof DesktopError && err.code === "TIMEOUT") {
          throw new DesktopError(err.code, `${err.message}: no worker was free (${max} at most)`, {
            suggestion: "Other calls held every worker, or one was still starting; retry, or " +
              "run fewer calls at once",
            details: { ...err.details, workers: max },
          });
        }
        throw err;
      }).finally(() => release(lease, dropped));
    },
    close() {
      closed = true;
      for (const w of [...idle, ...busy, ...starting]) w.kill();
      idle.length = 0;
      busy.clear();
      starting.clear();
      waiting.length = 0;
    },
  };
}

/**
 * Rebuilds a DesktopError from its JSON (crossing a worker boundary).
 *
 * @param j the JSON form
 * @returns the error
 */
export function fromJson(j: ReturnType<DesktopError["toJSON"]>): DesktopError {
  return new DesktopError(j.code, j.message, {
    suggestion: j.suggestion,
    candidates: j.candidates,
    details: j.details,
  });
}
