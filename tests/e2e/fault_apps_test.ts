/**
 * Hung and dying apps get true and prompt answers: a bad session name exits
 * at once; `quit --force` ends a stopped app; a stopped Python app (process
 * `python3`, accessible name `fault_apps.py`) is APP_UNRESPONSIVE by its
 * name, also as the focused app, and a click that stopped it never says the
 * element is gone; `wait` and `observe` notice an app killed under them;
 * durations print in whole milliseconds; and a stopped neighbour costs a
 * command on a healthy app nothing. Witnesses: the processes in /proc (alive,
 * stopped or gone) and the time each command took (generous bounds).
 *
 * @module
 */

import assert from "node:assert/strict";
import { cliError } from "../harness/cli.ts";
import {
  alive,
  hasDesktopTools,
  REPO_ROOT,
  startDesktop,
  type TestDesktop,
} from "../harness/desktop.ts";

const FIXTURE = `${REPO_ROOT}tests/fixtures/gtk3/fault_apps.py`;
const APP = "fault_apps.py";

/** What one CLI run gave, how long it took, and whether it had to be killed. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** True when the process was still running at `killAfterMs` and was killed. */
  killed: boolean;
}

/** Starts the CLI; the result comes when it exits, or is killed after `killAfterMs`. */
function startCli(d: TestDesktop, args: string[], killAfterMs = 60_000): Promise<Run> {
  const t0 = Date.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, ...args],
    cwd: REPO_ROOT,
    env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // exited meanwhile
    }
  }, killAfterMs);
  return child.output().then((out) => {
    clearTimeout(timer);
    const dec = new TextDecoder();
    return {
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
      ms: Date.now() - t0,
      killed,
    };
  });
}

