/**
 * A scripted element delegate and a recording input delegate, for tests of
 * the action executor and of code above it: every primitive the executor
 * calls is written to a log, so a test asserts the sequence a verb runs.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Point } from "../model/element.ts";
import type { ActionResult } from "../platform/provider.ts";
import type { ElementDelegate, ElementFacts, InputDelegate } from "./delegates.ts";

/** What a {@link fakeElement} is and does; every field has a plain default. */
export interface FakeElementSpec extends Partial<ElementFacts> {
  /** Its visible point (default 10,10); null: off screen until scrolled into view. */
  at?: Point | null;
  /** Where a scroll into view brings it (default: nowhere, the app cannot scroll it). */
  scrolledTo?: Point;
  /** Whether a hit test at its point finds it (default true). */
  clear?: boolean;
  /**
   * Another list item is at its point (its list moved): always (true), never
   * (false, the default), or look by look (the last answer repeats).
   */
  moved?: boolean | boolean[];
  /** Whether it takes the focus when asked (default: when it has a point). */
  takesFocus?: boolean;
  /** Whether it says it can take the focus (the FOCUSABLE state). */
  focusable?: boolean;
  /** Its text (a field). */
  text?: string;
  /** Its number now. */
  value?: number;
  /** Its value text now. */
  valueText?: string;
  /** Whether the app ignores a number set through the API (a custom widget). */
  ignoresNumber?: boolean;
  /** Takes setText and keeps its text (Firefox's text inputs). */
  ignoresText?: boolean;
  /** Options it offers by name; undefined: it holds none. */
  optionNames?: string[];
  /** A modal window of its app in the way. */
  modal?: string;
  /** The scroll bar of the view that holds it (one for both axes); undefined: none. */
  bar?: FakeElementSpec;
}

/** A fake element with its call log. */
export interface FakeElement extends ElementDelegate {
  /** The primitives called, in order: `doAction 0`, `setText "x"`, `grabFocus`... */
  readonly calls: string[];
  /** Its state as the calls left it. */
  readonly state: { focused: boolean; text: string; value: number; checked: boolean };
}

/**
 * A scripted element: it answers facts from its spec and logs each call.
 *
 * @param spec what it is
 * @returns the element
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeElement } from "./testing.ts";
 * const el = fakeElement({ role: "btn", actions: ["press"] });
 * el.doAction(0);
 * assert.deepEqual(el.calls, ["doAction 0"]);
 * ```
 */
