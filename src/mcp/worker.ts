/**
 * A worker process of the MCP server's pool (see executor.ts), run as
 * `desktop mcp --worker`: reads one call per line on stdin, runs it on
 * sessions it opens on first use (one per timeout), keeping each app's tree
 * between calls (warm reads, see live_tree.ts), and writes events, the
 * result or the error as JSON lines on stdout. It says `ready` once it has
 * tried to open the session of the default timeout and loaded the token
 * counter, so the pool gives calls to workers that can answer them at once.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS, type Desktop } from "../desktop.ts";
import { toDesktopError } from "../errors.ts";
import { type AnyOp, invoke, OPS } from "../ops/mod.ts";
import { o200kCounter } from "../output/budget.ts";
import type { FromWorker, ToWorker } from "./executor.ts";
import { setLiveTrees } from "../platform/linux/live_tree.ts";

/**
 * Serves calls from `input` until it ends.
 *
 * @param input call lines (stdin)
 * @param write writes one reply line (stdout)
 * @param opts the session whose ids the calls use (the server's connection)
 * @returns when the input ends
 */
export async function serveWorker(
  input: ReadableStream<Uint8Array>,
  write: (line: string) => Promise<void>,
  opts: { session?: string } = {},
): Promise<void> {
  // A worker lives between calls: it keeps each app's tree and reads again only after the app
  // signals a change (src/platform/linux/live_tree.ts).
  setLiveTrees(true);
  const sessions = new Map<number, Promise<Desktop>>();
  const running = new Map<number, AbortController>();
  const sessionName = opts.session;
  /** When the server stops waiting for the call running now (it sends one at a time). */
  let answerBy: number | undefined;
  let writing = Promise.resolve();
  const post = (m: FromWorker) => {
    writing = writing.then(() => write(JSON.stringify(m) + "\n")).catch(() => {});
  };
  const session = (timeoutMs: number) => {
    let s = sessions.get(timeoutMs);
    if (!s) {
      s = import("../connect.ts").then(({ connect }) =>
        connect({
          timeoutMs,
          persistRefs: true,
          reuseUnchangedReads: true,
          callerDeadline: () => answerBy,
          ...(sessionName !== undefined ? { session: sessionName } : {}),
        })
      );
      s.catch(() => sessions.delete(timeoutMs));
      sessions.set(timeoutMs, s);
    }
    return s;
  };
  // Warm before the first call comes: the session opened (a failure is that call's error: it
  // opens again), and the token counter of read's budget loaded (seconds on a busy machine).
  void Promise.allSettled([session(DEFAULT_TIMEOUT_MS), o200kCounter()])
    .then(() => post({ type: "ready", id: 0 }));
  const handle = async (m: ToWorker) => {
    if (m.type === "cancel") {
      running.get(m.id)?.abort();
      return;
    }
    const ctrl = new AbortController();
    running.set(m.id, ctrl);
    answerBy = typeof m.answerBy === "number" ? m.answerBy : undefined;
    try {
      const op = (OPS as unknown as Record<string, AnyOp>)[m.op];
      if (!op) throw new Error(`no operation ${m.op}`);
      const result = await invoke(op, m.args, {
        face: "mcp",
        signal: ctrl.signal,
        desktop: () => session((m.args.timeout as number | undefined) ?? DEFAULT_TIMEOUT_MS),
        emit: (event) => post({ type: "event", id: m.id, event }),
      });
      post({ type: "result", id: m.id, result });
    } catch (err) {
      post({ type: "error", id: m.id, error: toDesktopError(err).toJSON() });
    } finally {
      running.delete(m.id);
      answerBy = undefined;
    }
  };
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of input) {
    rest += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = rest.indexOf("\n")) !== -1) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.trim()) void handle(JSON.parse(line));
    }
  }
  for (const s of sessions.values()) s.then((d) => d.close(), () => {});
  await writing;
}
