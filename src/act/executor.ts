/**
 * The action executor: one sequence per verb on every backend, above the
 * backends' element and input delegates (src/act/delegates.ts). It owns the
 * actionability checks (the arguments, a disabled element, on screen or
 * scrolled into view, not covered), the route choice and its fallbacks
 * (src/act/policy.ts decides the order), and every error. A backend gives
 * only primitives: what the accessibility API says and does, and the
 * pointer and keys of its display server.
 *
 * Synchronous: the delegates make blocking native calls, and the whole
 * sequence runs holding the display's input (src/platform/input_lock.ts), so
 * no other command's keys interleave with it.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Point } from "../model/element.ts";
import { holdInput } from "../platform/input_lock.ts";
import type { Action, ActionResult, MouseButton, ScrollDirection } from "../platform/provider.ts";
import { repeatSteps, typeInChunks } from "./bounded.ts";
import type { ElementDelegate, ElementFacts, InputDelegate } from "./delegates.ts";
import { type KeyChord, parseKeyChord } from "./keys.ts";
import {
  blockedByModal,
  checkActionArgs,
  clickRoutes,
  noSettableValue,
  parseNumber,
  parseToggle,
  pickAction,
  PRESS_ACTIONS,
  refuseDisabled,
  requireToggle,
  setValueRoute,
} from "./policy.ts";
import { stepToValue } from "./steps.ts";

/** How long a field may take to show a typed chunk before the next one goes (ms). */
const CHUNK_LAND_MS = 2000;

/** A field whose length holds still this long has taken what it will take (ms). */
const CHUNK_STALL_MS = 300;

/** How long the keyboard focus may take to arrive (ms). */
const FOCUS_WAIT_MS = 600;

/** Items a list scrolls into view when they take the focus. */
const ITEMS_FOCUSED_INTO_VIEW: ReadonlySet<string> = new Set([
  "cell",
  "row",
  "listitem",
  "option",
  "treeitem",
]);

/** How long an item's editor may take to open and take the focus (ms). */
const EDITOR_OPEN_WAIT_MS = 1000;

/** How long a menu or popup may take to open (ms). */
const MENU_OPEN_WAIT_MS = 1500;

/** How many times a moving list's row is placed again before a click on it is refused. */
const MOVED_ITEM_TRIES = 5;

