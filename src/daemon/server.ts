/**
 * The background process of one user and one desktop (`desktop daemon
 * serve`, started on demand by the CLI): it runs `read` commands for CLI
 * processes in its own long-lived sessions, so each app's tree is kept
 * between calls (warm reads, src/platform/linux/live_tree.ts). It listens on
 * a unix socket of mode 0600 in the user's private directory (paths.ts);
 * a client proves it is the same user by sending the token only that user
 * can read. One command at a time (each client waits at most half its own
 * time, then reads in its own process). It ends when idle for
 * {@link DAEMON_IDLE_MS}, when told to stop, when its desktop's display or
 * bus is gone, or when another process took its socket.
 *
 * @module
 */

import type { Desktop } from "../desktop.ts";
import { DEFAULT_TIMEOUT_MS } from "../desktop_types.ts";
import { type LiveTreeStats, setLiveTrees } from "../platform/linux/live_tree.ts";
import { setSessionPool } from "../commands/_shared.ts";
import { type DaemonPaths, daemonPaths } from "./paths.ts";

/** An idle background process ends after this long. */
export const DAEMON_IDLE_MS = 5 * 60_000;
/** How often it checks that its desktop is still there. */
const CHECK_MS = 2_000;
/** The longest request line taken. */
const MAX_REQUEST = 1 << 20;

/** A request from a client (one JSON line). */
export type DaemonRequest =
  | {
    type: "run";
    token: string;
    argv: string[];
    session?: string;
    /** When the client stops waiting (ms since epoch): the command answers by then. */
    answerBy?: number;
  }
  | { type: "status"; token: string }
  | { type: "stop"; token: string };

/** The answer to `run`: what the command printed and its exit code. */
export interface RunReply {
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** Exit code. */
  code: number;
}

/** The answer to `status`. */
export interface StatusReply {
  /** The process id. */
  pid: number;
  /** When it started (ISO time). */
  startedAt: string;
  /** Commands it ran. */
  served: number;
  /** Its socket. */
  socket: string;
  /** Milliseconds it stays without a command before it ends. */
  idleMs: number;
  /**
   * The apps' trees it keeps (summed over its sessions): reads answered from
   * a kept tree (`hits`, an unchanged app's read among them), reads made
   * whole (`misses`), reads that re-read only what changed (`patched`), and
   * the trees and nodes kept now.
   */
  kept: Pick<LiveTreeStats, "hits" | "misses" | "patched" | "trees" | "nodes">;
}

/** Runs a CLI command line in this process (cli.ts's `main`). */
export type CliMain = (argv: string[]) => Promise<void>;

/** Options of {@link serveDaemon}. */
export interface ServeOptions {
  /** Ends after this long without a command (default {@link DAEMON_IDLE_MS}). */
  idleMs?: number;
}

