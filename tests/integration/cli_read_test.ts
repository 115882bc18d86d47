import assert from "node:assert/strict";
import { AFTER, CLI, FORM, run, withState } from "./_cli_harness.ts";
import { agentTargets } from "../../src/output/agent_parse.ts";

/** The refs agent output addresses, rows of uniform runs included (see agentTargets). */
function refKeys(agent: string): string[] {
  return agentTargets(agent).map((t) => t.ref);
}

/** "ref role" of every `[12|form/email] input` of agent output with no uniform rows. */
function roleKeys(agent: string): string[] {
  const re = /\[\d+\|([^\]]+)\] (?:([a-z]+)(?= |$|\n))?/g;
  return [...agent.matchAll(re)].map((m) => `${m[1]} ${m[2] ?? "txt"}`);
}

Deno.test("cli read: the agent tree of a snapshot shows ids with landmark refs", async () => {
  await withState(async (dir) => {
    const r = await run(["read", "--full-refs", "--from", FORM, "--bounds"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[\d+\|form\/email\] input "Email"/);
    assert.match(r.stdout, /\[\d+\|toolbar\/back\] btn "Back"/);
    assert.match(r.stdout, /\[\d+\|form\/submit\] btn "Submit"/);
    assert.match(r.stdout, /\[\d+\|confirm\/ok\] btn "OK"/);
    // Rows of one shape share a header; each Delete is [id] with ref <row>/delete.
    assert.match(
      r.stdout,
      /rows: \[id\|<row>\/lnk\] lnk "…" \| "…" \| "…" \| \[id\|<row>\/delete\] btn "Delete"/,
    );
    assert.match(
      r.stdout,
      /\[68\|invoices\/invoice-2024-07\] \(40,720,1180,32\): \[70\] "Invoice 2024-07"/,
    );
    assert.ok(refKeys(r.stdout).includes("invoices/invoice-2024-07/delete"));
    // A row scrolled out of the window (800 px high) prints no box.
    assert.match(
      r.stdout,
      /\[122\|invoices\/invoice-2024-01\]: \[124\] "Invoice 2024-01" \| "€115\.00" \| "Paid" \| \[130\]\n/,
    );
    // Anonymous containers and the web document add nothing to refs.
    assert.doesNotMatch(r.stdout, /\|[^\]]*(scroll|web|cell)\/[^\]]*\]/);
  });
});

Deno.test("cli read: reading the same snapshot twice gives identical refs", async () => {
  await withState(async (dir) => {
    const a = await run(["read", "--full-refs", "--from", FORM], dir);
    const b = await run(["read", "--full-refs", "--from", FORM], dir);
    assert.equal(a.code, 0, a.stderr);
    assert.ok(refKeys(a.stdout).length > 50);
    assert.deepEqual(refKeys(a.stdout), refKeys(b.stdout));
    assert.equal(a.stdout, b.stdout);
  });
});

Deno.test("cli read: inserting a row and closing a dialog leaves every other ref unchanged", async () => {
  await withState(async (dir) => {
    const before = refKeys((await run(["read", "--full-refs", "--from", FORM], dir)).stdout);
    const after = new Set(
      refKeys((await run(["read", "--full-refs", "--from", AFTER], dir)).stdout),
    );
    const untouched = before.filter((k) => !k.startsWith("confirm"));
    const lost = untouched.filter((k) => !after.has(k));
    assert.deepEqual(lost, []);
    assert.ok(after.has("invoices/invoice-2024-13/delete"), "the new row is keyed by content");
  });
});

Deno.test("cli read: duplicate labels get .1/.2 and the bare ref becomes ambiguous", async () => {
  await withState(async (dir) => {
    const snap = JSON.parse(await Deno.readTextFile(FORM));
    const dialog = snap.root.c[0].c.find((e: { r: string }) => e.r === "dialog");
    dialog.c.push({ i: 0, r: "btn", t: "OK", b: [740, 400, 80, 32] });
    const path = `${dir}/dup.json`;
    await Deno.writeTextFile(path, JSON.stringify(snap));
    const r = await run(["read", "--full-refs", "--from", path, "--scope-ref", "confirm"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\|confirm\/ok\.1\] btn "OK"/);
    assert.match(r.stdout, /\|confirm\/ok\.2\] btn "OK"/);
    const amb = await run(["find", "--from", path, "--ref", "confirm/ok"], dir);
    assert.equal(amb.code, 1);
    assert.equal(JSON.parse(amb.stderr).code, "AMBIGUOUS_TARGET");
  });
});

