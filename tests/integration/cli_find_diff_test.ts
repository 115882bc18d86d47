import assert from "node:assert/strict";
import { AFTER, FORM, run, withState } from "./_cli_harness.ts";

Deno.test("cli find: exact refs, suffix refs, text and points resolve to one element", async () => {
  await withState(async (dir) => {
    const cases: Array<[string[], RegExp]> = [
      [["--ref", "form/email"], /^\[(\d+|-)\|form\/email\] input "Email"/],
      [["--ref", "submit"], /^\[(\d+|-)\|form\/submit\] btn "Submit"/],
      [["--ref", "invoice-2024-07/delete"], /^\[(\d+|-)\|invoices\/invoice-2024-07\/delete\] btn/],
      [["--text", "Full Name"], /\|form\/full-name\]/],
      [["--text", "email", "--roles", "input"], /\|form\/email\]/],
      [["--text", "ok", "--exact"], /\|confirm\/ok\]/],
      [["--x", "170", "--y", "215"], /\|form\/email\]/],
    ];
    for (const [args, want] of cases) {
      const r = await run(["find", "--from", FORM, ...args], dir);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stdout, want, args.join(" "));
      assert.equal(r.stdout.trim().split("\n").length, 1);
    }
  });
});

Deno.test("cli find: ids shown are those of the last read, never a fresh numbering", async () => {
  await withState(async (dir) => {
    // No read yet: the element has no id that --id would take.
    const before = await run(["find", "--from", FORM, "--ref", "invoice-2024-01/delete"], dir);
    assert.match(before.stdout, /^\[-\|invoices\/invoice-2024-01\/delete\] btn/);
    await run(["read", "--from", FORM], dir);
    // A row was inserted above it since that read: it is 139 now, but still 130 to --id.
    const after = await run(["find", "--from", AFTER, "--ref", "invoice-2024-01/delete"], dir);
    assert.match(after.stdout, /^\[130\|invoices\/invoice-2024-01\/delete\] btn/);
    const byId = await run(["find", "--from", AFTER, "--id", "130", "--format", "json"], dir);
    assert.equal(JSON.parse(byId.stdout)[0].ref, "invoices/invoice-2024-01/delete");
    // The new row's button was not in that read: no id, only its ref.
    const fresh = await run(["find", "--from", AFTER, "--ref", "invoice-2024-13/delete"], dir);
    assert.match(fresh.stdout, /^\[-\|invoices\/invoice-2024-13\/delete\]/);
    const json = await run(
      ["find", "--from", AFTER, "--ref", "invoice-2024-13/delete", "--format", "json"],
      dir,
    );
    assert.equal(JSON.parse(json.stdout)[0].i, undefined);
    // Candidates of an error are numbered the same way.
    const gone = await run(["find", "--from", AFTER, "--ref", "confirm/ok"], dir);
    const cands = JSON.parse(gone.stderr).candidates as Array<{ ref: string; i?: number }>;
    const kept = cands.find((c) => c.ref === "invoices/invoice-2024-01/delete");
    if (kept) assert.equal(kept.i, 130);
    assert.ok(
      cands.every((c) => !c.ref.startsWith("invoices/invoice-2024-13") || c.i === undefined),
    );
  });
});

Deno.test("cli find: ambiguous text or ref is AMBIGUOUS_TARGET with candidates' refs", async () => {
  await withState(async (dir) => {
    for (const args of [["--text", "Delete"], ["--ref", "delete"]]) {
      const r = await run(["find", "--from", FORM, ...args], dir);
      assert.equal(r.code, 1);
      const err = JSON.parse(r.stderr);
      assert.equal(err.code, "AMBIGUOUS_TARGET");
      assert.ok(err.candidates.length >= 2 && err.candidates.length <= 10);
      const rows = err.candidates.filter((c: { ref: string }) =>
        /^invoices\/invoice-2024-\d\d\/delete$/.test(c.ref)
      );
      assert.ok(rows.length >= 2, JSON.stringify(err.candidates));
      // A candidate's ref resolves.
      const pick = await run(["find", "--from", FORM, "--ref", rows[1].ref], dir);
      assert.equal(pick.code, 0, pick.stderr);
    }
  });
});

Deno.test("cli find: no match is ELEMENT_NOT_FOUND; --all lists every match", async () => {
  await withState(async (dir) => {
    const none = await run(["find", "--from", FORM, "--text", "Checkout complete"], dir);
    assert.equal(none.code, 1);
    assert.equal(JSON.parse(none.stderr).code, "ELEMENT_NOT_FOUND");
    const all = await run(
      ["find", "--from", FORM, "--text", "Delete", "--roles", "btn", "--all"],
      dir,
    );
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout.trim().split("\n").length, 12);
    const json = await run(
      ["find", "--from", FORM, "--roles", "chk", "--all", "--format", "json"],
      dir,
    );
    assert.deepEqual(JSON.parse(json.stdout).map((e: { ref: string }) => e.ref), [
      "form/subscribe-to-the-newsletter",
    ]);
  });
});

Deno.test("cli diff: agent lines name the added row, the filled email and the closed dialog", async () => {
  await withState(async (dir) => {
    const r = await run(["diff", FORM, AFTER, "--ignore-bounds"], dir);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.ok(lines.some((l) => /^\+.*invoices\/invoice-2024-13\/delete/.test(l)), r.stdout);
    // A removed dialog is one line that counts what it held; its button gets none of its own.
    assert.ok(
      lines.some((l) => /^- .*\|confirm\] dialog "Confirm" \(and 3 inside\)$/.test(l)),
      r.stdout,
    );
    assert.ok(!lines.some((l) => /confirm\/ok/.test(l)), r.stdout);
    assert.ok(lines.some((l) => /^~.*form\/email/.test(l) && /ada@example\.com/.test(l)), r.stdout);
    // Rows that only moved are not reported with --ignore-bounds.
    assert.ok(!lines.some((l) => /invoice-2024-05/.test(l)), r.stdout);
  });
});

Deno.test("cli diff: jsonl is one change object per line; bounds count unless ignored", async () => {
  await withState(async (dir) => {
    const r = await run(["diff", FORM, AFTER, "--format", "jsonl"], dir);
    assert.equal(r.code, 0, r.stderr);
    const changes = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const types = new Set(changes.map((c) => c.type));
    assert.deepEqual([...types].sort(), ["added", "changed", "removed"]);
    const email = changes.find((c) => c.type === "changed" && c.ref === "form/email");
    assert.ok(email, "email changed");
    assert.ok(
      changes.some((c) => c.type === "changed" && c.ref === "invoices/invoice-2024-05/delete"),
    );
    const same = await run(["diff", FORM, FORM, "--format", "jsonl"], dir);
    assert.equal(same.code, 0);
    assert.equal(same.stdout.trim(), "");
  });
});
