import assert from "node:assert/strict";
import { REPO_ROOT } from "../harness/desktop.ts";

/** The MCP inspector's CLI that scripts/run installs (pinned, from the npm registry). */
const INSPECTOR = `${REPO_ROOT}.tmp/inspector/node_modules/.bin/mcp-inspector`;
const FIXTURE = `${REPO_ROOT}tests/fixtures/mcp_checkout.json`;

function installed(): boolean {
  try {
    Deno.statSync(INSPECTOR);
    return true;
  } catch {
    console.error(
      `mcp inspector: ${INSPECTOR} is missing (scripts/run test installs it); ignoring`,
    );
    return false;
  }
}

/** Runs the inspector's CLI against `desktop mcp --from FIXTURE`; its output and exit status. */
async function run(...args: string[]): Promise<{ ok: boolean; text: string }> {
  const out = await new Deno.Command(INSPECTOR, {
    args: [
      "--cli",
      Deno.execPath(),
      "run",
      "-A",
      "--quiet",
      `${REPO_ROOT}cli.ts`,
      "mcp",
      "--from",
      FIXTURE,
      ...args,
    ],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, text };
}

/** The inspector's JSON answer to a call that must succeed. */
async function inspect(...args: string[]): Promise<Record<string, unknown>> {
  const { ok, text } = await run(...args);
  assert.ok(ok, text);
  return JSON.parse(text);
}

Deno.test({
  name: "mcp inspector CLI: lists the tools with hints, calls one, gets structured content",
  ignore: !installed(),
  async fn() {
    const list = await inspect("--method", "tools/list") as {
      tools: Array<{ name: string; annotations?: Record<string, boolean> }>;
    };
    assert.ok(list.tools.length >= 18);
    assert.ok(list.tools.every((t) => typeof t.annotations?.readOnlyHint === "boolean"));
    const found = await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "find",
      "--tool-arg",
      "text=Delete",
      "--tool-arg",
      "all=true",
    ) as { structuredContent?: { elements: Array<{ ref: string }> }; isError?: boolean };
    assert.ok(!found.isError, JSON.stringify(found));
    assert.deepEqual(found.structuredContent?.elements.map((e) => e.ref), [
      "invoices/inv-2024-17/delete",
      "invoices/inv-2024-18/delete",
    ]);
    // A tool error is reported as one: the inspector exits non-zero and says so.
    const bad = await run(
      "--method",
      "tools/call",
      "--tool-name",
      "click",
      "--tool-arg",
      "ref=delete",
    );
    assert.equal(bad.ok, false);
    assert.match(bad.text, /isError/);
  },
});
