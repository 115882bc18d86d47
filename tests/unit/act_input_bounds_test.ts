/**
 * The action policy's bounds on input, the same for every backend: text to
 * type and wheel steps have a ceiling (INVALID_ARGS beyond it), repeated
 * input stops at the deadline and says how far it got, a disabled element is
 * refused before anything is sent, a number outside an element's range is
 * refused naming the range, and a set-value that provably changed nothing is
 * ACTION_FAILED.
 */

import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import type { Element } from "../../src/model/element.ts";
import type { Action } from "../../src/platform/provider.ts";
import {
  checkActionArgs,
  checkInRange,
  MAX_SCROLL_STEPS,
  MAX_TYPED_CHARS,
  refuseDisabled,
  setValueRoute,
} from "../../src/act/policy.ts";
import { chunkText, repeatSteps, typeInChunks } from "../../src/act/bounded.ts";
import { judgeEffect } from "../../src/act/effect.ts";

/** Asserts that `fn` throws a DesktopError with `code`, and returns it. */
function throwsCode(fn: () => unknown, code: string): DesktopError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DesktopError, String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}, nothing was thrown`);
}

Deno.test("policy: type and scroll have a ceiling, checked before anything is sent", () => {
  checkActionArgs({ kind: "type", text: "x".repeat(MAX_TYPED_CHARS) });
  const long = throwsCode(
    () => checkActionArgs({ kind: "type", text: "x".repeat(120_000) }),
    "INVALID_ARGS",
  );
  assert.match(long.message, /at most 10000 characters, got 120000/);
  assert.match(long.suggestion ?? "", /set-value/);
  checkActionArgs({ kind: "scroll", direction: "down", amount: MAX_SCROLL_STEPS });
  checkActionArgs({ kind: "scroll" }); // into view: no amount
  for (const amount of [1_000_000, 0, 2.5]) {
    throwsCode(
      () => checkActionArgs({ kind: "scroll", direction: "down", amount }),
      "INVALID_ARGS",
    );
  }
  throwsCode(() => checkActionArgs({ kind: "click", count: 4 }), "INVALID_ARGS");
});

Deno.test("policy: a disabled element is refused for every acting verb, naming it", () => {
  const verbs: Action[] = [
    { kind: "click" },
    { kind: "type", text: "hi" },
    { kind: "key", combo: "Return" },
    { kind: "action", name: "activate" },
    { kind: "set-value", value: "hi" },
    { kind: "scroll", direction: "down", amount: 3 },
    { kind: "drag", to: { x: 1, y: 1 } },
    { kind: "focus" },
  ];
  for (const action of verbs) {
    refuseDisabled(action, false, { r: "input", t: "Name" });
    const e = throwsCode(
      () => refuseDisabled(action, true, { r: "input", t: "Name" }),
      "ACTION_NOT_SUPPORTED",
    );
    assert.match(e.message, new RegExp(`^${action.kind} on a disabled input "Name"`));
  }
  // Bringing it into view changes nothing of it.
  refuseDisabled({ kind: "scroll" }, true);
});

Deno.test("policy: a number outside the element's range is INVALID_ARGS naming the range", () => {
  const slider = {
    toggle: false,
    number: true,
    text: false,
    keyboardText: false,
    selectable: false,
    options: false,
    range: { min: 1, max: 100 },
  };
  assert.equal(setValueRoute(slider, "100"), "number");
  assert.equal(setValueRoute(slider, "1"), "number");
  const e = throwsCode(() => setValueRoute(slider, "100000"), "INVALID_ARGS");
  assert.match(e.message, /100000 is outside the element's range 1\.\.100/);
  assert.equal(e.suggestion, "Pass a number from 1 to 100");
  throwsCode(() => setValueRoute(slider, "0"), "INVALID_ARGS");
  // Bounds in floating point, no range, and a spreadsheet cell's "any number" check nothing more.
  checkInRange(0.3, { min: 0.1, max: 0.1 + 0.2 });
  checkInRange(1e9, undefined);
  checkInRange(1e9, { min: -Number.MAX_VALUE, max: Number.MAX_VALUE });
  checkInRange(1e9, { min: 0, max: 0 });
});

Deno.test("bounded: text is typed in chunks that never split a character", () => {
  assert.deepEqual(chunkText("abcdefg", 3), ["abc", "def", "g"]);
  assert.deepEqual(chunkText("😀😀😀", 2), ["😀😀", "😀"]);
  assert.deepEqual(chunkText(""), []);
  const sent: string[] = [];
  const typed = typeInChunks({
    text: "hello world",
    deadline: Infinity,
    chunkChars: 4,
    send: (c) => sent.push(c),
  });
  assert.equal(typed, 11);
  assert.equal(sent.join(""), "hello world");
});

Deno.test("bounded: typing stops at the deadline with TIMEOUT saying how much was typed", () => {
  let clock = 0;
  const sent: string[] = [];
  const e = throwsCode(() =>
    typeInChunks({
      text: "x".repeat(1000),
      deadline: 100,
      chunkChars: 32,
      now: () => clock,
      send: (c) => {
        sent.push(c);
        clock += 30; // each chunk takes 30 ms to land
      },
    }), "TIMEOUT");
  // Chunks start at 0, 30, 60 and 90 ms; the fifth would start at 120, past the deadline.
  assert.equal(sent.length, 4);
  assert.match(e.message, /after typing 128 of 1000 characters; the rest was not sent/);
  assert.deepEqual(e.details, { typed: 128, total: 1000 });
});

Deno.test("bounded: a failed check between chunks stops typing and says how much was typed", () => {
  const sent: string[] = [];
  const e = throwsCode(() =>
    typeInChunks({
      text: "abcdefghij",
      deadline: Infinity,
      chunkChars: 4,
      send: (c) => sent.push(c),
      check: (typed) => {
        if (typed >= 8) throw new DesktopError("ACTION_FAILED", "the focus moved");
      },
    }), "ACTION_FAILED");
  assert.deepEqual(sent, ["abcd", "efgh"]);
  // Only a chunk with more to follow is told so: the last may rightly pass the focus on.
  const more: boolean[] = [];
  typeInChunks({
    text: "abcdefghij",
    deadline: Infinity,
    chunkChars: 4,
    send: () => {},
    check: (_typed, _chunk, m) => more.push(m),
  });
  assert.deepEqual(more, [true, true, false]);
  assert.match(e.message, /^the focus moved \(after typing 8 of 10 characters/);
});

Deno.test("bounded: wheel steps stop at the deadline with TIMEOUT saying how many were sent", () => {
  let clock = 0;
  let steps = 0;
  const e = throwsCode(() =>
    repeatSteps({
      count: 1_000,
      deadline: 50,
      what: "wheel steps",
      now: () => clock,
      step: () => {
        steps++;
        clock += 1;
      },
    }), "TIMEOUT");
  assert.equal(steps, 50);
  assert.match(e.message, /after 50 of 1000 wheel steps/);
});

Deno.test("judge: set-value that left a check box as it was is ACTION_FAILED, not unverified", () => {
  const box: Element = { i: 2, ref: "b", r: "chk", t: "Remember me", chk: false };
  const root: Element = { i: 1, ref: "w", r: "window", c: [box] };
  const e = throwsCode(
    () => judgeEffect({ kind: "set-value", value: "true" }, box, { root, changes: [] }, 100),
    "ACTION_FAILED",
  );
  assert.equal(e.details?.checked, false);
  // Other elements changed, the box did not: still a failure.
  throwsCode(() =>
    judgeEffect({ kind: "set-value", value: "true" }, box, {
      root,
      changes: [{ type: "changed", ref: "w", i: 1, changes: { t: ["a", "b"] } }],
    }, 100), "ACTION_FAILED");
  // The box took the value: ok.
  const checked: Element = { ...box, chk: true };
  const ok = judgeEffect({ kind: "set-value", value: "true" }, box, {
    root: { ...root, c: [checked] },
    changes: [{ type: "changed", ref: "b", i: 2, changes: { chk: [false, true] } }],
  }, 100);
  assert.equal(ok.unverified, undefined);
});

Deno.test("judge: text typed past the reader's cut of a long value is not unverified", () => {
  const field: Element = { i: 2, ref: "f", r: "input", v: "" };
  const typed = "abcdefghij".repeat(300);
  // The reader keeps 2000 characters and marks the cut.
  const cut: Element = { ...field, v: typed.slice(0, 2000) + "…" };
  const changes = [{
    type: "changed" as const,
    ref: "f",
    i: 2,
    changes: { v: ["", cut.v] as [unknown, unknown] },
  }];
  const e = judgeEffect({ kind: "type", text: typed }, field, {
    root: { i: 1, ref: "w", r: "window", c: [cut] },
    changes,
  }, 100);
  assert.equal(e.unverified, undefined);
  // A short value that does not hold the text still says so.
  const wrong: Element = { ...field, v: "xyz…" };
  const w = judgeEffect({ kind: "type", text: "abc" }, field, {
    root: { i: 1, ref: "w", r: "window", c: [wrong] },
    changes: [{ ...changes[0], changes: { v: ["", "xyz…"] } }],
  }, 100);
  assert.match(w.unverified ?? "", /does not hold the typed text/);
});