Deno.test("cli read: yaml and json carry the ref of every element", async () => {
  await withState(async (dir) => {
    const yaml = await run(["read", "--full-refs", "--from", FORM, "--format", "yaml"], dir);
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.match(yaml.stdout, /ref: "?form\/email"?/);
    const json = await run(["read", "--full-refs", "--from", FORM, "--format", "json"], dir);
    assert.equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    const refs: string[] = [];
    const visit = (el: { ref?: string; c?: unknown[] }) => {
      assert.ok(el.ref, JSON.stringify(el).slice(0, 80));
      refs.push(el.ref);
      (el.c ?? []).forEach((c) => visit(c as { ref?: string }));
    };
    visit(doc.root);
    assert.ok(refs.includes("form/email"));
  });
});

Deno.test("cli read: filters --interactive, --roles, --text, --scope-ref, --depth, --max-elements", async () => {
  await withState(async (dir) => {
    const inter = await run(
      ["read", "--full-refs", "--from", FORM, "--interactive", "--flat"],
      dir,
    );
    assert.equal(inter.code, 0, inter.stderr);
    assert.match(inter.stdout, /form\/submit/);
    assert.doesNotMatch(inter.stdout, /\] heading /);

    const roles = await run(
      ["read", "--full-refs", "--from", FORM, "--roles", "input", "--flat"],
      dir,
    );
    const kinds = roleKeys(roles.stdout).map((k) => k.split(" ")[1]);
    assert.equal(kinds.filter((k) => k === "input").length, 4);
    for (const other of ["btn", "lnk", "chk", "txt", "heading"]) {
      assert.ok(!kinds.includes(other), `--roles input keeps no ${other}`);
    }

    const text = await run(
      ["read", "--full-refs", "--from", FORM, "--text", "2024-05", "--flat"],
      dir,
    );
    assert.match(text.stdout, /invoice-2024-05/);
    assert.doesNotMatch(text.stdout, /invoice-2024-06/);

    const scoped = await run(["read", "--full-refs", "--from", FORM, "--scope-ref", "form"], dir);
    assert.deepEqual(
      refKeys(scoped.stdout).map((k) => k.split(" ")[0]),
      [
        "form",
        "form/email",
        "form/full-name",
        "form/password",
        "form/subscribe-to-the-newsletter",
        "form/submit",
      ],
    );

    const max = await run(
      ["read", "--full-refs", "--from", FORM, "--max-elements", "5", "--flat"],
      dir,
    );
    assert.equal(refKeys(max.stdout).length, 5);

    const depth = await run(["read", "--full-refs", "--from", FORM, "--depth", "1"], dir);
    assert.deepEqual(roleKeys(depth.stdout).map((k) => k.split(" ")[1]), ["app", "window"]);

    const nothing = await run([
      "read",
      "--full-refs",
      "--from",
      FORM,
      "--text",
      "no such text anywhere",
    ], dir);
    assert.equal(nothing.code, 0, nothing.stderr);
    assert.match(nothing.stdout, /no element matched the filters; 134 elements read/);
    const nothingJson = await run(
      [
        "read",
        "--full-refs",
        "--from",
        FORM,
        "--text",
        "no such text anywhere",
        "--format",
        "json",
      ],
      dir,
    );
    assert.deepEqual(
      [JSON.parse(nothingJson.stdout).kept, JSON.parse(nothingJson.stdout).root],
      [0, null],
    );

    const bad = await run(["read", "--full-refs", "--from", FORM, "--roles", "buttonz"], dir);
    assert.equal(bad.code, 2);
    assert.equal(JSON.parse(bad.stderr).code, "INVALID_ARGS");
  });
});

