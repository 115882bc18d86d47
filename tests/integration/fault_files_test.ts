/**
 * Files, stores and inputs: every file desktop reads goes through one bounded
 * reader (regular files only, a size cap, a nesting cap, a deadline), errors
 * never quote a file, the ref store never mistakes a bad file for another run
 * of the app nor adopts another user's directory, files written are private,
 * and secrets can come from a file or stdin instead of the command line.
 *
 * Most tests run the CLI as a process (`timeout` kills one that hangs; GNU
 * time, when installed, measures its peak memory).
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DesktopError } from "../../src/errors.ts";
import { allOps, invoke, type OpContext } from "../../src/ops/mod.ts";
import { createFileRefStore, type StoredRead } from "../../src/state/ref_store.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = `${ROOT}cli.ts`;
const FORM = `${ROOT}tests/fixtures/browser_form.json`;
/** What a file that must never be quoted holds (a shadow-like line and a token). */
const SECRET = "root:*:20254:0:99999:7:::\nsecret-token-abc123\n";
const LEAKS = /root:|20254|secret-token|abc123/;

/** A process that runs longer than this is killed: a hang fails the test instead of stalling it. */
const KILL_AFTER_S = 60;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time in ms. */
  ms: number;
  /** Peak resident memory in KB, when GNU time is installed. */
  rssKb?: number;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const GNU_TIME = exists("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** Runs the CLI with a private state directory, killed after KILL_AFTER_S. */
async function run(
  args: string[],
  stateDir: string,
  opts: { stdin?: string } = {},
): Promise<Run> {
  const rssFile = `${stateDir}/.rss-${crypto.randomUUID()}`;
  const deno = [Deno.execPath(), "run", "-A", CLI, ...args];
  const killed = ["timeout", "-s", "KILL", String(KILL_AFTER_S), ...deno];
  const argv = GNU_TIME ? [GNU_TIME, "-f", "%M", "-o", rssFile, ...killed] : killed;
  const started = performance.now();
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: { DESKTOP_STATE_DIR: stateDir, NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
    stdin: opts.stdin !== undefined ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const ms = performance.now() - started;
  const dec = new TextDecoder();
  let rssKb: number | undefined;
  if (GNU_TIME) {
    const text = await Deno.readTextFile(rssFile).catch(() => "");
    const n = Number(text.trim().split("\n").at(-1));
    if (Number.isFinite(n) && n > 0) rssKb = n;
    await Deno.remove(rssFile).catch(() => {});
  }
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms,
    rssKb,
  };
}

/** The error JSON: the last line on stderr (a warning may come before it). */
function errorOf(r: Run): { code: string; message: string; suggestion: string } {
  const last = r.stderr.trim().split("\n").at(-1) ?? "";
  let err;
  try {
    err = JSON.parse(last);
  } catch {
    assert.fail(`no JSON error on stderr (exit ${r.code}): ${r.stderr.slice(0, 500)}`);
  }
  assert.equal(err.error, true);
  assert.doesNotMatch(r.stderr, /\n\s+at |Uncaught/);
  return err;
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "desktop-fault-files-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A valid snapshot document around `root`, with an app of this pid. */
function snapshotDoc(root: unknown, pid = 4242, name = "Demo"): string {
  return JSON.stringify({
    format: "desktop-snapshot",
    version: 1,
    app: { name, pid },
    readAt: "2026-01-01T00:00:00.000Z",
    root,
  });
}

function modeOf(path: string): number {
  return Deno.statSync(path).mode! & 0o777;
}

// ---------------------------------------------------------------- 7: never quote a file

Deno.test("files: a bad snapshot's error names the place and the problem, never the file's text", async () => {
  await withDir(async (dir) => {
    const secret = `${dir}/shadow`;
    await Deno.writeTextFile(secret, SECRET);
    const link = `${dir}/link.json`;
    await Deno.symlink(secret, link);
    const notSnapshot = `${dir}/config.json`;
    await Deno.writeTextFile(notSnapshot, JSON.stringify({ format: "secret-token-abc123" }));
    const badUtf8 = `${dir}/binary.json`;
    await Deno.writeFile(badUtf8, new Uint8Array([0x7b, 0x0a, 0xff, 0xfe, 0x41]));
    const cases: Array<[string[], RegExp]> = [
      [["read", "--from", link], /not JSON: .*line 1, column 1/],
      [["find", "--from", link, "--ref", "x"], /not JSON: .*line 1, column 1/],
      [["diff", link, FORM], /not JSON: .*line 1, column 1/],
      [["diff", FORM, secret], /not JSON: .*line 1, column 1/],
      [["read", "--from", notSnapshot], /format is not "desktop-snapshot"/],
      [["read", "--from", badUtf8], /not UTF-8 .*line 2 \(byte offset 2\)/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, dir);
      const err = errorOf(r);
      assert.equal(err.code, "SNAPSHOT_INVALID", `${args.join(" ")}: ${r.stderr}`);
      assert.match(err.message, message, args.join(" "));
      assert.doesNotMatch(r.stderr, LEAKS, `${args.join(" ")} quotes the file: ${r.stderr}`);
    }
  });
});

Deno.test({
  name: "files: MCP diff of a private file says where it is not JSON, not what it holds",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withDir(async (dir) => {
      const secret = `${dir}/shadow`;
      await Deno.writeTextFile(secret, SECRET);
      const client = new Client({ name: "fault-files", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: Deno.execPath(),
          args: ["run", "-A", "cli.ts", "mcp", "--from", FORM],
          cwd: ROOT,
          env: { ...Deno.env.toObject(), DESKTOP_STATE_DIR: dir, NO_COLOR: "1" },
          stderr: "pipe",
        }),
      );
      try {
        const res = await client.callTool({
          name: "diff",
          arguments: { before: secret, after: FORM },
        }) as { content: Array<{ text?: string }>; isError?: boolean };
        const text = res.content.map((c) => c.text ?? "").join("\n");
        assert.equal(res.isError, true, text);
        const err = JSON.parse(text);
        assert.equal(err.code, "SNAPSHOT_INVALID");
        assert.match(err.message, /line 1, column 1/);
        assert.doesNotMatch(text, LEAKS, `the error quotes the file: ${text}`);
      } finally {
        await client.close();
      }
    });
  },
});

