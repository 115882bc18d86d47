import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { buildProgram } from "../../src/commands/program.ts";
import { allOps, defaultOn, nameOn, paramsOn } from "../../src/ops/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FORM = "tests/fixtures/browser_form.json";
/** Both faces remember reads in one place: the same input with the same state. */
const STATE = await Deno.makeTempDir({ prefix: "parity-state-" });

/** Parameters only one face may have: presentation, not meaning. */
const FACE_ONLY: Record<string, "cli" | "mcp"> = {
  from: "cli", // the MCP server takes its snapshot file at start
  save: "cli", // a file written by the CLI
  session: "cli", // the MCP server has one per connection (or its own --session)
  format: "cli", // of actions, list, find, wait: MCP returns text and data together
  cursor: "mcp", // a CLI stream has no next call
  text_file: "cli", // secrets kept off the command line; MCP sends them in the request
  fields_file: "cli", // the same for fill's values
};

async function mcpClient(): Promise<Client> {
  const client = new Client({ name: "parity", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", "cli.ts", "mcp", "--from", FORM],
      cwd: ROOT,
      env: { ...Deno.env.toObject(), DESKTOP_STATE_DIR: STATE },
      stderr: "pipe",
    }),
  );
  return client;
}

Deno.test({
  name: "parity: every verb and parameter exists on both faces, with the same names",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const program = buildProgram();
    // `clipboard get` is a subcommand: name it by its path.
    const commands = new Map(
      program.commands.flatMap((c) =>
        c.commands.length ? c.commands.map((s) => [`${c.name()} ${s.name()}`, s] as const) : [
          [c.name(), c] as const,
        ]
      ),
    );
    const client = await mcpClient();
    try {
      const { tools } = await client.listTools() as {
        tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }>;
      };
      const byName = new Map(tools.map((t) => [t.name, t]));
      const ops = allOps();
      // No verb on one face only (mcp is the server itself, not a verb).
      assert.deepEqual(
        [...commands.keys()].filter((n) => n !== "mcp").sort(),
        ops.map((op) => nameOn(op, "cli")).sort(),
      );
      assert.deepEqual([...byName.keys()].sort(), ops.map((op) => nameOn(op, "mcp")).sort());
      for (const op of ops) {
        const cmd = commands.get(nameOn(op, "cli"))!;
        const tool = byName.get(nameOn(op, "mcp"))!;
        // A parameter that is an argument or a flag (`type "hi"`, `type --text hi`) counts once.
        const cliParams = [
          ...new Set([
            ...cmd.options.map((o) => o.attributeName()),
            ...cmd.registeredArguments.map((a) => a.name()),
          ]),
        ].map((n) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).sort();
        const mcpParams = Object.keys(tool.inputSchema.properties ?? {}).sort();
        const onlyCli = cliParams.filter((p) => !mcpParams.includes(p));
        const onlyMcp = mcpParams.filter((p) => !cliParams.includes(p));
        for (const p of onlyCli) assert.equal(FACE_ONLY[p], "cli", `${op.name}: ${p} is CLI-only`);
        for (const p of onlyMcp) assert.equal(FACE_ONLY[p], "mcp", `${op.name}: ${p} is MCP-only`);
        // And both faces are exactly the table.
        assert.deepEqual(cliParams, paramsOn(op, "cli").map((p) => p.name).sort(), op.name);
        assert.deepEqual(mcpParams, paramsOn(op, "mcp").map((p) => p.name).sort(), op.name);
        // A default-true flag is --no-... on the CLI, the same name on MCP.
        for (const p of paramsOn(op, "cli")) {
          if (p.type !== "boolean" || defaultOn(p, "cli") !== true) continue;
          assert.ok(cmd.options.some((o) => o.long === `--no-${p.name.replaceAll("_", "-")}`));
        }
      }
      // The text to type is `text` on both faces; its target text is `target`.
      const type = byName.get("type")!.inputSchema.properties!;
      assert.ok("text" in type && "target" in type && !("value" in type));
      assert.ok(commands.get("type")!.options.some((o) => o.long === "--target"));
      // find takes a ref or id; drag a destination ref.
      assert.ok(["ref", "id"].every((p) => p in byName.get("find")!.inputSchema.properties!));
      assert.ok("to_ref" in byName.get("drag")!.inputSchema.properties!);
    } finally {
      await client.close();
    }
  },
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "cli.ts", ...args],
    cwd: ROOT,
    env: { DESKTOP_STATE_DIR: STATE },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** CLI words for MCP arguments: `{scope_ref: "form"}` → `--scope-ref form`. */
