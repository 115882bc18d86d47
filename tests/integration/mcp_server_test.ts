import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { agentTargets } from "../../src/output/agent_parse.ts";

/** Whether a printed ref is `ref` or a suffix of it on a segment boundary. */
function isShortOf(printed: string, ref: string): boolean {
  return printed === ref || ref.endsWith(`/${printed}`);
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "tests/fixtures/mcp_checkout.json";

const TOOLS = [
  "action",
  "click",
  "clipboard_get",
  "clipboard_set",
  "diff",
  "drag",
  "fill",
  "find",
  "focus",
  "key",
  "launch",
  "list",
  "observe_changes",
  "quit",
  "read",
  "run",
  "screenshot",
  "scroll",
  "set_value",
  "type",
  "wait",
  "window",
];

interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, unknown> };
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, boolean>;
}

interface TextResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Starts `desktop mcp --from FILE` as a subprocess and connects a client to it over stdio. */
async function connect(from = FIXTURE): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "cli.ts", "mcp", "--from", from],
    cwd: ROOT,
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its text (all text blocks joined) and error flag. */
async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean; data?: Record<string, unknown> }> {
  const res = await client.callTool({ name, arguments: args }) as TextResult;
  const text = res.content.map((c) => c.text ?? "").join("\n");
  return { text, isError: res.isError === true, data: res.structuredContent };
}

/** Calls a tool that must fail, and returns the DesktopError JSON it carries. */
async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; message: string; suggestion?: string; candidates?: unknown[] }> {
  const { text, isError } = await call(client, name, args);
  assert.equal(isError, true, `${name} should fail, got: ${text}`);
  const err = JSON.parse(text);
  assert.equal(err.error, true);
  assert.equal(typeof err.message, "string");
  return err;
}