Deno.test("files: a run file's syntax error gives its place, not its text", async () => {
  await withDir(async (dir) => {
    const json = `${dir}/steps.json`;
    await Deno.writeTextFile(json, '[{"click": "secret-token-abc123"}, root:x]');
    const yaml = `${dir}/steps.yaml`;
    await Deno.writeTextFile(yaml, "- click: secret-token-abc123\n  - root: [x\n");
    for (const [file, message] of [[json, /line 1, column 36/], [yaml, /line \d+, column \d+/]]) {
      const r = await run(["run", file as string, "--dry-run"], dir);
      const err = errorOf(r);
      assert.equal(err.code, "INVALID_ARGS", r.stderr);
      assert.match(err.message, message as RegExp);
      assert.doesNotMatch(r.stderr, LEAKS, `the error quotes the run file: ${r.stderr}`);
    }
  });
});

// ---------------------------------------------------------------- 8, 9: bounded inputs

/** Generous bounds: an unbounded read grows for minutes and by gigabytes. */
const FAIL_WITHIN_MS = 20_000;
const PEAK_RSS_KB = 600 * 1024;

function assertBounded(r: Run, what: string): void {
  assert.ok(r.ms < FAIL_WITHIN_MS, `${what}: took ${Math.round(r.ms)} ms`);
  if (r.rssKb !== undefined) {
    assert.ok(r.rssKb < PEAK_RSS_KB, `${what}: peak memory ${Math.round(r.rssKb / 1024)} MB`);
  }
}

