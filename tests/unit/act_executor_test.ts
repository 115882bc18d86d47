/**
 * The action executor's sequence for each verb, run against a scripted
 * element delegate and a recording input delegate: the same sequence every
 * backend runs (Linux and macOS give only these primitives). Each test names
 * the verb and what it must do, and asserts the primitives called and the
 * input sent, in order.
 */

import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import { executeAtPoint, executeOnElement } from "../../src/act/executor.ts";
import {
  type FakeElement,
  fakeElement,
  type FakeElementSpec,
  recordingInput,
} from "../../src/act/testing.ts";
import type { ElementDelegate, InputDelegate } from "../../src/act/delegates.ts";
import type { Action, ActionResult } from "../../src/platform/provider.ts";

/** Runs one action on a fake element; returns the result, the element's calls and the input. */
function run(
  spec: FakeElementSpec,
  action: Action,
  opts: { focusedGuess?: boolean; primary?: "ctrl" | "super" } = {},
) {
  const el = fakeElement(spec);
  const sent: string[] = [];
  let inputOpened = false;
  const result = executeOnElement(
    el,
    () => {
      inputOpened = true;
      return typingInto(el, recordingInput(sent, opts.primary));
    },
    action,
    {
      sleep: () => {},
      ...(opts.focusedGuess ? { focusedGuess: true } : {}),
    },
  );
  return { result, calls: el.calls, sent, inputOpened, state: el.state };
}

/** The input, with what it types landing in the fake field (as an app's field takes keys). */
function typingInto(el: FakeElement, input: InputDelegate): InputDelegate {
  const type = input.type;
  input.type = (text) => {
    type(text);
    el.state.text += text;
  };
  return input;
}

/** The error an action throws. */
function fails(spec: FakeElementSpec, action: Action): DesktopError {
  const el = fakeElement(spec);
  const sent: string[] = [];
  try {
    executeOnElement(el, () => recordingInput(sent), action, { sleep: () => {} });
  } catch (e) {
    assert.ok(e instanceof DesktopError, String(e));
    (e as DesktopError & { sent?: string[] }).sent = sent;
    return e;
  }
  assert.fail(`expected ${action.kind} to fail`);
}

const ok = (via: ActionResult["via"], detail: string): ActionResult => ({ via, detail });

Deno.test("executor click: the element's press action, no input opened", () => {
  const r = run({ role: "btn", actions: ["click"], buttonLike: true }, { kind: "click" });
  assert.deepEqual(r.result, ok("accessible", "click"));
  assert.deepEqual(r.calls, ["doAction 0"]);
  assert.equal(r.inputOpened, false, "an accessible route needs no display server");
});

Deno.test("executor click: no press action falls back to the pointer at the visible point", () => {
  const r = run({ role: "cell", actions: [], at: { x: 40, y: 50 } }, { kind: "click" });
  assert.deepEqual(r.result, ok("input", "left x1"));
  assert.deepEqual(r.sent, ["click 40,50 left x1", "park"]);
});

Deno.test("executor click: an off-screen element is scrolled into view before the pointer", () => {
  const r = run({ actions: [], at: null, scrolledTo: { x: 7, y: 8 } }, { kind: "click" });
  assert.deepEqual(r.calls, ["scrollIntoView"]);
  assert.deepEqual(r.sent, ["click 7,8 left x1", "park"]);
});

Deno.test("executor click: an element that stays off screen fails, nothing clicked", () => {
  const e = fails({ actions: [], at: null }, { kind: "click" });
  assert.equal(e.code, "ACTION_FAILED");
  assert.match(e.message, /not on screen/);
  assert.deepEqual((e as DesktopError & { sent: string[] }).sent, []);
});

Deno.test("executor click: where actions block on modals, a clear button gets the pointer", () => {
  const r = run(
    { role: "btn", actions: ["click"], buttonLike: true, habits: { actionBlocksOnModal: true } },
    { kind: "click" },
  );
  assert.deepEqual(r.sent, ["click 10,10 left x1", "park"]);
  assert.deepEqual(r.calls, []);
  // Covered: the pointer would land elsewhere, so its own action runs.
  const covered = run(
    {
      role: "btn",
      actions: ["click"],
      buttonLike: true,
      clear: false,
      habits: { actionBlocksOnModal: true },
    },
    { kind: "click" },
  );
  assert.deepEqual(covered.calls, ["doAction 0"]);
  assert.deepEqual(covered.sent, []);
});

