import assert from "node:assert/strict";
import { cliError, runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";

/** One parsed JSONL event of `desktop observe`. */
interface Event {
  type: string;
  ts: number;
  [key: string]: unknown;
}

/** `desktop observe` running as a subprocess, read line by line. */
class ObserveProcess {
  readonly child: Deno.ChildProcess;
  readonly events: Event[] = [];
  #lines: ReadableStreamDefaultReader<string>;
  #buf = "";
  #stderr: Promise<string>;

  constructor(d: TestDesktop, args: string[]) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "observe", ...args],
      cwd: REPO_ROOT,
      env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#lines = this.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    this.#stderr = new Response(this.child.stderr).text();
  }

  /** Reads events until one matches, or throws after `ms` (or at the end of the stream). */
  async until(match: (ev: Event) => boolean, ms: number): Promise<Event> {
    const deadline = Date.now() + ms;
    for (;;) {
      const nl = this.#buf.indexOf("\n");
      if (nl >= 0) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        if (!line.trim()) continue;
        const ev = JSON.parse(line) as Event; // every line must be JSON
        this.events.push(ev);
        if (match(ev)) return ev;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${ms} ms: ${this.dump()}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const next = await Promise.race([
        this.#lines.read(),
        new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), left))),
      ]);
      clearTimeout(timer);
      if (next === "timeout") continue;
      if (next.done) {
        throw new Error(`stream ended without a matching event: ${this.dump()}\n${await this
          .#stderr}`);
      }
      this.#buf += next.value;
    }
  }

  /** Waits for the process to exit; returns its code and stderr. */
  async finish(): Promise<{ code: number; stderr: string }> {
    // Drain what is left so the child never blocks on a full pipe.
    for (let r = await this.#lines.read(); !r.done; r = await this.#lines.read()) {
      this.#buf += r.value;
    }
    for (const line of this.#buf.split("\n")) {
      if (line.trim()) this.events.push(JSON.parse(line));
    }
    this.#buf = "";
    const status = await this.child.status;
    return { code: status.code, stderr: await this.#stderr };
  }

  /** Events so far, for failure messages. */
  dump(): string {
    return this.events.map((e) => JSON.stringify(e)).join("\n");
  }
}

const CHECK = "checkbutton.2"; // the enabled, unchecked check button of the first page

Deno.test({
  name: "observe e2e (gtk3): a click shows up as one changed event for that ref",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const before = await runCli(d, ["read", "--app", d.appName, "--roles", "chk"]);
    assert.equal(before.code, 0, before.stderr);
    const line = before.stdout.split("\n").find((l) => l.includes(`|${CHECK}]`));
    assert.ok(line && !/\bchecked\b/.test(line), `${CHECK} starts unchecked:\n${before.stdout}`);

    const obs = new ObserveProcess(d, ["--app", d.appName, "--duration", "6", "--ignore-focus"]);
    const snap = await obs.until((e) => e.type === "snapshot", 30_000);
    assert.ok((snap.count as number) > 50, `a real tree: ${snap.count} elements`);

    const click = await runCli(d, ["click", "--app", d.appName, "--ref", CHECK]);
    assert.equal(click.code, 0, click.stderr);

    const changed = await obs.until((e) => e.type === "changed" && e.ref === CHECK, 10_000);
    assert.deepEqual((changed.changes as Record<string, unknown>).chk, [false, true]);
    assert.equal(typeof changed.i, "number");

    const done = await obs.until((e) => e.type === "done", 20_000);
    const { code, stderr } = await obs.finish();
    assert.equal(code, 0, stderr);
    assert.equal(obs.events.at(-1), done, "done is the last line");
    assert.match(done.elapsed as string, /^\d+\.\ds$/);
    // Nothing but the click's own effects: every event is about that check button.
    const about = obs.events.filter((e) => ["added", "removed", "changed"].includes(e.type));
    assert.equal(done.events, about.length);
    assert.deepEqual(about.map((e) => e.ref), [CHECK], obs.dump());
  },
});

Deno.test({
  name: "observe e2e (gtk3): Ctrl+C still prints done, and the app quitting ends the stream",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });

    const interrupted = new ObserveProcess(d, ["--app", d.appName]);
    await interrupted.until((e) => e.type === "snapshot", 30_000);
    interrupted.child.kill("SIGINT");
    const result = await interrupted.finish();
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(interrupted.events.map((e) => e.type), ["snapshot", "done"]);

    const orphaned = new ObserveProcess(d, ["--app", d.appName, "--interval", "200"]);
    await orphaned.until((e) => e.type === "snapshot", 30_000);
    d.signalApp("SIGKILL");
    const err = await orphaned.until((e) => e.type === "error", 20_000);
    assert.equal(err.code, "APP_NOT_FOUND", orphaned.dump());
    const end = await orphaned.finish();
    assert.equal(end.code, 0, end.stderr);
    assert.equal(orphaned.events.at(-1)?.type, "done");
  },
});

Deno.test({
  name: "observe e2e (gtk3): an app that is not running is APP_NOT_FOUND on stderr",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const res = await runCli(d, ["observe", "--app", "no-such-app-here", "--duration", "1"]);
    assert.equal(res.code, 1);
    assert.equal(res.stdout, "");
    assert.equal(cliError(res).code, "APP_NOT_FOUND");
  },
});
