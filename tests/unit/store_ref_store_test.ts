import assert from "node:assert/strict";
import {
  createFileRefStore,
  createMemoryRefStore,
  stateDir,
  type StoredRead,
} from "../../src/state/ref_store.ts";

function sampleRead(pid: number, n = 3, name = "Calc"): StoredRead {
  return {
    app: { name, pid, started: 1000 + pid },
    readAt: "2026-01-01T00:00:00.000Z",
    elements: Array.from({ length: n }, (_, k) => ({
      i: k + 1,
      ref: `form/field-${k + 1}`,
      r: "input",
      t: `Field ${k + 1}`,
      path: `0.${k}`,
      b: [10, 20 * k, 100, 18] as [number, number, number, number],
    })),
  };
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "desktop-store-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("store: state dir follows DESKTOP_STATE_DIR, XDG_STATE_HOME, HOME per OS", () => {
  const cases: Array<[Record<string, string>, string, string | null]> = [
    [{ DESKTOP_STATE_DIR: "/s", XDG_STATE_HOME: "/x", HOME: "/h" }, "linux", "/s"],
    [{ XDG_STATE_HOME: "/x", HOME: "/h" }, "linux", "/x/desktop"],
    [{ HOME: "/h" }, "linux", "/h/.local/state/desktop"],
    [{ HOME: "/h", XDG_STATE_HOME: "/x" }, "darwin", "/h/Library/Application Support/desktop"],
    [{ DESKTOP_STATE_DIR: "/s", HOME: "/h" }, "darwin", "/s"],
    [{}, "linux", null],
  ];
  for (const [env, os, want] of cases) {
    assert.equal(stateDir((k) => env[k], os), want, JSON.stringify({ env, os }));
  }
});

Deno.test("store: a saved read loads back by pid; other pids are empty", async () => {
  await withTempDir(async (dir) => {
    const store = createFileRefStore(dir);
    await store.save(sampleRead(7));
    assert.deepEqual(await store.load(7), sampleRead(7));
    assert.equal(await store.load(8), null);
  });
});

Deno.test("store: a new read of the same app replaces the previous one", async () => {
  await withTempDir(async (dir) => {
    const store = createFileRefStore(dir);
    await store.save(sampleRead(7, 5));
    await store.save(sampleRead(7, 2));
    assert.equal((await store.load(7))?.elements.length, 2);
  });
});

Deno.test({
  name: "store: directories are 0700 and files 0600, even when the directory existed wider",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withTempDir(async (dir) => {
      const stateDirPath = `${dir}/state`;
      await Deno.mkdir(stateDirPath, { mode: 0o755 });
      await Deno.chmod(stateDirPath, 0o755);
      await createFileRefStore(stateDirPath).save(sampleRead(7));
      assert.equal((await Deno.stat(stateDirPath)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(`${stateDirPath}/refs`)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(`${stateDirPath}/refs/pid-7.json`)).mode! & 0o777, 0o600);
    });
  },
});

Deno.test("store: writes leave no temporary files and concurrent saves leave one whole file", async () => {
  await withTempDir(async (dir) => {
    const store = createFileRefStore(dir);
    await Promise.all(Array.from({ length: 20 }, (_, k) => store.save(sampleRead(7, k + 1))));
    const names = [];
    for await (const e of Deno.readDir(`${dir}/refs`)) names.push(e.name);
    assert.deepEqual(names, ["pid-7.json"]);
    const loaded = await store.load(7);
    assert.ok(loaded, "the file is a whole, valid read");
    assert.deepEqual(loaded, sampleRead(7, loaded.elements.length));
  });
});

Deno.test("store: a corrupt file is treated as empty with a warning, never a crash", async () => {
  const corrupt = [
    "{not json",
    '{"app":{"name":"Calc","pid":7},"elements":[',
    "[]",
    '{"app":{"name":"Calc","pid":7},"elements":[{"i":"x","r":"btn","path":"0"}]}',
    '{"app":{"name":"Calc","pid":8},"readAt":"","elements":[]}',
    "",
  ];
  for (const text of corrupt) {
    await withTempDir(async (dir) => {
      const warnings: string[] = [];
      const store = createFileRefStore(dir, undefined, (m) => warnings.push(m));
      await store.save(sampleRead(7));
      await Deno.writeTextFile(`${dir}/refs/pid-7.json`, text);
      assert.equal(await store.load(7), null, text);
      assert.equal(warnings.length, 1, text);
      assert.match(warnings[0], /corrupt/);
      await store.save(sampleRead(7)); // and it recovers on the next read
      assert.deepEqual(await store.load(7), sampleRead(7));
    });
  }
});