Deno.test("files: devices, pipes, directories, huge and deeply nested snapshots fail fast with SNAPSHOT_INVALID", async () => {
  await withDir(async (dir) => {
    // A valid snapshot of 200 MB: the JSON is padded with spaces after the root.
    const huge = `${dir}/huge.json`;
    {
      const file = await Deno.open(huge, { write: true, create: true });
      const doc = snapshotDoc({ i: 1, r: "app", t: "Demo" });
      await file.write(new TextEncoder().encode(doc.slice(0, -1)));
      const spaces = new Uint8Array(1024 * 1024).fill(0x20);
      for (let k = 0; k < 200; k++) await file.write(spaces);
      await file.write(new TextEncoder().encode("}"));
      file.close();
    }
    // 100,000 levels: nested JSON, nested arrays, and a flat list whose parents chain.
    const depth = 100_000;
    const nested = `${dir}/nested.json`;
    await Deno.writeTextFile(
      nested,
      snapshotDoc("@").replace(
        '"@"',
        '{"i":1,"r":"group","c":['.repeat(depth) + '{"i":0,"r":"btn"}' + "]}".repeat(depth),
      ),
    );
    const arrays = `${dir}/arrays.json`;
    await Deno.writeTextFile(arrays, "[".repeat(depth) + "]".repeat(depth));
    const chain = `${dir}/chain.json`;
    await Deno.writeTextFile(
      chain,
      JSON.stringify({
        format: "desktop-snapshot",
        version: 1,
        app: { name: "Demo", pid: 1 },
        elements: Array.from(
          { length: depth },
          (_, k) => k === 0 ? { i: 1, r: "app" } : { i: k + 1, r: "group", pi: k },
        ),
      }),
    );
    const cases: Array<[string[], RegExp]> = [
      [["read", "--from", "/dev/zero"], /character device, not a regular file/],
      [["read", "--from", "/dev/urandom"], /character device, not a regular file/],
      [["diff", "/dev/zero", FORM], /character device/],
      [["mcp", "--from", "/dev/zero"], /character device/],
      [["read", "--from", dir], /a directory/],
      [["read", "--from", huge], /larger than 64 MB/],
      [["read", "--from", nested], /nested deeper than/],
      [["read", "--from", arrays], /nested deeper than/],
      [["read", "--from", chain], /nested deeper than 1000 levels/],
      [["diff", chain, FORM], /nested deeper than 1000 levels/],
    ];
    for (const [args, message] of cases) {
      const what = args.join(" ").replaceAll(dir, "");
      const r = await run(args, dir);
      assertBounded(r, what);
      const err = errorOf(r);
      assert.equal(err.code, "SNAPSHOT_INVALID", `${what}: ${r.stderr}`);
      assert.match(err.message, message, what);
      assert.match(err.suggestion, /64 MB/, `${what}: the suggestion states the cap`);
    }
    // The cap leaves real snapshots alone: one just under 1000 levels deep reads.
    const deep = `${dir}/deep.json`;
    await Deno.writeTextFile(
      deep,
      snapshotDoc("@").replace(
        '"@"',
        '{"i":1,"r":"group","c":['.repeat(998) + '{"i":0,"r":"btn","t":"Deep"}' + "]}".repeat(998),
      ),
    );
    const ok = await run(["find", "--from", deep, "--text", "Deep"], dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /btn "Deep"/);
  });
});

Deno.test("files: a named pipe with no writer fails at once with SNAPSHOT_INVALID, never blocks", async () => {
  await withDir(async (dir) => {
    const fifo = `${dir}/pipe.json`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const cases: string[][] = [
      ["read", "--from", fifo, "--timeout", "3000"],
      ["diff", FORM, fifo],
      ["mcp", "--from", fifo],
      ["run", fifo, "--dry-run"],
    ];
    for (const args of cases) {
      const what = args.join(" ").replaceAll(dir, "");
      const r = await run(args, dir);
      assertBounded(r, what);
      const err = errorOf(r);
      assert.equal(err.code, args[0] === "run" ? "INVALID_ARGS" : "SNAPSHOT_INVALID", r.stderr);
      assert.match(err.message, /named pipe \(FIFO\), not a regular file/, what);
    }
  });
});

