import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { idNear, LineTransport } from "../../src/mcp/transport.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "tests/fixtures/mcp_checkout.json";

/** A `desktop mcp` process spoken to line by line. */
function rawServer() {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "cli.ts", "mcp", "--from", FIXTURE],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    child,
    async send(text: string | Uint8Array) {
      await writer.write(typeof text === "string" ? new TextEncoder().encode(text) : text);
    },
    async reply(): Promise<Record<string, unknown>> {
      while (!buffered.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("the server closed its output");
        buffered += value;
      }
      const nl = buffered.indexOf("\n");
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      return JSON.parse(line);
    },
    async close() {
      await writer.close();
      const status = await child.status;
      await lines.cancel();
      await child.stderr.cancel();
      return status;
    },
  };
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
}) + "\n";

Deno.test({
  name: "mcp protocol: every malformed line gets an error reply, and the server goes on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = rawServer();
    try {
      await s.send("this is not json\n");
      const parse = await s.reply();
      assert.equal((parse.error as { code: number }).code, -32700);
      assert.equal(parse.id, null);

      await s.send('{"hello":"world"}\n');
      assert.equal(((await s.reply()).error as { code: number }).code, -32600);

      await s.send('{"jsonrpc":"2.0","id":9,"method":"no/such/method"}\n');
      const unknown = await s.reply();
      assert.equal(unknown.id, 9);
      assert.equal((unknown.error as { code: number }).code, -32601);

      await s.send(INIT);
      const init = await s.reply();
      assert.equal(init.id, 1);
      assert.equal((init.result as { serverInfo: { name: string } }).serverInfo.name, "desktop");
    } finally {
      const status = await s.close();
      assert.equal(status.code, 0);
    }
  },
});

Deno.test({
  name: "mcp protocol: an 11 MB request is a JSON-RPC error naming its id; the next one is served",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = rawServer();
    try {
      await s.send(INIT);
      await s.reply();
      await s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      const big = new Uint8Array(11 * 1024 * 1024 + 2);
      const head = new TextEncoder().encode(
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"type","arguments":{"text":"',
      );
      big.fill(0x61);
      big.set(head);
      big.set(new TextEncoder().encode('"}}}\n'), big.length - 5);
      await s.send(big);
      const tooBig = await s.reply();
      assert.equal(tooBig.id, 5);
      assert.equal((tooBig.error as { code: number }).code, -32600);
      assert.match((tooBig.error as { message: string }).message, /larger than/);

      await s.send('{"jsonrpc":"2.0","id":6,"method":"tools/list"}\n');
      const list = await s.reply();
      assert.equal(list.id, 6);
      assert.ok((list.result as { tools: unknown[] }).tools.length >= 14);
    } finally {
      await s.close();
    }
  },
});

Deno.test("mcp transport: the id of an over-long request is read from its start only", () => {
  assert.equal(idNear('{"jsonrpc":"2.0","id":12,"method":"x","params":{"id":99'), 12);
  assert.equal(idNear('{"jsonrpc":"2.0","method":"x","params":{"id":99,'), null);
});

Deno.test("mcp transport: a line split across chunks, and a last line without newline", async () => {
  const chunks = [
    '{"jsonrpc":"2.0","id":1,',
    '"method":"ping"}\n{"jsonrpc":"2.0",',
    '"id":2,"method":"ping"}',
  ];
  const input = new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(new TextEncoder().encode(ch));
      c.close();
    },
  });
  const got: unknown[] = [];
  const t = new LineTransport(input, () => Promise.resolve());
  const closed = new Promise<void>((r) => (t.onclose = r));
  t.onmessage = (m) => got.push((m as { id: number }).id);
  await t.start();
  await closed;
  assert.deepEqual(got, [1, 2]);
});

Deno.test({
  name: "mcp protocol: a long wait sends progress notifications",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const client = new Client({ name: "progress", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", "-A", "--quiet", "cli.ts", "mcp", "--from", FIXTURE],
        cwd: ROOT,
        stderr: "pipe",
      }),
    );
    try {
      const progress: Array<{ progress: number; message?: string }> = [];
      const res = await client.callTool(
        { name: "wait", arguments: { for_text: "Never there", timeout: 2500 } },
        undefined,
        { onprogress: (p: { progress: number; message?: string }) => progress.push(p) },
      ) as { isError?: boolean; content: Array<{ text: string }> };
      assert.equal(res.isError, true);
      assert.equal(JSON.parse(res.content[0].text).code, "TIMEOUT");
      assert.ok(progress.length >= 1, "at least one progress notification");
      assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress));
    } finally {
      await client.close();
    }
  },
});
