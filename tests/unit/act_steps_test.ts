/**
 * set-value by keys (src/act/steps.ts) on fake sliders and spin buttons that
 * move only on their keys: the fewest sensible keys, bounded, and errors that
 * say why a value cannot be reached.
 */

import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import { KEY_LANDING_MS, MAX_VALUE_KEYS, stepToValue } from "../../src/act/steps.ts";

/** A widget that moves by its keys: arrows by `step`, pages by `page`, Home/End to its ends. */
function widget(
  o: { value: number; min: number; max: number; step?: number; page?: number; texts?: string[] },
) {
  const step = o.step ?? 1;
  const page = o.page ?? 5 * step;
  const w = {
    value: o.value,
    keys: [] as string[],
    read: () => ({
      value: w.value,
      ...(o.texts ? { text: o.texts[(w.value - o.min) / step] } : {}),
    }),
    press: (key: string) => {
      w.keys.push(key);
      const moves: Record<string, number> = {
        Right: step,
        Up: step,
        Left: -step,
        Down: -step,
        Page_Up: page,
        Page_Down: -page,
      };
      if (key === "Home") w.value = o.min;
      else if (key === "End") w.value = o.max;
      else if (moves[key] !== undefined) w.value += moves[key];
      w.value = Math.max(o.min, Math.min(o.max, w.value));
    },
  };
  return w;
}

const failed = (re: RegExp) => (e: unknown) =>
  e instanceof DesktopError && e.code === "ACTION_FAILED" && re.test(e.message);

Deno.test("steps: a slider reaches a near number with arrows, each key read", () => {
  const w = widget({ value: 3, min: 0, max: 10 });
  const n = stepToValue({ want: 7, slider: true, deadline: Infinity, ...w });
  assert.equal(w.value, 7);
  assert.equal(n, 4);
  assert.deepEqual(w.keys, ["Right", "Right", "Right", "Right"]);
});

Deno.test("steps: the ends of the range take Home or End; far numbers take pages", () => {
  const low = widget({ value: 6, min: 0, max: 100 });
  stepToValue({ want: 0, slider: true, deadline: Infinity, range: { min: 0, max: 100 }, ...low });
  assert.deepEqual(low.keys, ["Home"]);
  const spin = widget({ value: 5, min: 1, max: 200 });
  const n = stepToValue({ want: 123, slider: false, deadline: Infinity, ...spin });
  assert.equal(spin.value, 123);
  assert.ok(spin.keys.includes("Page_Up") && spin.keys.includes("Up"), spin.keys.join(" "));
  assert.ok(n < 40, `${n} keys`);
});

Deno.test("steps: a number between steps names the values on each side; nothing moving fails", () => {
  const w = widget({ value: 0, min: 0, max: 100, step: 10 });
  assert.throws(
    () => stepToValue({ want: 35, slider: true, deadline: Infinity, ...w }),
    failed(/steps of 10: 35 lies between 30 and 40/),
  );
  const stuck = { read: () => ({ value: 2 }), press: () => {} };
  assert.throws(
    () => stepToValue({ want: 5, slider: true, deadline: Infinity, ...stuck }),
    failed(/did not move on Right/),
  );
});

Deno.test("steps: the keys are bounded", () => {
  const w = widget({ value: 0, min: 0, max: 1e6, page: 1 });
  assert.throws(
    () => stepToValue({ want: 1e6 - 1, slider: true, deadline: Infinity, ...w }),
    failed(new RegExp(`after ${MAX_VALUE_KEYS} keys`)),
  );
  assert.equal(w.keys.length, MAX_VALUE_KEYS);
  const late = widget({ value: 0, min: 0, max: 10 });
  assert.throws(
    () => stepToValue({ want: 9, slider: true, deadline: 0, now: () => 1, ...late }),
    failed(/after 0 keys/),
  );
});

Deno.test("steps: a value in words is found from the start; a missing one lists them and restores", () => {
  const texts = ["January", "February", "March", "April", "May", "June"];
  const w = widget({ value: 3, min: 1, max: 6, texts });
  stepToValue({ want: "may", slider: true, deadline: Infinity, ...w });
  assert.equal(w.value, 5);
  assert.throws(
    () => stepToValue({ want: "Smarch", slider: true, deadline: Infinity, ...w }),
    (e) =>
      failed(/no value of the element reads "Smarch"/)(e) &&
      /January, February, March, April, May, June/.test((e as DesktopError).suggestion ?? ""),
  );
  assert.equal(w.value, 5);
});

Deno.test("steps: a key whose effect reaches the tree late is waited for, not taken as ignored", () => {
  // The widget's reading shows a key 120 ms after it (a page that rewrites its text).
  const w = widget({ value: 2, min: 1, max: 14 });
  const history = [{ at: -Infinity, value: 2 }];
  let clock = 0;
  const n = stepToValue({
    want: 9,
    slider: false,
    deadline: Infinity,
    range: { min: 1, max: 14 },
    now: () => clock,
    pause: (ms) => (clock += ms),
    press: (key) => {
      w.press(key);
      history.push({ at: clock, value: w.value });
    },
    read: () => ({ value: history.findLast((h) => h.at <= clock - 120)!.value }),
  });
  assert.equal(w.value, 9);
  assert.deepEqual(w.keys, ["Up", "Page_Up", "Up"]);
  assert.equal(n, 3);
  // A key that never shows is still refused, after the landing time and no longer.
  const stuck = widget({ value: 5, min: 1, max: 5 });
  clock = 0;
  assert.throws(
    () =>
      stepToValue({
        want: 9,
        slider: false,
        deadline: Infinity,
        now: () => clock,
        pause: (ms) => (clock += ms),
        ...stuck,
      }),
    failed(/did not move on Up/),
  );
  assert.ok(clock >= KEY_LANDING_MS && clock < KEY_LANDING_MS + 100, String(clock));
});