Deno.test("executor click --pointer: covered is ACTION_FAILED and nothing is clicked", () => {
  const e = fails({ actions: ["click"], clear: false }, { kind: "click", pointer: true });
  assert.equal(e.code, "ACTION_FAILED");
  assert.match(e.message, /covers/);
  assert.deepEqual((e as DesktopError & { sent: string[] }).sent, []);
});

Deno.test("executor: a disabled element is refused before anything is sent, on every verb", () => {
  for (
    const action of [
      { kind: "click" },
      { kind: "type", text: "x" },
      { kind: "key", combo: "Return" },
      { kind: "set-value", value: "1" },
      { kind: "focus" },
      { kind: "drag", to: { x: 1, y: 1 } },
    ] as Action[]
  ) {
    const e = fails({ role: "btn", name: "OK", enabled: false, actions: ["click"] }, action);
    assert.equal(e.code, "ACTION_NOT_SUPPORTED", action.kind);
    assert.match(e.message, /disabled btn "OK"/);
  }
  // Bringing it into view changes nothing of it.
  const r = run({ enabled: false, scrolledTo: { x: 1, y: 1 } }, { kind: "scroll" });
  assert.deepEqual(r.result, ok("accessible", "scroll into view"));
});

Deno.test("executor click: a right click prefers the context-menu action", () => {
  const r = run({ actions: ["press", "showmenu"] }, { kind: "click", button: "right" });
  assert.deepEqual(r.result, ok("accessible", "showmenu"));
  const double = run({ actions: ["press"] }, { kind: "click", count: 2 });
  assert.deepEqual(double.sent, ["click 10,10 left x2", "park"]);
});

Deno.test("executor type: focuses, moves to the end, types; replace clears first", () => {
  const r = run({ role: "input", editableText: true, text: "ab" }, { kind: "type", text: "cd" });
  assert.deepEqual(r.calls, ["grabFocus"]);
  assert.deepEqual(r.sent, ["key ctrl+end x1", "type cd"]);
  const mac = run({ role: "input", editableText: true }, { kind: "type", text: "x" }, {
    primary: "super",
  });
  assert.deepEqual(mac.sent, ["key super+down x1", "type x"]);
  const replace = run({ role: "input", editableText: true, text: "old", focused: true }, {
    kind: "type",
    text: "new",
    replace: true,
  });
  assert.deepEqual(replace.calls, ['setText ""']);
  assert.deepEqual(replace.sent, ["type new"]);
  assert.deepEqual(replace.result, ok("input", "keyboard, cleared first (EditableText)"));
  // A field without EditableText is cleared as a user clears it.
  const keys = run({ role: "input", keyboardText: true, focused: true }, {
    kind: "type",
    text: "n",
    replace: true,
  });
  assert.deepEqual(keys.sent, ["key ctrl+a x1", "key backspace x1", "type n"]);
});

Deno.test("executor type: a modal dialog in the way is ACTION_FAILED naming it", () => {
  const e = fails({ role: "input", editableText: true, modal: "Save As" }, {
    kind: "type",
    text: "x",
  });
  assert.equal(e.code, "ACTION_FAILED");
  assert.match(e.message, /"Save As"/);
  assert.deepEqual((e as DesktopError & { sent: string[] }).sent, []);
});

Deno.test("executor type: an element that refuses focus is clicked, then typed into", () => {
  let focused = false;
  const el = fakeElement({ role: "input", editableText: true, takesFocus: false });
  const facts = el.facts;
  el.facts = () => ({ ...facts(), focused });
  const sent: string[] = [];
  const input = typingInto(el, recordingInput(sent));
  const click = input.click;
  input.click = (p, b, c) => {
    click(p, b, c);
    focused = true;
  };
  executeOnElement(el, () => input, { kind: "type", text: "hi" }, { sleep: () => {} });
  assert.deepEqual(sent, ["click 10,10 left x1", "key ctrl+end x1", "type hi", "park"]);
});