// ---------------------------------------------------------------- 17: a corrupt store file

const READ_OF = (pid: number, readAt: string): StoredRead => ({
  app: { name: "Calc", pid },
  readAt,
  elements: [{ i: 3, ref: "ok", r: "btn", t: "OK", path: "0.1" }],
});

Deno.test("files: a corrupt ref store file of the app is 'no last read' with a warning, never an earlier run", async () => {
  await withDir(async (dir) => {
    const warnings: string[] = [];
    const store = createFileRefStore(dir, undefined, (m) => warnings.push(m));
    await store.save(READ_OF(4269, "2026-01-01T00:00:00.000Z"));
    await store.save(READ_OF(4320, "2026-01-01T00:01:00.000Z"));
    for (const corrupt of ["{ half a fi", JSON.stringify({ app: { name: "Calc", pid: 4269 } })]) {
      await Deno.writeTextFile(`${dir}/refs/pid-4320.json`, corrupt);
      warnings.length = 0;
      // The earlier run (4269) must not stand in for this process's read.
      assert.equal(await store.load(4320, "Calc"), null);
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /pid-4320\.json/);
    }
    // A process with no file at all still finds the earlier run (the "restarted" case).
    assert.equal((await store.load(5000, "Calc"))?.app.pid, 4269);
  });
});

Deno.test("files: through the CLI, a corrupt store file gives 'no read recorded', not 'restarted'", async () => {
  await withDir(async (dir) => {
    // Two snapshots of one app, as two runs of it (pids 4269 and 4320).
    const form = JSON.parse(await Deno.readTextFile(FORM));
    const first = `${dir}/first.json`, second = `${dir}/second.json`;
    await Deno.writeTextFile(first, JSON.stringify({ ...form, app: { ...form.app, pid: 4269 } }));
    await Deno.writeTextFile(second, JSON.stringify({ ...form, app: { ...form.app, pid: 4320 } }));
    assert.equal((await run(["read", "--from", first], dir)).code, 0);
    assert.equal((await run(["read", "--from", second], dir)).code, 0);
    // Snapshot reads have a store of their own, `replay/`.
    await Deno.writeTextFile(`${dir}/replay/refs/pid-4320.json`, "{ corrupt");
    const r = await run(["find", "--from", second, "--id", "12"], dir);
    const err = errorOf(r);
    assert.equal(err.code, "STALE_REF", r.stderr);
    assert.doesNotMatch(err.message, /restarted|was .* pid 4269/, err.message);
    assert.match(err.message, /no read of Chromium \(pid 4320\) is recorded/);
    assert.match(r.stderr, /warning: .*pid-4320\.json/);
  });
});

// ---------------------------------------------------------------- 19: screenshot --out a folder

Deno.test("files: screenshot --out a directory is INVALID_ARGS, like a bad --save path", async () => {
  await withDir(async (dir) => {
    const shot = await run(["screenshot", "--out", dir], dir);
    const err = errorOf(shot);
    assert.equal(err.code, "INVALID_ARGS", shot.stderr);
    assert.equal(shot.code, 2);
    assert.match(err.message, /--out .* is a directory/);
    const save = await run(["read", "--from", FORM, "--save", dir], dir);
    assert.equal(errorOf(save).code, "INVALID_ARGS", save.stderr);
    // A run file's screenshot step writes through the same check.
    const { saveScreenshot } = await import("../../src/screenshot/screenshot.ts");
    await assert.rejects(
      saveScreenshot(dir, new Uint8Array([0x89, 0x50])),
      (e: unknown) => e instanceof DesktopError && e.code === "INVALID_ARGS",
    );
    assert.ok(Deno.statSync(dir).isDirectory);
  });
});

