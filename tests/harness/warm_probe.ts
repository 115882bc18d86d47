/**
 * The client of the warm-read probe (`tests/e2e/warm_reads_test.ts
 * --probe APP`): a process of its own that holds one provider with warm
 * reads on (patches on, as by default) and one that keeps nothing, asked
 * `warm` or `cold` and answering with the tree read and the kept trees'
 * counters.
 *
 * @module
 */

import type { Element } from "../../src/model/element.ts";
import type { LiveTreeStats } from "../../src/platform/linux/live_tree.ts";
import { REPO_ROOT, type TestDesktop } from "./desktop.ts";

/** The probe's answer to one question. */
export interface ProbeReply {
  /** The tree read. */
  root: Element;
  /** The kept trees' counters (those of the warm provider). */
  stats: LiveTreeStats;
}

/** A running probe on a test desktop. */
export interface WarmProbe {
  /** Reads the app warm (from the kept tree) or cold (nothing kept). */
  ask(cmd: "warm" | "cold"): Promise<ProbeReply>;
  /** Ends the probe (killed after 5 s). */
  close(): Promise<void>;
}

/**
 * Starts the probe on the desktop's app.
 *
 * @param d the test desktop
 * @returns the probe
 */
export function warmProbe(d: TestDesktop): WarmProbe {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      `${REPO_ROOT}tests/e2e/warm_reads_test.ts`,
      "--probe",
      d.appName,
    ],
    env: d.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const replies = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  return {
    async ask(cmd) {
      await stdin.write(new TextEncoder().encode(cmd + "\n"));
      while (!pending.includes("\n")) {
        const { value, done } = await replies.read();
        if (done) throw new Error("the probe quit");
        pending += value;
      }
      const line = pending.slice(0, pending.indexOf("\n"));
      pending = pending.slice(line.length + 1);
      return JSON.parse(line);
    },
    async close() {
      await stdin.close().catch(() => {});
      const ended = setTimeout(() => child.kill(), 5000);
      await child.status;
      clearTimeout(ended);
      await replies.cancel().catch(() => {});
    },
  };
}