Deno.test("executor key: each press once, --repeat N; an unknown key fails before focus", () => {
  const r = run({ role: "slider", focused: true }, { kind: "key", combo: "Right", repeat: 3 });
  assert.deepEqual(r.sent, ["key right x1", "key right x1", "key right x1"]);
  assert.deepEqual(r.result, ok("input", "Right x3"));
  const e = fails({ role: "input" }, { kind: "key", combo: "ctrl+nosuchkey" });
  assert.equal(e.code, "INVALID_ARGS");
  const over = fails({ role: "input" }, { kind: "key", combo: "a", repeat: 101 });
  assert.equal(over.code, "INVALID_ARGS");
});

Deno.test("executor key: with no target, a modal dialog that has the focus takes the keys", () => {
  const r = run({ role: "btn", modal: "Confirm" }, { kind: "key", combo: "Escape" }, {
    focusedGuess: true,
  });
  assert.deepEqual(r.sent, ["key escape x1"]);
  // Aimed at an element behind the dialog, the keys are refused.
  const e = fails({ role: "input", modal: "Confirm" }, { kind: "key", combo: "a" });
  assert.equal(e.code, "ACTION_FAILED");
});

Deno.test("executor action: by name, case-insensitive; unknown lists the ones there are", () => {
  const r = run({ actions: ["AXPress", "AXShowMenu"], actionLabels: ["press", "show-menu"] }, {
    kind: "action",
    name: "Show-Menu",
  });
  assert.deepEqual(r.calls, ["doAction 1"]);
  assert.deepEqual(r.result, ok("accessible", "AXShowMenu"));
  const e = fails({ actions: ["expand", "collapse"] }, { kind: "action", name: "open" });
  assert.equal(e.code, "ACTION_NOT_SUPPORTED");
  assert.deepEqual(e.details?.available, ["expand", "collapse"]);
});

Deno.test("executor set-value: toggles press to the asked state, or change nothing", () => {
  const on = run({ role: "chk", toggle: true, actions: ["toggle"], buttonLike: true }, {
    kind: "set-value",
    value: "on",
  });
  assert.deepEqual(on.calls, ["doAction 0"]);
  assert.equal(on.state.checked, true);
  const same = run({ role: "chk", toggle: true, checked: true, actions: ["toggle"] }, {
    kind: "set-value",
    value: "true",
  });
  assert.deepEqual(same.result, ok("accessible", "unchanged"));
  assert.deepEqual(same.calls, []);
  const radio = fails({ role: "radio", toggle: true, radio: true, checked: true }, {
    kind: "set-value",
    value: "false",
  });
  assert.equal(radio.code, "ACTION_NOT_SUPPORTED");
});

Deno.test("executor set-value: a number through Value; out of range names the range", () => {
  const r = run({ role: "slider", number: { min: 0, max: 10 }, ranged: "slider" }, {
    kind: "set-value",
    value: "4",
  });
  assert.deepEqual(r.calls, ["setNumber 4"]);
  assert.deepEqual(r.result, ok("accessible", "Value"));
  const e = fails({ role: "slider", number: { min: 0, max: 10 } }, {
    kind: "set-value",
    value: "11",
  });
  assert.equal(e.code, "INVALID_ARGS");
  assert.match(e.suggestion ?? "", /from 0 to 10/);
});

Deno.test("executor set-value: a custom slider that ignores Value is moved by its keys", () => {
  // The fake moves by one per arrow key (as an ARIA slider's handler does).
  const el = fakeElement({
    role: "slider",
    number: { min: 0, max: 10 },
    ranged: "slider",
    ignoresNumber: true,
    value: 2,
  });
  const sent: string[] = [];
  const input = recordingInput(sent);
  const key = input.key;
  input.key = (chord, repeat) => {
    key(chord, repeat);
    if (repeat > 0 && chord.key === "right") el.state.value++;
    if (repeat > 0 && chord.key === "left") el.state.value--;
    if (repeat > 0 && chord.key === "home") el.state.value = 0;
    if (repeat > 0 && chord.key === "end") el.state.value = 10;
  };
  const r = executeOnElement(el, () => input, { kind: "set-value", value: "5" }, {
    sleep: () => {},
  });
  assert.equal(el.state.value, 5);
  assert.equal(r.via, "input");
  assert.match(r.detail ?? "", /^keys: \d+ presses/);
});

