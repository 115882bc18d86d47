/**
 * The two delegates a backend gives the action executor, as a browser
 * engine gives Playwright's `dom.ts` its per-browser primitives: the
 * element delegate (what the accessibility API can tell about one element
 * and do to it) and the input delegate (the pointer and the keyboard of the
 * display server). The executor (`src/act/executor.ts`) owns the sequence:
 * checks, route choice, fallbacks and errors. A delegate only does what it
 * is told, or throws a `DesktopError` saying why it could not.
 *
 * Pure types: no platform code, no permission.
 *
 * @module
 */

import type { Point, Role } from "../model/element.ts";
import type { ActionResult, MouseButton, ScrollDirection } from "../platform/provider.ts";
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
  /**
   * The modifier of select-all and move-to-end shortcuts: `ctrl` (the
   * default) on Linux, `super` (Command) on macOS.
   */
  readonly primary?: "ctrl" | "super";
  /** Clicks `count` times (2 is a double click) with a button at a point. */
  click(p: Point, button: MouseButton, count: number): void;
  /** Moves the pointer to a point (hover; parking it where it changes nothing). */
  move(p: Point): void;
  /** Turns the wheel `steps` notches at a point. */
  wheel(p: Point, direction: ScrollDirection, steps: number): void;
  /** Presses at `from`, moves to `to`, releases. */
  drag(from: Point, to: Point): void;
  /**
   * Presses a chord `repeat` times, each exactly once, modifiers held around
   * each press. Throws INVALID_ARGS before pressing anything when this
   * keyboard has no such key; `repeat` 0 only checks that.
   */
  key(chord: KeyChord, repeat: number): void;
  /** Types text as key presses into whatever has the keyboard focus. */
  type(text: string): void;
  /**
   * False where apps do not report the keyboard focus they took (Wayland:
   * a window the compositor has not activated, headless sessions): a focus
   * request the app accepted is then trusted, and the keys' effect tells.
   * Default true.
   */
  readonly focusReported?: boolean;
  /**
   * Optional: presses Shift alone once, for apps that miss the Shift of the
   * first shifted key they get (Qt on X11).
   */
  primeShift?(): void;
  /**
   * Optional: moves the pointer where hovering changes nothing of the app
   * (the screen's far corner), after a click: a pointer left on the spot
   * would hover whatever opens there next (a menu's item that takes the
   * focus from the keys).
   */
  park?(): void;
}