// ---------------------------------------------------------------- 22: private files and stores

Deno.test("files: --save writes 0600, also over a file that was 0644", async () => {
  await withDir(async (dir) => {
    const fresh = `${dir}/fresh.json`;
    assert.equal((await run(["read", "--from", FORM, "--save", fresh], dir)).code, 0);
    assert.equal(modeOf(fresh), 0o600);
    const old = `${dir}/old.json`;
    await Deno.writeTextFile(old, "{}");
    await Deno.chmod(old, 0o644);
    assert.equal((await run(["read", "--from", FORM, "--save", old], dir)).code, 0);
    assert.equal(modeOf(old), 0o600);
    assert.match(await Deno.readTextFile(old), /"desktop-snapshot"/);
  });
});

Deno.test("files: the last-click note is written 0600", async () => {
  await withDir(async (dir) => {
    const { clickAt } = await import("../../src/platform/linux/input.ts");
    // A native session that sends nothing: only the note is under test.
    const native = {
      sym: { atspi_generate_mouse_event: () => true },
      err: { buf: null },
      check: () => {},
    } as unknown as Parameters<typeof clickAt>[0];
    const before = Deno.env.get("DESKTOP_STATE_DIR");
    const wayland = Deno.env.get("WAYLAND_DISPLAY");
    Deno.env.set("DESKTOP_STATE_DIR", dir);
    // The X11 path (the fake session's): no Wayland compositor is asked.
    Deno.env.delete("WAYLAND_DISPLAY");
    try {
      const note = `${dir}/last-click.json`;
      await Deno.writeTextFile(note, "{}");
      await Deno.chmod(note, 0o644);
      clickAt(native, { x: 5, y: 5 });
      assert.equal(modeOf(note), 0o600);
      assert.equal(JSON.parse(await Deno.readTextFile(note)).x, 5);
    } finally {
      if (wayland !== undefined) Deno.env.set("WAYLAND_DISPLAY", wayland);
      if (before === undefined) Deno.env.delete("DESKTOP_STATE_DIR");
      else Deno.env.set("DESKTOP_STATE_DIR", before);
    }
  });
});

Deno.test("files: a ref store file made 0666 is tightened to 0600 when read", async () => {
  await withDir(async (dir) => {
    const store = createFileRefStore(dir, undefined, () => {});
    await store.save(READ_OF(7, ""));
    const file = `${dir}/refs/pid-7.json`;
    await Deno.chmod(file, 0o666);
    assert.equal((await store.load(7))?.app.pid, 7);
    assert.equal(modeOf(file), 0o600);
  });
});

Deno.test({
  name: "files: a store directory of another user is refused with PERMISSION_DENIED, not adopted",
  // Giving a directory to another user takes root.
  ignore: Deno.uid() !== 0,
  async fn() {
    await withDir(async (dir) => {
      const theirs = `${dir}/theirs`;
      await Deno.mkdir(`${theirs}/refs`, { recursive: true });
      await Deno.chmod(theirs, 0o755);
      await Deno.chown(theirs, 65534, 65534);
      await Deno.chown(`${theirs}/refs`, 65534, 65534);
      const store = createFileRefStore(theirs, undefined, () => {});
      for (const call of [() => store.save(READ_OF(7, "")), () => store.load(7, "Calc")]) {
        await assert.rejects(call(), (e: unknown) => {
          assert.ok(e instanceof DesktopError, String(e));
          assert.equal(e.code, "PERMISSION_DENIED");
          assert.match(e.message, new RegExp(`${theirs}.* belongs to .*uid 65534`));
          return true;
        });
      }
      // Witness: still theirs, with its mode, and nothing written into it.
      const info = await Deno.stat(theirs);
      assert.equal(info.uid, 65534);
      assert.equal(info.mode! & 0o777, 0o755);
      assert.deepEqual([...Deno.readDirSync(`${theirs}/refs`)], []);
      // Through the CLI: a read that would record its ids there fails the same way (a
      // snapshot's reads are recorded under replay/ in the state directory).
      await Deno.mkdir(`${theirs}/replay`);
      await Deno.chown(`${theirs}/replay`, 65534, 65534);
      const r = await run(["read", "--from", FORM], theirs);
      assert.equal(errorOf(r).code, "PERMISSION_DENIED", r.stderr);
    });
  },
});

