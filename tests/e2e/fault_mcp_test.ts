/**
 * MCP, secrets and concurrency on a live desktop: 20 reads at once run in
 * no more worker processes than the pool's cap and all answer; screenshots
 * land in the server's output folder only, never over another file; an
 * expect step on a real password field refuses instead of passing.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cliError, runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { MAX_WORKERS } from "../../src/mcp/executor.ts";

interface Result {
  text: string;
  isError: boolean;
  data?: Record<string, unknown>;
}

/** `desktop mcp` on the test desktop, writing into `outputDir`. */
async function serve(
  env: Record<string, string>,
  outputDir: string,
): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "mcp", "--output-dir", outputDir],
    cwd: REPO_ROOT,
    env,
    stderr: Deno.env.get("MCP_STDERR") ? "inherit" : "pipe",
  });
  const client = new Client({ name: "fault-mcp-e2e", version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

function caller(client: Client) {
  return async (name: string, args: Record<string, unknown> = {}): Promise<Result> => {
    const res = await client.callTool({ name, arguments: args }, undefined, {
      timeout: 120_000,
    }) as {
      content: Array<{ text?: string }>;
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
    };
    return {
      text: res.content.map((c) => c.text ?? "").join("\n"),
      isError: !!res.isError,
      data: res.structuredContent,
    };
  };
}

/** The processes whose parent is `pid` (the server's workers), read from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      // pid (comm) state ppid ...: comm may hold spaces, so split after its last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === pid && state !== "Z") out.push(Number(e.name));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

Deno.test({
  name: "fault mcp e2e: 20 reads at once start at most the cap of workers, and all answer",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const out = `${d.env.XDG_RUNTIME_DIR}/mcp-out`;
    const { client, pid } = await serve(
      { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
      out,
    );
    const call = caller(client);
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, childrenOf(pid).length);
    }, 50);
    try {
      // One read first, as an agent's session starts: the pool's first worker is up.
      const warm = await call("read", { app: d.appName, roles: "chk" });
      assert.equal(warm.isError, false, warm.text);
      const started = Date.now();
      const reads = await Promise.all(
        Array.from({ length: 20 }, () => call("read", { app: d.appName, roles: "chk" })),
      );
      const elapsed = Date.now() - started;
      most = Math.max(most, childrenOf(pid).length);
      for (const r of reads) {
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, /checkbutton/);
      }
      assert.ok(most >= 1, "the sampler saw the workers");
      assert.ok(most <= MAX_WORKERS, `${most} worker processes at once (cap ${MAX_WORKERS})`);
      // Each read took its turn within its own 10 s deadline.
      assert.ok(elapsed < 60_000, `answered after ${elapsed} ms`);
    } finally {
      clearInterval(sampler);
      await client.close();
    }
  },
});

Deno.test({
  name: "fault mcp e2e: screenshots go to the output folder only, never over another file",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const base = d.env.XDG_RUNTIME_DIR;
    const out = `${base}/mcp-out`;
    await Deno.mkdir(`${base}/x`, { recursive: true });
    const victim = `${base}/x/victim.txt`;
    await Deno.writeTextFile(victim, "precious");
    const { client } = await serve({ ...d.env, DESKTOP_STATE_DIR: `${base}/state` }, out);
    const call = caller(client);
    try {
      const refused = await call("screenshot", { app: d.appName, out: victim });
      assert.equal(refused.isError, true, refused.text);
      assert.equal(JSON.parse(refused.text).code, "INVALID_ARGS");
      assert.equal(await Deno.readTextFile(victim), "precious");

      const shot = await call("screenshot", { app: d.appName, out: "window.png" });
      assert.equal(shot.isError, false, shot.text);
      const path = shot.data!.path as string;
      assert.equal(path, `${await Deno.realPath(out)}/window.png`);
      assert.deepEqual([...(await Deno.readFile(path)).subarray(0, 4)], PNG_MAGIC);
      // Its own file may be taken again.
      const again = await call("screenshot", { app: d.appName, out: "window.png" });
      assert.equal(again.isError, false, again.text);

      // A run's screenshot steps: the named one inside, the unnamed one too, the outside one refused.
      const run = await call("run", {
        app: d.appName,
        steps: [{ screenshot: { out: "steps/one.png" } }, { screenshot: null }],
      });
      assert.equal(run.isError, false, run.text);
      const real = await Deno.realPath(out);
      assert.deepEqual(
        [...(await Deno.readFile(`${real}/steps/one.png`)).subarray(0, 4)],
        PNG_MAGIC,
      );
      assert.ok(
        [...Deno.readDirSync(real)].some((e) => /^screenshot-\d+\.png$/.test(e.name)),
        "the unnamed step's file is in the folder",
      );
      const outside = await call("run", {
        app: d.appName,
        steps: [{ screenshot: { out: victim } }],
      });
      assert.equal(outside.isError, true);
      assert.equal(JSON.parse(outside.text).code, "INVALID_ARGS");
      assert.equal(await Deno.readTextFile(victim), "precious");
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "fault mcp e2e: expect on a real password field refuses, on the CLI and over MCP",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "zenity",
      url: "--text=Sign in\0--add-entry=User\0--add-password=Secret",
    });
    const base = d.env.XDG_RUNTIME_DIR;
    const read = await runCli(d, ["read", "--app", d.appName, "--format", "json", "--flat"]);
    assert.equal(read.code, 0, read.stderr);
    const els = JSON.parse(read.stdout).elements as Array<{ ref?: string; sec?: boolean }>;
    const secret = els.find((e) => e.sec)?.ref;
    assert.ok(secret, `a secure field: ${read.stdout}`);

    const typed = await runCli(d, [
      "type",
      "--app",
      d.appName,
      "--ref",
      secret,
      "--text",
      "hunter2",
    ]);
    assert.equal(typed.code, 0, typed.stderr);
    const steps = `${base}/steps.json`;
    for (const value of ["hunter2", "wrong"]) {
      await Deno.writeTextFile(
        steps,
        JSON.stringify({ app: d.appName, steps: [{ expect: { ref: secret, value } }] }),
      );
      const res = await runCli(d, ["run", steps]);
      assert.equal(res.code, 1, res.stdout);
      assert.equal(cliError(res).code, "ACTION_NOT_SUPPORTED");
    }

    const { client } = await serve({ ...d.env, DESKTOP_STATE_DIR: `${base}/state` }, `${base}/o`);
    try {
      const res = await caller(client)("run", {
        app: d.appName,
        steps: [{ expect: { ref: secret, value: "wrong" } }],
      });
      assert.equal(res.isError, true, res.text);
      const step = (res.data!.steps as Array<{ error?: { code: string } }>)[0];
      assert.equal(step.error?.code, "ACTION_NOT_SUPPORTED", res.text);
    } finally {
      await client.close();
    }
  },
});