/** Toolkit habits the executor's routes depend on (all false where unknown). */
export interface ElementHabits {
  /**
   * The app runs an accessible action inside its handling of the request
   * (AT-SPI with GTK 2 or 3, Qt): a handler that opens a modal dialog keeps
   * the request on its stack, so presses that may open one go by the pointer.
   */
  actionBlocksOnModal?: boolean;
  /** The element's accessible action is not a click (GTK's rows open, Qt's cells toggle). */
  itemActionIsNotAClick?: boolean;
  /** The app misses Shift on the first shifted key it gets (Qt on X11). */
  missesFirstShift?: boolean;
  /**
   * An item of a list, table or tree whose typed keys select and search (GTK; Qt's list and
   * tree items): text goes in only through its editor.
   */
  itemKeysSearch?: boolean;
  /**
   * An editable item opens its editor when clicked once selected, and the item loses the
   * keyboard focus to it (GTK; GTK 3's editor is in no tree, reached by focus events alone).
   * Without it (Qt, whose focus stays on the item) no editor is opened for the agent.
   */
  itemEditorByClick?: boolean;
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
  /** Whether it can take the keyboard focus (unknown: undefined). */
  focusable?: boolean;
  /** Its accessible action names as the API gives them, in the app's order. */
  actions: string[];
  /** The same actions as `read` shows them, where that differs (AX's `AXShowMenu` is `show-menu`). */
  actionLabels?: string[];
  /** An app or one of its top-level windows: never clicked to focus (its centre is something else). */
  topLevel: boolean;
  /** A menu item (its menus may have to be opened first). */
  menuItem: boolean;
  /** A button, toggle, check box, radio or link: a single click is what its press does. */
  buttonLike: boolean;
  /** A check box, switch, radio or toggle button. */
  toggle: boolean;
  /** Its checked or pressed state, for a toggle. */
  checked: boolean;
  /** A radio button. */
  radio: boolean;
  /** Its text can be set through the accessibility API (EditableText, a settable AXValue). */
  editableText: boolean;
  /** It takes typed text (the EDITABLE state: an editable combo box's own field). */
  editable?: boolean;
  /** A text-entry role typed into with keys (a password field, an entry without EditableText). */
  keyboardText: boolean;
  /** Its numeric value can be set (Value, a numeric AXValue), with its range when reported. */
  number?: { min?: number; max?: number; step?: number };
  /** A slider or spin button (moved by keys when its Value is ignored). */
  ranged?: "slider" | "spin";
  /** Its selected state can be set (a row, tab or cell: set-value true/false). */
  selectable: boolean;
  /** It may hold options to choose from (a combo box, a list). */
  options: boolean;
  /** A combo box. */
  combo: boolean;
  /** The toolkit's habits. */
  habits: ElementHabits;
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
  /** Replaces its text (ACTION_FAILED when the app refuses). */
  setText(text: string): void;
  /** Sets its number (ACTION_FAILED when the app refuses). */
  setNumber(n: number): void;
  /** Sets its selected state. */
  setSelected(selected: boolean): void;
  /** Its number and value text now (NaN when unreadable). */
  valueNow(): { value: number; text?: string };
  /** Its text's length, or -1 when it has no text. */
  textLength(): number;
  /**
   * Its whole text, to put back when a replace did not take (null for a
   * secure field, whose text is never read, and for one without text).
   */
  textNow(): string | null;
  /** Asks the app to focus it: ACTION_NOT_SUPPORTED or ACTION_FAILED when it cannot. */
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
  /**
   * Whether the list item the app finds at `p` shows another label than
   * `label` (the element's, as read before acting): the list moved since its
   * place was read. False when the app cannot tell (no item there, no label).
   */
  anotherItemAt(p: Point, label: string): boolean;
  /**
   * The label of the list item it is or sits in (a row's button: the row's), as the item shows
   * it: its name, or its first named child's ("" when none, or in no item).
   */
  itemLabel(): string;
  /** Brings its app and window forward, so input reaches it and no other app. */
  raise(): void;
  /** Lets input sent so far reach the app and its events come in (a short pause). */
  settle(): void;
  /** Whether it is showing with a part of it on screen. */
  showing(): boolean;
  /** The title of a showing modal window of its app that does not hold it; null when none. */
  blockingModal(): string | null;
  /**
   * The closed or open menus that hold it, outermost first (empty outside
   * menus), each to be opened by a click when it shows, else by its action.
   */
  menusAbove(): ElementDelegate[];
  /** For a menu: whether it shows its items. */
  menuOpen(): boolean;
  /**
   * Chooses the option named `name` among the options it holds, by the
   * toolkit's own way (a Selection, an option's action, a popup's item).
   * Null when it holds no options; ELEMENT_NOT_FOUND naming the options when
   * none has that name.
   */
  chooseOption(name: string): ActionResult | null;
  /** The popup it controls (ARIA's aria-controls), or null. */
  controlled(): ElementDelegate | null;
  /**
   * Optional: the list of options a popup shows inside it while open (GTK 4's drop-down holds
   * its popover's list view, with no relation naming it), or null when none is there.
   */
  popupInside?(): ElementDelegate | null;
  /** Its popup's options by name (for a controlled popup). */
  optionNames(): string[];
  /** Its option at `index` (for a controlled popup). */
  option(index: number): ElementDelegate | null;
  /** The editable field inside it (a combo box with an entry), or null. */
  entry(): ElementDelegate | null;
  /**
   * Optional: the scroll bar that scrolls the view holding it along one
   * axis (among its own children or its nearest ancestors'), with a value
   * that can be set; null when there is none. Turns the view where no
   * pointer can (a Wayland compositor that tells no window's place).
   */
  scrollBar?(vertical: boolean): ElementDelegate | null;
  /**
   * Optional: whether the keyboard focus is on an option of the popup it
   * controls (ARIA's active descendant: the combo box keeps the keys while
   * the browser reports the focus on the option).
   */
  focusInPopup?(): boolean;
}