Deno.test("executor set-value: a spin button that ignores Value takes the number typed", () => {
  const el = fakeElement({ role: "spin", number: {}, ranged: "spin", ignoresNumber: true });
  const sent: string[] = [];
  const input = recordingInput(sent);
  const type = input.type;
  input.type = (t) => {
    type(t);
    el.state.value = Number(t);
  };
  const r = executeOnElement(el, () => input, { kind: "set-value", value: "42" }, {
    sleep: () => {},
  });
  assert.deepEqual(r, ok("input", "keyboard: the app ignored the Value"));
  assert.deepEqual(sent, ["key ctrl+a x1", "type 42"]);
});

Deno.test("executor set-value: text, typed-over text, options and what cannot be set", () => {
  const text = run({ role: "input", editableText: true }, { kind: "set-value", value: "Ada" });
  assert.deepEqual(text.calls, ['setText "Ada"']);
  const keys = run({ role: "input", keyboardText: true, focused: true }, {
    kind: "set-value",
    value: "Ada",
  });
  assert.deepEqual(keys.sent, ["key ctrl+a x1", "type Ada"]);
  const option = run({ role: "combo", optionNames: ["Red", "Green"] }, {
    kind: "set-value",
    value: "green",
  });
  assert.deepEqual(option.result, ok("accessible", "Selection"));
  const missing = fails({ role: "combo", optionNames: ["Red", "Green"] }, {
    kind: "set-value",
    value: "Blue",
  });
  assert.equal(missing.code, "ELEMENT_NOT_FOUND");
  assert.match(missing.suggestion ?? "", /Red, Green/);
  const selected = run({ role: "row", selectable: true }, { kind: "set-value", value: "true" });
  assert.deepEqual(selected.calls, ["setSelected true"]);
  const nothing = fails({ role: "btn" }, { kind: "set-value", value: "x" });
  assert.equal(nothing.code, "ACTION_NOT_SUPPORTED");
});

Deno.test("executor scroll: into view, or the wheel N notches over the element", () => {
  const into = run({ scrolledTo: { x: 1, y: 2 } }, { kind: "scroll" });
  assert.deepEqual(into.result, ok("accessible", "scroll into view"));
  const cannot = fails({}, { kind: "scroll" });
  assert.equal(cannot.code, "ACTION_NOT_SUPPORTED");
  const wheel = run({ at: { x: 3, y: 4 } }, { kind: "scroll", direction: "up", amount: 2 });
  assert.deepEqual(wheel.sent, ["wheel 3,4 up x1", "wheel 3,4 up x1"]);
});

Deno.test("executor drag and focus", () => {
  const drag = run({ at: { x: 1, y: 1 } }, { kind: "drag", to: { x: 9, y: 9 } });
  assert.deepEqual(drag.sent, ["drag 1,1 -> 9,9", "park"]);
  assert.equal(fails({}, { kind: "drag", to: { x: NaN, y: 1 } }).code, "INVALID_ARGS");
  const focus = run({ role: "input" }, { kind: "focus" });
  assert.deepEqual(focus.result, ok("accessible", "focus"));
  const refused = run({ role: "cell", takesFocus: false }, { kind: "focus" });
  assert.deepEqual(refused.result, ok("input", "click to focus"));
  const win = run({ role: "window", topLevel: true }, { kind: "focus" });
  assert.deepEqual(win.result, ok("accessible", "raise"));
});

