/**
 * The Linux element delegate of the action executor (src/act/executor.ts):
 * what AT-SPI says of one live accessible and does to it (its actions,
 * EditableText, Value, Selection, focus, scrolling, hit tests), and the
 * input delegate over the display's synthesized input. The executor owns
 * every sequence, fallback and error; this file owns the AT-SPI calls and
 * the toolkits' habits they must respect.
 *
 * @module
 */

import {
  ATSPI_COORD_TYPE_SCREEN,
  ATSPI_ROLE,
  ATSPI_SCROLL_ANYWHERE,
  ATSPI_STATE,
} from "../../ffi/atspi.ts";
import { cstr, readCString, readPointerArray } from "../../ffi/cstring.ts";
import { DesktopError } from "../../errors.ts";
import { isToolkitClassName } from "../../model/semantics.ts";
import { pickAction, PRESS_ACTIONS } from "../../act/policy.ts";
import type { ElementDelegate, ElementFacts, InputDelegate } from "../../act/delegates.ts";
import { executeAtPoint, executeOnElement } from "../../act/executor.ts";
import { badCombo } from "../../act/keys.ts";
import { roleFromAtspiCode } from "../../model/roles.ts";
import type { Bounds, Point } from "../../model/element.ts";
import { centreOf, intersect } from "../geometry.ts";
import type { Action, ActionResult } from "../provider.ts";
import { hasState, spinWords } from "./convert.ts";
import {
  clickAt,
  dragBetween,
  mouseEvent,
  pressCombo,
  pressShiftAlone,
  sleepSync,
  typeString,
  wheelAt,
} from "./input.ts";
import { keysymFor, MODIFIER_MASKS } from "./keys.ts";
import { type Native, objectId, type Owned, type Ptr, stateWords } from "./native.ts";
import { optional, readActions, readExtents } from "./walk.ts";
import {
  ensureAppFocused,
  type PopupPlace,
  popupPlace,
  popupSurfaces,
  windowOrigin,
} from "./windows.ts";
import { X11 } from "./x11.ts";
import { EDIT_ROLES, OPENABLE_MENU_ROLES } from "./atspi_roles.ts";
import { waylandInput } from "./wayland/mod.ts";
import { swayWindowOriginSync } from "./wayland/sway_ipc.ts";
import {
  actionsRunInDispatch,
  boxesRelativeToWindow,
  isGtk,
  isQt,
  missesFirstShift,
  readToolkit,
  type Toolkit,
} from "./toolkit.ts";

const R = ATSPI_ROLE;

/** How far above an element its scrolled view's bars are looked for. */
const MAX_SCROLL_BAR_DEPTH = 6;
/** The character that stands for an embedded object (a child) in a text. */
const EMBEDDED = "\uFFFC";
/** How deep embedded objects are followed in a field's text (paragraphs, a list in them). */
const MAX_EMBED_DEPTH = 3;
/** The most children looked at for a field's embedded objects. */
const MAX_EMBEDDED = 100;

/** Menu items (plain, check, radio, tear-off). */
const MENU_ITEM_ROLES: ReadonlySet<number> = new Set([
  R.MENU_ITEM,
  R.CHECK_MENU_ITEM,
  R.RADIO_MENU_ITEM,
  R.TEAROFF_MENU_ITEM,
]);

/** Push button, toggle button, check box, radio button, link: a click is their press. */
const BUTTON_LIKE_ROLES: ReadonlySet<number> = new Set([
  R.PUSH_BUTTON,
  R.TOGGLE_BUTTON,
  R.CHECK_BOX,
  R.RADIO_BUTTON,
  R.LINK,
]);

/** Containers that scroll what they hold, so clip it. */
const SCROLLING_ROLES: ReadonlySet<number> = new Set([
  R.LIST,
  R.SCROLL_PANE,
  R.TABLE,
  R.TREE,
  R.TREE_TABLE,
  R.VIEWPORT,
  R.LIST_BOX,
]);

/** Lists a popup shows its options in. */
const OPTION_LIST_ROLES: ReadonlySet<number> = new Set([R.LIST, R.LIST_BOX, R.MENU]);

/** How deep, and through how many objects, a popup's list is looked for inside its owner. */
const POPUP_SEARCH_DEPTH = 8;
/** See {@link POPUP_SEARCH_DEPTH}. */
const POPUP_SEARCH_NODES = 400;

/** Items a single click selects: list item, table cell, table row, tree item. */
const ITEM_ROLES: ReadonlySet<number> = new Set([
  R.LIST_ITEM,
  R.TABLE_CELL,
  R.TABLE_ROW,
  R.TREE_ITEM,
]);

/** Text roles whose value can be replaced by typing when EditableText is missing. */
const KEYBOARD_TEXT_ROLES: ReadonlySet<number> = new Set([R.PASSWORD_TEXT, R.TEXT, R.ENTRY]);

/** Roles whose set-value means "checked or not". */
const TOGGLE_ROLES: ReadonlySet<number> = new Set([
  R.CHECK_BOX,
  R.CHECK_MENU_ITEM,
  R.RADIO_BUTTON,
  R.RADIO_MENU_ITEM,
  R.TOGGLE_BUTTON,
  R.SWITCH,
]);

/** The longest text kept to put back into a field when a replace did not take. */
const MAX_KEPT_TEXT = 1_000_000;

/** How long a menu or popup may take to open (ms). */
const MENU_OPEN_WAIT_MS = 1500;

/** AtspiRelationType CONTROLLER_FOR (ARIA's aria-controls). */
const RELATION_CONTROLLER_FOR = 3;

/**
 * Picks the action index for a left click: the first press-like action the
 * element has (src/act/policy.ts), else -1.
 *
 * @param names the element's action names
 * @returns index into `names`, or -1
 */
export function pickClickAction(names: readonly string[]): number {
  return pickAction(names, PRESS_ACTIONS);
}

/** Whether two proxies are one remote object: the same one may come back as another proxy. */
function sameObject(a: Ptr, b: Ptr): boolean {
  if (a === b) return true;
  const x = objectId(a);
  const y = objectId(b);
  return x.bus === y.bus && x.path === y.path;
}

/**
 * The display's synthesized input (the AT-SPI registry's keyboard and mouse
 * events: XTest on X11) as the executor's input delegate.
 *
 * @param n the native session
 * @param deadline the command's deadline (wheel steps stop there)
 * @returns the input delegate
 */
