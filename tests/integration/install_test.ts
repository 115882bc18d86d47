import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

Deno.test({
  name: "install: `deno task install` gives a `desktop` that works when the clone is gone",
  sanitizeResources: false,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "desktop-install-" });
    try {
      // A clone of our own, to remove afterwards.
      const clone = `${tmp}/clone`;
      for (const f of ["cli.ts", "mod.ts", "deno.json", "deno.lock"]) {
        await Deno.mkdir(clone, { recursive: true });
        await Deno.copyFile(`${ROOT}${f}`, `${clone}/${f}`);
      }
      await copyTree(`${ROOT}src`, `${clone}/src`);
      await copyTree(`${ROOT}scripts`, `${clone}/scripts`);
      const fixture = `${tmp}/form.json`;
      await Deno.copyFile(`${ROOT}tests/fixtures/browser_form.json`, fixture);

      const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
      assert.match(config.tasks.install, /scripts\/install\.ts$/);
      const install = await new Deno.Command(Deno.execPath(), {
        args: [
          "task",
          "install",
          "--dest",
          `${tmp}/share`,
          "--bin",
          `${tmp}/bin`,
        ],
        cwd: clone,
        env: { PATH: "/usr/bin:/bin" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(install.stdout);
      assert.ok(install.success, new TextDecoder().decode(install.stderr));
      // It says where the command is and how to put it on PATH.
      assert.match(
        said,
        new RegExp(
          `installed: ${tmp}/bin/desktop; put it on PATH with: export PATH="${tmp}/bin:\\$PATH"`,
        ),
      );
      await Deno.remove(clone, { recursive: true });

      // No deno on PATH, no clone: the launcher still runs.
      const run = (...a: string[]) =>
        new Deno.Command(`${tmp}/bin/desktop`, {
          args: a,
          cwd: tmp,
          env: { PATH: "/usr/bin:/bin", DESKTOP_STATE_DIR: `${tmp}/state` },
          stdout: "piped",
          stderr: "piped",
        }).output();
      const version = await run("--version");
      assert.ok(version.success, new TextDecoder().decode(version.stderr));
      assert.equal(new TextDecoder().decode(version.stdout).trim(), config.version);
      const read = await run("read", "--from", fixture, "--scope-ref", "form");
      assert.equal(new TextDecoder().decode(read.stderr), "", "nothing but the output");
      assert.match(new TextDecoder().decode(read.stdout), /\[12\] input "Email"/);
      // Every error is exactly one JSON object on stderr, and nothing on stdout.
      for (
        const args of [
          ["read", "--from", `${tmp}/missing.json`],
          ["click", "--from", fixture, "--ref", "form/nope"],
          ["read", "--bogus"],
          ["nosuchcommand"],
        ]
      ) {
        const out = await run(...args);
        assert.notEqual(out.code, 0);
        assert.equal(new TextDecoder().decode(out.stdout), "", args.join(" "));
        const lines = new TextDecoder().decode(out.stderr).trimEnd().split("\n");
        assert.equal(lines.length, 1, `${args.join(" ")}: ${lines.join("\n")}`);
        assert.equal(JSON.parse(lines[0]).error, true);
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