/** The state letter of a process in /proc (R, S, T...), or "gone". */
function procState(pid: number): string {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0];
  } catch {
    return "gone";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const e2e = { ignore: !hasDesktopTools(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...e2e,
  name: "fault apps: a bad --session name is INVALID_ARGS and the process exits at once",
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    for (const name of ["a/b", "", "../../.."]) {
      const res = await startCli(d, ["list", "--session", name], 20_000);
      assert.ok(!res.killed, `list --session ${JSON.stringify(name)} still ran after 20 s`);
      assert.equal(res.code, 2, res.stderr);
      assert.equal(cliError(res).code, "INVALID_ARGS");
      assert.ok(res.ms < 15_000, `exited after ${res.ms} ms`);
    }
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: quit --force ends a stopped app (SIGTERM, then SIGKILL) within its deadline",
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    d.signalApp("SIGSTOP");
    try {
      for (let i = 0; i < 20 && procState(d.pid) !== "T"; i++) await sleep(50);
      assert.equal(procState(d.pid), "T", "the app is stopped");
      const res = await startCli(d, [
        "quit",
        "--pid",
        String(d.pid),
        "--force",
        "--timeout",
        "6000",
      ]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /signal/, res.stdout);
      // The witness: the process is gone.
      for (let i = 0; i < 20 && alive(d.pid); i++) await sleep(100);
      assert.equal(alive(d.pid), false, `pid ${d.pid} still runs (${procState(d.pid)})`);
      assert.ok(res.ms < 6000 + 5000, `quit took ${res.ms} ms`);
    } finally {
      d.signalApp("SIGCONT");
    }
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: quit --force ends a stopped app that ignores SIGTERM (SIGKILL after the " +
    "grace period) within its deadline",
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: FIXTURE,
      extraEnv: { FAULT_APPS_IGNORE_TERM: "1" },
    });
    d.signalApp("SIGSTOP");
    try {
      for (let i = 0; i < 20 && procState(d.pid) !== "T"; i++) await sleep(50);
      assert.equal(procState(d.pid), "T", "the app is stopped");
      const res = await startCli(d, ["quit", "--app", APP, "--force", "--timeout", "6000"]);
      assert.equal(res.code, 0, res.stderr);
      for (let i = 0; i < 20 && alive(d.pid); i++) await sleep(100);
      assert.equal(alive(d.pid), false, `pid ${d.pid} still runs (${procState(d.pid)})`);
      assert.ok(res.ms < 6000 + 5000, `quit took ${res.ms} ms`);
    } finally {
      d.signalApp("SIGCONT");
    }
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: a stopped Python app is APP_UNRESPONSIVE by its name, and the click " +
    "that stopped it never says the element is gone",
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    assert.equal(d.appName, APP);
    try {
      // The button's handler stops the app's own process once the click is delivered.
      const click = await startCli(d, ["click", "--app", APP, "--text", "Stop me"]);
      for (let i = 0; i < 30 && procState(d.pid) !== "T"; i++) await sleep(100);
      assert.equal(procState(d.pid), "T", "the click stopped the app");
      assert.doesNotMatch(click.stdout, /now gone/, click.stdout);
      if (click.code === 0) assert.match(click.stdout, /unverified|APP_UNRESPONSIVE/, click.stdout);
      else assert.equal(cliError(click).code, "APP_UNRESPONSIVE", click.stderr);

      const read = await startCli(d, ["read", "--app", APP, "--timeout", "4000"]);
      const err = cliError(read);
      assert.equal(err.code, "APP_UNRESPONSIVE", read.stderr);
      assert.match(String(err.message), new RegExp(APP.replace(".", "\\.")), read.stderr);
      assert.equal((err.details as { pid?: number })?.pid, d.pid, read.stderr);
      assert.ok(read.ms < 4000 + 5000, `read took ${read.ms} ms`);

      const list = await startCli(d, ["list", "--format", "json"]);
      assert.equal(list.code, 0, list.stderr);
      const apps = JSON.parse(list.stdout) as Array<
        { name: string; pid: number; unresponsive?: true }
      >;
      const me = apps.find((a) => a.pid === d.pid);
      assert.deepEqual([me?.name, me?.unresponsive], [APP, true], list.stdout);
      assert.equal(procState(d.pid), "T", "still stopped: nothing ended it");
    } finally {
      d.signalApp("SIGCONT");
    }
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: a stopped focused app is APP_UNRESPONSIVE naming it, not 'no app is focused'",
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    const other = await d.startApp({ app: "zenity", url: "--text=neighbour" });
    // Give the Python app the keyboard focus, and check that a read without scope reads it.
    const raise = await startCli(d, ["window", "--pid", String(d.pid), "--raise"]);
    assert.equal(raise.code, 0, raise.stderr);
    const before = await startCli(d, ["read"]);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /Stop me/, "the focused app is the Python app");
    d.signalApp("SIGSTOP");
    try {
      const res = await startCli(d, ["read", "--timeout", "4000"]);
      const err = cliError(res);
      assert.equal(err.code, "APP_UNRESPONSIVE", res.stderr);
      assert.match(String(err.message), /fault_apps\.py/, res.stderr);
      assert.ok(res.ms < 4000 + 5000, `read took ${res.ms} ms`);
      assert.equal(procState(d.pid), "T");
      assert.equal(alive(other.pid), true);
    } finally {
      d.signalApp("SIGCONT");
    }
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: wait and observe on an app killed under them end promptly with APP_NOT_FOUND",
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    const wait = startCli(d, [
      "wait",
      "--app",
      APP,
      "--for-text",
      "never shown",
      "--timeout",
      "30000",
    ]);
    const observe = startCli(d, ["observe", "--app", APP, "--duration", "30"]);
    await sleep(4000);
    const killedAt = Date.now();
    d.signalApp("SIGKILL");
    for (let i = 0; i < 20 && alive(d.pid); i++) await sleep(100);
    assert.equal(alive(d.pid), false, "the app is gone");

    const w = await wait;
    assert.equal(w.code, 1, w.stdout + w.stderr);
    const we = cliError(w);
    assert.equal(we.code, "APP_NOT_FOUND", w.stderr);
    assert.match(String(we.message), /quit/, w.stderr);
    const waitMs = Date.now() - killedAt;
    assert.ok(waitMs < 10_000, `wait answered ${waitMs} ms after the kill`);

    const o = await observe;
    const observeMs = Date.now() - killedAt;
    const events = o.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(events[0]?.type, "snapshot", o.stdout);
    const error = events.find((e) => e.type === "error");
    assert.equal(error?.code, "APP_NOT_FOUND", o.stdout + o.stderr);
    assert.match(String(error?.error), /quit/, o.stdout);
    assert.ok(observeMs < 10_000, `observe ended ${observeMs} ms after the kill`);
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: a wait's TIMEOUT prints its duration in whole milliseconds",
  async fn() {
    await using d = await startDesktop({ app: "zenity", url: "--text=healthy" });
    const args = ["wait", "--pid", String(d.pid), "--for-text", "zzz", "--timeout", "1500"];
    const waited = await startCli(d, args);
    const err = cliError(waited);
    assert.equal(err.code, "TIMEOUT");
    assert.match(String(err.message), /within \d+ ms/, waited.stderr);
    assert.doesNotMatch(waited.stderr, /\d\.\d+ ?ms/, waited.stderr);
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: a stopped neighbour costs a command on a healthy app nothing " +
    "(with --pid it is not asked at all), and stderr stays empty",
  async fn() {
    await using d = await startDesktop({ app: "zenity", url: "--text=healthy" });
    const py = await d.startApp({ app: "gtk3-script", url: FIXTURE });
    const pid = String(d.pid);
    const timeout = ["--timeout", "20000"]; // a silent app would cost 3000 ms of it
    const baseline: number[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await startCli(d, ["read", "--pid", pid, ...timeout]);
      assert.equal(r.code, 0, r.stderr);
      baseline.push(r.ms);
    }
    py.signalApp("SIGSTOP");
    try {
      for (let i = 0; i < 20 && procState(py.pid) !== "T"; i++) await sleep(50);
      const limit = Math.max(...baseline) + 2000;
      for (
        const args of [
          ["read", "--pid", pid, ...timeout],
          ["read", "--app", d.appName, ...timeout],
          ["list", ...timeout],
        ]
      ) {
        const r = await startCli(d, args);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stderr, "", `stderr holds nothing: ${r.stderr}`);
        assert.ok(r.ms < limit, `${args.join(" ")} took ${r.ms} ms (before: ${baseline})`);
      }
      assert.equal(procState(py.pid), "T");
    } finally {
      py.signalApp("SIGCONT");
    }
  },
});

