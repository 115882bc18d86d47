import assert from "node:assert/strict";
import { parseSteps } from "../../src/run/steps.ts";
import { DesktopError } from "../../src/errors.ts";
import { holds } from "../../src/fill/fill.ts";

function code(fn: () => unknown): { code: string; step?: number } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DesktopError);
    return { code: e.code, step: (e.details as { step?: number } | undefined)?.step };
  }
  return { code: "ok" };
}

Deno.test("run steps: shorthands, defaults and per-step scope", () => {
  const steps = parseSteps({
    app: "zenity",
    steps: [
      { click: "form/ok" },
      { type: "hello" },
      { key: "ctrl+s", app: "mousepad" },
      { set_value: { ref: "form/age", value: 42 } },
      { wait: "Saved" },
      { expect: { clipboard: "x" } },
      { fill: { fields: { "form/a": "1" }, pid: 7 } },
    ],
  });
  assert.deepEqual(steps.map((s) => s.verb), [
    "click",
    "type",
    "key",
    "set-value",
    "wait",
    "expect",
    "fill",
  ]);
  assert.equal(steps[0].target?.ref, "form/ok");
  assert.equal(steps[1].args.text, "hello");
  assert.deepEqual(steps[2].scope, { app: "mousepad" });
  assert.deepEqual(steps[6].scope, { pid: 7 });
  assert.equal(steps[4].args.text, "Saved");
  assert.equal(steps[6].index, 7);
  // A bare list takes the scope given outside the file.
  assert.deepEqual(parseSteps([{ focus: "x" }], { app: "a" })[0].scope, { app: "a" });
});

Deno.test("run steps: a malformed step is INVALID_ARGS with its number", () => {
  assert.deepEqual(code(() => parseSteps([{ click: "a" }, { jump: "b" }])), {
    code: "INVALID_ARGS",
    step: 2,
  });
  assert.deepEqual(code(() => parseSteps([{ click: "a", focus: "b" }])), {
    code: "INVALID_ARGS",
    step: 1,
  });
  assert.deepEqual(code(() => parseSteps([{ click: {} }])).step, 1);
  assert.deepEqual(code(() => parseSteps([{ type: { ref: "a" } }])).step, 1);
  assert.deepEqual(code(() => parseSteps([{ wait: { text: "a", gone: "b" } }])).step, 1);
  assert.deepEqual(code(() => parseSteps([{ fill: { fields: {} } }])).step, 1);
  assert.deepEqual(code(() => parseSteps([{ click: { ref: "a", id: 3 } }])).step, 1);
  assert.equal(code(() => parseSteps([])).code, "INVALID_ARGS");
  assert.equal(code(() => parseSteps({ steps: "click" })).code, "INVALID_ARGS");
  assert.equal(code(() => parseSteps([3])).step, 1);
});

Deno.test("fill: what counts as holding the value", () => {
  assert.equal(holds({ i: 1, r: "input", v: "a" }, "a"), true);
  assert.equal(holds({ i: 1, r: "input", sec: true }, "anything"), true);
  assert.equal(holds({ i: 1, r: "chk", chk: false }, "false"), true);
  assert.equal(holds({ i: 1, r: "chk", chk: false }, "true"), false);
  assert.equal(holds({ i: 1, r: "slider", v: "50" }, "50.0"), true);
  assert.equal(holds({ i: 1, r: "input", v: "" }, "0"), false);
});