Deno.test("cli read: json output (tree or flat) saved to a file loads back with --from", async () => {
  await withState(async (dir) => {
    const orig = await run(["read", "--full-refs", "--from", FORM], dir);
    for (const flat of [[], ["--flat"]]) {
      const json = await run(
        ["read", "--full-refs", "--from", FORM, "--format", "json", ...flat],
        dir,
      );
      await Deno.writeTextFile(`${dir}/out.json`, json.stdout);
      const again = await run(["read", "--full-refs", "--from", `${dir}/out.json`], dir);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(refKeys(again.stdout), refKeys(orig.stdout), flat.join(" "));
    }
  });
});

Deno.test("cli read: --save writes a snapshot that --from reads back", async () => {
  await withState(async (dir) => {
    const saved = await run(
      ["read", "--full-refs", "--from", FORM, "--interactive", "--save", `${dir}/s.json`],
      dir,
    );
    assert.equal(saved.code, 0, saved.stderr);
    const again = await run(["read", "--full-refs", "--from", `${dir}/s.json`], dir);
    const orig = await run(["read", "--full-refs", "--from", FORM], dir);
    assert.equal(again.code, 0, again.stderr);
    // --save keeps the whole tree, not just what the filters printed.
    assert.deepEqual(refKeys(again.stdout), refKeys(orig.stdout));
  });
});

Deno.test("cli read: a secure field's value is never printed, saved or diffed", async () => {
  await withState(async (dir) => {
    const secret = "hunter2-very-secret";
    const snap = JSON.parse(await Deno.readTextFile(FORM));
    const form = snap.root.c[0].c[1].c[0].c.find((e: { r: string }) => e.r === "form");
    const pw = form.c.find((e: { t: string }) => e.t === "Password");
    pw.v = secret; // as if a broken backend had leaked it
    await Deno.writeTextFile(`${dir}/leak.json`, JSON.stringify(snap));
    pw.v = `${secret}-changed`;
    await Deno.writeTextFile(`${dir}/leak2.json`, JSON.stringify(snap));
    const runs = [
      ["read", "--full-refs", "--from", `${dir}/leak.json`],
      ["read", "--full-refs", "--from", `${dir}/leak.json`, "--flat"],
      ["read", "--full-refs", "--from", `${dir}/leak.json`, "--format", "yaml"],
      ["read", "--full-refs", "--from", `${dir}/leak.json`, "--format", "json"],
      ["read", "--full-refs", "--from", `${dir}/leak.json`, "--format", "json", "--flat"],
      ["read", "--full-refs", "--from", `${dir}/leak.json`, "--save", `${dir}/saved.json`],
      ["find", "--from", `${dir}/leak.json`, "--ref", "form/password"],
      ["find", "--from", `${dir}/leak.json`, "--ref", "form/password", "--format", "json"],
      ["diff", `${dir}/leak.json`, `${dir}/leak2.json`],
      ["diff", `${dir}/leak.json`, `${dir}/leak2.json`, "--format", "jsonl"],
    ];
    for (const args of runs) {
      const r = await run(args, dir);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.ok(!(r.stdout + r.stderr).includes("hunter2"), args.join(" "));
    }
    assert.ok(!(await Deno.readTextFile(`${dir}/saved.json`)).includes("hunter2"));
    const stored = [];
    // Reads of snapshot files are remembered apart from the live store.
    for await (const e of Deno.readDir(`${dir}/replay/refs`)) {
      stored.push(await Deno.readTextFile(`${dir}/replay/refs/${e.name}`));
    }
    assert.ok(stored.length > 0 && stored.every((s) => !s.includes("hunter2")));
  });
});