Deno.test({
  ...e2e,
  name: "fault apps: libatspi's GLib warnings (domain dbind) never reach stderr once a session " +
    "has loaded it",
  async fn() {
    await using d = await startDesktop({ app: "zenity", url: "--text=healthy" });
    const dir = await Deno.makeTempDir({ prefix: "fault-apps-" });
    try {
      // A session loads libatspi (a watch needs it), then GLib logs what libatspi's GetItems
      // handler logs when a stopped app's reply is an error.
      const script = `${dir}/probe.ts`;
      await Deno.writeTextFile(
        script,
        `
import { connect } from "${new URL("../../src/connect.ts", import.meta.url).href}";
import { cstr } from "${new URL("../../src/ffi/cstring.ts", import.meta.url).href}";
const glib = Deno.dlopen("libatspi.so.0", {
  g_log: { parameters: ["buffer", "i32", "buffer"], result: "void" },
} as const);
const say = () => glib.symbols.g_log(cstr("dbind"), 1 << 4, cstr("AT-SPI: Error in GetItems, sender=:1.9, error=probe"));
if (Deno.args[0] === "bare") say();
else {
  const desktop = await connect({ timeoutMs: 5000 });
  const stop = await desktop.provider.watch!({ pid: ${d.pid} }, () => {});
  say();
  stop();
  desktop.close();
}
`,
      );
      const run = async (arg: string) => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--quiet", script, arg],
          env: d.env,
          clearEnv: true,
          stdout: "piped",
          stderr: "piped",
        }).output();
        return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
      };
      // The control: GLib prints it when nobody quiets the domain.
      const bare = await run("bare");
      assert.match(bare.stderr, /dbind-WARNING/, bare.stderr);
      const session = await run("session");
      assert.equal(session.code, 0, session.stderr);
      assert.equal(session.stderr, "", session.stderr);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
