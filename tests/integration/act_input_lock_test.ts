/**
 * The display's input lock (src/platform/input_lock.ts): one process at a
 * time holds the keyboard and pointer; another waits until its deadline and
 * then fails with TIMEOUT naming the holder; holds nest within one process;
 * the kernel frees the lock when its holder exits.
 */

import assert from "node:assert/strict";
import { displayKey, holdInput } from "../../src/platform/input_lock.ts";

/** Runs a second process that tries to take the lock at `path` within `waitMs`. */
async function otherProcess(path: string, waitMs: number, holdMs = 0) {
  const code = `
import { holdInput } from ${
    JSON.stringify(new URL("../../src/platform/input_lock.ts", import.meta.url).href)
  };
const t0 = Date.now();
try {
  using _h = holdInput("click", Date.now() + ${waitMs}, { path: ${JSON.stringify(path)} });
  if (${holdMs}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
  console.log(JSON.stringify({ ok: true, ms: Date.now() - t0 }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, ms: Date.now() - t0, code: e.code, message: e.message, details: e.details }));
}`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  return JSON.parse(dec.decode(out.stdout));
}

Deno.test("input lock: another process waits its deadline out, then TIMEOUT names the holder", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/input-_9.lock`;
  try {
    {
      using _held = holdInput("type", Date.now() + 1000, { path });
      const res = await otherProcess(path, 300);
      assert.equal(res.ok, false, JSON.stringify(res));
      assert.equal(res.code, "TIMEOUT");
      assert.match(res.message, new RegExp(`pid ${Deno.pid}, type`));
      assert.equal(res.details.holder.pid, Deno.pid);
      assert.ok(res.ms >= 250 && res.ms < 5000, `waited its deadline: ${res.ms} ms`);
      // Holds nest within one process: an inner hold does not release the outer one.
      {
        using _inner = holdInput("click", Date.now() + 100, { path });
      }
      assert.equal((await otherProcess(path, 100)).ok, false, "still held after the inner hold");
    }
    // Released: the other process takes it at once.
    const free = await otherProcess(path, 300);
    assert.equal(free.ok, true, JSON.stringify(free));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("input lock: a waiting process gets the lock when the holder is done", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/input-_9.lock`;
  try {
    // The other process holds it for 400 ms; we wait up to 10 s.
    const other = otherProcess(path, 1000, 400);
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const note = await Deno.readTextFile(path).catch(() => "");
      if (note.includes('"click"')) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const t0 = Date.now();
    {
      using _h = holdInput("type", Date.now() + 10_000, { path });
    }
    assert.ok(Date.now() - t0 < 5000, "took it when the holder let go");
    assert.equal((await other).ok, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("input lock: one lock per display, whatever the screen number", () => {
  assert.equal(displayKey("linux", ":1"), displayKey("linux", ":1.0"));
  assert.notEqual(displayKey("linux", ":1"), displayKey("linux", ":2"));
  assert.equal(displayKey("linux", "host/unix:3.1"), "host_unix_3");
  assert.equal(displayKey("darwin", ":1"), "console");
});
