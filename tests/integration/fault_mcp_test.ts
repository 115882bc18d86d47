/**
 * MCP, secrets and concurrency: an expect step on a password field refuses
 * instead of passing, MCP tools write only new files in the server's output
 * folder, the worker pool is bounded, bad params are -32602, and hints and
 * error messages fit their face and a sane size.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { processExecutor, WORKER_HEAP_MB, workerEnv } from "../../src/mcp/executor.ts";
import { OutputDir } from "../../src/mcp/output_dir.ts";
import { OPS } from "../../src/ops/mod.ts";
import type { DesktopError } from "../../src/errors.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = `${ROOT}tests/fixtures/mcp_checkout.json`;
const dec = new TextDecoder();

interface Result {
  text: string;
  isError: boolean;
  data?: Record<string, unknown>;
}

/** `desktop mcp --from FIXTURE` with a client; the output folder given. */
async function serve(outputDir: string, stateDir: string): Promise<Client> {
  const client = new Client({ name: "fault-mcp", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: [
        "run",
        "-A",
        "--quiet",
        "cli.ts",
        "mcp",
        "--from",
        FIXTURE,
        "--output-dir",
        outputDir,
      ],
      cwd: ROOT,
      env: { ...Deno.env.toObject(), DESKTOP_STATE_DIR: stateDir, NO_COLOR: "1" },
      stderr: "pipe",
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: unknown): Promise<Result> {
  const res = await client.callTool({
    name,
    arguments: args as Record<string, unknown>,
  }) as {
    content: Array<{ text?: string }>;
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  };
  return {
    text: res.content.map((c) => c.text ?? "").join("\n"),
    isError: res.isError === true,
    data: res.structuredContent,
  };
}

/** The error code of a failed call: a run's failing step's, else the error's. */
function codeOf(r: Result): string {
  assert.equal(r.isError, true, r.text);
  const steps = r.data?.steps as Array<{ error?: { code: string } }> | undefined;
  return steps ? steps.at(-1)!.error!.code : JSON.parse(r.text).code;
}

/** Runs the CLI with a private state directory. */
async function cli(args: string[], stateDir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${ROOT}cli.ts`, ...args],
    env: { DESKTOP_STATE_DIR: stateDir, NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A snapshot file whose tree is `depth` levels deep. */
function deepSnapshot(depth: number): string {
  const snap = JSON.parse(Deno.readTextFileSync(FIXTURE));
  let leaf: Record<string, unknown> = { i: 0, r: "group" };
  for (let k = 0; k < depth; k++) leaf = { i: 0, r: "group", c: [leaf] };
  snap.root.c[0].c = [leaf];
  return JSON.stringify(snap);
}

Deno.test({
  name: "fault mcp: MCP faults over a snapshot (secure expect, output folder, params, hints)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const tmp = await Deno.makeTempDir({ prefix: "fault-mcp-" });
    const out = `${tmp}/out`;
    const outside = `${tmp}/outside`;
    await Deno.mkdir(outside);
    const victim = `${outside}/victim.txt`;
    await Deno.writeTextFile(victim, "precious");
    const client = await serve(out, `${tmp}/state`);
    try {
      await t.step(
        "5: expect of a password field's value refuses, whatever the value",
        async () => {
          for (const value of ["hunter2", ""]) {
            const r = await call(client, "run", {
              steps: [{ expect: { ref: "billing/password", value } }],
            });
            assert.equal(codeOf(r), "ACTION_NOT_SUPPORTED", r.text);
            assert.match(r.text, /secure/);
            const step = (r.data!.steps as Array<{ ok: boolean; error?: { code: string } }>)[0];
            assert.equal(step.ok, false);
            assert.equal(step.error?.code, "ACTION_NOT_SUPPORTED");
          }
          // A field whose value is read is still checked, both ways.
          const good = await call(client, "run", {
            steps: [{ expect: { ref: "billing/email", value: "ada@example.com" } }],
          });
          assert.equal(good.isError, false, good.text);
          const bad = await call(client, "run", {
            steps: [{ expect: { ref: "billing/email", value: "eve@example.com" } }],
          });
          assert.equal(codeOf(bad), "EXPECT_FAILED");
          // The field's existence can still be expected.
          const exists = await call(client, "run", { steps: [{ expect: "billing/password" }] });
          assert.equal(exists.isError, false, exists.text);
        },
      );

      await t.step("6: tools that write files say so in their annotations", async () => {
        const { tools } = await client.listTools() as {
          tools: Array<{
            name: string;
            annotations?: Record<string, boolean>;
            inputSchema: { properties?: Record<string, unknown> };
          }>;
        };
        const hints = (n: string) => tools.find((x) => x.name === n)!.annotations!;
        assert.equal(hints("screenshot").readOnlyHint, false);
        assert.equal(hints("screenshot").destructiveHint, false);
        assert.equal(hints("run").readOnlyHint, false);
        assert.equal(hints("read").readOnlyHint, true);
        // read's --save is CLI-only: MCP's read writes nothing.
        const read = tools.find((x) => x.name === "read")!;
        assert.equal(Object.keys(read.inputSchema.properties ?? {}).includes("save"), false);
      });

      await t.step(
        "6: screenshot and run refuse paths outside the folder or not theirs",
        async () => {
          await Deno.mkdir(out, { recursive: true });
          await Deno.writeTextFile(`${out}/mine.txt`, "user file");
          await Deno.symlink(outside, `${out}/link`);
          await Deno.symlink(victim, `${out}/victim-link.png`);
          const paths = [
            victim,
            "../outside/victim.txt",
            "sub/../../outside/victim.txt",
            "link/new.png",
            "victim-link.png",
            "mine.txt",
            `${out}/mine.txt`,
            "",
          ];
          for (const p of paths) {
            const shot = await call(client, "screenshot", { out: p });
            assert.equal(codeOf(shot), "INVALID_ARGS", `screenshot out=${p}: ${shot.text}`);
            const run = await call(client, "run", { steps: [{ screenshot: { out: p } }] });
            assert.equal(codeOf(run), "INVALID_ARGS", `run out=${p}: ${run.text}`);
          }
          // A run file is held to the same folder.
          const file = `${tmp}/steps.json`;
          await Deno.writeTextFile(file, JSON.stringify([{ screenshot: { out: victim } }]));
          assert.equal(codeOf(await call(client, "run", { file })), "INVALID_ARGS");
          // The witnesses: nothing outside or foreign was touched.
          assert.equal(await Deno.readTextFile(victim), "precious");
          assert.equal(await Deno.readTextFile(`${out}/mine.txt`), "user file");
          assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["victim.txt"]);
          // A new name inside the folder gets past the check (the replay has no pixels).
          const fresh = await call(client, "screenshot", { out: "sub/new.png" });
          assert.equal(codeOf(fresh), "PLATFORM_NOT_SUPPORTED", fresh.text);
        },
      );

      await t.step("21: arguments as an array are -32602 with a short message", async () => {
        await assert.rejects(
          client.request(
            {
              method: "tools/call",
              params: { name: "read", arguments: [1, 2] as unknown as Record<string, unknown> },
            },
            // Any result schema: the call must fail before one is needed.
            (await import("@modelcontextprotocol/sdk/types.js")).CallToolResultSchema,
          ),
          (e: { code?: number; message?: string }) => {
            assert.equal(e.code, -32602, e.message);
            assert.ok((e.message ?? "").length < 300, e.message);
            assert.match(e.message ?? "", /arguments/);
            return true;
          },
        );
        // The server goes on.
        assert.equal((await call(client, "list", {})).isError, false);
      });

      await t.step("22: MCP's truncation hint names MCP's arguments", async () => {
        const r = await call(client, "read", { max_elements: 3 });
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, /raise max_elements, or narrow with scope_ref\/roles/);
        assert.doesNotMatch(r.text, /--max-elements/);
      });

      await t.step("22: an error about a 5000-character name is short", async () => {
        const r = await call(client, "x".repeat(5000), {});
        const err = JSON.parse(r.text);
        assert.equal(err.code, "INVALID_ARGS");
        assert.ok(err.message.length <= 600, `${err.message.length} characters`);
        assert.match(err.message, /^no tool x+…x+$/);
      });

      await t.step("22: a 2100-level snapshot's error is short, over MCP", async () => {
        const deep = `${tmp}/deep.json`;
        await Deno.writeTextFile(deep, deepSnapshot(2100));
        const r = await call(client, "diff", { before: deep, after: FIXTURE });
        assert.equal(codeOf(r), "SNAPSHOT_INVALID");
        const err = JSON.parse(r.text);
        assert.ok(err.message.length <= 600, `${err.message.length} characters`);
        assert.match(err.message, /nested deeper than/);
      });
    } finally {
      await client.close();
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test({
  name: "fault mcp: the CLI refuses a secure expect, names its own flags, and keeps errors short",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "fault-mcp-cli-" });
    try {
      const steps = `${tmp}/steps.json`;
      await Deno.writeTextFile(
        steps,
        JSON.stringify([{ expect: { ref: "billing/password", value: "anything" } }]),
      );
      const run = await cli(["run", steps, "--from", FIXTURE], tmp);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(JSON.parse(run.stderr.trim()).code, "ACTION_NOT_SUPPORTED");

      const read = await cli(["read", "--from", FIXTURE, "--max-elements", "3"], tmp);
      assert.equal(read.code, 0, read.stderr);
      assert.match(read.stdout, /raise --max-elements, or narrow with --scope-ref\/--roles/);
      assert.doesNotMatch(read.stdout, /max_elements|scope_ref/);

      const wait = await cli(["wait", "--from", FIXTURE], tmp);
      assert.equal(wait.code, 2, wait.stderr);
      const waitErr = JSON.parse(wait.stderr.trim());
      assert.equal(waitErr.code, "INVALID_ARGS");
      assert.match(waitErr.suggestion, /--for-text/);
      assert.doesNotMatch(waitErr.suggestion, /for_text/);

      const deep = `${tmp}/deep.json`;
      await Deno.writeTextFile(deep, deepSnapshot(2100));
      const bad = await cli(["read", "--from", deep], tmp);
      assert.equal(bad.code, 1);
      assert.ok(bad.stderr.length < 1200, `${bad.stderr.length} bytes on stderr`);
      assert.equal(JSON.parse(bad.stderr.trim()).code, "SNAPSHOT_INVALID");
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

// ------------------------------------------------------------ the worker pool

/** A stand-in worker: records its pid, answers each call after `sleep` ms, or grows its heap. */
const FAKE_WORKER = `
const dir = Deno.args[0];
Deno.writeTextFileSync(dir + "/" + Deno.pid, "");
let rest = "";
const dec = new TextDecoder();
const enc = new TextEncoder();
const hoard = [];
await Deno.stdout.write(enc.encode(JSON.stringify({ type: "ready", id: 0 }) + "\\n"));
for await (const chunk of Deno.stdin.readable) {
  rest += dec.decode(chunk, { stream: true });
  let nl;
  while ((nl = rest.indexOf("\\n")) !== -1) {
    const m = JSON.parse(rest.slice(0, nl));
    rest = rest.slice(nl + 1);
    if (m.type !== "call") continue;
    if (m.args.grow) for (;;) hoard.push(new Array(1e6).fill(hoard.length));
    // A call that works until the server stops waiting (a large tree read on) answers by then.
    const sleep = m.args.untilAnswerBy ? m.answerBy - Date.now() : m.args.sleep ?? 0;
    await new Promise((r) => setTimeout(r, sleep));
    const result = { pid: Deno.pid, answerBy: m.answerBy };
    await Deno.stdout.write(enc.encode(JSON.stringify({ type: "result", id: m.id, result }) + "\\n"));
  }
}
`;

async function fakePool(): Promise<{ dir: string; command: string[]; started: () => number[] }> {
  const dir = await Deno.makeTempDir({ prefix: "fault-pool-" });
  await Deno.writeTextFile(`${dir}/worker.js`, FAKE_WORKER);
  await Deno.mkdir(`${dir}/pids`);
  return {
    dir,
    command: [Deno.execPath(), "run", "-A", "--quiet", `${dir}/worker.js`, `${dir}/pids`],
    started: () => [...Deno.readDirSync(`${dir}/pids`)].map((e) => Number(e.name)),
  };
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

const opts = (deadlineMs: number) => ({ signal: new AbortController().signal, deadlineMs });

Deno.test({
  name: "fault mcp 13: 20 concurrent calls start no more workers than the cap, and all answer",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pool = await fakePool();
    const exec = processExecutor(pool.command, { maxWorkers: 3, idleMs: 60_000 });
    try {
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => exec.run(OPS.list, { sleep: 200 }, opts(30_000))),
      );
      assert.equal(results.length, 20);
      const pids = new Set(results.map((r) => (r as { pid: number }).pid));
      assert.ok(pids.size <= 3, `answered by ${pids.size} workers`);
      assert.ok(pool.started().length <= 3, `${pool.started().length} workers started`);
      // 20 calls of 200 ms on 3 workers: queued, not serialized behind a start-up each.
      assert.ok(Date.now() - started < 20_000);
    } finally {
      exec.close();
      await Deno.remove(pool.dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "fault mcp 13: a worker is told when the server stops waiting, and its answer by then is taken",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pool = await fakePool();
    const exec = processExecutor(pool.command, { maxWorkers: 1, idleMs: 60_000 });
    try {
      const started = Date.now();
      const r = await exec.run(OPS.read, { untilAnswerBy: true }, opts(2000)) as {
        pid: number;
        answerBy: number;
      };
      assert.equal(typeof r.answerBy, "number", "the call carries when to answer by");
      assert.ok(r.answerBy > started && r.answerBy < started + 2000, `${r.answerBy - started} ms`);
      assert.ok(alive(r.pid), "the worker that answered in time is kept");
    } finally {
      exec.close();
      await Deno.remove(pool.dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "fault mcp 13: a queued call keeps its deadline; idle workers end; a worker's heap is bounded",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pool = await fakePool();
    const exec = processExecutor(pool.command, { maxWorkers: 1, idleMs: 500, heapMb: 64 });
    try {
      // One worker, held for 3 s: the next call waits for it, and gives up at its deadline.
      const long = exec.run(OPS.list, { sleep: 3000 }, opts(30_000));
      const started = Date.now();
      await assert.rejects(exec.run(OPS.list, {}, opts(400)), (e: DesktopError) => {
        assert.equal(e.code, "TIMEOUT");
        assert.match(e.message, /no worker was free/);
        return true;
      });
      assert.ok(Date.now() - started < 2500, "TIMEOUT at the deadline, not when a worker frees");
      const first = (await long as { pid: number }).pid;
      assert.equal(pool.started().length, 1, "the queued call started no worker");
      // Idle for longer than idleMs: the worker ends.
      const until = Date.now() + 5000;
      while (alive(first) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      assert.equal(alive(first), false, "the idle worker ended");
      // A worker whose heap grows past its bound ends, and the call says so.
      await assert.rejects(exec.run(OPS.list, { grow: true }, opts(60_000)), (e: DesktopError) => {
        assert.equal(e.code, "INTERNAL");
        assert.match(e.message, /worker process ended/);
        return true;
      });
      // The pool goes on with a new worker.
      const next = await exec.run(OPS.list, {}, opts(30_000)) as { pid: number };
      assert.ok(alive(next.pid));
    } finally {
      exec.close();
      await Deno.remove(pool.dir, { recursive: true });
    }
    // The default bound is passed the way both deno run and a compiled binary read it.
    assert.match(workerEnv().DENO_V8_FLAGS, new RegExp(`--max-old-space-size=${WORKER_HEAP_MB}$`));
  },
});

Deno.test("fault mcp 6: the output folder resolves inside itself and writes only new or own files", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "fault-outdir-" });
  try {
    const dir = new OutputDir(`${tmp}/out`);
    const a = await dir.place("a.png");
    assert.equal(a, `${await Deno.realPath(`${tmp}/out`)}/a.png`);
    await dir.write(a, new Uint8Array([1]));
    // Its own file again: replaced.
    assert.equal(await dir.place("a.png"), a);
    await dir.write(a, new Uint8Array([2, 2]));
    assert.deepEqual(await Deno.readFile(a), new Uint8Array([2, 2]));
    // Nested folders are created; an absolute path inside is accepted.
    assert.equal(await dir.place(`${tmp}/out/x/y.png`), `${dir.root}/x/y.png`);
    // A file created by someone else between the check and the write is not overwritten.
    const b = await dir.place("b.png");
    await Deno.writeTextFile(b, "theirs");
    await assert.rejects(dir.write(b, new Uint8Array([1])), (e: DesktopError) => {
      assert.equal(e.code, "INVALID_ARGS");
      return true;
    });
    assert.equal(await Deno.readTextFile(b), "theirs");
    for (const p of ["..", ".", "/etc/passwd", "../x.png", "b.png"]) {
      await assert.rejects(dir.place(p), (e: DesktopError) => e.code === "INVALID_ARGS", p);
    }
    const fresh = await dir.fresh("screenshot", ".png");
    assert.match(fresh, /\/screenshot-\d+\.png$/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
