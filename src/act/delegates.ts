/**
 * The two delegates a backend gives the action executor, as a browser
 * engine gives Playwright's `dom.ts` its per-browser primitives: the
 * element delegate (what the accessibility API can tell about one element
 * and do to it) and the input delegate (the pointer and the keyboard of the
 * display server). The executor (`src/act/executor.ts`) owns the sequence:
 * checks, route choice, fallbacks and errors. A delegate only does what it
 * is told, or throws a {@link DesktopError} saying why it could not.
 *
 * Pure types: no platform code, no permission.
 *
 * @module
 */

import type { Bounds, Point, Role } from "../model/element.ts";
import type { MouseButton, ScrollDirection } from "../platform/provider.ts";
import type { KeyChord } from "./keys.ts";

/**
 * The pointer and keyboard of one display server (X11 through XTest, a
 * Wayland compositor through its own input path, macOS through CGEvent).
 * Points are global screen pixels.
 *
 * @example A recording delegate, as the executor's tests use
 * ```ts
 * import assert from "node:assert/strict";
 * import type { InputDelegate } from "./delegates.ts";
 * const sent: string[] = [];
 * const input: InputDelegate = {
 *   name: "test",
 *   click: (p, button, count) => void sent.push(`click ${p.x},${p.y} ${button} x${count}`),
 *   move: (p) => void sent.push(`move ${p.x},${p.y}`),
 *   wheel: (p, direction, steps) => void sent.push(`wheel ${direction} ${steps}`),
 *   drag: (from, to) => void sent.push(`drag ${from.x},${from.y} ${to.x},${to.y}`),
 *   key: (chord, repeat) => void sent.push(`key ${chord.mods.join("+")}+${chord.key} x${repeat}`),
 *   type: (text) => void sent.push(`type ${text}`),
 * };
 * input.key({ mods: ["ctrl"], key: "a" }, 1);
 * assert.deepEqual(sent, ["key ctrl+a x1"]);
 * ```
 */
export interface InputDelegate {
  /** What carries the input, for messages and the ok line: `x11`, `mutter`, `wlroots`, `macos`. */
  readonly name: string;
  /** Clicks `count` times (2 is a double click) with a button at a point. */
  click(p: Point, button: MouseButton, count: number): void;
  /** Moves the pointer to a point (hover; parking it where it changes nothing). */
  move(p: Point): void;
  /** Turns the wheel `steps` notches at a point. */
  wheel(p: Point, direction: ScrollDirection, steps: number): void;
  /** Presses at `from`, moves to `to`, releases. */
  drag(from: Point, to: Point): void;
  /** Presses a chord `repeat` times, each exactly once, modifiers held around each press. */
  key(chord: KeyChord, repeat: number): void;
  /** Types text as key presses into whatever has the keyboard focus. */
  type(text: string): void;
}

/** What the accessibility API says of one element now (read afresh, never from the last read). */
export interface ElementFacts {
  /** The element's role in the shared model. */
  role: Role;
  /** Its accessible name ("" when none). */
  name: string;
  /** False when the app says it is disabled. */
  enabled: boolean;
  /** Whether it holds the keyboard focus. */
  focused: boolean;
  /** Its accessible action names, in the app's order. */
  actions: string[];
  /** Whether its text can be edited through the accessibility API. */
  editableText: boolean;
  /** Its numeric value and range, when it has one. */
  value?: { now: number; min?: number; max?: number; text?: string };
  /** Its box in global screen pixels, when the app gives one. */
  box?: Bounds;
}

/**
 * One element as the accessibility API reaches it. Every method reads or
 * acts afresh; a gone element throws STALE_REF, a hung app
 * APP_UNRESPONSIVE.
 */
export interface ElementDelegate {
  /** The element's facts now. */
  facts(): ElementFacts;
  /** Runs the accessible action at `index` of {@link ElementFacts.actions}. */
  doAction(index: number): void;
  /** Replaces its text (EditableText). */
  setText(text: string): void;
  /** Sets its numeric value (Value). */
  setNumber(n: number): void;
  /** Selects its child option named `name`; false when no child has that name. */
  select(name: string): boolean;
  /** Gives it the keyboard focus. */
  grabFocus(): void;
  /** Asks the app to scroll it into view; false when the app cannot. */
  scrollIntoView(): boolean;
  /**
   * The point a user's pointer would aim at: the centre of the part inside
   * every container that clips it and inside its window, or null when none of
   * it is on screen.
   */
  visiblePoint(): Point | null;
  /** Whether the topmost element at `p` is this element or inside it (nothing covers it). */
  hitTest(p: Point): boolean;
}
