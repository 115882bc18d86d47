/**
 * Whose ids: a read's ids belong to the session that read (CLI `--session`,
 * `$DESKTOP_SESSION`, one private session per MCP connection); replay reads
 * never touch the live store; only `read` records.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { agentTargets } from "../../src/output/agent_parse.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
const FORM = new URL("../fixtures/browser_form.json", import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], dir: string, env: Record<string, string> = {}): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    env: { DESKTOP_STATE_DIR: dir, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

function codeOf(r: Run): string {
  return r.code === 0 ? "ok" : JSON.parse(r.stderr.trim().split("\n").pop()!).code;
}

async function withState(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "desktop-identity-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The id `read` printed for a ref (printed whole, as its shortest unique
 * suffix, or stood for by the id alone when it is the label's slug).
 */
function idIn(out: string, ref: string): number {
  const m = agentTargets(out).find((t) => t.i && (t.ref === ref || ref.endsWith(`/${t.ref}`)));
  assert.ok(m, `${ref} in ${out.slice(0, 400)}`);
  return m.i!;
}

Deno.test("defect 4: a read of a snapshot file never touches the live store", async () => {
  await withState(async (dir) => {
    // What the live store holds for the app's pid (4242, the snapshot's own pid).
    await Deno.mkdir(`${dir}/refs`, { recursive: true });
    const live = JSON.stringify({
      app: { name: "Chromium", pid: 4242 },
      readAt: "2026-01-01T00:00:00.000Z",
      elements: [{ i: 74, ref: "form/submit", r: "btn", t: "Submit", path: "0.1" }],
    });
    await Deno.writeTextFile(`${dir}/refs/pid-4242.json`, live);
    const read = await run(["read", "--from", FORM], dir);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/refs/pid-4242.json`), live);
    assert.deepEqual([...Deno.readDirSync(`${dir}/refs`)].map((e) => e.name), ["pid-4242.json"]);
  });
});

Deno.test("defect 5: ids belong to the session that read them", async () => {
  await withState(async (dir) => {
    const a = await run(["read", "--from", FORM, "--session", "agent-a"], dir);
    assert.equal(a.code, 0, a.stderr);
    const id = idIn(a.stdout, "form/email");
    // Another session (flag or environment) has no read: never agent-a's element.
    const b = await run(["find", "--from", FORM, "--id", String(id), "--session", "agent-b"], dir);
    assert.equal(codeOf(b), "STALE_REF");
    assert.match(b.stderr, /no read/);
    const dflt = await run(["find", "--from", FORM, "--id", String(id)], dir);
    assert.equal(codeOf(dflt), "STALE_REF");
    const env = await run(["find", "--from", FORM, "--id", String(id)], dir, {
      DESKTOP_SESSION: "agent-a",
    });
    assert.equal(env.code, 0, env.stderr);
    assert.match(env.stdout, /form\/email/);
    // A bad name is an argument error, from the flag or the environment.
    assert.equal(
      codeOf(await run(["read", "--from", FORM, "--session", "../x"], dir)),
      "INVALID_ARGS",
    );
    assert.equal(
      codeOf(await run(["read", "--from", FORM], dir, { DESKTOP_SESSION: "a b" })),
      "INVALID_ARGS",
    );
  });
});

Deno.test("defect 5: find --all lists with the last read's ids and does not replace that read", async () => {
  await withState(async (dir) => {
    const read = await run(["read", "--from", FORM, "--roles", "input"], dir);
    assert.equal(read.code, 0, read.stderr);
    const email = idIn(read.stdout, "form/email");
    const all = await run(["find", "--from", FORM, "--text", "delete", "--all"], dir);
    assert.equal(all.code, 0, all.stderr);
    // The read printed no buttons: they have no id to give.
    assert.ok(all.stdout.trim().split("\n").every((l) => l.startsWith("[-|")), all.stdout);
    const inputs = await run(["find", "--from", FORM, "--roles", "input", "--all"], dir);
    assert.equal(idIn(inputs.stdout, "form/email"), email);
    // The last read is still the read: its id still means the email field.
    const byId = await run(["find", "--from", FORM, "--id", String(email)], dir);
    assert.match(byId.stdout, /form\/email/);
  });
});

interface TextResult {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

async function mcp(dir: string, extra: string[] = []) {
  const client = new Client({ name: "identity-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", CLI, "mcp", "--from", FORM, ...extra],
      cwd: ROOT,
      env: { ...Deno.env.toObject(), DESKTOP_STATE_DIR: dir, NO_COLOR: "1" },
      stderr: "pipe",
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args }) as TextResult;
    return { text: res.content.map((c) => c.text ?? "").join("\n"), isError: !!res.isError };
  };
  return { client, call };
}

Deno.test({
  name: "defect 5: each MCP connection has its own session; numbers are checked as on the CLI",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await withState(async (dir) => {
      const one = await mcp(dir);
      const two = await mcp(dir);
      try {
        const read = await one.call("read", {});
        assert.equal(read.isError, false, read.text);
        const id = idIn(read.text, "form/email");
        // A snapshot is read-only: resolving the id works, acting is PLATFORM_NOT_SUPPORTED.
        const mine = await one.call("focus", { id });
        assert.equal(JSON.parse(mine.text).code, "PLATFORM_NOT_SUPPORTED", mine.text);
        // The other connection, and the CLI, never read: the id is not theirs.
        const other = await two.call("focus", { id });
        assert.equal(other.isError, true);
        assert.equal(JSON.parse(other.text).code, "STALE_REF");
        const cli = await run(["find", "--from", FORM, "--id", String(id)], dir);
        assert.equal(codeOf(cli), "STALE_REF");
        // Points: whole numbers only, as the CLI takes them.
        for (const x of [1e308, 10.5]) {
          const bad = await one.call("click", { x, y: 5 });
          assert.equal(bad.isError, true);
          assert.equal(JSON.parse(bad.text).code, "INVALID_ARGS", bad.text);
        }
      } finally {
        await one.client.close();
        await two.client.close();
      }
    });
  },
});