/** Keys typed with Shift held, which some apps miss on their first key. */
const NEEDS_SHIFT = /[A-Z~!@#$%^&*()_+{}|:"<>?]/;

/** Options of one action. */
export interface ExecuteOptions {
  /** The command's deadline (ms since the epoch): typing, key repeats and waits stop there. */
  deadline?: number;
  /**
   * The element was taken as the focused one (no target given): keys go
   * where the keyboard focus is, and a modal dialog that has it takes them.
   */
  focusedGuess?: boolean;
  /** Blocks the thread for `ms` (tests pass a clock that does not sleep). */
  sleep?: (ms: number) => void;
}

/**
 * The error for text aimed at a list's item that has no editor open: keys typed into it would
 * select rows and search (select-all and Backspace would select every row and, in a file
 * manager, go up a folder), so none is sent.
 */
function noItemEditor(f: ElementFacts, clicked: boolean): DesktopError {
  return new DesktopError(
    "ACTION_NOT_SUPPORTED",
    `keys typed into a ${f.role} select rows and search` +
      (clicked
        ? ", and clicked once selected it opened no editor: nothing was typed (the clicks left " +
          "it selected)"
        : ": nothing was typed"),
    {
      suggestion: "Open its editor as the app does (F2, a Rename or Edit menu item, a double " +
        "click), then `type` with no target; or look for a field or dialog that edits it",
      details: { role: f.role },
    },
  );
}

/**
 * Whether keys typed into the element would select and search rather than enter text: an item
 * of a toolkit whose lists do so ({@link ElementHabits.itemKeysSearch}) that is no text itself.
 */
function keysWouldSearch(f: ElementFacts): boolean {
  return f.habits.itemKeysSearch === true && !f.editableText && !f.editable && !f.keyboardText;
}

/** Blocks the thread (actions are synchronous native sequences). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Carries out an action on an element: its arguments checked and a disabled
 * element refused before anything is sent, then the verb's sequence, holding
 * the display's input throughout.
 *
 * @param el the element delegate
 * @param input the input delegate (asked for only when a route needs input)
 * @param action what to do
 * @param opts deadline and the focused-guess flag
 * @returns which route carried it out
 * @throws DesktopError INVALID_ARGS, ACTION_NOT_SUPPORTED (disabled, no such
 *   action, nothing settable), ACTION_FAILED, ELEMENT_NOT_FOUND (no such
 *   option), STALE_REF, APP_UNRESPONSIVE, TIMEOUT
 * @example A check box checked through its press action
 * ```ts
 * import assert from "node:assert/strict";
 * import { executeOnElement } from "./executor.ts";
 * import { fakeElement, recordingInput } from "./testing.ts";
 * const el = fakeElement({ role: "chk", actions: ["toggle"], toggle: true, buttonLike: true });
 * const r = executeOnElement(el, () => recordingInput([]), { kind: "set-value", value: "true" });
 * assert.deepEqual(r, { via: "accessible", detail: "toggle" });
 * assert.deepEqual(el.calls, ["doAction 0"]);
 * ```
 */
export function executeOnElement(
  el: ElementDelegate,
  input: () => InputDelegate,
  action: Action,
  opts: ExecuteOptions = {},
): ActionResult {
  checkActionArgs(action);
  if (action.kind === "drag") checkPoint(action.to);
  const facts = el.facts();
  refuseDisabled(action, !facts.enabled, {
    r: facts.role,
    ...(facts.name ? { t: facts.name } : {}),
  });
  const deadline = opts.deadline ?? Infinity;
  using _input = holdInput(action.kind, deadline);
  const run = new Execution(el, input, deadline, opts);
  const result = run.run(action, facts);
  if (run.pointerUsed) run.input.park?.();
  return result;
}

/** The input delegate, calling `used` whenever a pointer button is pressed. */
function noticingPointer(input: InputDelegate, used: () => void): InputDelegate {
  return {
    ...input,
    name: input.name,
    click: (p, button, count) => (used(), input.click(p, button, count)),
    drag: (from, to) => (used(), input.drag(from, to)),
  };
}

/**
 * Carries out an action at a screen point, with input only.
 *
 * @param input the input delegate
 * @param p the point
 * @param action what to do
 * @param opts the deadline
 * @returns how it was done
 * @throws DesktopError INVALID_ARGS for a bad point or arguments,
 *   or for a verb that needs an element (focus, action, set-value)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { executeAtPoint } from "./executor.ts";
 * import { recordingInput } from "./testing.ts";
 * const sent: string[] = [];
 * executeAtPoint(recordingInput(sent), { x: 5, y: 6 }, { kind: "click" }, { sleep: () => {} });
 * assert.deepEqual(sent, ["click 5,6 left x1", "park"]);
 * ```
 */
export function executeAtPoint(
  input: InputDelegate,
  p: Point,
  action: Action,
  opts: ExecuteOptions = {},
): ActionResult {
  checkPoint(p);
  checkActionArgs(action);
  const deadline = opts.deadline ?? Infinity;
  const sleep = opts.sleep ?? sleepSync;
  using _input = holdInput(action.kind, deadline);
  switch (action.kind) {
    case "click":
      input.click(p, action.button ?? "left", action.count ?? 1);
      input.park?.();
      return { via: "input", detail: "click" };
    case "type":
      input.click(p, "left", 1);
      typeInChunks({
        text: action.text,
        deadline,
        send: (chunk) => typeWithKeys(input, chunk),
        check: () => sleep(60),
      });
      return { via: "input", detail: "keyboard" };
    case "key": {
      const chord = parseKeyChord(action.combo);
      input.key(chord, 0);
      const repeat = action.repeat ?? 1;
      repeatSteps({
        count: repeat,
        deadline,
        what: `presses of ${action.combo}`,
        step: () => (input.key(chord, 1), repeat > 1 && sleep(60)),
      });
      return { via: "input", detail: repeat > 1 ? `${action.combo} x${repeat}` : action.combo };
    }
    case "scroll":
      input.wheel(p, action.direction ?? "down", action.amount ?? 3);
      return { via: "input", detail: "wheel" };
    case "drag":
      input.drag(p, action.to);
      input.park?.();
      return { via: "input", detail: "drag" };
    default:
      throw new DesktopError("INVALID_ARGS", `${action.kind} needs an element, not a point`, {
        suggestion: "Target the element with --ref, --id or --text",
      });
  }
}

/**
 * Types text, its line breaks and tabs as the Return and Tab keys: typed as
 * characters, a newline reaches a Qt editor as nothing at all (FeatherPad
 * joined two lines), and a tab as a literal character where the key moves on.
 *
 * @param input the input delegate
 * @param text the text (`\r\n` is one line break)
 */
export function typeWithKeys(input: InputDelegate, text: string): void {
  for (const part of text.split(/(\r\n|[\r\n\t])/)) {
    if (part === "") continue;
    if (part === "\t") input.key({ mods: [], key: "tab" }, 1);
    else if (/^(\r\n|\r|\n)$/.test(part)) input.key({ mods: [], key: "return" }, 1);
    else input.type(part);
  }
}

/** A screen point must be two finite numbers. */
function checkPoint(p: Point): void {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new DesktopError("INVALID_ARGS", `not a screen point: ${p.x},${p.y}`, {
      suggestion: "Pass numeric --x and --y in global screen pixels",
    });
  }
}

/** One action's run: the element, its input, the deadline. */
class Execution {
  #input: InputDelegate | undefined;

  constructor(
    readonly el: ElementDelegate,
    readonly inputOf: () => InputDelegate,
    readonly deadline: number,
    readonly opts: ExecuteOptions,
  ) {}

  /** Whether a pointer button was pressed: the pointer is parked once the action is done. */
  pointerUsed = false;

  /** The display's input, opened on first use: routes through the accessibility API need none. */
  get input(): InputDelegate {
    return this.#input ??= noticingPointer(this.inputOf(), () => (this.pointerUsed = true));
  }

  #noInput: DesktopError | null | undefined;

  /**
   * Why this display gives no keys and pointer (a Wayland compositor without
   * an input path): PLATFORM_NOT_SUPPORTED from the input delegate; null when
   * it gives them. Routes that need input are then skipped for the ones the
   * accessibility API can do.
   */
  noInput(): DesktopError | null {
    if (this.#noInput !== undefined) return this.#noInput;
    try {
      void this.input;
      this.#noInput = null;
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code !== "PLATFORM_NOT_SUPPORTED") throw e;
      this.#noInput = e;
    }
    return this.#noInput;
  }

  sleep(ms: number): void {
    (this.opts.sleep ?? sleepSync)(ms);
  }

  /** Waits until `done` holds, letting events in, within `ms` and the deadline. */
  waitFor(done: () => boolean, ms: number): boolean {
    const until = Math.min(this.deadline, Date.now() + ms);
    for (;;) {
      if (done()) return true;
      if (Date.now() >= until) return false;
      this.el.settle();
      this.sleep(15);
    }
  }

  run(action: Action, facts: ElementFacts): ActionResult {
    switch (action.kind) {
      case "click": {
        const button = action.button ?? "left";
        const count = action.count ?? 1;
        return action.pointer
          ? this.pointerClick(this.el, button, count)
          : this.click(this.el, facts, button, count);
      }
      case "type":
        return this.type(facts, action.text, action.replace ?? false);
      case "key":
        return this.key(action.combo, action.repeat ?? 1);
      case "action":
        return this.named(facts, action.name);
      case "set-value":
        return this.setValue(this.el, facts, action.value);
      case "scroll":
        return this.scroll(action.direction ?? "down", action.amount, action.bar ?? false);
      case "drag":
        this.input.drag(this.visiblePoint(this.el), action.to);
        return { via: "input", detail: "drag" };
      case "focus":
        return this.focus(facts);
    }
  }