/** A context whose desktop records the action or fields it is given, then refuses. */
function recordingContext(seen: unknown[]): OpContext {
  const refuse = (x: unknown) => {
    seen.push(x);
    return Promise.reject(new DesktopError("ACTION_FAILED", "recorded"));
  };
  return {
    face: "cli",
    signal: new AbortController().signal,
    emit() {},
    desktop: () =>
      Promise.resolve({
        act: (_scope: unknown, _target: unknown, action: unknown) => refuse(action),
        fill: (_scope: unknown, fields: unknown) => refuse(fields),
      } as never),
  };
}

function opNamed(name: string) {
  const op = allOps().find((o) => o.name === name);
  assert.ok(op, name);
  return op;
}

Deno.test("files: type --text-file and fill --fields-file take secrets from a file, not argv", async () => {
  await withDir(async (dir) => {
    const secret = `${dir}/secret.txt`;
    await Deno.writeTextFile(secret, "s3cret pass\n");
    const seen: unknown[] = [];
    await assert.rejects(
      invoke(opNamed("type"), { ref: "form/password", text_file: secret }, recordingContext(seen)),
      /recorded/,
    );
    assert.deepEqual(seen, [{ kind: "type", text: "s3cret pass" }]);
    const fields = `${dir}/fields.txt`;
    await Deno.writeTextFile(fields, "form/email=ada@example.com\nform/password=s3=cret\n");
    seen.length = 0;
    await assert.rejects(
      invoke(
        opNamed("fill"),
        { field: ["form/name=Ada"], fields_file: fields },
        recordingContext(seen),
      ),
      /recorded/,
    );
    assert.deepEqual(seen, [[
      { target: { ref: "form/name" }, value: "Ada" },
      { target: { ref: "form/email" }, value: "ada@example.com" },
      { target: { ref: "form/password" }, value: "s3=cret" },
    ]]);
  });
});

Deno.test("files: --text-file - reads stdin; a device, a pipe or a bad line is INVALID_ARGS at once", async () => {
  await withDir(async (dir) => {
    // From stdin: read whole, then the snapshot refuses to be typed into (after resolving).
    const piped = await run(
      ["type", "--from", FORM, "--ref", "form/password", "--text-file", "-"],
      dir,
      { stdin: "s3cret\n" },
    );
    assert.equal(errorOf(piped).code, "PLATFORM_NOT_SUPPORTED", piped.stderr);
    const fifo = `${dir}/pipe`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const lines = `${dir}/fields.txt`;
    await Deno.writeTextFile(lines, "form/email=ada@example.com\nsecret-token-abc123\n");
    const cases: Array<[string[], RegExp]> = [
      [["type", "--ref", "x", "--text-file", "/dev/zero"], /character device/],
      [["type", "--ref", "x", "--text-file", fifo], /named pipe/],
      [["type", "--ref", "x", "--text-file", `${dir}/missing`], /no such file/],
      [["fill", "--fields-file", "/dev/urandom"], /character device/],
      [["fill", "--fields-file", lines], /line 2 of --fields-file is not REF=VALUE/],
    ];
    for (const [args, message] of cases) {
      const what = args.join(" ").replaceAll(dir, "");
      const r = await run(args, dir);
      assertBounded(r, what);
      const err = errorOf(r);
      assert.equal(err.code, "INVALID_ARGS", `${what}: ${r.stderr}`);
      assert.match(err.message, message, what);
      assert.doesNotMatch(r.stderr, LEAKS, what);
    }
  });
});
