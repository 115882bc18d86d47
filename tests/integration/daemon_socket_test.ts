/**
 * The background process's socket (src/daemon/): private to its user and
 * desktop. Its socket and token are mode 0600 in a 0700 directory; a client
 * without the token gets no answer and the process keeps serving the one
 * that has it; a runtime directory others can enter is not used; `daemon
 * stop` ends it and removes its files. No desktop is needed: nothing here
 * reads an app (and with no DISPLAY and no bus named, the process has no
 * desktop whose end would end it).
 */

import assert from "node:assert/strict";
import { REPO_ROOT } from "../harness/desktop.ts";

const CLI = `${REPO_ROOT}cli.ts`;

async function cli(env: Record<string, string>, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, ...args],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const alive = (pid: number) => {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

Deno.test({
  name: "daemon socket: private files, a client without the token gets nothing, stop ends it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const runtime = await Deno.makeTempDir();
    Deno.chmodSync(runtime, 0o700);
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: runtime,
      XDG_RUNTIME_DIR: runtime,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    };
    let pid = 0;
    try {
      const started = await cli(env, ["daemon", "start"]);
      assert.equal(started.code, 0, started.stderr);
      const status = JSON.parse(started.stdout) as {
        running: boolean;
        pid: number;
        socket: string;
      };
      assert.ok(status.running);
      pid = status.pid;
      assert.ok(status.socket.startsWith(`${runtime}/`), status.socket);
      const token = status.socket.replace(/\.sock$/, ".token");
      assert.equal(Deno.statSync(status.socket).mode! & 0o777, 0o600);
      assert.equal(Deno.statSync(token).mode! & 0o777, 0o600);

      // A client that cannot read the token: no answer, the connection is closed.
      const conn = await Deno.connect({ transport: "unix", path: status.socket });
      await conn.write(
        new TextEncoder().encode(JSON.stringify({ type: "status", token: "x" }) + "\n"),
      );
      const buf = new Uint8Array(1024);
      assert.equal(await conn.read(buf), null, "no answer without the token");
      conn.close();

      // Another desktop (display) has another socket: this process is not its.
      const other = await cli({ ...env, DISPLAY: ":4243" }, ["daemon", "status"]);
      assert.deepEqual(JSON.parse(other.stdout), { running: false });

      const again = await cli(env, ["daemon", "status"]);
      assert.equal(JSON.parse(again.stdout).pid, pid, "still serving its own user");

      const stopped = await cli(env, ["daemon", "stop"]);
      assert.deepEqual(JSON.parse(stopped.stdout), { stopped: true });
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(alive(pid), false, "stop ended it");
      assert.throws(() => Deno.statSync(status.socket), "its socket is removed");
      assert.throws(() => Deno.statSync(token), "its token is removed");
    } finally {
      if (pid && alive(pid)) Deno.kill(pid, "SIGKILL");
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "daemon socket: a runtime directory others can enter is not used",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const open = await Deno.makeTempDir();
    Deno.chmodSync(open, 0o755);
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: open,
      XDG_RUNTIME_DIR: open,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    };
    let pid = 0;
    try {
      const started = await cli(env, ["daemon", "start"]);
      assert.equal(started.code, 0, started.stderr);
      const status = JSON.parse(started.stdout) as { pid: number; socket: string };
      pid = status.pid;
      assert.ok(!status.socket.startsWith(`${open}/`), status.socket);
      const dir = status.socket.slice(0, status.socket.lastIndexOf("/"));
      assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
      await cli(env, ["daemon", "stop"]);
    } finally {
      if (pid && alive(pid)) Deno.kill(pid, "SIGKILL");
      await Deno.remove(open, { recursive: true }).catch(() => {});
    }
  },
});