function words(verb: string, args: Record<string, unknown>, positional: string[] = []): string[] {
  const out = [verb, ...positional.map((p) => String(args[p]))];
  for (const [k, v] of Object.entries(args)) {
    if (positional.includes(k)) continue;
    const flag = `--${k.replaceAll("_", "-")}`;
    if (v === true) out.push(flag);
    else if (v === false) out.push(`--no-${k.replaceAll("_", "-")}`);
    else out.push(flag, String(v));
  }
  return out;
}

Deno.test({
  name: "parity: the faces agree on the same input (text, data, and error codes)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const client = await mcpClient();
    const mcp = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args }) as {
        content: Array<{ text: string }>;
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      return { text: r.content[0].text, data: r.structuredContent, isError: !!r.isError };
    };
    try {
      // Same text: the CLI prints what the MCP tool returns.
      const sameText: Array<[string, Record<string, unknown>, string[]?]> = [
        ["read", { roles: "txt", interactive: true }], // the union, on both faces
        ["read", { max_elements: 5 }], // says how many were left out, on both faces
        ["read", { scope_ref: "form", bounds: false, format: "yaml" }],
        ["find", { text: "Delete", roles: "btn", all: true }],
        ["find", { ref: "form/email" }], // find takes a ref on both faces
        ["list", {}],
        ["wait", { for_ref: "form/submit", timeout: 2000 }],
        ["diff", { before: FORM, after: "tests/fixtures/browser_form_after.json" }, [
          "before",
          "after",
        ]],
      ];
      for (const [tool, args, positional] of sameText) {
        await t.step(`${tool} ${JSON.stringify(args)}`, async () => {
          const from = tool === "diff" ? [] : ["--from", FORM];
          const [c, m] = await Promise.all([
            cli([...words(tool, args, positional), ...from]),
            mcp(tool, args),
          ]);
          assert.equal(c.code, 0, c.stderr);
          assert.equal(m.isError, false, m.text);
          // Hints name parameters as each face spells them (--max-elements, max_elements).
          const spelt = (s: string) =>
            s.replace(/--([a-z]+(?:-[a-z]+)*)/g, (_, n: string) => n.replaceAll("-", "_"));
          assert.equal(spelt(c.stdout.replace(/\n$/, "")), spelt(m.text));
        });
      }
      await t.step("read with txt+interactive keeps text and controls", async () => {
        const m = await mcp("read", { roles: "txt", interactive: true, flat: true });
        assert.match(m.text, /\] btn /);
        assert.match(m.text, /\] input /);
      });
      // Same error code for the same bad input.
      const sameError: Array<[string, Record<string, unknown>, string[]?]> = [
        ["click", { ref: "form/submit", id: 3 }],
        ["click", { ref: "delete" }],
        ["click", { ref: "confirm/ok" }],
        ["type", { target: "Email", text: "x" }],
        ["drag", { ref: "form/email", to_ref: "form/submit" }],
        ["read", { roles: "bogus" }],
        ["read", { depth: -1 }],
        ["key", { combo: "ctrl++" }, ["combo"]],
        ["scroll", { x: 5, y: 5 }],
        ["wait", { for_text: "Never there", timeout: 300 }],
      ];
      for (const [tool, args, positional] of sameError) {
        await t.step(`${tool} ${JSON.stringify(args)} fails alike`, async () => {
          const [c, m] = await Promise.all([
            cli([...words(tool, args, positional), "--from", FORM]),
            mcp(tool, args),
          ]);
          assert.notEqual(c.code, 0);
          assert.equal(m.isError, true, m.text);
          const ce = JSON.parse(c.stderr.trim());
          const me = JSON.parse(m.text);
          assert.equal(ce.code, me.code, `${c.stderr} vs ${m.text}`);
          assert.equal(c.code, ce.code === "INVALID_ARGS" ? 2 : 1);
        });
      }
    } finally {
      await client.close();
    }
  },
});
