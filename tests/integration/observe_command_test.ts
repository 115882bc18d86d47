import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { argsFromCommander, commandFor } from "../../src/commands/_generate.ts";
import { DesktopError } from "../../src/errors.ts";
import type { ObserveEvent } from "../../src/observe/events.ts";
import { type Args, invoke, type OpContext, OPS, validateArgs } from "../../src/ops/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function isCode(code: string): (e: unknown) => boolean {
  return (e: unknown) => e instanceof DesktopError && e.code === code;
}

const observeCommand = () => commandFor(OPS.observe);

/** Parses CLI words into the operation's validated arguments, as the command does. */
function observeArgs(words: string[]): Args {
  let parsed: Args = {};
  const cmd = observeCommand().exitOverride().action((...all: unknown[]) => {
    parsed = argsFromCommander(OPS.observe, [], all[0] as Record<string, unknown>);
  });
  cmd.parse(words, { from: "user" });
  return validateArgs(OPS.observe, parsed, "cli");
}

/** A context whose session must never be opened. */
const closedCtx: OpContext = {
  face: "cli",
  signal: new AbortController().signal,
  desktop: () => Promise.reject(new Error("the session must not open")),
  emit: () => {},
};

Deno.test("observe command: --help describes every flag and says output is JSONL", () => {
  const help = observeCommand().helpInformation() +
    // addHelpText("after") is printed by outputHelp, not helpInformation: render it too.
    (() => {
      let text = "";
      const cmd = observeCommand().configureOutput({ writeOut: (s) => (text += s) });
      cmd.outputHelp();
      return text;
    })();
  const flags = [
    "--app",
    "--pid",
    "--window",
    "--window-id",
    "--interval",
    "--duration",
    "--roles",
    "--depth",
    "--scope-ref",
    "--ignore-bounds",
    "--ignore-focus",
    "--timeout",
  ];
  const options = observeCommand().options;
  for (const flag of flags) {
    const opt = options.find((o) => o.long === flag);
    assert.ok(opt, `${flag} exists`);
    assert.ok((opt.description ?? "").length > 10, `${flag} has a description`);
    assert.ok(help.includes(flag), `${flag} is in the help`);
  }
  assert.ok(!options.some((o) => o.long === "--from"), "--from does not apply to observe");
  assert.ok(!options.some((o) => o.long === "--format"), "output is always JSONL");
  assert.match(help, /always JSONL/);
});

Deno.test("observe command: a scope is required (INVALID_ARGS otherwise)", async () => {
  await assert.rejects(() => invoke(OPS.observe, {}, closedCtx), isCode("INVALID_ARGS"));
});

Deno.test("observe command: flags become the operation's arguments", () => {
  const args = observeArgs([
    "--app",
    "gedit",
    "--interval",
    "250",
    "--duration",
    "2.5",
    "--roles",
    "btn,input",
    "--depth",
    "3",
    "--scope-ref",
    "dialog",
    "--ignore-bounds",
    "--ignore-focus",
  ]);
  assert.deepEqual(args, {
    app: "gedit",
    timeout: 10_000,
    interval: 250,
    duration: 2.5,
    roles: "btn,input",
    depth: 3,
    scope_ref: "dialog",
    ignore_bounds: true,
    ignore_focus: true,
  });
  const defaults = observeArgs(["--app", "gedit"]);
  assert.equal(defaults.interval, 1000);
  assert.equal(defaults.duration, 0);
  assert.equal(defaults.roles, undefined);
});

Deno.test("observe command: bad values are INVALID_ARGS before anything opens", async () => {
  await assert.rejects(
    () => invoke(OPS.observe, { app: "x", roles: "buton" }, closedCtx),
    isCode("INVALID_ARGS"),
  );
  const argv = [
    ["--app", "x", "--interval", "fast"],
    ["--app", "x", "--interval", "0"],
    ["--app", "x", "--duration", "-1"],
    ["--app", "x", "--duration", "soon"],
    ["--app", "x", "--depth", "1.5"],
    ["--app", "x", "--depth", "-1"],
    ["--app", "x", "--pid", "abc"],
  ];
  for (const words of argv) {
    assert.throws(() => observeArgs(words), isCode("INVALID_ARGS"), words.join(" "));
  }
});

Deno.test("observe command: each event is one JSON line", () => {
  const events: ObserveEvent[] = [
    { type: "snapshot", ts: 1, count: 3 },
    { type: "changed", ts: 2, ref: "form/name", i: 3, changes: { v: ["a\nb", "c"] } },
    { type: "done", ts: 3, elapsed: "0.1s", events: 1 },
  ];
  const lines = OPS.observe.render({ events }, {}).split("\n");
  assert.equal(lines.length, 3);
  assert.deepEqual(lines.map((l) => JSON.parse(l)), events);
});

Deno.test({
  name: "observe command: the CLI exits 2 with INVALID_ARGS JSON when no scope is given",
  ignore: !exists(`${ROOT}cli.ts`),
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli.ts", "observe", "--duration", "1"],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 2);
    assert.equal(new TextDecoder().decode(out.stdout), "");
    const err = JSON.parse(new TextDecoder().decode(out.stderr).trim());
    assert.equal(err.code, "INVALID_ARGS");
    assert.ok(err.suggestion);
  },
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