export function linuxInput(n: Native, deadline = Infinity): InputDelegate {
  // No X display: the Wayland compositor's own input path, or PLATFORM_NOT_SUPPORTED naming it.
  if (!hasXDisplay()) return { ...waylandInput(), focusReported: false };
  return {
    name: "x11",
    primary: "ctrl",
    click: (p, button, count) => clickAt(n, p, button, count),
    move: (p) => mouseEvent(n, p, "abs"),
    wheel: (p, direction, steps) => wheelAt(n, p, direction, steps, deadline),
    drag: (from, to) => dragBetween(n, from, to),
    key: (chord, repeat) => {
      let mask = 0;
      for (const m of chord.mods) {
        if (m === "fn") {
          throw badCombo(`fn+${chord.key}`, "fn is a macOS modifier with no X equivalent");
        }
        mask |= MODIFIER_MASKS[m];
      }
      const keysym = keysymFor(chord.key);
      if (keysym === undefined) throw badCombo(chord.key, "no such key");
      for (let i = 0; i < repeat; i++) pressCombo(n, { mask, keysym });
    },
    type: (text) => typeString(n, text),
    primeShift: () => pressShiftAlone(n),
    park: () => {
      const corner = screenCorner();
      if (corner) mouseEvent(n, corner, "abs");
    },
  };
}

/** Whether sway's IPC socket is named (its windows' places can be asked). */
function swayRunning(): boolean {
  try {
    return (Deno.env.get("SWAYSOCK") ?? "") !== "";
  } catch {
    return false;
  }
}

/** Whether an X display is named (X11, or Xwayland beside a compositor). */
function hasXDisplay(): boolean {
  try {
    return (Deno.env.get("DISPLAY") ?? "") !== "";
  } catch {
    return true; // no --allow-env: Xlib reads DISPLAY itself
  }
}

/** The bottom-right pixel of the X screen, or null without an X display. */
function screenCorner(): Point | null {
  try {
    using x = X11.open();
    const { width, height } = x.size;
    return { x: width - 1, y: height - 1 };
  } catch {
    return null;
  }
}

/**
 * Carries out an action on a live accessible through the executor.
 *
 * @param n the native session
 * @param acc the target (borrowed for the call)
 * @param action what to do
 * @param opts the command's deadline; whether the target was only the focused element
 * @returns how it was done
 */
export function actOnAccessible(
  n: Native,
  acc: Ptr,
  action: Action,
  opts: { deadline?: number; focusedGuess?: boolean } = {},
): ActionResult {
  const deadline = opts.deadline ?? Infinity;
  using held = new DisposableStack();
  return executeOnElement(new LinuxElement(n, acc, held), () => linuxInput(n, deadline), action, {
    deadline,
    ...(opts.focusedGuess ? { focusedGuess: true } : {}),
  });
}

/**
 * Carries out an action at a screen point (synthesized input only).
 *
 * @param n the native session
 * @param p the point
 * @param action what to do
 * @param deadline the command's deadline (ms since the epoch)
 * @returns how it was done
 */
export function actAtPoint(n: Native, p: Point, action: Action, deadline = Infinity): ActionResult {
  return executeAtPoint(linuxInput(n, deadline), p, action, {
    deadline,
    sleep: (ms) => (sleepSync(ms), n.pump()),
  });
}

/** One live accessible as the executor's element delegate. */
export class LinuxElement implements ElementDelegate {
  #n: Native;
  #acc: Ptr;
  #held: DisposableStack;

  /**
   * @param n the native session
   * @param acc the accessible (borrowed for the delegate's lifetime)
   * @param held where the objects it hands out are kept until the action ends
   */
  constructor(n: Native, acc: Ptr, held: DisposableStack) {
    this.#n = n;
    this.#acc = acc;
    this.#held = held;
  }