// One server for the whole file: each subprocess start costs a Deno start-up.
Deno.test({
  name: "mcp: a stdio server over a snapshot answers tools like the CLI",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const client = await connect();
    try {
      await t.step("initialize reports the server and its instructions", () => {
        assert.equal(client.getServerVersion()?.name, "desktop");
        assert.match(client.getInstructions() ?? "", /ref/);
      });

      await t.step("lists every tool, each described, with hints and output schemas", async () => {
        const { tools } = await client.listTools() as { tools: ToolInfo[] };
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
        for (const tool of tools) {
          assert.ok((tool.description ?? "").length > 30, `${tool.name} has a description`);
          for (
            const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]
          ) {
            assert.equal(typeof tool.annotations?.[hint], "boolean", `${tool.name} ${hint}`);
          }
          // Only the rendered tree is text; every other result is data with a schema.
          assert.equal(tool.outputSchema === undefined, tool.name === "read", tool.name);
        }
        for (const name of ["read", "find"]) {
          const tool = tools.find((t) => t.name === name)!;
          assert.match(tool.description!, /\bref/, `${name} teaches refs`);
        }
        const hints = (name: string) => tools.find((t) => t.name === name)!.annotations!;
        assert.equal(hints("read").readOnlyHint, true);
        assert.equal(hints("click").destructiveHint, true);
        assert.equal(hints("click").readOnlyHint, false);
        const click = tools.find((t) => t.name === "click")!;
        const props = Object.keys(click.inputSchema.properties ?? {});
        for (const p of ["app", "ref", "id", "text", "x", "y"]) assert.ok(props.includes(p), p);
      });

      await t.step("list shows the snapshot's app, as text and as data", async () => {
        const { text, isError, data } = await call(client, "list");
        assert.equal(isError, false);
        assert.match(text, /^"Chromium" pid=4321/);
        const apps = data!.apps as Array<{ name: string; pid: number }>;
        assert.equal(apps[0].name, "Chromium");
        assert.equal(apps[0].pid, 4321);
      });

      await t.step("read prints refs in the agent format by default", async () => {
        const { text, isError } = await call(client, "read");
        assert.equal(isError, false, text);
        // Each ref prints as its shortest unique suffix (run rows derive their cells' refs).
        const printed = agentTargets(text).map((t) => t.ref);
        for (const ref of ["billing/email", "billing/submit", "invoices/inv-2024-17/delete"]) {
          assert.ok(printed.some((p) => isShortOf(p, ref)), `read shows ${ref}:\n${text}`);
        }
      });

      await t.step("read without bounds keeps every ref and drops every box", async () => {
        const full = await call(client, "read", { bounds: true });
        const lean = await call(client, "read");
        assert.equal(lean.isError, false, lean.text);
        assert.match(full.text, /\(\d+,\d+,\d+,\d+\)/);
        assert.doesNotMatch(lean.text, /\(\d+,\d+,\d+,\d+\)/);
        const refs = (s: string) => [...s.matchAll(/\[\d+\|[^\]]*\]/g)].map((m) => m[0]);
        assert.deepEqual(refs(lean.text), refs(full.text));
        const json = await call(client, "read", { bounds: false, format: "json" });
        assert.doesNotMatch(json.text, /"b":/);
      });

      await t.step("read with json format and a role filter", async () => {
        const { text, isError } = await call(client, "read", { format: "json", roles: "btn" });
        assert.equal(isError, false, text);
        const labels: string[] = [];
        const visit = (el: { r: string; t?: string; c?: unknown[] }) => {
          if (el.r === "btn") labels.push(el.t ?? "");
          for (const c of el.c ?? []) visit(c as typeof el);
        };
        const doc = JSON.parse(text);
        visit(doc.root ?? doc.tree ?? doc);
        assert.deepEqual(labels.sort(), ["Delete", "Delete", "Submit"]);
      });

      await t.step("find returns the matches with their refs", async () => {
        const { text, isError, data } = await call(client, "find", {
          text: "Delete",
          roles: "btn",
          all: true,
        });
        assert.equal(isError, false, text);
        assert.match(text, /\[\d+\|invoices\/inv-2024-17\/delete\] btn "Delete"/);
        const found = data!.elements as Array<{ ref: string; r: string; t: string }>;
        assert.deepEqual(found.map((f) => f.ref), [
          "invoices/inv-2024-17/delete",
          "invoices/inv-2024-18/delete",
        ]);
        assert.ok(found.every((f) => f.r === "btn" && f.t === "Delete"));
      });

      await t.step("an ambiguous ref is AMBIGUOUS_TARGET with both candidates", async () => {
        const err = await callError(client, "click", { ref: "delete" });
        assert.equal(err.code, "AMBIGUOUS_TARGET");
        const refs = (err.candidates as Array<{ ref: string }>).map((c) => c.ref).sort();
        assert.deepEqual(refs, ["invoices/inv-2024-17/delete", "invoices/inv-2024-18/delete"]);
        assert.ok(err.suggestion);
      });

      await t.step("an ambiguous text target is AMBIGUOUS_TARGET too", async () => {
        const err = await callError(client, "click", { text: "Delete", exact: true });
        assert.equal(err.code, "AMBIGUOUS_TARGET");
        assert.equal(err.candidates?.length, 2);
      });

      await t.step("acting on a replay is PLATFORM_NOT_SUPPORTED", async () => {
        const err = await callError(client, "click", { ref: "billing/submit" });
        assert.equal(err.code, "PLATFORM_NOT_SUPPORTED");
      });

      await t.step("bad input is an error result with a code, never a crash", async () => {
        const table: Array<[string, Record<string, unknown>, string]> = [
          ["click", {}, "INVALID_ARGS"],
          ["click", { ref: "billing/submit", text: "Submit" }, "INVALID_ARGS"],
          ["click", { x: 10 }, "INVALID_ARGS"],
          ["click", { ref: "no-such-thing" }, "ELEMENT_NOT_FOUND"],
          ["read", { roles: "bogus" }, "INVALID_ARGS"],
          ["read", { app: "Gedit" }, "APP_NOT_FOUND"],
          ["find", {}, "INVALID_ARGS"],
          ["find", { all: true }, "INVALID_ARGS"],
          ["read", { depth: "deep" }, "INVALID_ARGS"],
          ["read", { no_such_param: 1 }, "INVALID_ARGS"],
          ["no_such_tool", {}, "INVALID_ARGS"],
          ["wait", {}, "INVALID_ARGS"],
          ["wait", { for_text: "Never there", timeout: 300 }, "TIMEOUT"],
          ["diff", { before: "no/such.json", after: FIXTURE }, "SNAPSHOT_INVALID"],
        ];
        for (const [tool, args, code] of table) {
          const err = await callError(client, tool, args);
          assert.equal(err.code, code, `${tool} ${JSON.stringify(args)}: ${err.message}`);
        }
      });

      await t.step("wait finds an element that is there", async () => {
        const { text, isError, data } = await call(client, "wait", {
          for_text: "Submit",
          timeout: 2000,
        });
        assert.equal(isError, false, text);
        assert.match(text, /^ok wait \[.*\|billing\/submit\]/);
        assert.equal((data!.element as { ref: string }).ref, "billing/submit");
      });

      await t.step("diff of two snapshot files lists the changed element by ref", async () => {
        const dir = await Deno.makeTempDir({ prefix: "mcp-diff-" });
        try {
          const snap = JSON.parse(await Deno.readTextFile(`${ROOT}${FIXTURE}`));
          const form = snap.root.c[0].c[0].c[1];
          form.c[3].chk = true; // Remember me
          const after = `${dir}/after.json`;
          await Deno.writeTextFile(after, JSON.stringify(snap));
          const { text, isError } = await call(client, "diff", {
            before: `${ROOT}${FIXTURE}`,
            after,
            format: "jsonl",
          });
          assert.equal(isError, false, text);
          const changes = text.trim().split("\n").map((l) => JSON.parse(l));
          assert.equal(changes.length, 1, text);
          assert.equal(changes[0].type, "changed");
          assert.equal(changes[0].ref, "billing/remember-me");
          assert.deepEqual(changes[0].changes.chk, [false, true]);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });

      await t.step("observe_changes on a still snapshot: a snapshot, then a cursor", async () => {
        const first = await call(client, "observe_changes", {
          app: "Chromium",
          duration: 0.3,
          interval: 50,
        });
        assert.equal(first.isError, false, first.text);
        const events = first.data!.events as Array<{ type: string; count?: number }>;
        assert.deepEqual(events.map((e) => e.type), ["snapshot"]);
        assert.ok(events[0].count! > 10);
        const cursor = first.data!.cursor as string;
        assert.equal(typeof cursor, "string");
        assert.match(first.text, new RegExp(`"cursor":"${cursor}"`));
        // Nothing happened since: no events, the same cursor.
        const next = await call(client, "observe_changes", { cursor, duration: 0 });
        assert.equal(next.isError, false, next.text);
        assert.deepEqual(next.data!.events, []);
        assert.equal(next.data!.cursor, cursor);
        const bad = await callError(client, "observe_changes", { cursor: "nope" });
        assert.equal(bad.code, "INVALID_ARGS");
      });
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "mcp: a bad snapshot file fails at start-up with SNAPSHOT_INVALID on stderr",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli.ts", "mcp", "--from", "tests/fixtures/does-not-exist.json"],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1);
    assert.equal(new TextDecoder().decode(out.stdout), "");
    const err = JSON.parse(new TextDecoder().decode(out.stderr).trim().split("\n").at(-1)!);
    assert.equal(err.code, "SNAPSHOT_INVALID");
  },
});