Deno.test("cli list: apps and windows of a snapshot", async () => {
  await withState(async (dir) => {
    const apps = await run(["list", "--from", FORM], dir);
    assert.equal(apps.code, 0, apps.stderr);
    assert.match(apps.stdout, /"Chromium" pid=4242/);
    const some = await run(["list", "--from", FORM, "--app", "chrom"], dir);
    assert.match(some.stdout, /"Chromium"/);
    const none = await run(["list", "--from", FORM, "--app", "Firefox"], dir);
    assert.equal(none.code, 1);
    assert.equal(JSON.parse(none.stderr).code, "APP_NOT_FOUND");
    const wins = await run(["list", "--windows", "--from", FORM, "--format", "json"], dir);
    assert.deepEqual(JSON.parse(wins.stdout).map((w: { title: string }) => w.title), [
      "Checkout - Chromium",
    ]);
  });
});

Deno.test("cli read: boxes only with --bounds in the agent format; --no-bounds drops them from every format but keeps ids, refs and --save", async () => {
  await withState(async (dir) => {
    const full = await run(["read", "--full-refs", "--from", FORM, "--bounds"], dir);
    const lean = await run(["read", "--full-refs", "--from", FORM, "--no-bounds"], dir);
    const plain = await run(["read", "--full-refs", "--from", FORM], dir);
    assert.equal(lean.code, 0, lean.stderr);
    assert.equal(plain.stdout, lean.stdout);
    assert.match(full.stdout, /\(\d+,\d+,\d+,\d+\)/);
    assert.match((await run(["read", "--from", FORM, "--format", "json"], dir)).stdout, /"b":/);
    assert.doesNotMatch(lean.stdout, /\(\d+,\d+,\d+,\d+\)/);
    assert.match(lean.stdout, /^\s*\[12\|form\/email\] input "Email" required/m);
    // Same elements, same ids and refs, fewer characters.
    const heads = (s: string) => [...s.matchAll(/\[(\d+)\|([^\]]*)\]/g)].map((m) => m[0]);
    assert.deepEqual(heads(lean.stdout), heads(full.stdout));
    assert.ok(lean.stdout.length < full.stdout.length * 0.8);
    const save = `${dir}/saved.json`;
    const json = await run(
      ["read", "--full-refs", "--from", FORM, "--no-bounds", "--format", "json", "--save", save],
      dir,
    );
    assert.doesNotMatch(json.stdout, /"b":/);
    assert.match(await Deno.readTextFile(save), /"b": \[\s*160,\s*210,\s*320,\s*28\s*\]/);
    const yaml = await run([
      "read",
      "--full-refs",
      "--from",
      FORM,
      "--no-bounds",
      "--format",
      "yaml",
    ], dir);
    assert.doesNotMatch(yaml.stdout, /^\s*b:/m);
  });
});

Deno.test("cli read: --budget collapses the largest region into a summary saying how to see it", async () => {
  await withState(async (dir) => {
    const full = await run(["read", "--from", FORM], dir);
    const lean = await run(["read", "--from", FORM, "--budget", "400"], dir);
    assert.equal(lean.code, 0, lean.stderr);
    assert.ok(lean.stdout.length < full.stdout.length);
    assert.match(
      lean.stdout,
      /… \d+ more of these \d+ lines left out \(over the 400-token budget\): read --scope-ref \S+ to see them/,
    );
    // Every line kept is a line of the full read: nothing is changed, only left out.
    const lines = new Set(full.stdout.split("\n"));
    for (const line of lean.stdout.split("\n")) {
      if (!line.includes("more of these")) assert.ok(lines.has(line), line);
    }
    const bad = await run(["read", "--from", FORM, "--budget", "0"], dir);
    assert.equal(bad.code, 2);
  });
});

Deno.test("cli: a reader that closes the pipe early (`| head`) is not an error", async () => {
  await withState(async (dir) => {
    for (const args of [["read", "--from", FORM, "--format", "json"], ["read", "--help"]]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", CLI, ...args],
        env: { DESKTOP_STATE_DIR: dir, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // The reader goes away before the command writes anything.
      await child.stdout.cancel();
      const [status, err] = await Promise.all([
        child.status,
        new Response(child.stderr).text(),
      ]);
      assert.equal(status.code, 0, `${args.join(" ")}: ${err}`);
      assert.equal(err, "", args.join(" "));
    }
  });
});
