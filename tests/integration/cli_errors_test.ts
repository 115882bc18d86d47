import assert from "node:assert/strict";
import { errorOf, FORM, run, withState } from "./_cli_harness.ts";

const COMMANDS = [
  "list",
  "read",
  "find",
  "click",
  "type",
  "key",
  "action",
  "set-value",
  "scroll",
  "drag",
  "focus",
  "wait",
  "observe",
  "diff",
  "mcp",
];

Deno.test("cli: --help works on the program and on every command, with examples", async () => {
  await withState(async (dir) => {
    const top = await run(["--help"], dir);
    assert.equal(top.code, 0);
    for (const cmd of COMMANDS) assert.match(top.stdout, new RegExp(`\\b${cmd}\\b`), cmd);
    for (const cmd of COMMANDS) {
      const r = await run([cmd, "--help"], dir);
      assert.equal(r.code, 0, `${cmd}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`Usage: desktop ${cmd}`), cmd);
      assert.match(r.stdout, /Examples?:/, `${cmd} --help shows examples`);
    }
  });
});

Deno.test("cli: --version prints the version", async () => {
  await withState(async (dir) => {
    const r = await run(["--version"], dir);
    assert.equal(r.code, 0);
    assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+/);
  });
});

Deno.test("cli: --ref, --id, --text and --x/--y are mutually exclusive (INVALID_ARGS, exit 2)", async () => {
  await withState(async (dir) => {
    const conflicts = [
      ["click", "--ref", "form/submit", "--id", "3"],
      ["click", "--ref", "form/submit", "--text", "Submit"],
      ["find", "--id", "3", "--text", "Submit"],
      ["focus", "--ref", "a", "--x", "1", "--y", "2"],
      ["set-value", "--ref", "a", "--text", "b", "--value", "c"],
    ];
    for (const args of conflicts) {
      const r = await run([...args, "--from", FORM], dir);
      assert.equal(r.code, 2, args.join(" "));
      const err = errorOf(r);
      assert.equal(err.code, "INVALID_ARGS");
      assert.match(err.message, /cannot be used together/);
    }
  });
});

Deno.test("cli: bad arguments are INVALID_ARGS with exit 2", async () => {
  await withState(async (dir) => {
    const bad = [
      ["read", "--bogus"],
      ["nosuchcommand"],
      ["diff", FORM],
      ["read", "--format", "xml"],
      ["read", "--depth", "deep"],
      ["read", "--from", FORM, "--timeout", "0"],
      ["read", "--from", FORM, "--save", "/nonexistent-dir/x/snap.json"],
      ["read", "--from", FORM, "--max-elements", "0"],
      ["read", "--from", FORM, "--depth", "-1"],
      ["scroll", "--from", FORM, "--ref", "form", "--direction", "up", "--amount", "0"],
      ["click", "--from", FORM],
      ["click", "--from", FORM, "--x", "4"],
      ["type", "--from", FORM, "--ref", "form/email"],
      ["type", "--from", FORM, "--text", "a", "--key", "Return"],
      ["type", "--from", FORM, "--ref", "form/email", "a", "--text", "b"],
      ["set-value", "--from", FORM, "--ref", "form/email"],
      ["quit", "--from", FORM, "--pid", "0", "--force"],
      ["action", "--from", FORM, "--ref", "form/submit"],
      ["wait", "--from", FORM],
      ["wait", "--from", FORM, "--for-text", "a", "--gone", "b"],
      ["scroll", "--from", FORM, "--ref", "form", "--amount", "3"],
      ["drag", "--from", FORM, "--ref", "a"],
      ["key", "--from", FORM, "ctrl++"],
      ["find", "--from", FORM, "--ref", "form//email"],
      ["click", "--from", FORM, "--button", "left-ish", "--ref", "a"],
    ];
    for (const args of bad) {
      const r = await run(args, dir);
      assert.equal(r.code, 2, `${args.join(" ")} → ${r.code} ${r.stderr}`);
      assert.equal(errorOf(r).code, "INVALID_ARGS", args.join(" "));
    }
  });
});

Deno.test("cli: type's text and set-value's value are its argument or its flag", async () => {
  await withState(async (dir) => {
    for (
      const args of [
        ["type", "--from", FORM, "--ref", "form/email", "ada@example.com"],
        ["type", "--from", FORM, "--ref", "form/email", "--text", "ada@example.com"],
        ["set-value", "--from", FORM, "--ref", "form/email", "42"],
        ["set-value", "--from", FORM, "--ref", "form/email", "--value", "42"],
      ]
    ) {
      // Parsed and validated: a snapshot is read-only, so acting is refused after that.
      const err = errorOf(await run(args, dir));
      assert.equal(err.code, "PLATFORM_NOT_SUPPORTED", args.join(" "));
      assert.match(err.message, /read-only/);
    }
  });
});

Deno.test("cli: corrupt, truncated, wrong-version and missing snapshots are SNAPSHOT_INVALID", async () => {
  await withState(async (dir) => {
    const good = await Deno.readTextFile(FORM);
    const files: Record<string, string> = {
      corrupt: "{ this is not json",
      truncated: good.slice(0, Math.floor(good.length * 0.6)),
      version: good.replace('"version": 1', '"version": 7'),
      format: good.replace('"desktop-snapshot"', '"desktop-other"'),
      empty: "",
    };
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}.json`, text);
    }
    const paths = [...Object.keys(files).map((n) => `${dir}/${n}.json`), `${dir}/missing.json`];
    for (const path of paths) {
      for (
        const args of [["read", "--from", path], ["find", "--from", path, "--ref", "x"], [
          "diff",
          path,
          FORM,
        ]]
      ) {
        const r = await run(args, dir);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        assert.equal(errorOf(r).code, "SNAPSHOT_INVALID", args.join(" "));
      }
    }
  });
});

