/**
 * Input faults (tests/fixtures/gtk3/fault_input.py, GTK 3): typing and wheel
 * steps end by the command's deadline and leave nothing queued to arrive
 * later, two commands typing at once take turns, a disabled element takes
 * nothing, a number outside a slider's range and a drag that ends outside
 * the app's window are refused, and a value the app refused is
 * ACTION_FAILED. Witness: pyatspi reads the fields, check boxes and slider.
 */

import assert from "node:assert/strict";
import { cliError, type CliResult, runCli, runCliOk } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";

const FIXTURE = `${REPO_ROOT}tests/fixtures/gtk3/fault_input.py`;

/** What pyatspi reads of the form: each field's text, each check box's state, the slider. */
interface Form {
  text: Record<string, string>;
  checked: Record<string, boolean>;
  level: number;
}

function form(d: TestDesktop): Promise<Form> {
  return pyatspiJson<Form>(
    d,
    `
out = {"text": {}, "checked": {}, "level": None}
for o in walk(app):
    role = o.getRoleName()
    if role == "text":
        out["text"][o.name] = o.queryText().getText(0, -1)
    elif role == "check box":
        out["checked"][o.name] = o.getState().contains(pyatspi.STATE_CHECKED)
    elif role == "slider":
        out["level"] = o.queryValue().currentValue
print(json.dumps(out))
`,
  );
}

/** Runs the CLI and returns its result with how long it took (ms). */
async function timed(d: TestDesktop, args: string[]): Promise<CliResult & { ms: number }> {
  const t0 = Date.now();
  const res = await runCli(d, args);
  return { ...res, ms: Date.now() - t0 };
}

Deno.test({
  name:
    "fault input: type stops at its deadline saying how much it typed, and nothing arrives after",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    const pid = String(d.pid);
    // Too long to type: refused before any key is sent.
    const huge = await timed(d, [
      "type",
      "--pid",
      pid,
      "--ref",
      "first",
      "--text",
      "x".repeat(120_000),
    ]);
    assert.equal(huge.code, 2, huge.stderr);
    assert.equal(cliError(huge).code, "INVALID_ARGS");
    assert.match(String(cliError(huge).message), /at most 10000 characters/);
    assert.equal((await form(d)).text.First, "", "no key was sent");

    // More than the deadline allows: TIMEOUT by the deadline, saying how many were typed.
    const text = "abcdefghij".repeat(900);
    const res = await timed(d, [
      "type",
      "--pid",
      pid,
      "--ref",
      "first",
      "--text",
      text,
      "--timeout",
      "3000",
    ]);
    assert.equal(res.code, 1, `not ok: ${res.stdout}${res.stderr}`);
    const err = cliError(res);
    assert.equal(err.code, "TIMEOUT", res.stderr);
    const typed = Number(/after typing (\d+) of 9000 characters/.exec(String(err.message))?.[1]);
    assert.ok(typed > 0 && typed < 9000, String(err.message));
    assert.ok(res.ms < 12_000, `the command ended near its deadline (${res.ms} ms)`);
    // Nothing keeps arriving: the field holds what was typed, and still does two seconds later.
    const now = (await form(d)).text.First;
    assert.ok(text.startsWith(now), "the field holds the start of the text");
    assert.ok(now.length <= typed && now.length >= typed - 32, `${now.length} vs ${typed} typed`);
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal((await form(d)).text.First.length, now.length, "no key arrived after the command");
    assert.equal((await form(d)).text.Second, "", "none went to another field");
  },
});

Deno.test({
  name: "fault input: two commands typing into two fields at once each fill their own field",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    const pid = String(d.pid);
    const a = "A".repeat(600);
    const b = "b".repeat(600);
    for (let trial = 0; trial < 3; trial++) {
      await runCliOk(d, ["set-value", "--pid", pid, "--ref", "first", "--value", ""]);
      await runCliOk(d, ["set-value", "--pid", pid, "--ref", "second", "--value", ""]);
      const args = (ref: string, text: string) => [
        "type",
        "--pid",
        pid,
        "--ref",
        ref,
        "--text",
        text,
        "--timeout",
        "30000",
      ];
      const [ra, rb] = await Promise.all([
        runCli(d, args("first", a)),
        runCli(d, args("second", b)),
      ]);
      assert.equal(ra.code, 0, `trial ${trial}: ${ra.stdout}${ra.stderr}`);
      assert.equal(rb.code, 0, `trial ${trial}: ${rb.stdout}${rb.stderr}`);
      const text = (await form(d)).text;
      assert.equal(text.First, a, `trial ${trial}: First holds ${JSON.stringify(text.First)}`);
      assert.equal(text.Second, b, `trial ${trial}: Second holds ${JSON.stringify(text.Second)}`);
    }
  },
});

