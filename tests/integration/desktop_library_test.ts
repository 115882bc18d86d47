import assert from "node:assert/strict";

const MOD = new URL("../../mod.ts", import.meta.url).href;
const FORM = new URL("../fixtures/browser_form.json", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** Runs a script with the given permission flags and returns exit code and output. */
async function runScript(code: string, flags: string[]) {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/script.ts`;
    await Deno.writeTextFile(file, code);
    const out = await new Deno.Command(Deno.execPath(), {
      // The repository's config: its import map names the npm packages.
      args: ["run", "--no-prompt", "--config", CONFIG, ...flags, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("library: importing mod.ts and using the pure API needs no permission", async () => {
  const r = await runScript(
    `
import { assignIds, assignRefs, resolveRef, renderElements, diffTrees, DesktopError } from "${MOD}";
const root = { i: 0, r: "app", t: "Demo", c: [{ i: 0, r: "form", c: [
  { i: 0, r: "input", t: "Email" }, { i: 0, r: "btn", t: "Submit" }] }] };
assignIds(root);
assignRefs(root);
console.log(resolveRef(root, "submit").ref);
console.log(renderElements(root, { format: "agent" }).includes("form/email"));
console.log(diffTrees(root, root).length, new DesktopError("TIMEOUT", "x").exitCode);
`,
    [],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split("\n"), ["form/submit", "true", "0 1"]);
});

Deno.test("library: connect({ from }) reads, resolves and refuses actions on a snapshot", async () => {
  const r = await runScript(
    `
import { connect, DesktopError } from "${MOD}";
const desktop = await connect({ from: ${JSON.stringify(FORM)} });
const { view } = await desktop.read({}, { scopeRef: "form" });
console.log(view.kept);
console.log((await desktop.resolve({}, { ref: "email" })).ref);
try {
  await desktop.act({}, { ref: "submit" }, { kind: "click" });
} catch (err) {
  console.log(err instanceof DesktopError ? err.code : "other");
}
desktop.close();
`,
    [`--allow-read=${FORM}`],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split("\n"), ["6", "form/email", "PLATFORM_NOT_SUPPORTED"]);
});
