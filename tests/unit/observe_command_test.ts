import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { observeCommand, observeRequest, writeJsonl } from "../../src/commands/observe.ts";
import { DesktopError } from "../../src/errors.ts";
import type { ObserveEvent } from "../../src/observe/events.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function isCode(code: string): (e: unknown) => boolean {
  return (e: unknown) => e instanceof DesktopError && e.code === code;
}

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

Deno.test("observe command: a scope is required (INVALID_ARGS otherwise)", () => {
  assert.throws(() => observeRequest({}), isCode("INVALID_ARGS"));
  const table = [
    { opts: { app: "gedit" }, scope: { app: "gedit" } },
    { opts: { pid: 42 }, scope: { pid: 42 } },
    { opts: { window: "Untitled" }, scope: { window: "Untitled" } },
    { opts: { windowId: 7 }, scope: { windowId: 7 } },
  ];
  for (const c of table) assert.deepEqual(observeRequest(c.opts).scope, c.scope);
});

Deno.test("observe command: flags become engine options", () => {
  const { options } = observeRequest({
    app: "gedit",
    interval: 250,
    duration: 2.5,
    roles: "btn,input",
    depth: 3,
    scopeRef: "dialog",
    ignoreBounds: true,
    ignoreFocus: true,
  });
  assert.equal(options.scopeRef, "dialog");
  assert.equal(options.interval, 250);
  assert.equal(options.duration, 2.5);
  assert.deepEqual([...options.roles!].sort(), ["btn", "input"]);
  assert.equal(options.depth, 3);
  assert.equal(options.ignoreBounds, true);
  assert.equal(options.ignoreFocus, true);
  const defaults = observeRequest({ app: "gedit" }).options;
  assert.equal(defaults.interval, 1000);
  assert.equal(defaults.duration, 0);
  assert.equal(defaults.roles, undefined);
});

Deno.test("observe command: bad values are INVALID_ARGS before anything opens", async () => {
  const requests = [
    { name: "unknown role", opts: { app: "x", roles: "buton" } },
    { name: "zero interval", opts: { app: "x", interval: 0 } },
    { name: "negative depth", opts: { app: "x", depth: -1 } },
  ];
  for (const r of requests) {
    assert.throws(() => observeRequest(r.opts), isCode("INVALID_ARGS"), r.name);
  }
  const argv = [
    ["--app", "x", "--interval", "fast"],
    ["--app", "x", "--duration", "-1"],
    ["--app", "x", "--duration", "soon"],
    ["--app", "x", "--depth", "1.5"],
    ["--app", "x", "--pid", "abc"],
  ];
  for (const args of argv) {
    const cmd = observeCommand().exitOverride().action(() => {
      throw new Error("the action must not run");
    });
    await assert.rejects(() => cmd.parseAsync(args, { from: "user" }), isCode("INVALID_ARGS"));
  }
});

async function* fromArray(events: ObserveEvent[]): AsyncGenerator<ObserveEvent> {
  for (const ev of events) yield ev;
}

Deno.test("observe command: each event is one JSON line", async () => {
  const events: ObserveEvent[] = [
    { type: "snapshot", ts: 1, count: 3 },
    { type: "changed", ts: 2, ref: "form/name", i: 3, changes: { v: ["a\nb", "c"] } },
    { type: "done", ts: 3, elapsed: "0.1s", events: 1 },
  ];
  const lines: string[] = [];
  await writeJsonl(fromArray(events), (line) => {
    lines.push(line);
    return Promise.resolve();
  });
  assert.equal(lines.length, 3);
  for (const line of lines) assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"));
  assert.deepEqual(lines.map((l) => JSON.parse(l)), events);
});

Deno.test("observe command: a closed pipe ends the stream quietly", async () => {
  let written = 0;
  let pulled = 0;
  async function* endless(): AsyncGenerator<ObserveEvent> {
    for (;;) {
      pulled++;
      yield { type: "snapshot", ts: pulled, count: 1 };
    }
  }
  await writeJsonl(endless(), () => {
    if (++written === 2) return Promise.reject(new Deno.errors.BrokenPipe("closed"));
    return Promise.resolve();
  });
  assert.equal(written, 2);
  assert.equal(pulled, 2);
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
