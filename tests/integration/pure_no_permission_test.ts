import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INNER = fileURLToPath(new URL("./pure/pure_modules_inner.ts", import.meta.url));

Deno.test("pure modules (model, refs, diff, output, errors) need no permission", async () => {
  // No --allow-* flag: any permission the modules asked for would fail the inner test.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--no-prompt", INNER],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(text, /1 passed/);
});
