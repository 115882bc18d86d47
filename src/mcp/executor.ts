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
 * is blocked in it crashes the process. Snapshot files (`--from`) cannot
 * hang and run in-process.
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
  | { type: "call"; id: number; op: string; args: Args }
  | { type: "cancel"; id: number };

/** A message from a worker process (one JSON line). */
export type FromWorker =
  | { type: "result"; id: number; result: unknown }
  | { type: "error"; id: number; error: ReturnType<DesktopError["toJSON"]> }
  | { type: "event"; id: number; event: unknown };

/** Idle worker processes kept warm for the next calls (each keeps its sessions open). */
const IDLE_WORKERS = 2;

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

/** One worker process and its reply lines. */
class WorkerProcess {
  readonly child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Receives each message; replaced per call. */
  onmessage: (m: FromWorker) => void = () => {};
  /** Set once the process ended. */
  exited = false;

  constructor(command: string[]) {
    this.child = new Deno.Command(command[0], {
      args: command.slice(1),
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.child.status.then(() => {
      this.exited = true;
      this.onmessage({ type: "error", id: -1, error: exitedError().toJSON() });
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

/**
 * Runs each call in a worker process of a pool (a new one when none is
 * idle), so a call blocked in a native call never blocks the others, and
 * its deadline holds: at the deadline the process is killed.
 *
 * @param command the worker command (default {@link workerCommand})
 * @returns the executor
 */
export function processExecutor(
  command: string[] = workerCommand(),
): Executor {
  const idle: WorkerProcess[] = [];
  const busy = new Set<WorkerProcess>();
  let next = 1;
  // One warm process from the start, so the first call does not pay the start-up.
  idle.push(new WorkerProcess(command));
  return {
    run(op, args, opts) {
      let worker = idle.pop();
      while (worker?.exited) worker = idle.pop();
      worker ??= new WorkerProcess(command);
      const w = worker;
      busy.add(w);
      const id = next++;
      const work = new Promise<unknown>((resolve, reject) => {
        w.onmessage = (m) => {
          if (m.id === -1) reject(fromJson(m.type === "error" ? m.error : exitedError().toJSON()));
          if (m.id !== id) return;
          if (m.type === "event") opts.onEvent?.(m.event);
          else if (m.type === "result") resolve(m.result);
          else reject(fromJson(m.error));
        };
      });
      w.send({ type: "call", id, op: op.name, args });
      let dropped = false;
      return withDeadline(work, op, opts, () => {
        // Stuck in a native call, or cancelled: this process is not reused.
        dropped = true;
        w.kill();
      }).finally(() => {
        busy.delete(w);
        w.onmessage = () => {};
        if (dropped || w.exited || idle.length >= IDLE_WORKERS) w.kill();
        else idle.push(w);
      });
    },
    close() {
      for (const w of [...idle, ...busy]) w.kill();
      idle.length = 0;
      busy.clear();
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
