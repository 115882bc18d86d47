import assert from "node:assert/strict";
import { writeRefsOut } from "../../src/output/agent_parse.ts";
import { hasDesktopTools, REPO_ROOT } from "../harness/desktop.ts";

/** Runs `deno task demo` (tests/demo.ts) with `args`; returns its exit code and output. */
async function demo(args: string[]): Promise<{ code: number; out: string }> {
  const res = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}tests/demo.ts`, ...args],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: res.code, out: dec.decode(res.stdout) + dec.decode(res.stderr) };
}

Deno.test({
  name: "demo: the live tour drives Chromium by ref and shows each step's effect",
  ignore: !hasDesktopTools(),
  fn: async () => {
    const { code, out } = await demo([]);
    assert.equal(code, 0, out);
    assert.match(out, /ok type \[\d+\|form\/email\] input "Email"/);
    assert.match(out, /ok click \[\d+\|form\/submit\] btn "Submit"/);
    assert.match(out, /ok wait \[-\|submitted-ada-example-com\]/);
    assert.match(out, /(?:\|(?:form\/)?email\]|\[\d+\]) input "Email" val="ada@example\.com"/);
    // The row below the removed one keeps its ref and its id.
    const inRead = /\[\d+\|(?:list\/)?item-3\][^\n]*: "Item 3" \| \[(\d+)\]/.exec(
      writeRefsOut(out),
    );
    const found = /\n\[(\d+)\|list\/item-3\/delete\] btn "Delete"/.exec(out);
    assert.ok(inRead && found, out);
    assert.equal(found[1], inRead[1]);
    // The removed row's ref was in the last read: STALE_REF, saying it is gone.
    assert.match(out, /"code":"STALE_REF".*list\/item-2\/delete.*is gone/);
    assert.match(out, /\{"type":"removed","ts":\d+,"ref":"list\/item-1"/);
    assert.doesNotMatch(out, /INTERNAL|at file:\/\//);
  },
});

Deno.test("demo: --replay tours a saved snapshot with no live app", async () => {
  const { code, out } = await demo(["--replay"]);
  assert.equal(code, 0, out);
  assert.match(out, /\[12\|form\/email\] input "Email"/);
  assert.match(out, /"code":"AMBIGUOUS_TARGET"/);
  assert.match(out, /\[130\|invoices\/invoice-2024-01\/delete\]/);
  assert.match(out, /~ \[12\|form\/email\] v: none -> "ada@example\.com"/);
});
