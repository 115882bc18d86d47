import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const CHECK = "checkbutton.2"; // the enabled, unchecked check button of the first page

/** A client of `desktop mcp` started with this environment. */
async function serve(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "mcp"],
      cwd: REPO_ROOT,
      env,
      stderr: Deno.env.get("MCP_STDERR") ? "inherit" : "pipe",
    }),
  );
  return client;
}

function caller(client: Client) {
  return async (name: string, args: Record<string, unknown> = {}) => {
    const res = await client.callTool({ name, arguments: args }) as ToolResult;
    return {
      text: res.content.map((c) => c.text ?? "").join("\n"),
      isError: !!res.isError,
      data: res.structuredContent,
    };
  };
}

Deno.test({
  name: "mcp e2e (gtk3): read, click by ref, and see the change with observe_changes",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const client = await serve({ ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` });
    const call = caller(client);
    try {
      const apps = await call("list");
      assert.equal(apps.isError, false, apps.text);
      const listed = apps.data!.apps as Array<{ name: string }>;
      assert.ok(listed.some((a) => a.name === d.appName), apps.text);

      const before = await call("read", { app: d.appName, roles: "chk" });
      assert.equal(before.isError, false, before.text);
      const line = before.text.split("\n").find((l) => l.includes(`|${CHECK}]`));
      assert.ok(line && !/\bchecked\b/.test(line), before.text);

      // The watch starts, the click lands, the cursor call returns the change.
      const watch = await call("observe_changes", {
        app: d.appName,
        duration: 0.5,
        ignore_focus: true,
      });
      assert.equal(watch.isError, false, watch.text);
      const cursor = watch.data!.cursor as string;
      const click = await call("click", { app: d.appName, ref: CHECK });
      assert.equal(click.isError, false, click.text);
      assert.equal((click.data!.element as { ref: string }).ref, CHECK);
      assert.match(click.text, new RegExp(`^ok click \\[\\S*\\|${CHECK}\\]`));
      // The click reports the change it caused, by default, in the text and as data.
      const caused = (click.data!.changes as Array<
        { type: string; ref: string; changes?: Record<string, unknown> }
      >)
        .find((c) => c.type === "changed" && c.ref === CHECK);
      assert.deepEqual(caused?.changes?.chk, [false, true], click.text);
      // A pointer click (GTK 3 buttons) also moves the focus: chk among the fields that changed.
      assert.match(click.text, new RegExp(`^~ \\[\\d+\\|${CHECK}\\] .*chk: false -> true`, "m"));

      // Poll with the cursor until the change arrives (events between calls are kept).
      const seen: Array<{ type: string; ref?: string; changes?: Record<string, unknown> }> = [];
      const deadline = Date.now() + 20_000;
      while (!seen.some((e) => e.type === "changed" && e.ref === CHECK) && Date.now() < deadline) {
        const next = await call("observe_changes", { cursor, duration: 1 });
        assert.equal(next.isError, false, next.text);
        seen.push(...next.data!.events as typeof seen);
      }
      const changed = seen.find((e) => e.type === "changed" && e.ref === CHECK);
      assert.deepEqual(changed?.changes?.chk, [false, true], JSON.stringify(seen));

      const missing = await call("click", { app: d.appName, ref: "no-such-button" });
      assert.equal(missing.isError, true);
      assert.equal(JSON.parse(missing.text).code, "ELEMENT_NOT_FOUND");
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "mcp e2e (gtk3): a call on a stopped app ends by its deadline; other calls are answered",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const client = await serve({ ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` });
    const call = caller(client);
    try {
      const warm = await call("read", { app: d.appName, roles: "chk" });
      assert.equal(warm.isError, false, warm.text);
      Deno.kill(d.pid, "SIGSTOP");
      try {
        const timeout = 3000;
        const started = Date.now();
        const hung = call("click", { app: d.appName, ref: CHECK, timeout });
        // Meanwhile the server answers requests that do not need the stopped app.
        const order: string[] = [];
        const others = Promise.all([
          client.listTools().then(() => order.push("tools/list")),
          call("diff", {
            before: `${REPO_ROOT}tests/fixtures/browser_form.json`,
            after: `${REPO_ROOT}tests/fixtures/browser_form_after.json`,
          }).then((r) => {
            assert.equal(r.isError, false, r.text);
            order.push("diff");
          }),
        ]);
        const res = await hung;
        order.push("click");
        await others;
        const elapsed = Date.now() - started;
        assert.equal(res.isError, true, res.text);
        assert.match(JSON.parse(res.text).code, /^(APP_UNRESPONSIVE|TIMEOUT)$/, res.text);
        // The server's own thread never waits on the app: tools/list is answered at once.
        assert.ok(order.indexOf("tools/list") < order.indexOf("click"), order.join(","));
        // The deadline is the contract: the timeout plus the round trip, not several timeouts.
        assert.ok(elapsed < timeout + 1500, `answered after ${elapsed} ms`);
      } finally {
        Deno.kill(d.pid, "SIGCONT");
      }
      // The app is back: the server still works.
      const after = await call("read", { app: d.appName, roles: "chk" });
      assert.equal(after.isError, false, after.text);
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "mcp e2e: with no desktop bus the server starts, lists tools, and calls fail with a code",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const client = await serve({
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/",
      DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/desktop-test-bus",
    });
    const call = caller(client);
    try {
      assert.equal(client.getServerVersion()?.name, "desktop");
      const { tools } = await client.listTools();
      assert.ok(tools.length >= 14);
      const res = await call("list");
      assert.equal(res.isError, true, res.text);
      assert.equal(JSON.parse(res.text).code, "PERMISSION_DENIED");
    } finally {
      await client.close();
    }
  },
});
