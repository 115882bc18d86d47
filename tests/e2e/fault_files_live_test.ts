/**
 * Files and inputs on a live desktop: text typed from a file or stdin
 * (`type --text-file`, `fill --fields-file`) reaches the field with nothing
 * on the command line, and a screenshot file is private to the user; a
 * folder as `--out` is INVALID_ARGS. pyatspi reads the fields back.
 */

import assert from "node:assert/strict";
import { cliError, runCli, runCliOk } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { editableTexts } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

function modeOf(path: string): number {
  return Deno.statSync(path).mode! & 0o777;
}

Deno.test({
  name:
    "files live: type --text-file and fill --fields-file fill a form; screenshot files are 0600",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({
      app: "zenity",
      url: "--add-entry=Name\0--add-entry=City",
    });
    const pid = ["--pid", String(d.pid)];
    const dir = await Deno.makeTempDir({ prefix: "desktop-fault-files-live-" });
    try {
      const read = (await runCliOk(d, ["read", ...pid, "--interactive"])).stdout;
      const refs = [...read.matchAll(/\[\d+\|([^\]]+)\] input/g)].map((m) => m[1]);
      assert.equal(refs.length, 2, read);

      // From a file: the final newline is not typed (it would press Enter).
      const file = `${dir}/name.txt`;
      await Deno.writeTextFile(file, "Ada Lovelace\n");
      await runCliOk(d, ["type", ...pid, "--ref", refs[0], "--text-file", file]);
      // From stdin.
      const piped = await runCli(
        d,
        ["type", ...pid, "--ref", refs[1], "--text-file", "-"],
        "London",
      );
      assert.equal(piped.code, 0, piped.stderr);
      await eventually("both fields typed", async () => {
        const texts = await editableTexts(d);
        return texts.includes("Ada Lovelace") && texts.includes("London") ? texts : undefined;
      });

      // fill from a values file replaces both.
      const fields = `${dir}/fields.txt`;
      await Deno.writeTextFile(fields, `${refs[0]}=Grace Hopper\n${refs[1]}=Arlington\n`);
      const filled = await runCli(d, ["fill", ...pid, "--fields-file", fields]);
      assert.equal(filled.code, 0, filled.stdout + filled.stderr);
      const texts = await editableTexts(d);
      assert.ok(texts.includes("Grace Hopper") && texts.includes("Arlington"), texts.join(", "));

      // A screenshot written to a file is 0600; a folder is INVALID_ARGS, the folder untouched.
      const png = `${dir}/shot.png`;
      await runCliOk(d, ["screenshot", ...pid, "--out", png]);
      assert.equal(modeOf(png), 0o600);
      const header = (await Deno.readFile(png)).subarray(1, 4);
      assert.equal(new TextDecoder().decode(header), "PNG");
      const bad = await runCli(d, ["screenshot", ...pid, "--out", dir]);
      assert.equal(cliError(bad).code, "INVALID_ARGS", bad.stderr);
      assert.equal(bad.code, 2);
      assert.ok(Deno.statSync(dir).isDirectory);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