Deno.test("store: an unwritable state dir only warns", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/file`, "not a directory");
    const warnings: string[] = [];
    const store = createFileRefStore(`${dir}/file`, undefined, (m) => warnings.push(m));
    await store.save(sampleRead(7));
    assert.equal(warnings.length, 1);
    assert.equal(await store.load(7), null);
  });
});

Deno.test("store: beyond maxApps the least recently read apps are dropped", async () => {
  await withTempDir(async (dir) => {
    const store = createFileRefStore(dir, { maxApps: 3, maxFileBytes: 1 << 20 });
    for (const pid of [1, 2, 3, 4, 5]) {
      await store.save(sampleRead(pid));
      // mtime resolution can be coarse: make the order explicit.
      await Deno.utime(`${dir}/refs/pid-${pid}.json`, pid * 1000, pid * 1000);
    }
    await store.save(sampleRead(6));
    const kept = [];
    for (const pid of [1, 2, 3, 4, 5, 6]) if (await store.load(pid)) kept.push(pid);
    assert.deepEqual(kept, [4, 5, 6]);
  });
});

Deno.test("store: a read bigger than maxFileBytes keeps a prefix and is marked truncated", async () => {
  await withTempDir(async (dir) => {
    const store = createFileRefStore(dir, { maxApps: 16, maxFileBytes: 4000 });
    await store.save(sampleRead(7, 500));
    const loaded = await store.load(7);
    assert.ok(loaded);
    assert.equal(loaded.truncated, true);
    assert.ok(loaded.elements.length > 0 && loaded.elements.length < 500);
    assert.deepEqual(loaded.elements, sampleRead(7, 500).elements.slice(0, loaded.elements.length));
    assert.ok((await Deno.stat(`${dir}/refs/pid-7.json`)).size <= 4000);
  });
});

Deno.test("store: the memory store keeps copies, not the caller's objects", async () => {
  const store = createMemoryRefStore();
  const read = sampleRead(7);
  await store.save(read);
  read.elements[0].t = "changed";
  assert.equal((await store.load(7))?.elements[0].t, "Field 1");
  assert.equal(await store.load(8), null);
});

Deno.test("store: a missing pid falls back to the latest read of the same app name", async () => {
  await withTempDir(async (dir) => {
    for (const store of [createFileRefStore(dir), createMemoryRefStore()]) {
      const old = { ...sampleRead(7), readAt: "2026-01-01T00:00:00.000Z" };
      const newer = { ...sampleRead(8), readAt: "2026-01-02T00:00:00.000Z" };
      await store.save(old);
      await store.save(newer);
      await store.save(sampleRead(9, 1, "Other"));
      assert.equal((await store.load(10, "Calc"))?.app.pid, 8);
      assert.equal((await store.load(7, "Calc"))?.app.pid, 7, "its own pid first");
      assert.equal(await store.load(10), null, "no name, no fallback");
      assert.equal(await store.load(10, "Nobody"), null);
    }
  });
});

Deno.test("store: saving the last read again renews its file's time only while the file is still the one saved", async () => {
  await withTempDir(async (dir) => {
    const store = createFileRefStore(dir);
    const other = createFileRefStore(dir); // another process with the same state dir
    const file = `${dir}/refs/pid-7.json`;
    const read = sampleRead(7);
    await store.save(read);
    const written = await Deno.readTextFile(file);
    await Deno.utime(file, 1000, 1000);
    await store.saveAgain!(read);
    assert.equal(await Deno.readTextFile(file), written, "the file is not rewritten");
    assert.ok((await Deno.stat(file)).mtime!.getTime() > 1_000_000, "its time is renewed");
    // Another process saved its own read of the app since: saving again writes ours whole.
    await other.save(sampleRead(7, 1));
    await store.saveAgain!(read);
    assert.equal((await store.load(7))?.elements.length, 3);
    // An equal read that is not the object saved last is saved whole too.
    const copy = structuredClone(read);
    copy.elements.pop();
    await store.saveAgain!(copy);
    assert.equal((await store.load(7))?.elements.length, 2);
  });
});