Deno.test("executor at a point: input only; element verbs are INVALID_ARGS", () => {
  const sent: string[] = [];
  const input = recordingInput(sent);
  executeAtPoint(input, { x: 1, y: 2 }, { kind: "click" }, { sleep: () => {} });
  executeAtPoint(input, { x: 1, y: 2 }, { kind: "scroll" }, { sleep: () => {} });
  executeAtPoint(input, { x: 1, y: 2 }, { kind: "key", combo: "a", repeat: 2 }, {
    sleep: () => {},
  });
  assert.deepEqual(sent, [
    "click 1,2 left x1",
    "park",
    "wheel 1,2 down x3",
    "key a x1",
    "key a x1",
  ]);
  for (const action of [{ kind: "focus" }, { kind: "action", name: "press" }] as Action[]) {
    assert.throws(
      () => executeAtPoint(input, { x: 1, y: 2 }, action),
      (e: unknown) => e instanceof DesktopError && e.code === "INVALID_ARGS",
    );
  }
});

Deno.test("executor: the pointer is parked after a click, never after accessible routes or keys", () => {
  const pointer = run({ actions: [] }, { kind: "click" });
  assert.equal(pointer.sent.at(-1), "park", "a pointer click leaves the pointer parked");
  const accessible = run({ actions: ["press"] }, { kind: "click" });
  assert.deepEqual(accessible.sent, []);
  const keys = run({ role: "input", focused: true }, { kind: "key", combo: "Down" });
  assert.deepEqual(keys.sent, ["key down x1"]);
});

Deno.test("executor type: line breaks and tabs are typed as the Return and Tab keys", () => {
  const r = run({ role: "input", editableText: true, focused: true }, {
    kind: "type",
    text: "alpha\nbeta\r\ngamma\tdelta",
  });
  assert.deepEqual(r.sent, [
    "type alpha",
    "key return x1",
    "type beta",
    "key return x1",
    "type gamma",
    "key tab x1",
    "type delta",
  ]);
});

Deno.test("executor type: keys a field does not take are ACTION_FAILED, not ok", () => {
  // An open menu holds the keyboard: the field's text stays as it was.
  const el = fakeElement({ role: "input", editableText: true, text: "kept", focused: true });
  const sent: string[] = [];
  assert.throws(
    () =>
      executeOnElement(el, () => recordingInput(sent), { kind: "type", text: "lost" }, {
        sleep: () => {},
      }),
    (e: unknown) =>
      e instanceof DesktopError && e.code === "ACTION_FAILED" &&
      /took none of the keys/.test(e.message),
  );
  assert.deepEqual(sent, ["type lost"]);
});

Deno.test("executor type --replace: keys that go elsewhere put the cleared text back", () => {
  const el = fakeElement({ role: "input", editableText: true, text: "my draft", focused: true });
  const sent: string[] = [];
  assert.throws(
    () =>
      executeOnElement(el, () => recordingInput(sent), {
        kind: "type",
        text: "new",
        replace: true,
      }, { sleep: () => {} }),
    (e: unknown) =>
      e instanceof DesktopError && e.code === "ACTION_FAILED" && /put back/.test(e.message),
  );
  assert.equal(el.state.text, "my draft", "nothing is lost");
  assert.deepEqual(el.calls, ['setText ""', 'setText "my draft"']);
});

Deno.test("executor without keys or pointer (Wayland): accessible routes first, clear errors else", () => {
  const none = new DesktopError("PLATFORM_NOT_SUPPORTED", "no keys or pointer here");
  const noInput = (): InputDelegate => {
    throw none;
  };
  const exec = (spec: FakeElementSpec, action: Action) => {
    const el = fakeElement(spec);
    return { el, run: () => executeOnElement(el, noInput, action, { sleep: () => {} }) };
  };
  // A GTK 3 button goes by the pointer where it can: here its own action runs.
  const button = exec(
    { role: "btn", actions: ["click"], buttonLike: true, habits: { actionBlocksOnModal: true } },
    { kind: "click" },
  );
  assert.deepEqual(button.run(), ok("accessible", "click"));
  // Text goes in through EditableText: appended, or in place of the old for a replace.
  const field = exec({ role: "input", editableText: true, text: "Ada" }, {
    kind: "type",
    text: " Lovelace",
  });
  assert.deepEqual(field.run(), ok("accessible", "EditableText, appended"));
  assert.equal(field.el.state.text, "Ada Lovelace");
  // What only input can do says so.
  for (
    const [spec, action] of [
      [{ role: "input" }, { kind: "key", combo: "Return" }],
      [{ actions: [] }, { kind: "click" }],
      [{}, { kind: "scroll", direction: "down", amount: 2 }],
    ] as Array<[FakeElementSpec, Action]>
  ) {
    assert.throws(
      () => exec(spec, action).run(),
      (e: unknown) =>
        e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED" &&
        e.message.startsWith(none.message),
      action.kind,
    );
  }
});

