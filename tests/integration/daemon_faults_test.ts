/**
 * The background process that CLI reads reuse (src/daemon/), on a real
 * desktop with a real app: reads through it print what a read in the CLI's
 * own process prints; `desktop daemon status` shows it; and no fault makes
 * a command outlive its deadline: a stopped app (SIGSTOP) is
 * APP_UNRESPONSIVE, a stopped background process leaves the read to the
 * CLI's own process (with a note), a background process killed during a
 * call too, a killed app is an error; and the process ends with its
 * desktop. Witnesses: /proc (process states), a `--no-daemon` read.
 */

import assert from "node:assert/strict";
import {
  alive,
  hasDesktopTools,
  REPO_ROOT,
  startDesktop,
  type TestDesktop,
} from "../harness/desktop.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The CLI on the desktop, with background processes started on demand. */
async function cli(d: TestDesktop, args: string[]): Promise<Run> {
  const started = Date.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, ...args],
    cwd: REPO_ROOT,
    env: {
      ...d.env,
      DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state`,
      DESKTOP_DAEMON: "1",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: Date.now() - started,
  };
}

const s = (v: unknown) => JSON.stringify(v);
const codeOf = (stderr: string) => /"code":"([A-Z_]+)"/.exec(stderr)?.[1];

async function daemonPid(d: TestDesktop): Promise<number> {
  const s = await cli(d, ["daemon", "status"]);
  const status = JSON.parse(s.stdout) as { running: boolean; pid?: number };
  assert.ok(status.running && status.pid, s.stdout);
  return status.pid!;
}

Deno.test({
  name: "daemon: reads through it equal reads in the CLI's process; faults end by the deadline",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const d = await startDesktop({ app: "gtk3-widget-factory" });
    const pids: number[] = [];
    const timeout = 4000;
    // The bound of each call: its timeout, plus Deno's start-up on a busy machine.
    const bound = timeout + 6000;
    try {
      const cold = await cli(d, ["read", "--app", d.appName, "--no-daemon"]);
      assert.equal(cold.code, 0, cold.stderr);
      assert.equal((JSON.parse((await cli(d, ["daemon", "status"])).stdout)).running, false);
      for (let i = 0; i < 3; i++) {
        const r = await cli(d, ["read", "--app", d.appName]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, cold.stdout, `read ${i} through the background process`);
        assert.equal(r.stderr, "");
      }
      const pid = await daemonPid(d);
      pids.push(pid);
      const status = JSON.parse((await cli(d, ["daemon", "status"])).stdout);
      assert.equal(status.served, 3, "the three reads were served by it");
      assert.equal(Deno.statSync(status.socket).mode! & 0o777, 0o600);
      // The app animates a spinner, so its events may have had parts re-read (patched).
      const kept = status.kept.hits + status.kept.patched;
      assert.ok(kept >= 2, `later reads answered from the kept tree: ${s(status)}`);
      assert.ok(status.kept.trees >= 1 && status.kept.nodes > 0, s(status));

      // A change made by another process (a check box toggled): the next read through the
      // background process prints it, as a read in the CLI's own process does.
      const box = /^\s*\[\d+\|([^\]]+)\] chk "[^"]+"(?! checked)/m.exec(cold.stdout)?.[1];
      assert.ok(box, `an unchecked check box to toggle in:\n${cold.stdout}`);
      const click = await cli(d, ["click", "--app", d.appName, "--ref", box, "--no-daemon"]);
      assert.equal(click.code, 0, click.stderr);
      const changed = await cli(d, ["read", "--app", d.appName, "--no-daemon"]);
      assert.notEqual(changed.stdout, cold.stdout, "the click changed the app");
      const through = await cli(d, ["read", "--app", d.appName]);
      assert.equal(through.stdout, changed.stdout, "the background process saw the change");
      const toggled = new RegExp(
        `\\|${box.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\] chk .*checked`,
      );
      assert.match(through.stdout, toggled);
      // Back as it was (the focus stays on the box): the reads that follow compare with this.
      assert.equal(
        (await cli(d, ["click", "--app", d.appName, "--ref", box, "--no-daemon"])).code,
        0,
      );
      const base = await cli(d, ["read", "--app", d.appName, "--no-daemon"]);
      assert.equal((await cli(d, ["read", "--app", d.appName])).stdout, base.stdout);

      // A stopped app: APP_UNRESPONSIVE by the deadline, never its kept tree.
      d.signalApp("SIGSTOP");
      try {
        const r = await cli(d, ["read", "--app", d.appName, "--timeout", String(timeout)]);
        assert.equal(r.code, 1, r.stdout);
        assert.match(codeOf(r.stderr) ?? "", /^(APP_UNRESPONSIVE|TIMEOUT)$/, r.stderr);
        assert.ok(r.ms < bound, `answered after ${r.ms} ms`);
      } finally {
        d.signalApp("SIGCONT");
      }

      // A stopped background process: the read is made in the CLI's own process.
      Deno.kill(pid, "SIGSTOP");
      try {
        const r = await cli(d, ["read", "--app", d.appName, "--timeout", String(timeout)]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, base.stdout);
        assert.match(r.stderr, /^note: .*background process.*reading in this process/);
        assert.ok(r.ms < bound, `answered after ${r.ms} ms`);
      } finally {
        Deno.kill(pid, "SIGKILL");
      }

      // The background process killed during a call (a call slowed by a stopped app):
      // the CLI reads in its own process, which finds the app stopped.
      const warm = await cli(d, ["read", "--app", d.appName]);
      assert.equal(warm.code, 0, warm.stderr);
      const second = await daemonPid(d);
      assert.notEqual(second, pid, "a new background process was started");
      pids.push(second);
      d.signalApp("SIGSTOP");
      try {
        const call = cli(d, ["read", "--app", d.appName, "--timeout", String(timeout)]);
        await new Promise((r) => setTimeout(r, 1500));
        Deno.kill(second, "SIGKILL");
        const r = await call;
        assert.equal(r.code, 1, r.stdout);
        assert.match(codeOf(r.stderr) ?? "", /^(APP_UNRESPONSIVE|TIMEOUT)$/, r.stderr);
        assert.ok(r.ms < bound, `answered after ${r.ms} ms`);
      } finally {
        d.signalApp("SIGCONT");
      }

      // A killed app: an error by the deadline, from a fresh background process.
      const again = await cli(d, ["read", "--app", d.appName]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, base.stdout);
      pids.push(await daemonPid(d));
      d.signalApp("SIGKILL");
      for (let i = 0; i < 50 && alive(d.pid); i++) await new Promise((r) => setTimeout(r, 100));
      const r = await cli(d, ["read", "--app", d.appName, "--timeout", String(timeout)]);
      assert.equal(r.code, 1, r.stdout);
      assert.match(codeOf(r.stderr) ?? "", /^(APP_NOT_FOUND|APP_UNRESPONSIVE)$/, r.stderr);
      assert.ok(r.ms < bound, `answered after ${r.ms} ms`);
    } finally {
      await d.stop();
      // Every background process of this desktop ends with it.
      for (let i = 0; i < 100 && pids.some(alive); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const left = pids.filter(alive);
      for (const p of left) Deno.kill(p, "SIGKILL");
      assert.deepEqual(left, [], "background processes outlived their desktop");
    }
  },
});

Deno.test({
  name:
    "daemon: an action goes through it once; one it took but did not answer is never made again",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const d = await startDesktop({ app: "gtk3-widget-factory" });
    const pids: number[] = [];
    const timeout = 3000;
    const bound = timeout + 6000;
    /** Whether the box is checked, by a read in the CLI's own process (the witness). */
    const checked = async (box: string) => {
      const r = await cli(d, ["read", "--app", d.appName, "--no-daemon"]);
      assert.equal(r.code, 0, r.stderr);
      const line = r.stdout.split("\n").find((l) => l.includes(`|${box}] chk `));
      assert.ok(line, `no line for ${box}`);
      return /\bchecked\b/.test(line);
    };
    try {
      const cold = await cli(d, ["read", "--app", d.appName, "--no-daemon"]);
      const box = /^\s*\[\d+\|([^\]]+)\] chk "[^"]+"(?! checked)/m.exec(cold.stdout)?.[1];
      assert.ok(box, `an unchecked check box in:\n${cold.stdout}`);

      // Through the background process (started for it): done once, and said so.
      const click = await cli(d, ["click", "--app", d.appName, "--ref", box]);
      assert.equal(click.code, 0, click.stderr);
      assert.match(click.stdout, /^ok click /);
      assert.equal(click.stderr, "", "no note: the background process answered");
      const pid = await daemonPid(d);
      pids.push(pid);
      assert.equal(JSON.parse((await cli(d, ["daemon", "status"])).stdout).served, 1);
      assert.equal(await checked(box), true, "the click checked the box");

      // A stopped background process takes the request but cannot answer: the action is not
      // made again here, and the command says its outcome is unknown, by its deadline.
      Deno.kill(pid, "SIGSTOP");
      let r: Run;
      try {
        r = await cli(d, ["click", "--app", d.appName, "--ref", box, "--timeout", String(timeout)]);
      } finally {
        Deno.kill(pid, "SIGCONT");
      }
      assert.equal(r.code, 1, r.stdout);
      assert.equal(codeOf(r.stderr), "TIMEOUT", r.stderr);
      assert.match(r.stderr, /whether it was done is unknown/);
      assert.ok(r.ms < bound, `answered after ${r.ms} ms`);
      // Continued, it finds the request's deadline gone: not made late either.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(await checked(box), true, "the click was made by nobody");

      // Alive again, it toggles the box back.
      const back = await cli(d, ["click", "--app", d.appName, "--ref", box]);
      assert.equal(back.code, 0, back.stderr);
      assert.equal(await checked(box), false, "the second click unchecked the box");
    } finally {
      await d.stop();
      for (let i = 0; i < 100 && pids.some(alive); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const p of pids.filter(alive)) Deno.kill(p, "SIGKILL");
    }
  },
});