Deno.test({
  name:
    "fault input: disabled elements, out-of-range values, drags out of the window and endless scrolls are refused",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-script", url: FIXTURE });
    const pid = String(d.pid);
    const cli = (...args: string[]) => timed(d, [...args, "--pid", pid]);
    const before = await form(d);
    assert.deepEqual(before.text, { First: "", Second: "", Locked: "" });
    assert.deepEqual(before.checked, { "Frozen option": false, "Sticky option": false });
    assert.equal(before.level, 50);

    // A disabled field and check box: nothing is sent, whatever the verb.
    for (
      const args of [
        ["set-value", "--ref", "locked", "--value", "hi"],
        ["type", "--ref", "locked", "--text", "hi"],
        ["click", "--ref", "locked"],
        ["set-value", "--ref", "frozen-option", "--value", "true"],
        ["click", "--ref", "frozen-option"],
      ]
    ) {
      const res = await cli(...args);
      assert.equal(res.code, 1, `${args.join(" ")}: ${res.stdout}`);
      assert.equal(cliError(res).code, "ACTION_NOT_SUPPORTED", `${args.join(" ")}: ${res.stderr}`);
      assert.match(String(cliError(res).message), / on a disabled /);
    }

    // A check box the app unchecks again: the value provably did not change.
    const sticky = await cli("set-value", "--ref", "sticky-option", "--value", "true");
    assert.equal(sticky.code, 1, `not ok: ${sticky.stdout}`);
    assert.equal(cliError(sticky).code, "ACTION_FAILED", sticky.stderr);

    // A number outside the slider's range names the range, and the slider keeps its value.
    const far = await cli("set-value", "--ref", "level", "--value", "100000");
    assert.equal(far.code, 2, far.stdout);
    assert.equal(cliError(far).code, "INVALID_ARGS");
    assert.match(String(cliError(far).suggestion), /from 1 to 100/);

    // A drag that ends outside every window of the app is refused like a click there.
    const click = await cli("click", "--x", "99999", "--y", "10");
    assert.equal(cliError(click).code, "WINDOW_NOT_FOUND");
    for (const source of [["--ref", "level"], ["--x", "100", "--y", "150"]]) {
      const drag = await cli("drag", ...source, "--to-x", "99999", "--to-y", "10");
      assert.equal(cliError(drag).code, "WINDOW_NOT_FOUND", `${source}: ${drag.stdout}`);
    }

    // A million wheel steps are refused at once; a thousand stop by the deadline.
    const million = await cli(
      "scroll",
      "--ref",
      "rows",
      "--direction",
      "down",
      "--amount",
      "1000000",
      "--timeout",
      "3000",
    );
    assert.equal(million.code, 2, million.stdout);
    assert.equal(cliError(million).code, "INVALID_ARGS");
    assert.ok(million.ms < 10_000, `${million.ms} ms`);
    const thousand = await cli(
      "scroll",
      "--ref",
      "rows",
      "--direction",
      "down",
      "--amount",
      "1000",
      "--timeout",
      "1000",
    );
    assert.ok(thousand.ms < 8_000, `ended near its deadline: ${thousand.ms} ms`);
    if (thousand.code !== 0) {
      assert.equal(cliError(thousand).code, "TIMEOUT", thousand.stderr);
      assert.match(String(cliError(thousand).message), /of 1000 wheel steps|deadline/);
    }

    const after = await form(d);
    assert.deepEqual(after.text, before.text, "no field took anything");
    assert.deepEqual(after.checked, before.checked, "no check box changed");
    assert.equal(after.level, 50, "the slider kept its value");
  },
});