Deno.test("executor key: a focus request taken but never reported, and no pointer: the keys go", () => {
  // GTK 3 on headless mutter: grab_focus succeeds, FOCUSED never shows, no window place.
  const el = fakeElement({ role: "input", editableText: true });
  const facts = el.facts;
  el.facts = () => ({ ...facts(), focused: false });
  el.visiblePoint = () => {
    throw new DesktopError("PLATFORM_NOT_SUPPORTED", "the element's place on screen is unknown");
  };
  const sent: string[] = [];
  const r = executeOnElement(el, () => recordingInput(sent), { kind: "key", combo: "BackSpace" }, {
    sleep: () => {},
  });
  assert.deepEqual(r, ok("input", "BackSpace"));
  assert.deepEqual(el.calls, ["grabFocus"]);
  assert.deepEqual(sent, ["key backspace x1"]);
});

Deno.test("executor scroll without a pointer (Wayland): the view's scroll bar turns as far as the wheel would", () => {
  const none = new DesktopError("PLATFORM_NOT_SUPPORTED", "no pointer here");
  const noInput = (): InputDelegate => {
    throw none;
  };
  const scroll = (spec: FakeElementSpec, direction: "up" | "down", amount: number) => {
    const el = fakeElement(spec);
    const result = executeOnElement(el, noInput, { kind: "scroll", direction, amount }, {
      sleep: () => {},
    });
    return { result, bar: el.scrollBar!(true) as FakeElement };
  };
  // Three of the bar's steps a notch.
  const bar = { number: { min: 0, max: 900, step: 10 }, value: 100 };
  const down = scroll({ role: "list", bar }, "down", 2);
  assert.deepEqual(down.result, ok("accessible", "scroll bar 100 -> 160"));
  assert.equal(down.bar.state.value, 160);
  // Within its range; a tenth of the range a notch when it gives no step.
  const up = scroll({ role: "list", bar: { number: { min: 0, max: 900 }, value: 50 } }, "up", 1);
  assert.deepEqual(up.result, ok("accessible", "scroll bar 50 -> 0"));
  const end = scroll({ role: "list", bar: { ...bar, value: 890 } }, "down", 5);
  assert.deepEqual(end.result, ok("accessible", "scroll bar 890 -> 900"));
  // No bar: the pointer's refusal, saying what still works.
  assert.throws(
    () => scroll({ role: "list" }, "down", 1),
    (e: unknown) =>
      e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED" &&
      e.message === none.message && /no scroll bar/.test(e.suggestion ?? ""),
  );
});

Deno.test("executor click: a row out of view whose list moves is placed again, never pressed where another row is", () => {
  const row: FakeElementSpec = {
    role: "cell",
    actions: [],
    at: null,
    scrolledTo: { x: 40, y: 90 },
  };
  // The list moved once after the row was brought into view: placed again, then pressed.
  const once = run({ ...row, moved: [true, false] }, { kind: "click" });
  assert.deepEqual(once.sent, ["click 40,90 left x1", "park"]);
  // It keeps moving: refused, and nothing is pressed.
  const e = fails({ ...row, moved: true }, { kind: "click" });
  assert.equal(e.code, "ACTION_FAILED");
  assert.match(e.message, /keeps moving/);
  assert.deepEqual((e as DesktopError & { sent: string[] }).sent, []);
  // It moved as the press went in (the look after the press finds another row): in doubt.
  const late = run({ ...row, moved: [false, true] }, { kind: "click" });
  assert.deepEqual(late.sent, ["click 40,90 left x1", "park"]);
  assert.match(late.result.unverified ?? "", /may have landed on the row/);
});