Deno.test("cli: actions on a snapshot are PLATFORM_NOT_SUPPORTED, after resolving the target", async () => {
  await withState(async (dir) => {
    const actions = [
      ["click", "--ref", "form/submit"],
      ["click", "--x", "170", "--y", "215"],
      ["type", "--ref", "form/email", "--text", "ada@example.com"],
      ["type", "--target", "Full Name", "--text", "Ada"],
      ["key", "Return"],
      ["action", "--ref", "toolbar/back", "--name", "press"],
      ["set-value", "--ref", "form/email", "--value", "x"],
      ["scroll", "--ref", "invoices/invoice-2024-01/delete"],
      ["drag", "--ref", "invoices/invoice-2024-01", "--to-ref", "form"],
      ["focus", "--ref", "form/email"],
    ];
    for (const args of actions) {
      const r = await run([...args, "--from", FORM], dir);
      assert.equal(r.code, 1, args.join(" "));
      const err = errorOf(r);
      assert.equal(err.code, "PLATFORM_NOT_SUPPORTED", `${args.join(" ")}: ${r.stderr}`);
      assert.match(err.message, /read-only/);
    }
    // A bad target is reported as such, before the read-only error.
    const missing = await run(["click", "--ref", "form/nope", "--from", FORM], dir);
    assert.equal(errorOf(missing).code, "ELEMENT_NOT_FOUND");
  });
});

Deno.test("cli: --app that is not the snapshot's app is APP_NOT_FOUND with the app as candidate", async () => {
  await withState(async (dir) => {
    const r = await run(["read", "--from", FORM, "--app", "Firefox"], dir);
    assert.equal(r.code, 1);
    const err = errorOf(r);
    assert.equal(err.code, "APP_NOT_FOUND");
    assert.deepEqual(err.candidates, [{ name: "Chromium", pid: 4242 }]);
  });
});

Deno.test("cli: --id means the element of the last read; a different app run is STALE_REF", async () => {
  await withState(async (dir) => {
    const read = await run(["read", "--full-refs", "--from", FORM, "--flat"], dir);
    assert.equal(read.code, 0, read.stderr);
    const id = Number(read.stdout.match(/\[(\d+)\|form\/email\]/)![1]);
    const ok = await run(["find", "--from", FORM, "--id", String(id)], dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /form\/email/);

    // Same app run, a row inserted above: the id is found again under its new number.
    const after = new URL("../fixtures/browser_form_after.json", import.meta.url).pathname;
    const moved = await run(["find", "--from", after, "--id", String(id)], dir);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /form\/email\] input "Email"/);

    // The app restarted (another start time): never whatever is at that id now.
    const snap = JSON.parse(await Deno.readTextFile(FORM));
    snap.app.started += 60_000;
    await Deno.writeTextFile(`${dir}/restarted.json`, JSON.stringify(snap));
    const stale = await run(["find", "--from", `${dir}/restarted.json`, "--id", String(id)], dir);
    assert.equal(stale.code, 1);
    const err = errorOf(stale);
    assert.equal(err.code, "STALE_REF");
    assert.match(err.message, /restarted/);

    // The element was renamed since the read.
    const renamed = JSON.parse(await Deno.readTextFile(FORM));
    const form = renamed.root.c[0].c[1].c[0].c.find((e: { r: string }) => e.r === "form");
    form.c[0].t = "E-mail address";
    await Deno.writeTextFile(`${dir}/renamed.json`, JSON.stringify(renamed));
    const gone = await run(["click", "--from", `${dir}/renamed.json`, "--id", String(id)], dir);
    const err2 = errorOf(gone);
    assert.equal(err2.code, "STALE_REF");
    assert.ok((err2.candidates ?? []).length > 0, "closest candidates are offered");
  });
});

Deno.test("cli: --id with no read recorded is STALE_REF", async () => {
  await withState(async (dir) => {
    const r = await run(["find", "--from", FORM, "--id", "12"], dir);
    assert.equal(r.code, 1);
    assert.equal(errorOf(r).code, "STALE_REF");
  });
});

Deno.test("cli: a corrupt ref store warns and behaves as empty", async () => {
  await withState(async (dir) => {
    // Reads of snapshot files (--from) are remembered in the replay store.
    await Deno.mkdir(`${dir}/replay/refs`, { recursive: true });
    await Deno.writeTextFile(`${dir}/replay/refs/pid-4242.json`, "{garbage");
    const r = await run(["find", "--from", FORM, "--id", "12"], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /warning: ignoring the corrupt ref store/);
    assert.equal(JSON.parse(r.stderr.trim().split("\n").pop()!).code, "STALE_REF");
    const read = await run(["read", "--from", FORM], dir);
    assert.equal(read.code, 0, read.stderr);
    const again = await run(["find", "--from", FORM, "--id", "12"], dir);
    assert.equal(again.code, 0, again.stderr);
  });
});

Deno.test("a pid that kill(2) would read as a process group is refused before any signal", async () => {
  const { signalProcess } = await import("../../src/platform/linux/launch.ts");
  const { macEndProcess, macProcessRunning } = await import("../../src/platform/macos/launch.ts");
  for (const pid of [0, -1, 1.5]) {
    assert.throws(
      () => signalProcess(pid, "SIGKILL"),
      (e: Error & { code?: string }) => e.code === "INVALID_ARGS",
    );
    assert.throws(
      () => macEndProcess(pid, true),
      (e: Error & { code?: string }) => e.code === "INVALID_ARGS",
    );
    assert.equal(macProcessRunning(pid), false);
  }
});