Deno.test({
  name: "mcp: the shared browser_form fixture: read, find, ambiguous ref, replay action, diff",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const client = await connect("tests/fixtures/browser_form.json");
    try {
      const read = await call(client, "read", { interactive: true });
      assert.equal(read.isError, false, read.text);
      const printed = agentTargets(read.text).map((t) => t.ref);
      for (const ref of ["form/email", "form/submit", "confirm/ok"]) {
        assert.ok(printed.some((p) => isShortOf(p, ref)), `read shows ${ref}`);
      }

      const find = await call(client, "find", { text: "Delete", roles: "btn", all: true });
      const found = find.data!.elements as Array<{ ref: string }>;
      assert.equal(found.length, 12);
      assert.ok(found.every((f) => /^invoices\/invoice-2024-\d\d\/delete$/.test(f.ref)));

      const ambiguous = await callError(client, "click", { ref: "delete" });
      assert.equal(ambiguous.code, "AMBIGUOUS_TARGET");
      assert.equal(ambiguous.candidates?.length, 10, "candidates are capped at 10");

      const replay = await callError(client, "click", { ref: "confirm/ok" });
      assert.equal(replay.code, "PLATFORM_NOT_SUPPORTED");

      const diff = await call(client, "diff", {
        before: `${ROOT}tests/fixtures/browser_form.json`,
        after: `${ROOT}tests/fixtures/browser_form_after.json`,
        format: "jsonl",
      });
      assert.equal(diff.isError, false, diff.text);
      const changes = diff.text.trim().split("\n").map((l) => JSON.parse(l));
      assert.ok(changes.length > 0);
      assert.ok(changes.every((c) => typeof c.ref === "string" && c.ref.length > 0));
    } finally {
      await client.close();
    }
  },
});

Deno.test("mcp: a worker is started with its connection's session", async () => {
  const { workerCommand } = await import("../../src/mcp/executor.ts");
  const argv = workerCommand("agent-7");
  assert.deepEqual(argv.slice(-4), ["mcp", "--worker", "--session", "agent-7"]);
  assert.deepEqual(workerCommand().slice(-2), ["mcp", "--worker"]);
});