/**
 * A GTK list's cell whose click, once it is selected, opens an editor that takes the focus
 * (`opens`), or nothing; returns the result, or the error, and the input sent.
 */
function editCell(action: Action, opens: boolean) {
  const el = fakeElement({
    role: "cell",
    name: "eggs",
    focused: true,
    habits: { itemKeysSearch: true, itemEditorByClick: true },
  });
  const sent: string[] = [];
  const rec = recordingInput(sent);
  const input: InputDelegate = {
    ...rec,
    click: (p, button, count) => {
      rec.click(p, button, count);
      if (opens) el.state.focused = false;
    },
  };
  try {
    return { result: executeOnElement(el, () => input, action, { sleep: () => {} }), sent };
  } catch (e) {
    return { error: e as DesktopError, sent };
  }
}

Deno.test("type into a GTK list's cell: a click opens its editor, the text goes over its text, Return commits", () => {
  const { result, sent } = editCell({ kind: "type", text: "Kiwis", replace: true }, true);
  assert.equal(result?.via, "input");
  assert.match(result?.detail ?? "", /in the editor .*over its text; Return to commit/);
  assert.deepEqual(sent, [
    "click 10,10 left x1",
    "key ctrl+a x1",
    "type Kiwis",
    "key return x1",
    "park",
  ]);
});

Deno.test("type appends in a cell's editor; set-value sets the text; true still selects", () => {
  assert.deepEqual(
    editCell({ kind: "type", text: " (ripe)" }, true).sent,
    ["click 10,10 left x1", "key end x1", "type  (ripe)", "key return x1", "park"],
  );
  assert.deepEqual(
    editCell({ kind: "set-value", value: "Lemons" }, true).sent,
    ["click 10,10 left x1", "key ctrl+a x1", "type Lemons", "key return x1", "park"],
  );
  assert.equal(editCell({ kind: "set-value", value: "true" }, true).sent.length, 0);
});

Deno.test("type into a GTK list's cell that opens no editor: ACTION_NOT_SUPPORTED, no key sent", () => {
  const { error, sent } = editCell({ kind: "type", text: "abc", replace: true }, false);
  assert.equal(error?.code, "ACTION_NOT_SUPPORTED");
  assert.match(error?.message ?? "", /opened no editor: nothing was typed/);
  assert.deepEqual(sent, ["click 10,10 left x1", "click 10,10 left x1"]);
});

Deno.test("set-value on a drop-down that holds its popup (GTK 4): opened, the option picked with the keys from the focused one", () => {
  const fonts = ["Cantarell", "C059", "Nimbus Sans", "DejaVu Sans"];
  let open = false;
  const list: ElementDelegate = {
    ...fakeElement({ role: "list", optionNames: fonts }),
    option: (i) => fakeElement({ role: "listitem", name: fonts[i], focused: i === 1 }),
  };
  // Its own options are none (the popup is not there closed): the popup is opened to choose.
  const combo: ElementDelegate = {
    ...fakeElement({ role: "combo", combo: true, options: true, optionNames: [] }),
    popupInside: () => open ? list : null,
  };
  const sent: string[] = [];
  const rec = recordingInput(sent);
  const input: InputDelegate = {
    ...rec,
    click: (p, b, c) => {
      rec.click(p, b, c);
      open = true;
    },
  };
  const run = (value: string) =>
    executeOnElement(combo, () => input, { kind: "set-value", value }, { sleep: () => {} });
  const r = run("DejaVu Sans");
  assert.equal(r.detail, "popup opened, keys: Down x2, Return");
  assert.deepEqual(sent, ["click 10,10 left x1", "key down x2", "key return x1", "park"]);
  // Already open: Up from the focused option; none by that name lists the ones there are.
  sent.length = 0;
  assert.equal(run("Cantarell").detail, "keys: Up x1, Return");
  assert.throws(
    () => run("Helvetica"),
    (e: DesktopError) =>
      e.code === "ELEMENT_NOT_FOUND" &&
      /Cantarell, C059, Nimbus Sans, DejaVu Sans/.test(e.suggestion ?? ""),
  );
});