export function fakeElement(spec: FakeElementSpec = {}): FakeElement {
  const calls: string[] = [];
  let at = spec.at === undefined ? { x: 10, y: 10 } : spec.at;
  /** How many times it was asked whether another item is at its point. */
  let looks = 0;
  const bar = spec.bar ? fakeElement(spec.bar) : null;
  const state = {
    focused: spec.focused ?? false,
    text: spec.text ?? "",
    value: spec.value ?? 0,
    checked: spec.checked ?? false,
  };
  const facts = (): ElementFacts => ({
    role: spec.role ?? "btn",
    name: spec.name ?? "",
    enabled: spec.enabled ?? true,
    focused: state.focused,
    ...(spec.focusable !== undefined ? { focusable: spec.focusable } : {}),
    actions: spec.actions ?? [],
    ...(spec.actionLabels ? { actionLabels: spec.actionLabels } : {}),
    topLevel: spec.topLevel ?? false,
    menuItem: spec.menuItem ?? false,
    buttonLike: spec.buttonLike ?? false,
    toggle: spec.toggle ?? false,
    checked: state.checked,
    radio: spec.radio ?? false,
    editableText: spec.editableText ?? false,
    keyboardText: spec.keyboardText ?? false,
    ...(spec.number ? { number: spec.number } : {}),
    ...(spec.ranged ? { ranged: spec.ranged } : {}),
    selectable: spec.selectable ?? false,
    options: spec.options ?? spec.optionNames !== undefined,
    combo: spec.combo ?? false,
    habits: spec.habits ?? {},
  });
  const el: FakeElement = {
    calls,
    state,
    facts,
    doAction(i) {
      calls.push(`doAction ${i}`);
      if (spec.toggle) state.checked = !state.checked;
    },
    setText(t) {
      calls.push(`setText ${JSON.stringify(t)}`);
      if (!spec.ignoresText) state.text = t;
    },
    setNumber(n) {
      calls.push(`setNumber ${n}`);
      if (!spec.ignoresNumber) state.value = n;
    },
    setSelected(s) {
      calls.push(`setSelected ${s}`);
    },
    valueNow: () =>
      spec.valueText === undefined ? { value: state.value } : {
        value: state.value,
        text: spec.valueText,
      },
    textLength: () => spec.editableText || spec.keyboardText ? [...state.text].length : -1,
    textNow: () => spec.editableText || spec.keyboardText ? state.text : null,
    grabFocus() {
      calls.push("grabFocus");
      if (spec.takesFocus ?? at !== null) state.focused = true;
      else throw new DesktopError("ACTION_FAILED", "the app refused to focus the element");
    },
    scrollIntoView() {
      calls.push("scrollIntoView");
      if (!spec.scrolledTo) return false;
      at = spec.scrolledTo;
      return true;
    },
    visiblePoint: () => at,
    hitTest: () => spec.clear ?? true,
    itemLabel: () => spec.name ?? "",
    anotherItemAt() {
      looks++;
      const m = spec.moved ?? false;
      return Array.isArray(m) ? m[Math.min(looks, m.length) - 1] ?? false : m;
    },
    raise() {},
    settle() {},
    showing: () => at !== null,
    blockingModal: () => spec.modal ?? null,
    menusAbove: () => [],
    menuOpen: () => false,
    chooseOption(name): ActionResult | null {
      if (!spec.optionNames) return null;
      calls.push(`chooseOption ${JSON.stringify(name)}`);
      if (!spec.optionNames.some((o) => o.toLowerCase() === name.trim().toLowerCase())) {
        throw new DesktopError("ELEMENT_NOT_FOUND", `no option named "${name}"`, {
          suggestion: `Pass one of: ${spec.optionNames.join(", ")}`,
        });
      }
      return { via: "accessible", detail: "Selection" };
    },
    controlled: () => null,
    optionNames: () => spec.optionNames ?? [],
    option: () => null,
    entry: () => null,
    scrollBar(vertical) {
      calls.push(`scrollBar ${vertical ? "vertical" : "horizontal"}`);
      return bar;
    },
  };
  return el;
}

/**
 * An input delegate that writes what it is asked to send into `sent`.
 *
 * @param sent the log
 * @param primary the platform's shortcut modifier
 * @returns the input delegate
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordingInput } from "./testing.ts";
 * const sent: string[] = [];
 * recordingInput(sent).type("hi");
 * assert.deepEqual(sent, ["type hi"]);
 * ```
 */
export function recordingInput(
  sent: string[],
  primary: "ctrl" | "super" = "ctrl",
): InputDelegate {
  return {
    name: "recording",
    primary,
    click: (p, button, count) => void sent.push(`click ${p.x},${p.y} ${button} x${count}`),
    move: (p) => void sent.push(`move ${p.x},${p.y}`),
    wheel: (p, direction, steps) => void sent.push(`wheel ${p.x},${p.y} ${direction} x${steps}`),
    drag: (from, to) => void sent.push(`drag ${from.x},${from.y} -> ${to.x},${to.y}`),
    key: (chord, repeat) => {
      if (repeat > 0) sent.push(`key ${[...chord.mods, chord.key].join("+")} x${repeat}`);
    },
    type: (text) => void sent.push(`type ${text}`),
    park: () => void sent.push("park"),
  };
}
