import assert from "node:assert/strict";
import { REPO_ROOT } from "../harness/desktop.ts";

/** Runs `desktop list` with exactly this environment and returns the JSON error it prints. */
async function listWith(env: Record<string, string>): Promise<Record<string, string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "list"],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/",
      ...env,
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  const line = new TextDecoder().decode(out.stderr).trim().split("\n").reverse().find((l) =>
    l.startsWith("{")
  );
  assert.ok(line, "a JSON error on stderr");
  return JSON.parse(line);
}

Deno.test({
  name: "linux: without a reachable accessibility bus, list says how to start one",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const envs: Record<string, string>[] = [
      {},
      { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/desktop-test-bus" },
      { DISPLAY: ":4999" },
    ];
    for (const env of envs) {
      const err = await listWith(env);
      assert.equal(err.code, "PERMISSION_DENIED", JSON.stringify(env));
      assert.match(err.suggestion, /at-spi-bus-launcher/);
      assert.match(err.suggestion, /ACCESSIBILITY_ENABLED=1/);
    }
  },
});
