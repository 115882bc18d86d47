import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FORM = `${ROOT}tests/fixtures/browser_form.json`;

Deno.test("install: the README's `deno task install` gives a working `desktop` command", async () => {
  const root = await Deno.makeTempDir({ prefix: "desktop-install-" });
  try {
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
    const task: string = config.tasks.install;
    assert.match(task, /^deno install .*--config deno\.json cli\.ts$/);
    // The task's own command, into a private root instead of the user's.
    const args = [...task.split(" ").slice(1, -1), "--root", root, "cli.ts"];
    const install = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(install.success, new TextDecoder().decode(install.stderr));
    // The installed shim runs `deno`: give it this one, from another directory.
    const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
    const run = (...a: string[]) =>
      new Deno.Command(`${root}/bin/desktop`, {
        args: a,
        cwd: root,
        env: { PATH: path, DESKTOP_STATE_DIR: `${root}/state` },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const version = await run("--version");
    assert.ok(version.success, new TextDecoder().decode(version.stderr));
    assert.equal(new TextDecoder().decode(version.stdout).trim(), config.version);
    const read = await run("read", "--from", FORM, "--scope-ref", "form");
    assert.match(new TextDecoder().decode(read.stdout), /\[12\|email\] input "Email"/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