  /**
   * Clicks as the policy orders the routes: the element's own action, the
   * pointer where nothing covers it, menu items with their menus opened
   * first; the last resort is the pointer at its visible point.
   */
  click(el: ElementDelegate, f: ElementFacts, button: MouseButton, count: number): ActionResult {
    const routes = clickRoutes({
      button,
      count,
      menuItem: f.menuItem,
      buttonLike: f.buttonLike,
      itemActionIsNotAClick: f.habits.itemActionIsNotAClick ?? false,
      actionBlocksOnModal: f.habits.actionBlocksOnModal ?? false,
      cellFocusIsItsClick: f.role === "cell" && f.actions.length === 0 && f.focusable === true,
    });
    for (const route of routes) {
      if (route.via === "focus") {
        if (quietly(() => el.grabFocus()) !== false) {
          el.settle();
          if (el.facts().focused) {
            return { via: "accessible", detail: "focus: a cell's click moves the cursor" };
          }
        }
        continue;
      }
      if (route.via !== "action" && this.noInput()) continue;
      if (route.via === "menu-pointer") {
        const done = unlessNoPointer(() => this.clickMenuItem(el));
        if (done) return done;
      } else if (route.via === "clear-pointer") {
        const done = unlessNoPointer(() => {
          const at = this.clearPoint(el);
          if (!at) return null;
          this.input.click(at, button, count);
          return { via: "input" as const, detail: `${button} x${count}` };
        });
        if (done) return done;
      } else if (route.via === "action") {
        const i = pickAction(f.actions, route.names);
        if (i >= 0) {
          el.doAction(i);
          return { via: "accessible", detail: f.actions[i] };
        }
      } else break;
    }
    try {
      const none = this.noInput();
      if (none) throw none;
      // What the row shows before it is scrolled: the label to find at the point.
      const label = el.itemLabel();
      const at = this.stillItsPlace(el, this.visiblePoint(el), label);
      this.input.click(at, button, count);
      el.settle();
      if (el.anotherItemAt(at, label)) {
        // The list moved between the last look and now: before the press reached the app, or
        // after (a list that moves by itself). Which one, nothing here tells.
        return {
          via: "input",
          detail: `${button} x${count}`,
          unverified: "the list moved as the click went in: it may have landed on the row " +
            "now in the element's place",
        };
      }
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code !== "PLATFORM_NOT_SUPPORTED") throw e;
      const offers = f.actions.filter((a) => a.trim() !== "");
      throw new DesktopError(
        e.code,
        `${e.message}; and the element has no accessible action that ${
          button === "left" && count === 1 ? "presses" : `makes a ${button} click x${count} on`
        } it (${offers.length ? `it offers: ${offers.join(", ")}` : "it offers none"})`,
        { ...(e.suggestion ? { suggestion: e.suggestion } : {}), details: e.details },
      );
    }
    return { via: "input", detail: `${button} x${count}` };
  }

  /**
   * A user's click at the element's visible point, scrolled into view first,
   * only where a hit test there finds the element: ACTION_FAILED otherwise,
   * and nothing is clicked.
   */
  pointerClick(el: ElementDelegate, button: MouseButton, count: number): ActionResult {
    this.visiblePoint(el); // scrolls it into view, or fails when it cannot be
    const at = this.clearPoint(el);
    if (!at) {
      throw new DesktopError(
        "ACTION_FAILED",
        "something covers the element's visible point, so a pointer click would land elsewhere",
        { suggestion: "Close what covers it (a popup, a dialog) or scroll it clear, then retry" },
      );
    }
    this.input.click(at, button, count);
    return { via: "input", detail: `${button} x${count}` };
  }

  /**
   * The element's point, checked just before input goes there: in a list
   * whose rows move (a process monitor's), another row may have taken the
   * place read a moment ago. The place is read again while that is so, a few
   * times; ACTION_FAILED if it keeps moving, and nothing is clicked.
   */
  stillItsPlace(el: ElementDelegate, at: Point, label: string): Point {
    for (let tries = 0; tries < MOVED_ITEM_TRIES; tries++) {
      if (!el.anotherItemAt(at, label)) return at;
      el.settle();
      const again = el.visiblePoint();
      if (!again) break;
      at = again;
    }
    throw new DesktopError(
      "ACTION_FAILED",
      "another row was at the element's place each time it was read: its list keeps moving, " +
        "so a pointer click would land on another row; nothing was clicked",
      {
        suggestion: "Retry; or stop what moves the list (pause its updates, sort it by a column " +
          "that does not change) and retry",
      },
    );
  }

  /** The element's visible point where nothing covers it, its app brought forward; else null. */
  clearPoint(el: ElementDelegate): Point | null {
    el.raise();
    const at = el.visiblePoint();
    return at && el.hitTest(at) ? at : null;
  }

  /**
   * Where input may hit the element: its visible point, after scrolling it
   * into view when none of it shows (a cell the app cannot scroll to is
   * focused instead, which scrolls its row in). ACTION_FAILED when it stays
   * off screen: input at its coordinates would land on something else.
   */
  visiblePoint(el: ElementDelegate): Point {
    el.raise();
    const now = el.visiblePoint();
    if (now) return now;
    const shown = () => {
      // The app scrolls on its next frames: its box is taken once two reads agree (GTK 3 gives
      // a focused row's old place first, and a click there missed the row). A busy app takes
      // longer than 10 frames' worth to scroll a row in: up to about 2 s.
      let last: Point | null = null;
      for (let tries = 0; tries < 32; tries++) {
        el.settle();
        const p = el.visiblePoint();
        if (p && last && p.x === last.x && p.y === last.y) return p;
        last = p;
      }
      return last;
    };
    const scrolled = quietly(() => el.scrollIntoView()) ? shown() : null;
    if (scrolled) return scrolled;
    // An item its list does not scroll to on request comes in when it takes the focus.
    if (ITEMS_FOCUSED_INTO_VIEW.has(el.facts().role) && quietly(() => (el.grabFocus(), true))) {
      const focused = shown();
      if (focused) return focused;
    }
    throw new DesktopError(
      "ACTION_FAILED",
      "the element is not on screen, so input cannot reach it",
      {
        suggestion: "Scroll its container (scroll --ref ... --direction down) or make its window " +
          "visible, then read again and retry",
      },
    );
  }

  /**
   * Clicks a menu item with the pointer, opening the menus that hold it
   * first: a toolkit that runs an item's action inside the accessibility
   * request keeps a modal dialog it opens on that request's stack, and the
   * app deadlocks on the next key. Null when the item cannot be shown.
   */
  clickMenuItem(el: ElementDelegate): ActionResult | null {
    el.raise();
    let opened = false;
    if (!el.showing()) {
      opened = this.openMenusAbove(el);
      if (!opened || !this.waitFor(() => el.showing(), MENU_OPEN_WAIT_MS)) return null;
    }
    const at = el.visiblePoint();
    if (!at) return null;
    this.input.click(at, "left", 1);
    return { via: "input", detail: opened ? "menu opened, item clicked" : "menu item clicked" };
  }

  /** Opens the closed menus above the element, outermost first; false when one would not open. */
  openMenusAbove(el: ElementDelegate): boolean {
    const menus = el.menusAbove();
    if (menus.length === 0) return false;
    for (const menu of menus) {
      if (menu.menuOpen()) continue;
      const at = menu.showing() ? menu.visiblePoint() : null;
      if (at) this.input.click(at, "left", 1);
      else {
        const f = menu.facts();
        const i = pickAction(f.actions, PRESS_ACTIONS);
        if (i < 0) return false;
        menu.doAction(i);
      }
      if (!this.waitFor(() => menu.menuOpen(), MENU_OPEN_WAIT_MS)) return false;
    }
    return true;
  }

  /** Runs the action called `name`; ACTION_NOT_SUPPORTED lists the ones there are. */
  named(f: ElementFacts, name: string): ActionResult {
    const want = name.trim().toLowerCase();
    const labels = f.actionLabels ?? f.actions;
    let i = f.actions.findIndex((a) => a.trim().toLowerCase() === want);
    if (i < 0) i = labels.findIndex((a) => a.trim().toLowerCase() === want);
    if (i < 0) {
      const list = labels.filter((a) => a.trim() !== "");
      throw new DesktopError(
        "ACTION_NOT_SUPPORTED",
        `the element has no action "${name}"; available: ${list.join(", ") || "none"}`,
        {
          suggestion: list.length
            ? `Use one of: ${list.join(", ")}`
            : "Use click, type or set-value instead",
          details: { available: list },
        },
      );
    }
    // A menu item's press opens what a click opens: the pointer, where the action would block.
    if (
      pickAction([f.actions[i]], PRESS_ACTIONS) === 0 && f.menuItem &&
      f.habits.actionBlocksOnModal
    ) {
      const done = this.clickMenuItem(this.el);
      if (done) return done;
    }
    this.el.doAction(i);
    return { via: "accessible", detail: f.actions[i] };
  }

  /**
   * Gives the keyboard focus: a window is raised; an element is asked to
   * take the focus, and one that refuses is clicked, as a user would.
   */
  focus(f: ElementFacts): ActionResult {
    this.el.raise();
    if (f.topLevel) return { via: "accessible", detail: "raise" };
    try {
      this.el.grabFocus();
      return { via: "accessible", detail: "focus" };
    } catch (e) {
      const refused = e instanceof DesktopError &&
        (e.code === "ACTION_FAILED" || e.code === "ACTION_NOT_SUPPORTED");
      if (!refused) throw e;
      this.input.click(this.visiblePoint(this.el), "left", 1);
      return { via: "input", detail: "click to focus" };
    }
  }

  /**
   * Makes sure keys will reach the element: no modal dialog of its app in
   * the way, its app forward, then the focus asked for and waited for, else
   * a click and a wait. Returns whether the focus had to be moved.
   *
   * @param keysOnly keys (not text): where the focus was only guessed, a
   *   modal dialog that has it takes them
   */
  focusForKeys(f: ElementFacts, keysOnly: boolean): boolean {
    const modal = this.el.blockingModal();
    if (modal !== null) {
      if (this.opts.focusedGuess && keysOnly) {
        this.el.raise();
        return false;
      }
      throw blockedByModal(modal);
    }
    this.el.raise();
    // With no target the keys go where the keyboard focus is, never moved: the element taken
    // as focused may stand for it (Calc's row for the cell in column B), and focusing it would
    // move the cursor to another cell.
    if (this.opts.focusedGuess) return false;
    const focused = () => this.el.facts().focused || (this.el.focusInPopup?.() ?? false);
    if (focused()) return false;
    if (f.topLevel) return false;
    let asked = false;
    try {
      this.el.grabFocus();
      asked = true;
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code === "APP_UNRESPONSIVE") throw e;
    }
    if (this.waitFor(focused, FOCUS_WAIT_MS)) return true;
    let at: Point;
    try {
      at = this.visiblePoint(this.el);
    } catch (e) {
      // No pointer here (Wayland), and an app that took the focus request without reporting it
      // (GTK 3 and Qt on headless mutter): keys go now, and their effect is what tells.
      const noPointer = e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED";
      if (noPointer && asked && keysOnly) return true;
      throw e;
    }
    this.input.click(at, "left", 1);
    if (this.waitFor(focused, FOCUS_WAIT_MS)) return true;
    // Where apps do not report the focus they took, the request and the click are all there is.
    if (asked && this.input.focusReported === false) return true;
    throw new DesktopError("ACTION_FAILED", "could not give the element keyboard focus", {
      suggestion: "The element may be disabled or covered; read again to check its state",
    });
  }

  /** A chord with the platform's primary modifier (`ctrl`, or Command on macOS). */
  primary(key: string): KeyChord {
    return { mods: [this.input.primary ?? "ctrl"], key };
  }

  /**
   * Focuses the element, then types at the end of its text with key events;
   * with `replace`, its text is cleared first (through the accessibility API
   * where the app takes it, else select-all and delete, as a user would).
   */
  type(f: ElementFacts, text: string, replace: boolean): ActionResult {
    // Aimed at by the agent; with no target, the keys go where the focus is (an editor the
    // agent opened, which the tree may not show).
    if (keysWouldSearch(f) && !this.opts.focusedGuess) return this.typeIntoItem(f, text, replace);
    if (this.noInput() && f.editableText) return this.typeWithoutKeys(text, replace);
    let moved: boolean;
    try {
      moved = this.focusForKeys(f, false);
    } catch (e) {
      // The focus could only be given by a click this display cannot make (Wayland): the text
      // goes in through the accessibility API instead.
      const noPointer = e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED";
      if (noPointer && f.editableText) return this.typeWithoutKeys(text, replace);
      throw e;
    }
    let detail = "keyboard";
    // What a replace clears is put back if the keys then go elsewhere: nothing is lost.
    const kept = replace ? this.el.textNow() : null;
    if (replace) detail = `keyboard, cleared first (${this.clearText(f)})`;
    // Focusing a field may select its text or put the caret anywhere: typing appends.
    else if (moved && (f.editableText || f.keyboardText)) {
      this.input.key(this.primary(this.input.primary === "super" ? "down" : "end"), 1);
    }
    const before = this.fieldState();
    this.typeKeys(f, text);
    this.el.settle();
    try {
      this.checkTaken(f.role, before, text);
    } catch (e) {
      if (kept && f.editableText && quietly(() => (this.el.setText(kept), true))) {
        const err = e as DesktopError;
        throw new DesktopError(err.code, `${err.message}; its text was put back`, {
          ...(err.suggestion ? { suggestion: err.suggestion } : {}),
          details: { ...err.details, restored: true },
        });
      }
      throw e;
    }
    return { via: "input", detail };
  }

  /**
   * Types into an item of a list, table or tree whose keys would select rows and search
   * ({@link ElementHabits.itemKeysSearch}), as a user edits one: selected, clicked once more to
   * open its editor, typed into (over its text for a replace), and committed with Return. The
   * editor is known by the item losing the keyboard focus to it: GTK 3's is in no tree. An item
   * that opens no editor gets no keys (ACTION_NOT_SUPPORTED, nothing typed): select-all and
   * letters typed into a list would select rows and search, not enter text.
   */
  typeIntoItem(f: ElementFacts, text: string, replace: boolean): ActionResult {
    if (!f.habits.itemEditorByClick) throw noItemEditor(f, false);
    this.focusForKeys(f, false);
    // Twice at most: the first click may select it, or land while its list scrolls it into view.
    // Never a double click, which would open the item: the input waits out the double-click time
    // after a click on the same spot (src/platform/linux/input.ts).
    for (let tries = 0; tries < 2 && this.el.facts().focused; tries++) {
      this.input.click(this.visiblePoint(this.el), "left", 1);
      this.waitFor(() => !this.el.facts().focused, EDITOR_OPEN_WAIT_MS);
    }
    if (this.el.facts().focused) throw noItemEditor(f, true);
    // The editor holds the item's text, all of it selected as it opens (GTK): typing replaces it.
    if (replace) this.input.key(this.primary("a"), 1);
    else this.input.key({ mods: [], key: "end" }, 1);
    if (text === "") this.input.key({ mods: [], key: "backspace" }, 1);
    typeInChunks({
      text,
      deadline: this.deadline,
      send: (chunk) => typeWithKeys(this.input, chunk),
      check: () => this.el.settle(),
    });
    this.input.key({ mods: [], key: "return" }, 1);
    this.el.settle();
    return {
      via: "input",
      detail: `keyboard, in the editor a click on the selected ${f.role} opened` +
        `${replace ? ", over its text" : ""}; Return to commit`,
    };
  }

  /**
   * Types where the display gives no keys (a Wayland compositor without an
   * input path): the text is written through EditableText, after what the
   * field holds, or in its place for a replace.
   */
  typeWithoutKeys(text: string, replace: boolean): ActionResult {
    quietly(() => (this.el.grabFocus(), true));
    if (replace) this.el.setText(text);
    else {
      const now = this.el.textNow();
      if (now === null) throw this.noInput()!;
      this.el.setText(now + text);
    }
    return {
      via: "accessible",
      detail: replace ? "EditableText, replaced" : "EditableText, appended",
    };
  }

  /**
   * Fails when a field with text took none of the keys typed into it: they
   * went to something else that holds the keyboard (an open menu or popup,
   * another window), and an ok would say text is there that is not.
   */
  checkTaken(role: string, before: string | null, text: string): void {
    // Text fields only: a spreadsheet cell edits in an editor of its own.
    if (role !== "input" || before === null || text.replace(/[\p{Cc}]/gu, "") === "") return;
    // A busy app takes keys late: only a field that stays as it was took none. Its text is
    // compared, not its length: a terminal's screen keeps its size as it echoes.
    if (this.waitFor(() => this.fieldState() !== before, CHUNK_LAND_MS)) return;
    throw new DesktopError("ACTION_FAILED", "the field took none of the keys typed into it", {
      suggestion: "Something else holds the keyboard (an open menu or popup, another window): " +
        "read the app, close it (key Escape), then type again",
      details: { typed: [...text].length },
    });
  }

  /**
   * What tells whether a field took keys: its text, or its length where the
   * text is never read (a password field); null for an element without text.
   */
  fieldState(): string | null {
    const text = this.el.textNow();
    if (text !== null) return `text:${text}`;
    const length = this.el.textLength();
    return length < 0 ? null : `length:${length}`;
  }

  /** Empties the focused field; says how. */
  clearText(f: ElementFacts): string {
    if (
      f.editableText && quietly(() => (this.el.setText(""), true)) && this.el.textLength() === 0
    ) {
      return "EditableText";
    }
    this.input.key(this.primary("a"), 1);
    this.input.key({ mods: [], key: "backspace" }, 1);
    this.el.settle();
    return "select all, delete";
  }

  /**
   * Types text as key events in chunks within the deadline: after each chunk
   * the field is read until it has taken the chunk, and the element must
   * still have the focus if it had it (keys that would go elsewhere are not
   * sent). A Tab or newline may move the focus on purpose.
   */
  typeKeys(f: ElementFacts, text: string): void {
    if (NEEDS_SHIFT.test(text) && f.habits.missesFirstShift) this.input.primeShift?.();
    const hasText = this.el.textLength() >= 0;
    const hadFocus = this.el.facts().focused;
    let length = hasText ? this.el.textLength() : 0;
    let movesFocus = false;
    typeInChunks({
      text,
      deadline: this.deadline,
      send: (chunk) => typeWithKeys(this.input, chunk),
      check: (_typed, chunk, more) => {
        try {
          if (hasText) length = this.waitTaken(length, chunk);
          else this.el.settle();
        } catch (e) {
          // All is sent: a field that went with its last key is for the effect check to judge.
          if (more) throw e;
          return;
        }
        movesFocus ||= /[\t\n\r]/.test(chunk);
        if (more && hadFocus && !movesFocus && !this.el.facts().focused) {
          throw new DesktopError(
            "ACTION_FAILED",
            "the element lost the keyboard focus while typing",
            {
              suggestion:
                "Something else took the focus (a dialog, another window): read the app, " +
                "then type the rest into the field by ref",
            },
          );
        }
      },
    });
  }

  /** Waits until the field's text has grown by a chunk (or holds still); its length now. */
  waitTaken(before: number, chunk: string): number {
    const want = before + [...chunk.replace(/[\p{Cc}]/gu, "")].length;
    const until = Math.min(this.deadline, Date.now() + CHUNK_LAND_MS);
    let now = this.el.textLength();
    let still = Date.now();
    while (now < want && Date.now() < until && Date.now() - still < CHUNK_STALL_MS) {
      this.el.settle();
      this.sleep(5);
      const c = this.el.textLength();
      if (c !== now) {
        now = c;
        still = Date.now();
      }
    }
    return now;
  }

  /** Focuses the element, then presses a combo `repeat` times, each press once. */
  key(combo: string, repeat: number): ActionResult {
    const chord = parseKeyChord(combo);
    this.input.key(chord, 0); // a key this keyboard lacks fails before the focus moves
    this.focusForKeys(this.el.facts(), true);
    repeatSteps({
      count: repeat,
      deadline: this.deadline,
      what: `presses of ${combo}`,
      step: () => {
        this.input.key(chord, 1);
        // Each press lands before the next: a page handles keys one event-loop turn at a time.
        if (repeat > 1) this.el.settle();
      },
    });
    this.el.settle();
    return { via: "input", detail: repeat > 1 ? `${combo} x${repeat}` : combo };
  }

  /** Sets text, a number, a toggle state, a selected state or an option, by what the element is. */
  setValue(el: ElementDelegate, f: ElementFacts, value: string): ActionResult {
    // An item's text is set in its editor; true and false still select it.
    if (keysWouldSearch(f) && parseToggle(value) === undefined) {
      return this.typeIntoItem(f, value, true);
    }
    const words = value.trim();
    // A value in words ("March") on a slider or spin button that shows one: found with its keys.
    if (
      f.number && f.ranged && words !== "" && !Number.isFinite(Number(words)) &&
      el.valueNow().text !== undefined
    ) {
      return this.stepTo(el, f, words);
    }
    const range = f.number?.min !== undefined && f.number?.max !== undefined
      ? { min: f.number.min, max: f.number.max }
      : undefined;
    const route = setValueRoute({
      toggle: f.toggle,
      checked: f.checked,
      radio: f.radio,
      number: f.number !== undefined,
      text: f.editableText,
      keyboardText: f.keyboardText,
      selectable: f.selectable,
      options: f.options,
      ...(range ? { range } : {}),
    }, value);
    switch (route) {
      case "unchanged":
        return { via: "accessible", detail: "unchanged" };
      case "toggle":
        return this.click(el, f, "left", 1);
      case "selected":
        el.setSelected(requireToggle(value));
        return { via: "accessible", detail: "selected" };
      case "number":
        return this.setNumber(el, f, value);
      case "text": {
        const before = el.textNow();
        el.setText(value);
        if (before === null || before === value) {
          return { via: "accessible", detail: "EditableText" };
        }
        el.settle();
        // An app that takes the call and ignores it (Firefox's text inputs) is typed into.
        if (el.textNow() !== before) return { via: "accessible", detail: "EditableText" };
        const typed = this.typeOver(el, f, value);
        return { ...typed, detail: "keyboard: the field ignored its text being set" };
      }
      case "keys":
        return this.typeOver(el, f, value);
      case "select":
        return this.choose(el, f, value);
    }
  }

  /** Types a field's text over what it holds (select all, then the keys), as a user does. */
  typeOver(el: ElementDelegate, f: ElementFacts, value: string): ActionResult {
    this.focusForKeys(f, false);
    this.input.key(this.primary("a"), 1);
    if (value === "") this.input.key({ mods: [], key: "backspace" }, 1);
    else this.typeKeys(f, value);
    el.settle();
    return { via: "input", detail: "keyboard" };
  }

  /**
   * Sets a number through the accessibility API; a slider or spin button that
   * ignores it (a custom ARIA widget) takes it typed (a spin button) or by its
   * keys, as a user moves it.
   */
  setNumber(el: ElementDelegate, f: ElementFacts, value: string): ActionResult {
    const num = parseNumber(value);
    el.setNumber(num);
    if (!f.ranged) return { via: "accessible", detail: "Value" };
    el.settle();
    if (el.valueNow().value === num) return { via: "accessible", detail: "Value" };
    if (f.ranged === "spin") {
      this.focusForKeys(f, false);
      this.input.key(this.primary("a"), 1);
      this.typeKeys(f, value);
      el.settle();
      if (el.valueNow().value === num) {
        return { via: "input", detail: "keyboard: the app ignored the Value" };
      }
    }
    return this.stepTo(el, f, num);
  }

  /** Brings a slider or spin button to a number or value text with its keys (src/act/steps.ts). */
  stepTo(el: ElementDelegate, f: ElementFacts, want: number | string): ActionResult {
    this.focusForKeys(f, true);
    const range = f.number?.min !== undefined && f.number?.max !== undefined
      ? { min: f.number.min, max: f.number.max }
      : undefined;
    const start = el.valueNow().value;
    let presses: number;
    try {
      presses = stepToValue({
        want,
        slider: f.ranged === "slider",
        deadline: this.deadline,
        ...(range ? { range } : {}),
        read: () => {
          const now = el.valueNow();
          return now.text === undefined
            ? { value: now.value }
            : { value: now.value, text: now.text };
        },
        press: (key) => {
          this.input.key(parseKeyChord(key), 1);
          el.settle();
        },
      });
    } catch (e) {
      // Left as it was: its number set again where the keys could not bring it back (a spin
      // button that wraps around).
      if (Number.isFinite(start) && el.valueNow().value !== start) {
        quietly(() => (el.setNumber(start), true));
      }
      throw e;
    }
    // A value in words has no number to set: the keys are the way, not a fallback.
    const why = typeof want === "number" ? ", the app ignored the Value" : "";
    return { via: "input", detail: `keys: ${presses} presses${why}` };
  }

  /**
   * Chooses an option: the toolkit's own way first; a select-only combo box
   * whose options live in a popup it controls, by opening it and clicking
   * the option; a combo box with an entry takes any text.
   */
  choose(el: ElementDelegate, f: ElementFacts, value: string): ActionResult {
    let chosen: ActionResult | null;
    try {
      chosen = el.chooseOption(value);
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code !== "ELEMENT_NOT_FOUND") throw e;
      if (f.combo) {
        const picked = this.chooseFromPopup(el, value);
        if (picked) return picked;
      }
      const typed = this.setEntry(el, value) ?? this.typeIntoCombo(el, f, value);
      if (!typed) throw e;
      return typed;
    }
    if (chosen) return chosen;
    const typed = this.setEntry(el, value) ?? this.typeIntoCombo(el, f, value);
    if (typed) return typed;
    throw noSettableValue();
  }

  /**
   * An editable combo box that is its own field (ARIA: an input with role
   * combobox, its list empty until text is typed) takes the value typed, as
   * a user types it; then, when its popup shows an option of exactly that
   * name, the option is clicked. Null when it is not editable.
   */
  typeIntoCombo(el: ElementDelegate, f: ElementFacts, value: string): ActionResult | null {
    if (!f.combo || !(f.editableText || f.editable)) return null;
    let detail: string;
    if (f.editableText) {
      el.setText(value);
      detail = "EditableText";
    } else {
      this.focusForKeys(f, false);
      this.input.key(this.primary("a"), 1);
      this.typeKeys(f, value);
      detail = "keyboard";
    }
    el.settle();
    const want = value.trim().toLowerCase();
    let option: ElementDelegate | null = null;
    this.waitFor(() => {
      const popup = el.controlled();
      if (!popup || !popup.showing()) return false;
      const i = popup.optionNames().findIndex((x) => x.trim().toLowerCase() === want);
      option = i < 0 ? null : popup.option(i);
      return option !== null;
    }, MENU_OPEN_WAIT_MS);
    const shown: ElementDelegate | null = option;
    if (shown && unlessNoPointer(() => this.pointerClick(shown, "left", 1))) {
      return { via: "input", detail: `${detail}, typed; option clicked` };
    }
    return { via: detail === "keyboard" ? "input" : "accessible", detail: `${detail}, typed` };
  }

  /** Sets the text of the field inside a combo box; null when it has none. */
  setEntry(el: ElementDelegate, value: string): ActionResult | null {
    const entry = el.entry();
    return entry ? this.setValue(entry, entry.facts(), value) : null;
  }

  /**
   * Opens the popup a combo box controls (ARIA: aria-controls) with a
   * pointer click and clicks the option; ELEMENT_NOT_FOUND naming the
   * options when none has that name (the popup closed again). Null when it
   * controls no popup.
   */
  chooseFromPopup(el: ElementDelegate, value: string): ActionResult | null {
    // A popup it holds is there only while open (GTK 4's drop-down); one it controls may be
    // there closed (ARIA), so it must show.
    let inside = false;
    const open = () => {
      const held = el.popupInside?.() ?? null;
      inside = held !== null;
      if (held) return held;
      const controlled = el.controlled();
      return controlled?.showing() ? controlled : null;
    };
    let popup = open();
    let opened = false;
    if (!popup) {
      this.pointerClick(el, "left", 1);
      opened = true;
      this.waitFor(() => (popup = open()) !== null, MENU_OPEN_WAIT_MS);
      popup ??= el.controlled();
      if (!popup) return null;
    }
    const shown: ElementDelegate = popup;
    // Options come in as the popup fills.
    let names: string[] = [];
    this.waitFor(
      () => (names = shown.optionNames()).some((x) => x.trim() !== ""),
      MENU_OPEN_WAIT_MS,
    );
    const want = value.trim().toLowerCase();
    const index = names.findIndex((x) => x.trim().toLowerCase() === want);
    if (index < 0) {
      // Left as it was: closed when this opened it.
      if (opened) this.input.key({ mods: [], key: "escape" }, 1);
      el.settle();
      const offered = names.filter((x) => x.trim() !== "");
      throw new DesktopError("ELEMENT_NOT_FOUND", `no option named "${value}"`, {
        suggestion: offered.length
          ? `Pass one of: ${offered.slice(0, 20).join(", ")}`
          : "The popup shows no options; read the app after opening it",
        details: { options: offered.slice(0, 50) },
      });
    }
    // The boxes of a popup's items may be off where the popup is its own surface (GTK 4 on X11:
    // a click there lands on another item), and the popup holds the keyboard: keys pick it.
    const keyed = inside ? this.pickWithKeys(shown, index, names.length) : null;
    if (keyed) return { ...keyed, detail: `${opened ? "popup opened, " : ""}${keyed.detail}` };
    const option = shown.option(index);
    if (!option) return null;
    this.pointerClick(option, "left", 1);
    return { via: "input", detail: opened ? "popup opened, option clicked" : "option clicked" };
  }

  /**
   * Picks the option at `index` of an open popup list with the keys, as a keyboard user does:
   * from the option that holds the focus, Down or Up to it, then Return. Null when no option of
   * the list's `count` holds the focus (the keys would go elsewhere).
   */
  pickWithKeys(list: ElementDelegate, index: number, count: number): ActionResult | null {
    let focused = -1;
    for (let i = 0; i < count && focused < 0; i++) {
      if (quietly(() => list.option(i)?.facts().focused ?? false)) focused = i;
    }
    if (focused < 0) return null;
    const steps = index - focused;
    if (steps !== 0) this.input.key({ mods: [], key: steps > 0 ? "down" : "up" }, Math.abs(steps));
    this.input.key({ mods: [], key: "return" }, 1);
    return {
      via: "input",
      detail: `keys: ${
        steps === 0 ? "" : `${steps > 0 ? "Down" : "Up"} x${Math.abs(steps)}, `
      }Return`,
    };
  }

  /**
   * Brings the element into view (no amount), or turns the wheel `amount`
   * notches over it (with `bar`, its view's scroll bar as far).
   */
  scroll(
    direction: "up" | "down" | "left" | "right",
    amount: number | undefined,
    bar = false,
  ): ActionResult {
    if (bar && amount !== undefined) {
      const byBar = this.scrollBarBy(direction, amount);
      if (byBar) return byBar;
      throw new DesktopError(
        "ACTION_NOT_SUPPORTED",
        "the element's view shows no scroll bar to the accessibility tree",
        { suggestion: "Scroll a row into view (scroll --ref <row> with no --direction)" },
      );
    }
    if (amount === undefined) {
      if (!this.el.scrollIntoView()) {
        throw new DesktopError("ACTION_NOT_SUPPORTED", "the element cannot be scrolled into view", {
          suggestion: "Pass --direction and --amount to scroll the view under it instead",
        });
      }
      return { via: "accessible", detail: "scroll into view" };
    }
    try {
      const at = this.visiblePoint(this.el);
      repeatSteps({
        count: amount,
        deadline: this.deadline,
        what: "wheel steps",
        step: () => this.input.wheel(at, direction, 1),
      });
    } catch (e) {
      // No pointer here (a Wayland compositor that tells no window's place): the view's own
      // scroll bar turns it, as far as the wheel would have.
      if (!(e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED")) throw e;
      const byBar = this.scrollBarBy(direction, amount);
      if (byBar) return byBar;
      throw new DesktopError(e.code, e.message, {
        suggestion: "Its view shows no scroll bar to the accessibility tree either: scroll a row " +
          "into view (scroll --ref <row> with no --direction), or focus an element in the view " +
          "and press keys (key --ref <element> Page_Down)",
        ...(e.details ? { details: e.details } : {}),
      });
    }
    return { via: "input", detail: `wheel ${direction} x${amount}` };
  }

  /**
   * Moves the scroll bar of the view that holds the element by `amount`
   * wheel notches (a notch is three of the bar's steps, as toolkits turn a
   * view by three lines a notch; a tenth of its range when it gives no
   * step), within its range; null when the view has no bar with a value.
   */
  scrollBarBy(direction: ScrollDirection, amount: number): ActionResult | null {
    const bar = this.el.scrollBar?.(direction === "up" || direction === "down");
    const range = bar?.facts().number;
    if (!bar || range?.min === undefined || range.max === undefined) return null;
    const before = bar.valueNow().value;
    if (!Number.isFinite(before)) return null;
    const notch = range.step ? NOTCH_STEPS * range.step : (range.max - range.min) / 10;
    const sign = direction === "down" || direction === "right" ? 1 : -1;
    const after = Math.min(range.max, Math.max(range.min, before + sign * notch * amount));
    if (after !== before) bar.setNumber(after);
    const round = (v: number) => Math.round(v * 100) / 100;
    return { via: "accessible", detail: `scroll bar ${round(before)} -> ${round(after)}` };
  }
}

/** Steps of a scroll bar that one wheel notch turns (three lines, as most toolkits scroll). */
const NOTCH_STEPS = 3;

/**
 * Runs a pointer route that may be skipped: null when this display gives no
 * pointer there (PLATFORM_NOT_SUPPORTED: a Wayland compositor that does not
 * tell where windows are), so the next route runs.
 */
function unlessNoPointer<T>(f: () => T | null): T | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED") return null;
    throw e;
  }
}

/** Runs `f`; false (or null) when it throws a DesktopError other than APP_UNRESPONSIVE. */
function quietly<T>(f: () => T): T | false {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof DesktopError) || e.code === "APP_UNRESPONSIVE") throw e;
    return false;
  }
}