Deno.test("type into a Qt list's item: no editor to open by a click, ACTION_NOT_SUPPORTED with nothing sent; with no target the keys go where the focus is", () => {
  const spec: FakeElementSpec = {
    role: "listitem",
    name: "beta.txt",
    focused: true,
    habits: { itemKeysSearch: true },
  };
  const aimed = fails(spec, { kind: "type", text: "delta.txt", replace: true });
  assert.equal(aimed.code, "ACTION_NOT_SUPPORTED");
  assert.match(aimed.message, /select rows and search: nothing was typed/);
  assert.deepEqual((aimed as DesktopError & { sent?: string[] }).sent, []);
  // The agent opened its editor (F2): the focus the app reports is still on the item.
  const guessed = run(spec, { kind: "type", text: "delta" }, { focusedGuess: true });
  assert.ok(guessed.sent.includes("type delta"), JSON.stringify(guessed.sent));
});

Deno.test("executor type and key: with no target, the keyboard focus is never moved (no focus request, no click)", () => {
  // LibreOffice Calc: the element taken as focused was the row (its column A cell), while the
  // focus sat in column B; focusing it moved the cursor to A, and the text overwrote A3.
  for (
    const action of [{ kind: "type", text: "=A3*2" }, { kind: "key", combo: "Delete" }] as Action[]
  ) {
    const r = run({ role: "row", name: "3", focused: false }, action, { focusedGuess: true });
    assert.ok(!r.calls.includes("grabFocus"), JSON.stringify(r.calls));
    assert.ok(!r.sent.some((s) => s.startsWith("click")), JSON.stringify(r.sent));
    assert.ok(r.sent.length > 0, "the keys were sent");
  }
});

Deno.test("executor set-value: a text field that ignores its text being set is typed over", () => {
  // Firefox: EditableText.SetTextContents answers, and the input keeps its text.
  const { result, calls, sent, state } = run(
    { role: "input", editableText: true, ignoresText: true, text: "old", focused: true },
    { kind: "set-value", value: "new" },
  );
  assert.deepEqual(calls.slice(0, 1), ['setText "new"']);
  assert.deepEqual(sent, ["key ctrl+a x1", "type new"]);
  assert.equal(state.text, "oldnew", "the fake field appends; a real one replaces the selection");
  assert.equal(result.via, "input");
  assert.match(result.detail ?? "", /ignored its text being set/);
  // One that takes it is not typed into.
  const taken = run({ role: "input", editableText: true, text: "old" }, {
    kind: "set-value",
    value: "new",
  });
  assert.deepEqual(taken.sent, []);
  assert.equal(taken.state.text, "new");
  assert.equal(taken.result.via, "accessible");
});

Deno.test("executor click: a spreadsheet's cell (no action, focusable) is focused, not aimed at", () => {
  // LibreOffice Calc's cells have no action; its reported boxes lagged the sheet by a row.
  const cell = { role: "cell" as const, actions: [], focusable: true, at: { x: 200, y: 210 } };
  const { result, calls, sent } = run(cell, { kind: "click" });
  assert.deepEqual(calls.filter((c) => c === "grabFocus"), ["grabFocus"]);
  assert.deepEqual(sent, [], "no pointer click");
  assert.equal(result.via, "accessible");
  // One that does not take the focus is clicked with the pointer.
  const stubborn = run({ ...cell, takesFocus: false }, { kind: "click" });
  assert.equal(stubborn.result.via, "input");
  // A right click, or a cell with an action of its own (a browser's), is not focused instead.
  assert.equal(run(cell, { kind: "click", button: "right" }).calls.includes("grabFocus"), false);
  assert.equal(run({ ...cell, actions: ["click"] }, { kind: "click" }).result.via, "accessible");
  assert.equal(
    run({ ...cell, actions: ["click"] }, { kind: "click" }).calls.includes("grabFocus"),
    false,
  );
});