/** A random token (hex). */
function newToken(): string {
  const b = crypto.getRandomValues(new Uint8Array(24));
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** Whether a path exists. */
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files whose going away means this desktop is gone: the X display's
 * socket and the buses' socket files.
 *
 * @param env reads a variable
 * @returns the paths to check
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { desktopFiles } from "./server.ts";
 * const env: Record<string, string> = { DISPLAY: ":7", DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/b,guid=1" };
 * assert.deepEqual(desktopFiles((k) => env[k]), ["/tmp/.X11-unix/X7", "/run/b"]);
 * ```
 */
export function desktopFiles(env: (k: string) => string | undefined): string[] {
  const out: string[] = [];
  const display = /^:(\d+)/.exec(env("DISPLAY") ?? "")?.[1];
  if (display !== undefined) out.push(`/tmp/.X11-unix/X${display}`);
  for (const k of ["DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"]) {
    const path = /(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/.exec(env(k) ?? "")?.[1];
    if (path) out.push(path);
  }
  return out;
}

/**
 * The longest a call of the background process's sessions may take: each
 * ends by its client's deadline first (see {@link sessionPool}).
 */
const SESSION_TIMEOUT_MS = 120_000;

/**
 * Sessions kept open across commands, one per session name; `close` is a no-op.
 * Each call of theirs ends by `callerDeadline()`, the deadline of the client
 * waiting (its own `--timeout`): one session serves every timeout, so a
 * command that raises `--timeout` finds the trees the others kept.
 */
function sessionPool(callerDeadline: () => number | undefined) {
  const sessions = new Map<string, Promise<Desktop>>();
  const open = (opts: { timeout?: number; session?: string }) => {
    const key = opts.session ?? "";
    let s = sessions.get(key);
    if (!s) {
      s = import("../connect.ts").then(({ connect }) =>
        connect({
          timeoutMs: SESSION_TIMEOUT_MS,
          persistRefs: true,
          reuseUnchangedReads: true,
          callerDeadline,
          ...(opts.session !== undefined ? { session: opts.session } : {}),
        })
      );
      s.catch(() => sessions.delete(key));
      sessions.set(key, s);
    }
    return s.then((d) =>
      new Proxy(d, {
        get(target, prop) {
          if (prop === "close") return () => {};
          const v = Reflect.get(target, prop, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      })
    );
  };
  const close = () => {
    for (const s of sessions.values()) s.then((d) => d.close(), () => {});
    sessions.clear();
  };
  /** The kept trees' counters, summed over the sessions opened. */
  const kept = async (): Promise<StatusReply["kept"]> => {
    const sum = { hits: 0, misses: 0, patched: 0, trees: 0, nodes: 0 };
    for (const s of sessions.values()) {
      const d = await s.catch(() => null);
      const provider = d?.provider as { liveTreeStats?: () => LiveTreeStats | null } | undefined;
      const stats = provider?.liveTreeStats?.();
      if (!stats) continue;
      for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += stats[k];
    }
    return sum;
  };
  /** Opens the default session and has its backend do its one-time work, by `deadline`. */
  const warmUp = async (deadline: number): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((r) =>
      timer = setTimeout(r, Math.max(0, deadline - Date.now()))
    );
    const warm = open({}).then((d) => d.provider.warmUp?.(deadline)).catch(() => {});
    // A bus that does not answer does not hold the process back past the deadline.
    await Promise.race([warm, late]);
    clearTimeout(timer);
  };
  return { open, close, kept, warmUp };
}

/** How long the background process warms up before it listens (a client waits for it). */
const WARM_UP_MS = 3000;

/**
 * Runs one command line with its output captured (the process runs one at a time).
 */
async function runCaptured(main: CliMain, argv: string[], session?: string): Promise<RunReply> {
  const out: string[] = [];
  const err: string[] = [];
  const dec = new TextDecoder();
  const stdout = Deno.stdout as unknown as { writeSync: (b: Uint8Array) => number };
  const stderr = Deno.stderr as unknown as { writeSync: (b: Uint8Array) => number };
  const writeOut = stdout.writeSync;
  const writeErr = stderr.writeSync;
  const consoleError = console.error;
  const consoleLog = console.log;
  const sessionBefore = Deno.env.get("DESKTOP_SESSION");
  stdout.writeSync = (b) => (out.push(dec.decode(b)), b.length);
  stderr.writeSync = (b) => (err.push(dec.decode(b)), b.length);
  console.error = (...a: unknown[]) => void err.push(a.map(String).join(" ") + "\n");
  console.log = (...a: unknown[]) => void out.push(a.map(String).join(" ") + "\n");
  if (session) Deno.env.set("DESKTOP_SESSION", session);
  else Deno.env.delete("DESKTOP_SESSION");
  Deno.exitCode = 0;
  try {
    await main(argv);
  } catch (e) {
    err.push(`${e}\n`);
    Deno.exitCode = 1;
  } finally {
    stdout.writeSync = writeOut;
    stderr.writeSync = writeErr;
    console.error = consoleError;
    console.log = consoleLog;
    if (sessionBefore !== undefined) Deno.env.set("DESKTOP_SESSION", sessionBefore);
    else Deno.env.delete("DESKTOP_SESSION");
  }
  const code = Deno.exitCode;
  Deno.exitCode = 0;
  return { stdout: out.join(""), stderr: err.join(""), code };
}

/** Reads one line (the request) from a connection, bounded in size. */
async function readLine(conn: Deno.Conn): Promise<string | null> {
  const dec = new TextDecoder();
  let text = "";
  const buf = new Uint8Array(64 * 1024);
  while (text.length < MAX_REQUEST) {
    const n = await conn.read(buf);
    if (n === null) return null;
    text += dec.decode(buf.subarray(0, n), { stream: true });
    const nl = text.indexOf("\n");
    if (nl !== -1) return text.slice(0, nl);
  }
  return null;
}

async function writeAll(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

/**
 * Serves CLI commands on this desktop's socket until idle, stopped, or the
 * desktop is gone; then removes its socket and token.
 *
 * @param main runs one command line (cli.ts's `main`)
 * @param opts idle time
 * @returns when it ended
 */
export async function serveDaemon(main: CliMain, opts: ServeOptions = {}): Promise<void> {
  const idleMs = opts.idleMs ?? DAEMON_IDLE_MS;
  const paths: DaemonPaths = daemonPaths();
  try {
    Deno.removeSync(paths.socket);
  } catch {
    // None left over.
  }
  setLiveTrees(true);
  /** The deadline of the client whose command runs now (commands run one at a time). */
  let answerBy: number | undefined;
  const pool = sessionPool(() => answerBy);
  setSessionPool(pool.open);
  // Warm before the first client is heard: a first command would otherwise spend part of its
  // deadline loading libraries and connecting (under load, more than half of a 1.5 s read).
  await pool.warmUp(Date.now() + WARM_UP_MS);
  const token = newToken();
  const listener = Deno.listen({ transport: "unix", path: paths.socket });
  Deno.chmodSync(paths.socket, 0o600);
  const socketIno = Deno.statSync(paths.socket).ino;
  const tmp = `${paths.token}.${Deno.pid}`;
  Deno.writeTextFileSync(tmp, token, { mode: 0o600 });
  Deno.chmodSync(tmp, 0o600);
  Deno.renameSync(tmp, paths.token);

  const started = new Date().toISOString();
  let served = 0;
  let stopping = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    clearTimeout(idleTimer);
    clearInterval(check);
    try {
      listener.close();
    } catch {
      // Closed already.
    }
  };
  const touch = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(stop, idleMs);
  };
  const files = desktopFiles((k) => Deno.env.get(k));
  const check = setInterval(() => {
    // The desktop went away, or another process took the socket: end.
    let mine = false;
    try {
      mine = Deno.statSync(paths.socket).ino === socketIno;
    } catch {
      mine = false;
    }
    if (!mine || files.some((f) => !exists(f))) stop();
  }, CHECK_MS);
  touch();

  let queue = Promise.resolve();
  const handle = async (conn: Deno.Conn) => {
    try {
      const line = await readLine(conn);
      if (line === null) return;
      let req: DaemonRequest;
      try {
        req = JSON.parse(line);
      } catch {
        return;
      }
      if (req.token !== token) return;
      if (req.type === "status") {
        const reply: StatusReply = {
          pid: Deno.pid,
          startedAt: started,
          served,
          socket: paths.socket,
          idleMs,
          kept: await pool.kept(),
        };
        await writeAll(conn, JSON.stringify(reply) + "\n");
      } else if (req.type === "stop") {
        await writeAll(conn, JSON.stringify({ stopped: true }) + "\n");
        stop();
      } else if (req.type === "run" && Array.isArray(req.argv)) {
        // A client that says no deadline (an older one) waits the default timeout.
        const by = typeof req.answerBy === "number"
          ? req.answerBy
          : Date.now() + DEFAULT_TIMEOUT_MS;
        const run = queue.then(async () => {
          answerBy = by;
          try {
            return await runCaptured(main, req.argv.map(String), req.session);
          } finally {
            answerBy = undefined;
          }
        });
        queue = run.then(() => {}, () => {});
        const reply = await run;
        served++;
        touch();
        await writeAll(conn, JSON.stringify(reply) + "\n");
      }
    } catch {
      // The client went away (it gave up waiting): nothing to answer.
    } finally {
      try {
        conn.close();
      } catch {
        // Closed.
      }
    }
  };
  try {
    for await (const conn of listener) void handle(conn);
  } catch {
    // Closed by stop().
  }
  stop();
  await queue;
  pool.close();
  setSessionPool(null);
  for (const p of [paths.socket, paths.token]) {
    try {
      // Only our own files: another process may have taken the names.
      if (p === paths.socket && Deno.statSync(p).ino !== socketIno) continue;
      if (p === paths.token && Deno.readTextFileSync(p) !== token) continue;
      Deno.removeSync(p);
    } catch {
      // Gone already.
    }
  }
}