  facts(): ElementFacts {
    const n = this.#n;
    n.sym.atspi_accessible_clear_cache(this.#acc);
    const code = this.#role();
    const states = this.#states();
    const said = !(states[0] === 0 && states[1] === 0) && code !== ATSPI_ROLE.APPLICATION;
    const name =
      optional(() => n.str(n.sym.atspi_accessible_get_name(this.#acc, n.err.buf), "read name")) ??
        "";
    using val = n.own(n.sym.atspi_accessible_get_value_iface(this.#acc));
    using et = n.own(n.sym.atspi_accessible_get_editable_text_iface(this.#acc));
    const number = val !== null && code !== ATSPI_ROLE.PASSWORD_TEXT;
    const range = number ? readRange(n, val!.ptr) : undefined;
    const tk = this.#toolkit();
    return {
      role: roleFromAtspiCode(code),
      name,
      enabled: !said || hasState(states, ATSPI_STATE.ENABLED) ||
        hasState(states, ATSPI_STATE.SENSITIVE),
      focused: hasState(states, ATSPI_STATE.FOCUSED),
      focusable: hasState(states, ATSPI_STATE.FOCUSABLE),
      actions: optional(() => readActions(n, this.#acc)) ?? [],
      topLevel: this.#isTopLevel(),
      menuItem: MENU_ITEM_ROLES.has(code),
      buttonLike: BUTTON_LIKE_ROLES.has(code),
      toggle: TOGGLE_ROLES.has(code) || hasState(states, ATSPI_STATE.CHECKABLE),
      checked: hasState(states, ATSPI_STATE.CHECKED) || hasState(states, ATSPI_STATE.PRESSED),
      radio: code === R.RADIO_BUTTON,
      editableText: et !== null,
      editable: hasState(states, ATSPI_STATE.EDITABLE),
      keyboardText: KEYBOARD_TEXT_ROLES.has(code),
      ...(number ? { number: range ?? {} } : {}),
      ...(code === R.SLIDER ? { ranged: "slider" as const } : {}),
      ...(code === R.SPIN_BUTTON ? { ranged: "spin" as const } : {}),
      selectable: false,
      options: true,
      combo: code === R.COMBO_BOX,
      habits: {
        // Under Wayland a window's place comes from the compositor, if at all: the element's
        // own action is the sure route there.
        actionBlocksOnModal: hasXDisplay() && actionsRunInDispatch(tk),
        itemActionIsNotAClick: ITEM_ROLES.has(code) && (isGtk(tk) || isQt(tk)),
        missesFirstShift: missesFirstShift(tk),
        // Qt's table views start editing on any key: only its lists and trees search.
        itemKeysSearch: ITEM_ROLES.has(code) &&
          (isGtk(tk) || (isQt(tk) && code !== R.TABLE_CELL)),
        itemEditorByClick: ITEM_ROLES.has(code) && isGtk(tk),
      },
    };
  }

  doAction(index: number): void {
    const n = this.#n;
    const name = (optional(() => readActions(n, this.#acc)) ?? [])[index] ?? String(index);
    using act = n.own(n.sym.atspi_accessible_get_action_iface(this.#acc));
    if (!act) throw new DesktopError("ACTION_NOT_SUPPORTED", "the element has no actions");
    const ok = n.sym.atspi_action_do_action(act.ptr, index, n.err.buf);
    n.check(`action "${name}"`, "ACTION_FAILED");
    if (!ok) {
      throw new DesktopError("ACTION_FAILED", `the app refused action "${name}"`, {
        suggestion: "The element may be disabled; read again to check its state",
      });
    }
  }

  setText(text: string): void {
    const n = this.#n;
    using et = n.own(n.sym.atspi_accessible_get_editable_text_iface(this.#acc));
    if (!et) throw new DesktopError("ACTION_NOT_SUPPORTED", "the element's text cannot be set");
    const ok = n.sym.atspi_editable_text_set_text_contents(et.ptr, cstr(text), n.err.buf);
    n.check("set text", "ACTION_FAILED");
    if (!ok) {
      throw new DesktopError("ACTION_FAILED", "the app refused the text", {
        suggestion: "The field may be read-only; check its state with read",
      });
    }
  }

  setNumber(num: number): void {
    const n = this.#n;
    using val = n.own(n.sym.atspi_accessible_get_value_iface(this.#acc));
    if (!val) throw new DesktopError("ACTION_NOT_SUPPORTED", "the element has no number to set");
    const ok = n.sym.atspi_value_set_current_value(val.ptr, num, n.err.buf);
    n.check("set value", "ACTION_FAILED");
    if (!ok) throw new DesktopError("ACTION_FAILED", `the app refused value ${num}`);
  }

  setSelected(_selected: boolean): void {
    throw new DesktopError("ACTION_NOT_SUPPORTED", "the element's selected state cannot be set", {
      suggestion: "Click it to select it",
    });
  }

  valueNow(): { value: number; text?: string } {
    const n = this.#n;
    n.pump();
    n.sym.atspi_accessible_clear_cache(this.#acc);
    using val = n.own(n.sym.atspi_accessible_get_value_iface(this.#acc));
    const v = val ? n.sym.atspi_value_get_current_value(val.ptr, n.err.buf) : NaN;
    const value = n.err.take() === null ? v : NaN;
    const text = this.#valueText() ?? this.#shownValue();
    return text === undefined ? { value } : { value, text };
  }

  /**
   * What a spin button shows for its number when that is words, not the number (GTK's month
   * or time spin buttons: `March`, `01:30`): its field's text. Undefined when the field shows
   * the number itself.
   */
  #shownValue(): string | undefined {
    const role = this.#role();
    if (role !== R.SPIN_BUTTON) return undefined;
    const shown = optional(() => this.textNow());
    return shown ? spinWords(role, shown) : undefined;
  }

  textLength(): number {
    const n = this.#n;
    using field = n.own(n.sym.atspi_accessible_get_text_iface(this.#acc));
    if (!field) return -1;
    const c = n.sym.atspi_text_get_character_count(field.ptr, n.err.buf);
    n.check("read the element's text", "ACTION_FAILED");
    return c;
  }

  textNow(): string | null {
    const role = this.#role();
    if (role === ATSPI_ROLE.PASSWORD_TEXT) return null;
    const budget = { chars: MAX_KEPT_TEXT };
    // A text field's paragraphs are read too; a document's embedded objects are left alone
    // (each would cost round trips, and typing checks a field).
    return this.#expandedText(this.#acc, EDIT_ROLES.has(role) ? 0 : MAX_EMBED_DEPTH, budget);
  }

  /**
   * An object's text with each embedded object (U+FFFC) replaced by that
   * child's own text: a rich editor's second paragraph is a child of its
   * field (Chromium's contenteditable), and keys typed there change only the
   * child. Null without text, or past {@link MAX_KEPT_TEXT} characters.
   */
  #expandedText(acc: Ptr, depth: number, budget: { chars: number }): string | null {
    const n = this.#n;
    using field = n.own(n.sym.atspi_accessible_get_text_iface(acc));
    if (!field) return null;
    const count = n.sym.atspi_text_get_character_count(field.ptr, n.err.buf);
    n.check("read the element's text", "ACTION_FAILED");
    if (count > budget.chars) return null;
    budget.chars -= count;
    const text = n.str(n.sym.atspi_text_get_text(field.ptr, 0, count, n.err.buf), "read text");
    if (!text.includes(EMBEDDED) || depth >= MAX_EMBED_DEPTH) return text;
    // The embedded objects are the children that are not inline text runs, in order.
    using held = new DisposableStack();
    const embedded: Ptr[] = [];
    const kids = Math.min(n.sym.atspi_accessible_get_child_count(acc, n.err.buf), MAX_EMBEDDED);
    n.check("child count");
    for (let i = 0; i < kids; i++) {
      const child = held.use(n.own(n.sym.atspi_accessible_get_child_at_index(acc, i, n.err.buf)));
      n.check("child");
      if (!child) continue;
      const role = n.sym.atspi_accessible_get_role(child.ptr, n.err.buf);
      n.check("read role");
      if (role !== ATSPI_ROLE.STATIC) embedded.push(child.ptr);
    }
    let k = 0;
    let out = "";
    for (const ch of text) {
      if (ch !== EMBEDDED) {
        out += ch;
        continue;
      }
      const inner = k < embedded.length ? this.#expandedText(embedded[k], depth + 1, budget) : null;
      k++;
      if (inner === null) return budget.chars < 0 ? null : text;
      out += `\n${inner}`;
    }
    return out;
  }

  grabFocus(): void {
    const n = this.#n;
    using comp = n.own(n.sym.atspi_accessible_get_component_iface(this.#acc));
    if (!comp) {
      throw new DesktopError("ACTION_NOT_SUPPORTED", "the element cannot take focus", {
        suggestion: "Focus a control (input, button...) instead",
      });
    }
    const ok = n.sym.atspi_component_grab_focus(comp.ptr, n.err.buf);
    n.check("grab focus", "ACTION_FAILED");
    if (!ok && !hasState(this.#states(), ATSPI_STATE.FOCUSED)) {
      throw new DesktopError("ACTION_FAILED", "the app refused to focus the element", {
        suggestion: "The element may not be focusable; click it instead",
      });
    }
  }

  scrollIntoView(): boolean {
    const n = this.#n;
    using comp = n.own(n.sym.atspi_accessible_get_component_iface(this.#acc));
    if (!comp) return false;
    const ok = n.sym.atspi_component_scroll_to(comp.ptr, ATSPI_SCROLL_ANYWHERE, n.err.buf);
    n.check("scroll into view", "ACTION_FAILED");
    return Boolean(ok);
  }

  /**
   * The centre of the element's visible part on screen. Under Wayland a
   * client's boxes are relative to its window: the window's place comes from
   * the compositor (sway), or PLATFORM_NOT_SUPPORTED says it is unknown, never
   * a guessed point.
   */
  visiblePoint(): Point | null {
    const part = this.#visiblePart();
    return part ? centreOf(part) : null;
  }

  hitTest(screen: Point): boolean {
    using held = new DisposableStack();
    const hit = this.#deepestAt(screen, held);
    if (hit === "self") return true;
    if (!hit) return false;
    const { cur, deadEnd } = hit;
    // The deepest hit is inside the element (a button's own label) when the element is an ancestor.
    const inside = this.#isWithin(cur, this.#acc, held, 64);
    if (inside !== false) return inside === true;
    // A container that finds nothing at a point inside one of its children (GTK 3's notebook with
    // its tabs hidden: meld) ends the search on the element's own ancestor: nothing else was found
    // there, so nothing covers it.
    return deadEnd && this.#isWithin(this.#acc, cur, held, 256) === true;
  }

  anotherItemAt(screen: Point, label: string): boolean {
    // Any doubt (an object gone mid-look) is "cannot tell": only an item plainly showing
    // another label counts.
    return optional(() => this.#anotherItemAt(screen, label)) ?? false;
  }

  #anotherItemAt(screen: Point, label: string): boolean {
    if (label === "") return false;
    using held = new DisposableStack();
    const hit = this.#deepestAt(screen, held);
    if (!hit) return false;
    // The item found there, or the one around what was found (a cell's own text, a row's
    // button). GTK 3 may give the element's own object to the row now in its place, and Qt a new
    // object for the same cell: what the item shows tells, not which object it is.
    const item = this.#itemOf(hit === "self" ? this.#acc : hit.cur, held);
    if (!item) return false;
    // A cell of the element's own row (its icon beside its text) shows part of the label.
    const theirs = this.#itemLabel(item, held);
    return theirs !== "" && !label.includes(theirs) && !theirs.includes(label);
  }

  itemLabel(): string {
    using held = new DisposableStack();
    return optional(() => {
      const item = this.#itemOf(this.#acc, held);
      return item ? this.#itemLabel(item, held) : "";
    }) ?? "";
  }

  /** The list item an object is or sits in (a few levels up at most), or null. */
  #itemOf(start: Ptr, held: DisposableStack): Ptr | null {
    const n = this.#n;
    let item: Ptr | null = start;
    for (let up = 0; item && up < 4; up++) {
      const role = n.sym.atspi_accessible_get_role(item, n.err.buf);
      n.check("role");
      if (ITEM_ROLES.has(role)) return item;
      item = held.use(n.own(n.sym.atspi_accessible_get_parent(item, n.err.buf)))?.ptr ?? null;
      n.check("parent");
    }
    return null;
  }

  /** An item's name, or its first named child's (a cell whose text is a child cell). */
  #itemLabel(item: Ptr, held: DisposableStack): string {
    const n = this.#n;
    const own = n.str(n.sym.atspi_accessible_get_name(item, n.err.buf), "read name").trim();
    if (own) return own;
    const count = Math.min(n.sym.atspi_accessible_get_child_count(item, n.err.buf), 4);
    n.check("child count");
    for (let i = 0; i < count; i++) {
      const child = held.use(n.own(n.sym.atspi_accessible_get_child_at_index(item, i, n.err.buf)));
      n.check("child");
      if (!child) continue;
      const name = n.str(n.sym.atspi_accessible_get_name(child.ptr, n.err.buf), "read name").trim();
      if (name) return name;
    }
    return "";
  }

  /**
   * The deepest object the app finds at a screen point, descending from the
   * element's top-level window: "self" when the descent meets the element,
   * null when the app cannot tell; `deadEnd` when the last object found
   * nothing deeper.
   */
  #deepestAt(
    screen: Point,
    held: DisposableStack,
  ): "self" | { cur: Ptr; deadEnd: boolean } | null {
    const n = this.#n;
    // Under Wayland the app answers in its window's coordinates; in a popup it does not place
    // (GTK 4 on X11), in the coordinates its boxes are in.
    const [ox, oy] = hasXDisplay() ? this.#popup()?.delta ?? [0, 0] : this.#windowOrigin();
    const at = { x: screen.x - ox, y: screen.y - oy };
    let cur: Ptr | null = this.#topLevelAcc(held);
    let deadEnd = false;
    for (let depth = 0; cur && depth < 64; depth++) {
      if (sameObject(cur, this.#acc)) return "self";
      const comp = held.use(n.own(n.sym.atspi_accessible_get_component_iface(cur)));
      if (!comp) return null;
      const next = held.use(n.own(n.sym.atspi_component_get_accessible_at_point(
        comp.ptr,
        at.x,
        at.y,
        ATSPI_COORD_TYPE_SCREEN,
        n.err.buf,
      )));
      if (!optional(() => (n.check("hit test"), true))) return null;
      deadEnd = !next;
      if (!next || next.ptr === cur) break;
      cur = next.ptr;
    }
    return cur ? { cur, deadEnd } : null;
  }

  /**
   * Gives the element's app the X keyboard focus when another app has it
   * (on Wayland the compositor alone decides: nothing to do).
   */
  raise(): void {
    if (!hasXDisplay()) return;
    const pid = this.#n.sym.atspi_accessible_get_process_id(this.#acc, this.#n.err.buf);
    this.#n.check("read process id", "STALE_REF");
    const top = this.#topWindow();
    if (ensureAppFocused(pid, top?.title, top?.box)) this.settle();
  }

  /**
   * Lets synthesized input reach the app before the next request: key events
   * travel through the display server while accessibility calls go over
   * D-Bus, so a later focus change could overtake them.
   */
  settle(): void {
    sleepSync(60);
    this.#n.pump();
  }

  showing(): boolean {
    this.#n.sym.atspi_accessible_clear_cache(this.#acc);
    return hasState(this.#states(), ATSPI_STATE.SHOWING) && this.#visiblePart() !== null;
  }

  blockingModal(): string | null {
    const n = this.#n;
    using held = new DisposableStack();
    const top = this.#topLevelAcc(held);
    if (!top) return null;
    const app = held.use(n.own(n.sym.atspi_accessible_get_parent(top, n.err.buf)));
    if (!optional(() => (n.check("read parent"), true)) || !app) return null;
    const count = n.sym.atspi_accessible_get_child_count(app.ptr, n.err.buf);
    if (!optional(() => (n.check("read child count"), true))) return null;
    for (let i = 0; i < Math.min(count, 64); i++) {
      const win = held.use(n.own(n.sym.atspi_accessible_get_child_at_index(app.ptr, i, n.err.buf)));
      if (!optional(() => (n.check("read child"), true)) || !win) continue;
      if (sameObject(win.ptr, top)) continue;
      using set = n.own(n.sym.atspi_accessible_get_state_set(win.ptr));
      const states = set ? stateWords(set.ptr) : [0, 0] as [number, number];
      if (!hasState(states, ATSPI_STATE.MODAL) || !hasState(states, ATSPI_STATE.SHOWING)) continue;
      return optional(() =>
        n.str(n.sym.atspi_accessible_get_name(win.ptr, n.err.buf), "read name")
      ) ?? "";
    }
    return null;
  }

  scrollBar(vertical: boolean): ElementDelegate | null {
    const n = this.#n;
    const axis = vertical ? ATSPI_STATE.VERTICAL : ATSPI_STATE.HORIZONTAL;
    let cur: Ptr = this.#acc;
    // The element's own bars (a GTK scrolled window, a Qt scroll area), else its ancestors'.
    for (let depth = 0; depth < MAX_SCROLL_BAR_DEPTH; depth++) {
      const count = Math.min(n.sym.atspi_accessible_get_child_count(cur, n.err.buf), 64);
      if (!optional(() => (n.check("read children"), true))) return null;
      for (let i = 0; i < count; i++) {
        const child = this.#keep(
          n.own(n.sym.atspi_accessible_get_child_at_index(cur, i, n.err.buf)),
        );
        if (!optional(() => (n.check("read child"), true)) || !child) continue;
        const role = n.sym.atspi_accessible_get_role(child, n.err.buf);
        if (!optional(() => (n.check("read role"), true)) || role !== R.SCROLL_BAR) continue;
        using set = n.own(n.sym.atspi_accessible_get_state_set(child));
        const states = set ? stateWords(set.ptr) : [0, 0] as [number, number];
        using val = n.own(n.sym.atspi_accessible_get_value_iface(child));
        if (val && hasState(states, axis) && hasState(states, ATSPI_STATE.SHOWING)) {
          return new LinuxElement(n, child, this.#held);
        }
      }
      const parent = this.#keep(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      if (!optional(() => (n.check("read parent"), true)) || !parent) return null;
      const role = n.sym.atspi_accessible_get_role(parent, n.err.buf);
      if (role === ATSPI_ROLE.APPLICATION || role === R.FRAME || role === R.WINDOW) return null;
      cur = parent;
    }
    return null;
  }

  /** The menus between the menu bar (or the top) and the element, outermost first. */
  menusAbove(): ElementDelegate[] {
    const n = this.#n;
    const menus: ElementDelegate[] = [];
    let cur: Ptr = this.#acc;
    for (let depth = 0; depth < 64; depth++) {
      const parent = this.#keep(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      n.check("read parent", "STALE_REF");
      if (!parent) break;
      const role = n.sym.atspi_accessible_get_role(parent, n.err.buf);
      n.check("read role", "STALE_REF");
      if (role === R.MENU_BAR || role === ATSPI_ROLE.APPLICATION) break;
      // GTK puts a submenu's items under the menu item that opens it (role menu).
      if (OPENABLE_MENU_ROLES.has(role)) menus.unshift(new LinuxElement(n, parent, this.#held));
      cur = parent;
    }
    return menus;
  }

  menuOpen(): boolean {
    const n = this.#n;
    n.sym.atspi_accessible_clear_cache(this.#acc);
    const count = n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf);
    n.check("read children", "STALE_REF");
    for (let i = 0; i < Math.min(count, 64); i++) {
      using c = n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, i, n.err.buf));
      n.check("read child", "STALE_REF");
      if (c && new LinuxElement(n, c.ptr, this.#held).showing()) return true;
    }
    return false;
  }

  /**
   * Selects the option named `value`: through the Selection interface of the
   * element, or of its single list or menu child (a combo box keeps its items
   * there: GTK's combos, Firefox's `<select>`), else by the option's own
   * action; Qt's combo popup by a click in the opened popup.
   */
  chooseOption(value: string): ActionResult | null {
    const n = this.#n;
    using held = new DisposableStack();
    const want = value.trim().toLowerCase();
    const holders: Ptr[] = [this.#acc];
    const count = n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf);
    n.check("read children");
    if (count === 1) {
      const only = held.use(
        n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, 0, n.err.buf)),
      );
      n.check("read child");
      if (only) holders.push(only.ptr);
    }
    let selectable = this.#role() === R.COMBO_BOX;
    const offered: string[] = [];
    for (const holder of holders) {
      using sel = n.own(n.sym.atspi_accessible_get_selection_iface(holder));
      if (sel) selectable = true;
      // A GTK 3 combo's closed popup menu takes a selection without choosing the item (the
      // combo keeps its value) and stays active, so the app ignores later pointer clicks: its
      // item's own action chooses it. (Firefox's <select> popup, also a menu, is chosen from
      // by its selection.)
      const role = n.sym.atspi_accessible_get_role(holder, n.err.buf);
      n.check("read role");
      const viaSelection = sel !== null && !(role === ATSPI_ROLE.MENU && isGtk(this.#toolkit()));
      const names = childNames(n, holder);
      offered.push(...names.filter((x) => x.trim() !== "" && !isToolkitClassName(x.trim())));
      const index = names.findIndex((c) => c.trim().toLowerCase() === want);
      if (index < 0) continue;
      if (sel && viaSelection) {
        const ok = n.sym.atspi_selection_select_child(sel.ptr, index, n.err.buf);
        n.check("select", "ACTION_FAILED");
        if (ok) return { via: "accessible", detail: "Selection" };
      }
      using option = n.own(n.sym.atspi_accessible_get_child_at_index(holder, index, n.err.buf));
      n.check("read child");
      // Qt's combo popup is a list view whose selection, or an item's action, is not the
      // combo's choice: the item is clicked in the opened popup, as a user does.
      if (option && role === ATSPI_ROLE.LIST && isQt(this.#toolkit())) {
        const picked = this.#pickFromPopup(
          new LinuxElement(n, holder, this.#held),
          new LinuxElement(n, option.ptr, this.#held),
        );
        if (picked) return picked;
      }
      const actions = option ? optional(() => readActions(n, option.ptr)) ?? [] : [];
      const lower = actions.map((x) => x.toLowerCase());
      const i = lower.includes("select") ? lower.indexOf("select") : pickClickAction(actions);
      if (option && i >= 0) {
        new LinuxElement(n, option.ptr, this.#held).doAction(i);
        return { via: "accessible", detail: `option ${actions[i]}` };
      }
      throw new DesktopError("ACTION_FAILED", `the app refused to select "${value}"`);
    }
    if (!selectable) return null;
    throw new DesktopError("ELEMENT_NOT_FOUND", `no option named "${value}"`, {
      suggestion: offered.length
        ? `Pass one of: ${offered.slice(0, 20).join(", ")}`
        : "Read the element's children and pass one of their labels",
      details: { options: offered.slice(0, 50) },
    });
  }

  /**
   * Opens the combo box's popup by its own action and clicks `option` in it
   * with the pointer. Null when the popup does not show the option. The
   * popup's own state decides whether it is open: Qt 6 reports the items of a
   * closed popup as showing.
   */
  #pickFromPopup(popup: LinuxElement, option: LinuxElement): ActionResult | null {
    const waitShowing = (el: LinuxElement) => {
      const until = Date.now() + MENU_OPEN_WAIT_MS;
      while (Date.now() < until) {
        this.#n.pump();
        if (el.showing()) return true;
        sleepSync(20);
      }
      return false;
    };
    if (!popup.showing() || !option.showing()) {
      const names = optional(() => readActions(this.#n, this.#acc)) ?? [];
      const i = pickClickAction(names);
      if (i < 0) return null;
      this.doAction(i);
      if (!waitShowing(popup) || !waitShowing(option)) return null;
    }
    const at = option.visiblePoint();
    if (!at) return null;
    clickAt(this.#n, at);
    return { via: "input", detail: "popup opened, option clicked" };
  }

  controlled(): ElementDelegate | null {
    const n = this.#n;
    this.#n.sym.atspi_accessible_clear_cache(this.#acc);
    const arr = n.sym.atspi_accessible_get_relation_set(this.#acc, n.err.buf);
    if (!optional(() => (n.check("read relations"), true)) || arr === null) return null;
    let found: Ptr | null = null;
    try {
      for (const rel of readPointerArray(arr)) {
        if (rel === null) continue;
        try {
          if (found || n.sym.atspi_relation_get_relation_type(rel) !== RELATION_CONTROLLER_FOR) {
            continue;
          }
          if (n.sym.atspi_relation_get_n_targets(rel) < 1) continue;
          found = this.#keep(n.own(n.sym.atspi_relation_get_target(rel, 0)));
        } finally {
          n.sym.g_object_unref(rel);
        }
      }
    } finally {
      n.sym.g_array_unref(arr);
    }
    return found ? new LinuxElement(n, found, this.#held) : null;
  }

  popupInside(): ElementDelegate | null {
    const n = this.#n;
    let budget = POPUP_SEARCH_NODES;
    const search = (acc: Ptr, depth: number): Ptr | null => {
      const count = Math.min(n.sym.atspi_accessible_get_child_count(acc, n.err.buf), 50);
      if (!optional(() => (n.check("read children"), true))) return null;
      for (let i = 0; i < count && budget-- > 0; i++) {
        const c = n.own(n.sym.atspi_accessible_get_child_at_index(acc, i, n.err.buf));
        if (!optional(() => (n.check("read child"), true)) || !c) continue;
        const role = n.sym.atspi_accessible_get_role(c.ptr, n.err.buf);
        const kids = n.sym.atspi_accessible_get_child_count(c.ptr, n.err.buf);
        if (OPTION_LIST_ROLES.has(role) && kids > 0) return this.#keep(c);
        const deeper = depth > 0 ? search(c.ptr, depth - 1) : null;
        c[Symbol.dispose]();
        if (deeper) return deeper;
      }
      return null;
    };
    const found = optional(() => search(this.#acc, POPUP_SEARCH_DEPTH)) ?? null;
    // A closed popover may stay among its owner's children (GTK 4), said visible, with the box it
    // had: open is what its owner says, expanded or its button pressed.
    return found && (optional(() => this.#popupToggled()) ?? false)
      ? new LinuxElement(n, found, this.#held)
      : null;
  }

  /** Whether it, or a button of its own, says its popup is open: expanded, pressed or checked. */
  #popupToggled(): boolean {
    const n = this.#n;
    const open = (acc: Ptr) => {
      using set = n.own(n.sym.atspi_accessible_get_state_set(acc));
      const words = set ? stateWords(set.ptr) : [0, 0] as [number, number];
      return hasState(words, ATSPI_STATE.EXPANDED) || hasState(words, ATSPI_STATE.PRESSED) ||
        hasState(words, ATSPI_STATE.CHECKED);
    };
    if (open(this.#acc)) return true;
    const count = Math.min(n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf), 4);
    n.check("read children");
    for (let i = 0; i < count; i++) {
      using c = n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, i, n.err.buf));
      n.check("read child");
      if (!c) continue;
      const role = n.sym.atspi_accessible_get_role(c.ptr, n.err.buf);
      if ((role === R.PUSH_BUTTON || role === R.TOGGLE_BUTTON) && open(c.ptr)) return true;
    }
    return false;
  }

  focusInPopup(): boolean {
    const popup = this.controlled() as LinuxElement | null;
    return popup ? popup.#holdsFocus(3) : false;
  }

  /** Whether it or something within `depth` levels below it has the keyboard focus. */
  #holdsFocus(depth: number): boolean {
    const n = this.#n;
    n.sym.atspi_accessible_clear_cache(this.#acc);
    if (hasState(this.#states(), ATSPI_STATE.FOCUSED)) return true;
    if (depth <= 0) return false;
    const count = Math.min(n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf), 200);
    if (!optional(() => (n.check("read children"), true))) return false;
    for (let i = 0; i < count; i++) {
      using c = n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, i, n.err.buf));
      if (!optional(() => (n.check("read child"), true)) || !c) continue;
      if (new LinuxElement(n, c.ptr, this.#held).#holdsFocus(depth - 1)) return true;
    }
    return false;
  }

  optionNames(): string[] {
    return childNames(this.#n, this.#acc);
  }

  option(index: number): ElementDelegate | null {
    const n = this.#n;
    const child = this.#keep(
      n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, index, n.err.buf)),
    );
    n.check("read option");
    return child ? new LinuxElement(n, child, this.#held) : null;
  }

  entry(): ElementDelegate | null {
    const n = this.#n;
    const count = Math.min(n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf), 16);
    n.check("read children");
    for (let i = 0; i < count; i++) {
      const child = this.#keep(
        n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, i, n.err.buf)),
      );
      n.check("read child");
      if (!child) continue;
      using et = n.own(n.sym.atspi_accessible_get_editable_text_iface(child));
      if (et) return new LinuxElement(n, child, this.#held);
    }
    return null;
  }

  /**
   * Keeps an object this delegate hands out alive until the action ends, so
   * delegates made of it stay valid while the executor uses them.
   */
  #keep(owned: Owned | null): Ptr | null {
    if (!owned) return null;
    this.#held.use(owned);
    return owned.ptr;
  }

  /**
   * The element's box clipped to the boxes of the containers that scroll it
   * and to its window's box, or null when nothing of it is inside. A tree
   * view's row is wider than the pane that shows it (pcmanfm-qt's folder
   * tree): its centre lies outside the pane, on another widget. Inside a web
   * page only the window clips (see scrollingBoxes).
   */
  #visiblePart(): Bounds | null {
    const raw = readExtents(this.#n, this.#acc);
    if (!raw || raw[2] <= 0 || raw[3] <= 0 || raw[0] === -2147483648) return null;
    const [ox, oy] = this.#windowOrigin();
    let e: Bounds | null = [raw[0] + ox, raw[1] + oy, raw[2], raw[3]];
    for (const clip of this.#scrollingBoxes()) {
      e = intersect(e, [clip[0] + ox, clip[1] + oy, clip[2], clip[3]]);
      if (!e) return null;
    }
    const w = this.#windowBox();
    return w ? intersect(e, w) : e;
  }

  /** The boxes of the element's ancestors that scroll their content (as the app reports them). */
  #scrollingBoxes(): Bounds[] {
    const n = this.#n;
    const out: Bounds[] = [];
    using held = new DisposableStack();
    let cur: Ptr = this.#acc;
    for (let depth = 0; depth < 64; depth++) {
      const parent = held.use(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      if (!optional(() => (n.check("read parent"), true)) || !parent) break;
      const role = n.sym.atspi_accessible_get_role(parent.ptr, n.err.buf);
      if (!optional(() => (n.check("read role"), true)) || role === ATSPI_ROLE.APPLICATION) break;
      // A page's boxes say nothing of CSS overflow (a list may be shorter than its items): the
      // browser clips, and scrolls an element into view itself.
      if (role === R.DOCUMENT_WEB) return [];
      if (SCROLLING_ROLES.has(role)) {
        const box = readExtents(n, parent.ptr);
        // A box the app does not know (-1, INT32_MIN, empty) clips nothing.
        if (box && box[2] > 0 && box[3] > 0 && box[0] !== -2147483648) out.push(box);
      }
      cur = parent.ptr;
    }
    return out;
  }

  /**
   * The top-level window (frame, dialog, popup) that holds the element, or
   * the element itself when it is one: its title and box. Undefined for the
   * app itself.
   */
  #topWindow(): { title: string; box?: Bounds } | undefined {
    const top = this.#topWindowAsReported();
    if (!top?.box) return top;
    const [ox, oy] = this.#windowOrigin();
    return { ...top, box: [top.box[0] + ox, top.box[1] + oy, top.box[2], top.box[3]] };
  }

  #origin: [number, number] | undefined;

  /**
   * What to add to the boxes the app reports to get screen coordinates:
   * GTK 4 on X11 reports them relative to its window (whose own box then
   * starts at 0,0), so the window's position comes from the X server. [0, 0]
   * for every other toolkit.
   */
  #windowOrigin(): [number, number] {
    if (this.#origin) return this.#origin;
    if (!hasXDisplay()) return this.#origin = this.#waylandOrigin();
    this.#origin = [0, 0];
    if (!boxesRelativeToWindow(this.#toolkit())) return this.#origin;
    const popup = this.#popup();
    if (popup) return this.#origin = popup.delta;
    const top = this.#topWindowAsReported();
    if (!top?.box || top.box[0] !== 0 || top.box[1] !== 0) return this.#origin;
    const pid = this.#n.sym.atspi_accessible_get_process_id(this.#acc, this.#n.err.buf);
    this.#n.check("read process id", "STALE_REF");
    this.#origin = windowOrigin(pid, top.title, top.box) ?? [0, 0];
    return this.#origin;
  }

  /**
   * Where the element's window starts on screen under Wayland, where every
   * client's boxes are relative to its window: sway tells it over its IPC;
   * other compositors do not, and PLATFORM_NOT_SUPPORTED says so (never a
   * guessed point).
   */
  #waylandOrigin(): [number, number] {
    const top = this.#topWindowAsReported();
    const pid = this.#n.sym.atspi_accessible_get_process_id(this.#acc, this.#n.err.buf);
    this.#n.check("read process id", "STALE_REF");
    const origin = swayRunning() ? swayWindowOriginSync(pid, top?.title) : undefined;
    if (origin) return [origin.x, origin.y];
    throw new DesktopError(
      "PLATFORM_NOT_SUPPORTED",
      "the element's place on screen is unknown on Wayland: its box is relative to its " +
        "window, and the compositor does not tell where the window is",
      {
        suggestion: "Act through the element: click by ref (its accessible action), " +
          "set-value, type, focus and scroll by ref need no pointer",
      },
    );
  }

  /** {@link ElementActor.#topWindow} with the box as the app reports it. */
  #topWindowAsReported(): { title: string; box?: Bounds } | undefined {
    const n = this.#n;
    using held = new DisposableStack();
    let cur: Ptr = this.#acc;
    if (this.#role() === ATSPI_ROLE.APPLICATION) return undefined;
    for (let depth = 0; depth < 256; depth++) {
      const parent = held.use(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      n.check("read parent", "STALE_REF");
      if (!parent) return undefined;
      const role = n.sym.atspi_accessible_get_role(parent.ptr, n.err.buf);
      n.check("read role", "STALE_REF");
      if (role === ATSPI_ROLE.APPLICATION) {
        const title = n.str(n.sym.atspi_accessible_get_name(cur, n.err.buf), "read name");
        const box = readExtents(n, cur);
        return box ? { title, box } : { title };
      }
      cur = parent.ptr;
    }
    return undefined;
  }

  /** Screen box of the top-level window that holds the element (not its own). */
  #windowBox(): Bounds | undefined {
    if (this.#isTopLevel()) return undefined;
    return this.#popup()?.box ?? this.#topWindow()?.box;
  }

  #popupFound: { delta: [number, number]; box: Bounds } | null | undefined;

  /**
   * The popup surface the element shows in, where that is a window of its own that the app's
   * boxes do not place (GTK 4 on X11 reports a popover's items as if the popover sat at its
   * owner, tens of pixels from where it shows: a click there lands on another item): what to
   * add to its boxes, and the surface's box. Found by size among the app's popup windows on the
   * X display; null when the element is in none.
   */
  #popup(): { delta: [number, number]; box: Bounds } | null {
    if (this.#popupFound !== undefined) return this.#popupFound;
    this.#popupFound = null;
    if (!hasXDisplay() || !boxesRelativeToWindow(this.#toolkit())) return null;
    const n = this.#n;
    const pid = n.sym.atspi_accessible_get_process_id(this.#acc, n.err.buf);
    if (!optional(() => (n.check("read process id"), true))) return null;
    const surfaces = popupSurfaces(pid);
    if (!surfaces.length) return null;
    using held = new DisposableStack();
    let best: PopupPlace | null = null;
    let cur: Ptr = this.#acc;
    for (let depth = 0; depth < 64; depth++) {
      const parent = held.use(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      if (!optional(() => (n.check("read parent"), true)) || !parent) break;
      const role = n.sym.atspi_accessible_get_role(parent.ptr, n.err.buf);
      // The top-level window is the frame, not a popup in it.
      if (role === ATSPI_ROLE.APPLICATION) break;
      const box = readExtents(n, cur);
      const place = box ? popupPlace(surfaces, box) : null;
      if (place && (!best || place.off < best.off)) best = place;
      cur = parent.ptr;
    }
    return this.#popupFound = best ? { delta: best.delta, box: best.surface } : null;
  }

  /** Whether the element is an app or one of its top-level windows (frame, dialog...). */
  #isTopLevel(): boolean {
    const n = this.#n;
    if (this.#role() === ATSPI_ROLE.APPLICATION) return true;
    using parent = n.own(n.sym.atspi_accessible_get_parent(this.#acc, n.err.buf));
    n.check("read parent", "STALE_REF");
    if (!parent) return false;
    const role = n.sym.atspi_accessible_get_role(parent.ptr, n.err.buf);
    n.check("read role", "STALE_REF");
    return role === ATSPI_ROLE.APPLICATION;
  }

  #states(): [number, number] {
    using set = this.#n.own(this.#n.sym.atspi_accessible_get_state_set(this.#acc));
    return set ? stateWords(set.ptr) : [0, 0];
  }

  #role(): number {
    const r = this.#n.sym.atspi_accessible_get_role(this.#acc, this.#n.err.buf);
    this.#n.check("read role", "STALE_REF");
    return r;
  }

  #tk: Toolkit | undefined;

  /** The app's toolkit, asked once per actor. */
  #toolkit(): Toolkit {
    return this.#tk ??= readToolkit(this.#n, this.#acc);
  }

  /**
   * Whether `outer` is `inner` or one of its ancestors, looking at most
   * `limit` levels up; null when a parent could not be read.
   */
  #isWithin(inner: Ptr, outer: Ptr, held: DisposableStack, limit: number): boolean | null {
    const n = this.#n;
    for (let p: Ptr | null = inner, depth = 0; p && depth < limit; depth++) {
      if (sameObject(p, outer)) return true;
      const parent: Owned | null = held.use(
        n.own(n.sym.atspi_accessible_get_parent(p, n.err.buf)),
      );
      if (!optional(() => (n.check("read parent"), true))) return null;
      p = parent?.ptr ?? null;
    }
    return false;
  }

  /** The top-level window (child of the app) that holds the element, owned by `held`. */
  #topLevelAcc(held: DisposableStack): Ptr | null {
    const n = this.#n;
    let cur: Ptr = this.#acc;
    for (let depth = 0; depth < 256; depth++) {
      const parent = held.use(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      n.check("read parent", "STALE_REF");
      if (!parent) return null;
      if (n.sym.atspi_accessible_get_role(parent.ptr, n.err.buf) === ATSPI_ROLE.APPLICATION) {
        return cur;
      }
      cur = parent.ptr;
    }
    return null;
  }

  /** The element's value in words (ARIA's aria-valuetext, AT-SPI's "valuetext" attribute). */
  #valueText(): string | undefined {
    const n = this.#n;
    const table = n.sym.atspi_accessible_get_attributes(this.#acc, n.err.buf);
    if (!optional(() => (n.check("read attributes"), true)) || table === null) return undefined;
    try {
      const v = n.sym.g_hash_table_lookup(table, cstr("valuetext"));
      const text = v === null ? "" : readCString(v).trim();
      return text || undefined;
    } finally {
      n.sym.g_hash_table_unref(table);
    }
  }
}

/** The range of a Value (and its step, when the app gives one), or undefined when it does not say. */
function readRange(
  n: Native,
  val: Ptr,
): { min: number; max: number; step?: number } | undefined {
  return optional(() => {
    const min = n.sym.atspi_value_get_minimum_value(val, n.err.buf);
    n.check("read the minimum");
    const max = n.sym.atspi_value_get_maximum_value(val, n.err.buf);
    n.check("read the maximum");
    const step = n.sym.atspi_value_get_minimum_increment(val, n.err.buf);
    const stepRead = n.err.take() === null && Number.isFinite(step) && step > 0;
    return stepRead ? { min, max, step } : { min, max };
  }) ?? undefined;
}

/** The names of an object's children; an unnamed one (a GTK 4 list item) by the text inside it. */
function childNames(n: Native, acc: Ptr): string[] {
  const count = n.sym.atspi_accessible_get_child_count(acc, n.err.buf);
  n.check("read children");
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    using c = n.own(n.sym.atspi_accessible_get_child_at_index(acc, i, n.err.buf));
    n.check("read child");
    out.push(c ? labelWithin(n, c.ptr, ITEM_LABEL_DEPTH) : "");
  }
  return out;
}

/** How deep an unnamed item's label is looked for (GTK 4: item, box, label). */
const ITEM_LABEL_DEPTH = 3;

/** An object's name, or the first name found inside it within `depth` levels ("" for none). */
function labelWithin(n: Native, acc: Ptr, depth: number): string {
  const own = n.str(n.sym.atspi_accessible_get_name(acc, n.err.buf), "read name");
  if (own.trim() && !isToolkitClassName(own.trim())) return own;
  if (depth <= 0) return "";
  const count = Math.min(n.sym.atspi_accessible_get_child_count(acc, n.err.buf), 4);
  n.check("read children");
  for (let i = 0; i < count; i++) {
    using c = n.own(n.sym.atspi_accessible_get_child_at_index(acc, i, n.err.buf));
    n.check("read child");
    const inside = c ? labelWithin(n, c.ptr, depth - 1) : "";
    if (inside) return inside;
  }
  return "";
}
