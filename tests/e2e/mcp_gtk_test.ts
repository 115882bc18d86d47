import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";

interface TextResult {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

const CHECK = "checkbutton.5"; // the enabled, unchecked check button of the first page

Deno.test({
  name: "mcp e2e (gtk3): read, click by ref, and see the change with observe_changes",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "mcp"],
        cwd: REPO_ROOT,
        env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
        stderr: "pipe",
      }),
    );
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const res = await client.callTool({ name, arguments: args }) as TextResult;
      return { text: res.content.map((c) => c.text ?? "").join("\n"), isError: !!res.isError };
    };
    try {
      const apps = await call("list_apps");
      assert.equal(apps.isError, false, apps.text);
      assert.ok(
        (JSON.parse(apps.text) as Array<{ name: string }>).some((a) => a.name === d.appName),
      );

      const before = await call("read", { app: d.appName, roles: "chk" });
      assert.equal(before.isError, false, before.text);
      const line = before.text.split("\n").find((l) => l.includes(`|${CHECK}]`));
      assert.match(line ?? "", /unchecked/, before.text);

      // Watch while clicking: observe_changes runs for 4 s; the click lands meanwhile.
      const watching = call("observe_changes", { app: d.appName, seconds: 4, ignore_focus: true });
      await new Promise((r) => setTimeout(r, 1500));
      const click = await call("click", { app: d.appName, ref: CHECK });
      assert.equal(click.isError, false, click.text);
      assert.equal(JSON.parse(click.text).element.ref, CHECK);

      const observed = await watching;
      assert.equal(observed.isError, false, observed.text);
      const events = observed.text.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(events[0].type, "snapshot");
      assert.equal(events.at(-1).type, "done");
      const changed = events.find((e) => e.type === "changed" && e.ref === CHECK);
      assert.deepEqual(changed?.changes.chk, [false, true], observed.text);

      const missing = await call("click", { app: d.appName, ref: "no-such-button" });
      assert.equal(missing.isError, true);
      assert.equal(JSON.parse(missing.text).code, "ELEMENT_NOT_FOUND");
    } finally {
      await client.close();
    }
  },
});
