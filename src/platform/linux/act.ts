/**
 * Carrying out actions on one live accessible: its own AT-SPI actions and
 * interfaces first, input synthesis at its centre where that is the only way.
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
import {
  blockedByModal,
  checkActionArgs,
  clickRoutes,
  noSettableValue,
  parseNumber,
  pickAction,
  PRESS_ACTIONS,
  refuseDisabled,
  setValueRoute,
} from "../../act/policy.ts";
import { repeatSteps, typeInChunks } from "../../act/bounded.ts";
import { stepToValue } from "../../act/steps.ts";
import { roleFromAtspiCode } from "../../model/roles.ts";
import { holdInput } from "../input_lock.ts";
import type { Bounds, Point } from "../../model/element.ts";
import { centreOf, intersect } from "../geometry.ts";
import type { Action, ActionResult } from "../provider.ts";
import { hasState } from "./convert.ts";
import {
  clickAt,
  dragBetween,
  pressCombo,
  pressShiftAlone,
  sleepSync,
  typeString,
  wheelAt,
} from "./input.ts";
import { parseCombo } from "./keys.ts";
import { type Native, objectId, type Owned, type Ptr, stateWords } from "./native.ts";
import { optional, readActions, readExtents } from "./walk.ts";
import { ensureAppFocused, windowOrigin } from "./windows.ts";
import {
  actionsRunInDispatch,
  boxesRelativeToWindow,
  isGtk,
  isQt,
  missesFirstShift,
  readToolkit,
  type Toolkit,
} from "./toolkit.ts";

/** The longest wait for a chunk of typed text to show in the field before the next (ms). */
const CHUNK_LAND_MS = 2000;

/** A field whose text holds still this long has taken what it will of a chunk (ms). */
const CHUNK_STALL_MS = 300;

/** How long to wait for focus to arrive before typing (apps apply it asynchronously). */
const FOCUS_WAIT_MS = 600;

/** How long to wait for a menu item to show after its menus were opened. */
const MENU_OPEN_WAIT_MS = 1500;

/** AtspiRole codes of menu items (plain, check, radio, tear-off). */
const MENU_ITEM_ROLES: ReadonlySet<number> = new Set([35, 8, 45, 59]);

/** Push button, toggle button, check box, radio button, link: a click is their press. */
const BUTTON_LIKE_ROLES: ReadonlySet<number> = new Set([43, 62, 7, 44, 88]);

/**
 * AtspiRole codes of containers that scroll what they hold, so clip it: list,
 * scroll pane, table, tree, tree table, viewport, list box.
 */
const SCROLLING_ROLES: ReadonlySet<number> = new Set([31, 49, 55, 65, 66, 68, 98]);

/** Characters typed with Shift on a US keyboard map (capitals and shifted symbols). */
const NEEDS_SHIFT = /[A-Z~!@#$%^&*()_+{}|:"<>?]/;

/** AtspiRole of a web document. */
const DOCUMENT_WEB_ROLE = 95;

/** AtspiRole codes of items a single click selects: list item, table cell, table row, tree item. */
const ITEM_ROLES: ReadonlySet<number> = new Set([32, 56, 90, 91]);

/** AtspiRole code of a menu that opens from a menu bar or another menu (popup menus cannot be opened by an action). */
const MENU_ROLES: ReadonlySet<number> = new Set([33]);

/** AtspiRole of a combo box: its options are what set-value chooses from. */
const COMBO_BOX_ROLE = 11;

/** AtspiRole of a menu bar: the chain of menus to open stops there. */
const MENU_BAR_ROLE = 34;

/** Text roles whose value can be replaced by typing when EditableText is missing. */
const KEYBOARD_TEXT_ROLES = new Set([ATSPI_ROLE.PASSWORD_TEXT, 61, 79]);

/** AtspiRole of a spin button. */
const SPIN_BUTTON_ROLE = 52;
/** AtspiRole of a slider. */
const SLIDER_ROLE = 51;
/** AtspiRelationType CONTROLLER_FOR (ARIA's aria-controls). */
const RELATION_CONTROLLER_FOR = 3;
/** AT-SPI's table cell role (a tree view's cell). */
const TABLE_CELL_ROLE = 56;

/** Roles whose set-value means "checked or not". */
const TOGGLE_ROLES = new Set([7, 8, 44, 45, 62, 130]);

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

/** Acts on a live accessible. */
/** Whether two proxies are one remote object: the same one may come back as another proxy. */
function sameObject(a: Ptr, b: Ptr): boolean {
  if (a === b) return true;
  const x = objectId(a);
  const y = objectId(b);
  return x.bus === y.bus && x.path === y.path;
}

export class ElementActor {
  #n: Native;
  #acc: Ptr;
  #focusedGuess: boolean;
  #deadline: number;

  /**
   * @param n the native session
   * @param acc the target (borrowed for the actor's lifetime)
   * @param focusedGuess the target was taken as the focused element (no target given)
   * @param deadline the command's deadline (ms since the epoch): typing stops there
   */
  constructor(n: Native, acc: Ptr, focusedGuess = false, deadline = Infinity) {
    this.#n = n;
    this.#acc = acc;
    this.#focusedGuess = focusedGuess;
    this.#deadline = deadline;
  }

  /**
   * Runs one action: its arguments checked and a disabled element refused
   * before anything is sent (src/act/policy.ts), then carried out holding the
   * display's input for the whole key and pointer sequence.
   */
  run(action: Action): ActionResult {
    checkActionArgs(action);
    refuseDisabled(action, this.#disabled(), this.#describe());
    using _input = holdInput(action.kind, this.#deadline);
    switch (action.kind) {
      case "click":
        if (action.pointer) return this.pointerClick(action.button ?? "left", action.count ?? 1);
        return this.click(action.button ?? "left", action.count ?? 1);
      case "type":
        return this.type(action.text, action.replace ?? false);
      case "key":
        return this.key(action.combo, action.repeat ?? 1);
      case "action":
        return this.named(action.name);
      case "set-value":
        return this.setValue(action.value);
      case "scroll":
        return this.scroll(action);
      case "drag":
        dragBetween(this.#n, this.centre(), action.to);
        return { via: "input", detail: "drag" };
      case "focus":
        return this.focus();
    }
  }

  /**
   * Whether the element is disabled, read afresh, by the rule `read` shows
   * it with: neither ENABLED nor SENSITIVE in a state set that says anything
   * (an app object is no control).
   */
  #disabled(): boolean {
    this.#n.sym.atspi_accessible_clear_cache(this.#acc);
    const states = this.#states();
    if (states[0] === 0 && states[1] === 0) return false;
    if (this.#role() === ATSPI_ROLE.APPLICATION) return false;
    return !hasState(states, ATSPI_STATE.ENABLED) && !hasState(states, ATSPI_STATE.SENSITIVE);
  }

  /** The element's role and name, for messages. */
  #describe(): { r: string; t?: string } {
    const n = this.#n;
    const name =
      optional(() => n.str(n.sym.atspi_accessible_get_name(this.#acc, n.err.buf), "read name")) ??
        "";
    return { r: roleFromAtspiCode(this.#role()), ...(name ? { t: name } : {}) };
  }

  /**
   * Where synthesized input may hit the element: the centre of its part that
   * lies inside its window. An element scrolled out of view is scrolled in
   * first; one that stays outside fails with ACTION_FAILED, because a click
   * at its coordinates would land on whatever is shown there instead.
   */
  centre(): Point {
    // A window of another app may lie over this one: bring this app forward first.
    this.#bringAppForward();
    const inView = this.#visiblePart();
    if (inView) return centreOf(inView);
    const scrolledIn = () => {
      // The app scrolls on its next frame: give it a few before judging.
      for (let tries = 0; tries < 8; tries++) {
        settle(this.#n);
        const scrolled = this.#visiblePart();
        if (scrolled) return scrolled;
      }
      return null;
    };
    const asked = optional(() => (this.#scrollTo(), true)) ? scrolledIn() : null;
    if (asked) return centreOf(asked);
    // GTK 3's tree view cells cannot be scrolled to, but focusing one puts the cursor on its
    // row and scrolls there (the row a click on it would select anyway).
    if (this.#role() === TABLE_CELL_ROLE && optional(() => (this.#grabFocus(), true))) {
      const focused = scrolledIn();
      if (focused) return centreOf(focused);
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
      if (role === DOCUMENT_WEB_ROLE) return [];
      if (SCROLLING_ROLES.has(role)) {
        const box = readExtents(n, parent.ptr);
        // A box the app does not know (-1, INT32_MIN, empty) clips nothing.
        if (box && box[2] > 0 && box[3] > 0 && box[0] !== -2147483648) out.push(box);
      }
      cur = parent.ptr;
    }
    return out;
  }

  /** Asks the app to scroll the element into view; ACTION_NOT_SUPPORTED or ACTION_FAILED if not. */
  #scrollTo(): void {
    const n = this.#n;
    using comp = n.own(n.sym.atspi_accessible_get_component_iface(this.#acc));
    if (!comp) throw new DesktopError("ACTION_NOT_SUPPORTED", "the element cannot be scrolled to");
    const ok = n.sym.atspi_component_scroll_to(comp.ptr, ATSPI_SCROLL_ANYWHERE, n.err.buf);
    n.check("scroll into view", "ACTION_FAILED");
    if (!ok) {
      throw new DesktopError("ACTION_FAILED", "the app did not scroll the element into view");
    }
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
    this.#origin = [0, 0];
    if (!boxesRelativeToWindow(this.#toolkit())) return this.#origin;
    const top = this.#topWindowAsReported();
    if (!top?.box || top.box[0] !== 0 || top.box[1] !== 0) return this.#origin;
    const pid = this.#n.sym.atspi_accessible_get_process_id(this.#acc, this.#n.err.buf);
    this.#n.check("read process id", "STALE_REF");
    this.#origin = windowOrigin(pid, top.title, top.box) ?? [0, 0];
    return this.#origin;
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
    return this.#topWindow()?.box;
  }

  /**
   * Gives the element's app the X keyboard focus when another app has it, so
   * synthesized keys and clicks reach this app and no other.
   */
  #bringAppForward(): void {
    const pid = this.#n.sym.atspi_accessible_get_process_id(this.#acc, this.#n.err.buf);
    this.#n.check("read process id", "STALE_REF");
    const top = this.#topWindow();
    if (ensureAppFocused(pid, top?.title, top?.box)) settle(this.#n);
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

  #doAction(index: number, name: string): void {
    const n = this.#n;
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

  /**
   * Clicks as the shared policy says (src/act/policy.ts): the element's own
   * press (or, for a right click, context-menu) action, else a synthesized
   * click at its visible centre; menu items with the pointer, their menus
   * opened first (see {@link ElementActor.clickMenuItem}).
   */
  click(button: "left" | "right" | "middle", count: number): ActionResult {
    const routes = clickRoutes({
      button,
      count,
      menuItem: MENU_ITEM_ROLES.has(this.#role()),
      buttonLike: BUTTON_LIKE_ROLES.has(this.#role()),
      itemActionIsNotAClick: ITEM_ROLES.has(this.#role()) &&
        (isGtk(this.#toolkit()) || isQt(this.#toolkit())),
      actionBlocksOnModal: actionsRunInDispatch(this.#toolkit()),
    });
    for (const route of routes) {
      if (route.via === "menu-pointer") {
        const done = this.clickMenuItem();
        if (done) return done;
      } else if (route.via === "clear-pointer") {
        const at = this.#clearCentre();
        if (at) {
          clickAt(this.#n, at, button, count);
          return { via: "input", detail: `${button} x${count}` };
        }
      } else if (route.via === "action") {
        const names = optional(() => readActions(this.#n, this.#acc)) ?? [];
        const i = pickAction(names, route.names);
        if (i >= 0) {
          this.#doAction(i, names[i]);
          return { via: "accessible", detail: names[i] };
        }
      } else break;
    }
    clickAt(this.#n, this.centre(), button, count);
    return { via: "input", detail: `${button} x${count}` };
  }

  /**
   * A user's click at the element's visible centre, scrolled into view
   * first, only where a hit test there finds the element (nothing covers
   * it): ACTION_FAILED otherwise, and nothing is clicked.
   */
  pointerClick(button: "left" | "right" | "middle", count: number): ActionResult {
    this.centre(); // scrolls it into view, or fails when it cannot be
    const at = this.#clearCentre();
    if (!at) {
      throw new DesktopError(
        "ACTION_FAILED",
        "something covers the element's visible point, so a pointer click would land elsewhere",
        {
          suggestion: "Close what covers it (a popup, a dialog) or scroll it clear, then retry",
        },
      );
    }
    clickAt(this.#n, at, button, count);
    return { via: "input", detail: `${button} x${count}` };
  }

  #tk: Toolkit | undefined;

  /** The app's toolkit, asked once per actor. */
  #toolkit(): Toolkit {
    return this.#tk ??= readToolkit(this.#n, this.#acc);
  }

  /**
   * The centre of the element's visible part when a hit test there finds the
   * element itself (or something inside it): nothing covers it, so a click
   * there is a click on it. Null when it is off screen or covered.
   */
  #clearCentre(): Point | null {
    this.#bringAppForward();
    const part = this.#visiblePart();
    if (!part) return null;
    const at = centreOf(part);
    const n = this.#n;
    using held = new DisposableStack();
    // Descend from the top-level window to the deepest object at the point.
    let cur: Ptr | null = this.#topLevelAcc(held);
    let deadEnd = false;
    for (let depth = 0; cur && depth < 64; depth++) {
      if (sameObject(cur, this.#acc)) return at;
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
    if (!cur) return null;
    // The deepest hit is inside the element (a button's own label) when the element is an ancestor.
    const inside = this.#isWithin(cur, this.#acc, held, 64);
    if (inside !== false) return inside ? at : null;
    // A container that finds nothing at a point inside one of its children (GTK 3's notebook with
    // its tabs hidden: meld) ends the search on the element's own ancestor: nothing else was found
    // there, so nothing covers it.
    if (deadEnd && this.#isWithin(this.#acc, cur, held, 256) === true) return at;
    return null;
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

  /**
   * Clicks a menu item with the pointer, opening the menus that hold it first.
   * A toolkit runs a menu item's accessible action inside the app's handling
   * of the request (GTK 3: the whole "activate" signal), so an item that opens
   * a modal dialog (File > Save As through gtk_dialog_run) keeps that handler
   * on the stack until the dialog closes; a key event synthesized meanwhile
   * makes the ATK bridge re-enter its D-Bus dispatch and the app deadlocks for
   * good. A pointer click is handled from the app's own event loop, as a
   * user's click is. Returns null when the item cannot be brought on screen
   * (the caller then falls back to the accessible action).
   */
  clickMenuItem(): ActionResult | null {
    const n = this.#n;
    // The menus are opened with the pointer too: another app's window must not take the clicks.
    this.#bringAppForward();
    let opened = false;
    if (!this.#showing()) {
      opened = this.#openMenusAbove();
      if (!opened || !this.#waitShowing()) return null;
    }
    const box = this.#visiblePart();
    if (!box) return null;
    clickAt(n, centreOf(box));
    return { via: "input", detail: opened ? "menu opened, item clicked" : "menu item clicked" };
  }

  /** Whether the element is showing with a part of it inside its window. */
  #showing(): boolean {
    this.#n.sym.atspi_accessible_clear_cache(this.#acc);
    return hasState(this.#states(), ATSPI_STATE.SHOWING) && this.#visiblePart() !== null;
  }

  #waitShowing(): boolean {
    const until = Date.now() + MENU_OPEN_WAIT_MS;
    while (Date.now() < until) {
      this.#n.pump();
      if (this.#showing()) return true;
      sleepSync(20);
    }
    return false;
  }

  /**
   * Opens the closed menus between the menu bar (or the top) and the
   * element, outermost first: each by a pointer click when it shows, else by
   * its own action (opening a submenu starts no modal loop).
   *
   * @returns false when there is no menu above the element or one would not open
   */
  #openMenusAbove(): boolean {
    const n = this.#n;
    using held = new DisposableStack();
    const menus: Ptr[] = [];
    let cur: Ptr = this.#acc;
    for (let depth = 0; depth < 64; depth++) {
      const parent = held.use(n.own(n.sym.atspi_accessible_get_parent(cur, n.err.buf)));
      n.check("read parent", "STALE_REF");
      if (!parent) break;
      const role = n.sym.atspi_accessible_get_role(parent.ptr, n.err.buf);
      n.check("read role", "STALE_REF");
      if (role === MENU_BAR_ROLE || role === ATSPI_ROLE.APPLICATION) break;
      // GTK puts a submenu's items under the menu item that opens it (role menu).
      if (MENU_ROLES.has(role)) menus.unshift(parent.ptr);
      cur = parent.ptr;
    }
    if (menus.length === 0) return false;
    for (const menu of menus) {
      const actor = new ElementActor(n, menu);
      if (actor.#menuIsOpen()) continue;
      if (actor.#showing()) clickAt(n, centreOf(actor.#visiblePart()!));
      else {
        const names = optional(() => readActions(n, menu)) ?? [];
        const i = pickClickAction(names);
        if (i < 0) return false;
        actor.#doAction(i, names[i]);
      }
      if (!actor.#waitMenuOpen()) return false;
    }
    return true;
  }

  /** Whether a menu shows its items (one of its children is showing). */
  #menuIsOpen(): boolean {
    const n = this.#n;
    n.sym.atspi_accessible_clear_cache(this.#acc);
    const count = n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf);
    n.check("read children", "STALE_REF");
    for (let i = 0; i < Math.min(count, 64); i++) {
      using c = n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, i, n.err.buf));
      n.check("read child", "STALE_REF");
      if (c && new ElementActor(n, c.ptr).#showing()) return true;
    }
    return false;
  }

  #waitMenuOpen(): boolean {
    const until = Date.now() + MENU_OPEN_WAIT_MS;
    while (Date.now() < until) {
      this.#n.pump();
      if (this.#menuIsOpen()) return true;
      sleepSync(20);
    }
    return false;
  }

  /** Runs the action called `name`; ACTION_NOT_SUPPORTED lists the available ones. */
  named(name: string): ActionResult {
    const names = optional(() => readActions(this.#n, this.#acc)) ?? [];
    const i = names.findIndex((a) => a.toLowerCase() === name.trim().toLowerCase());
    if (i < 0) {
      const list = names.filter((a) => a !== "");
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
    // A menu item's press runs its handler inside the request (see clickMenuItem):
    // the same press is made with the pointer when the item can be shown.
    if (pickAction([names[i]], PRESS_ACTIONS) === 0 && MENU_ITEM_ROLES.has(this.#role())) {
      const done = this.clickMenuItem();
      if (done) return done;
    }
    this.#doAction(i, names[i]);
    return { via: "accessible", detail: names[i] };
  }

  /** Gives keyboard focus: the accessible request first; an element that refuses it is clicked. */
  focus(): ActionResult {
    try {
      return this.#grabFocus();
    } catch (e) {
      const refused = e instanceof DesktopError &&
        (e.code === "ACTION_FAILED" || e.code === "ACTION_NOT_SUPPORTED");
      if (!refused) throw e;
      // The shared fallback (as on macOS): an element that refuses focus is clicked.
      clickAt(this.#n, this.centre());
      return { via: "input", detail: "click to focus" };
    }
  }

  /** Asks the app to focus the element; ACTION_FAILED when it refuses. */
  #grabFocus(): ActionResult {
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
    return { via: "accessible", detail: "grab_focus" };
  }

  /** Whether the element reports FOCUSED now (bypassing libatspi's cache). */
  #isFocused(): boolean {
    this.#n.sym.atspi_accessible_clear_cache(this.#acc);
    return hasState(this.#states(), ATSPI_STATE.FOCUSED);
  }

  /**
   * Makes sure keys will reach the element: grab_focus, wait for FOCUSED,
   * else click its centre (some apps ignore grab_focus) and wait again.
   * Returns false when it already had focus.
   */
  #focusForKeys(keysOnly = false): boolean {
    // A modal dialog of the app takes every key, whatever the element's window says about its
    // focus (without a window manager GTK keeps it "active" and the element "focused").
    const modal = this.#blockingModal();
    if (modal !== null) {
      // A key pressed where the focus is (no target) belongs to the dialog: it goes there,
      // unfocused by us. Text does not: what would take it in the dialog is unknown.
      if (this.#focusedGuess && keysOnly) {
        this.#bringAppForward();
        return false;
      }
      throw blockedByModal(modal);
    }
    // Keys go to the app that has the X focus: make it this one first.
    this.#bringAppForward();
    if (this.#isFocused()) return false;
    // A whole window or app never gets a click: its centre is some other element.
    if (this.#isTopLevel()) return false;
    try {
      this.#grabFocus();
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code === "APP_UNRESPONSIVE") throw e;
    }
    if (this.#waitFocused()) return true;
    clickAt(this.#n, this.centre());
    if (this.#waitFocused()) return true;
    throw new DesktopError("ACTION_FAILED", "could not give the element keyboard focus", {
      suggestion: "The element may be disabled or covered; read again to check its state",
    });
  }

  #waitFocused(): boolean {
    const until = Date.now() + FOCUS_WAIT_MS;
    while (Date.now() < until) {
      this.#n.pump();
      if (this.#isFocused()) return true;
      sleepSync(15);
    }
    return false;
  }

  /**
   * Focuses the element, then types at the end of its text with key events;
   * with `replace`, its text is cleared first (EditableText where the app
   * offers it, else select-all and Delete, as a user would).
   */
  type(text: string, replace = false): ActionResult {
    const focusedNow = this.#focusForKeys();
    if (replace) {
      const cleared = this.#clearText();
      this.#typeKeys(text);
      settle(this.#n);
      return { via: "input", detail: `keyboard, cleared first (${cleared})` };
    }
    // Typing appends: focusing a text field may select its content (GTK) or
    // put the caret anywhere, so move to the end first. set-value replaces.
    if (focusedNow && this.#isTextField()) pressCombo(this.#n, parseCombo("ctrl+End"));
    this.#typeKeys(text);
    settle(this.#n);
    return { via: "input", detail: "keyboard" };
  }

  /** Empties the focused field: EditableText when it takes it, else ctrl+a and BackSpace. */
  #clearText(): string {
    const n = this.#n;
    using et = n.own(n.sym.atspi_accessible_get_editable_text_iface(this.#acc));
    if (et && optional(() => (n.check("clear"), true))) {
      const ok = n.sym.atspi_editable_text_set_text_contents(et.ptr, cstr(""), n.err.buf);
      if (optional(() => (n.check("clear the text"), true)) && ok && this.#textLength() === 0) {
        return "EditableText";
      }
    }
    pressCombo(n, parseCombo("ctrl+a"));
    pressCombo(n, parseCombo("BackSpace"));
    settle(n);
    return "select all, delete";
  }

  /** The element's text length, or -1 when it has no text. */
  #textLength(): number {
    const n = this.#n;
    using field = n.own(n.sym.atspi_accessible_get_text_iface(this.#acc));
    if (!field) return -1;
    const c = n.sym.atspi_text_get_character_count(field.ptr, n.err.buf);
    return optional(() => (n.check("read the text"), c)) ?? -1;
  }

  /**
   * Types text as key events to whatever has the keyboard focus, in chunks
   * within the deadline (src/act/bounded.ts). After each chunk the field is
   * read until it has taken the chunk (the app answers, and is not left
   * behind with keys queued), and the element must still have the focus if it
   * had it: keys that would go elsewhere are not sent (a field may pass the
   * focus on once the last chunk has filled it). A Tab or a newline
   * typed may move the focus on purpose: from there on the focus is not checked.
   */
  #typeKeys(text: string): void {
    const n = this.#n;
    // Capitals and shifted symbols need Shift, which a Qt app misses on its first key.
    if (NEEDS_SHIFT.test(text) && missesFirstShift(this.#toolkit())) pressShiftAlone(n);
    using field = n.own(n.sym.atspi_accessible_get_text_iface(this.#acc));
    const count = field
      ? () => {
        const c = n.sym.atspi_text_get_character_count(field.ptr, n.err.buf);
        n.check("read the element's text", "ACTION_FAILED");
        return c;
      }
      : null;
    const hadFocus = this.#isFocused();
    let length = count ? count() : 0;
    let movesFocus = false;
    typeInChunks({
      text,
      deadline: this.#deadline,
      send: (chunk) => typeString(n, chunk),
      check: (_typed, chunk, more) => {
        try {
          if (count) length = this.#waitTaken(count, length, chunk);
          else settle(n);
        } catch (e) {
          // All is sent: a field that went with its last key (a search that navigated) is
          // for the effect check to judge.
          if (more) throw e;
          return;
        }
        movesFocus ||= /[\t\n\r]/.test(chunk);
        if (more && hadFocus && !movesFocus && !this.#isFocused()) {
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

  /**
   * Waits until the field's text has grown by a chunk's characters (or holds
   * still: a field that limits or rewrites its text), within the deadline.
   *
   * @returns the field's length now
   */
  #waitTaken(count: () => number, before: number, chunk: string): number {
    const want = before + [...chunk.replace(/[\p{Cc}]/gu, "")].length;
    const until = Math.min(this.#deadline, Date.now() + CHUNK_LAND_MS);
    let now = count();
    let still = Date.now();
    while (now < want && Date.now() < until && Date.now() - still < CHUNK_STALL_MS) {
      this.#n.pump();
      sleepSync(5);
      const c = count();
      if (c !== now) {
        now = c;
        still = Date.now();
      }
    }
    return now;
  }

  /**
   * The title of a modal window of the element's app, showing, that does not
   * hold the element; null when there is none.
   */
  #blockingModal(): string | null {
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
      ) ??
        "";
    }
    return null;
  }

  /** Whether the element is a text field (editable text or a text-entry role). */
  #isTextField(): boolean {
    const role = this.#role();
    if (KEYBOARD_TEXT_ROLES.has(role)) return true;
    using et = this.#n.own(this.#n.sym.atspi_accessible_get_editable_text_iface(this.#acc));
    return et !== null;
  }

  /**
   * Focuses the element, then presses a combo `repeat` times, each press
   * once, within the deadline (src/act/bounded.ts).
   */
  key(combo: string, repeat = 1): ActionResult {
    const parsed = parseCombo(combo);
    this.#focusForKeys(true);
    repeatSteps({
      count: repeat,
      deadline: this.#deadline,
      what: `presses of ${combo}`,
      step: () => {
        pressCombo(this.#n, parsed);
        // Each press lands before the next: a page handles keys one event-loop turn at a time.
        if (repeat > 1) settle(this.#n);
      },
    });
    settle(this.#n);
    return { via: "input", detail: repeat > 1 ? `${combo} x${repeat}` : combo };
  }

  /** Sets text, a number, a toggle state, or a selection, by what the element is. */
  setValue(value: string): ActionResult {
    const n = this.#n;
    const role = this.#role();
    const states = this.#states();
    using val = n.own(n.sym.atspi_accessible_get_value_iface(this.#acc));
    using et = n.own(n.sym.atspi_accessible_get_editable_text_iface(this.#acc));
    const number = val !== null && role !== ATSPI_ROLE.PASSWORD_TEXT;
    // A value in words ("March") on a slider or spin button that shows one: found with its keys.
    if (
      number && (role === SLIDER_ROLE || role === SPIN_BUTTON_ROLE) &&
      !Number.isFinite(Number(value.trim())) && value.trim() !== "" &&
      this.#valueText() !== undefined
    ) {
      return this.#stepToValue(val!.ptr, value.trim(), role === SLIDER_ROLE);
    }
    const route = setValueRoute({
      toggle: TOGGLE_ROLES.has(role) || hasState(states, ATSPI_STATE.CHECKABLE),
      checked: hasState(states, ATSPI_STATE.CHECKED) || hasState(states, ATSPI_STATE.PRESSED),
      number,
      text: et !== null,
      keyboardText: KEYBOARD_TEXT_ROLES.has(role),
      selectable: false,
      options: true,
      ...(number ? { range: readRange(n, val!.ptr) } : {}),
    }, value);
    switch (route) {
      case "unchanged":
        return { via: "accessible", detail: "unchanged" };
      case "toggle":
        return this.click("left", 1);
      case "number": {
        const num = parseNumber(value);
        const ok = n.sym.atspi_value_set_current_value(val!.ptr, num, n.err.buf);
        n.check("set value", "ACTION_FAILED");
        if (!ok) throw new DesktopError("ACTION_FAILED", `the app refused value ${num}`);
        if (role !== SPIN_BUTTON_ROLE && role !== SLIDER_ROLE) {
          return { via: "accessible", detail: "Value" };
        }
        settle(n);
        if (this.#valueNow(val!.ptr) === num) return { via: "accessible", detail: "Value" };
        // A spin button that ignores its Value (Chromium's date fields) takes the number typed.
        if (role === SPIN_BUTTON_ROLE) {
          this.#focusForKeys();
          pressCombo(n, parseCombo("ctrl+a"));
          this.#typeKeys(value);
          settle(n);
          if (this.#valueNow(val!.ptr) === num) {
            return { via: "input", detail: "keyboard: the app ignored the Value" };
          }
        }
        // A custom slider or spin button (ARIA) moves only by its keys, as a user moves it.
        return this.#stepToValue(val!.ptr, num, role === SLIDER_ROLE);
      }
      case "text": {
        const ok = n.sym.atspi_editable_text_set_text_contents(et!.ptr, cstr(value), n.err.buf);
        n.check("set text", "ACTION_FAILED");
        if (!ok) {
          throw new DesktopError("ACTION_FAILED", "the app refused the text", {
            suggestion: "The field may be read-only; check its state with read",
          });
        }
        return { via: "accessible", detail: "EditableText" };
      }
      case "keys":
        // Text fields without EditableText (Chromium): select all, then type over it.
        this.#focusForKeys();
        pressCombo(n, parseCombo("ctrl+a"));
        if (value === "") pressCombo(n, parseCombo("BackSpace"));
        else this.#typeKeys(value);
        settle(n);
        return { via: "input", detail: "keyboard" };
      case "selected":
      case "select": {
        let selected: ActionResult | null;
        try {
          selected = this.#select(value);
        } catch (e) {
          // A select-only combo box (ARIA) keeps its options in a popup it controls.
          if (
            e instanceof DesktopError && e.code === "ELEMENT_NOT_FOUND" && role === COMBO_BOX_ROLE
          ) {
            const picked = this.#selectFromPopup(value);
            if (picked) return picked;
          }
          // A combo box with an entry takes any text, not only its items' (a search field).
          const typed = e instanceof DesktopError && e.code === "ELEMENT_NOT_FOUND"
            ? this.#setEntryText(value)
            : null;
          if (!typed) throw e;
          return typed;
        }
        if (selected) return selected;
        const typed = this.#setEntryText(value);
        if (typed) return typed;
        throw noSettableValue();
      }
    }
  }

  /** The element's current number, read afresh; NaN when it cannot be read. */
  #valueNow(val: Ptr): number {
    const n = this.#n;
    n.pump();
    n.sym.atspi_accessible_clear_cache(this.#acc);
    const v = n.sym.atspi_value_get_current_value(val, n.err.buf);
    return n.err.take() === null ? v : NaN;
  }

  /**
   * Brings a slider or spin button to `want` (a number, or a value text) with
   * its keys, as a user does (src/act/steps.ts), reading its value after each.
   */
  #stepToValue(val: Ptr, want: number | string, slider: boolean): ActionResult {
    const n = this.#n;
    this.#focusForKeys(true);
    const range = readRange(n, val);
    const presses = stepToValue({
      want,
      slider,
      deadline: this.#deadline,
      ...(range ? { range } : {}),
      read: () => {
        const value = this.#valueNow(val);
        const text = this.#valueText();
        return text === undefined ? { value } : { value, text };
      },
      press: (key) => {
        pressCombo(n, parseCombo(key));
        settle(n);
      },
    });
    return {
      via: "input",
      detail: `keys: ${presses} presses, the app ignored the Value`,
    };
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

  /**
   * Chooses an option of a select-only combo box whose options live in a
   * popup it controls (ARIA's pattern: a listbox named by aria-controls,
   * shown once the combo box is opened): opens it with a click, then clicks
   * the option. Null when the element controls no popup.
   */
  #selectFromPopup(value: string): ActionResult | null {
    const n = this.#n;
    using held = new DisposableStack();
    let popup = this.#controlled(held);
    if (!popup || !new ElementActor(n, popup).#showing()) {
      this.pointerClick("left", 1);
      const until = Math.min(this.#deadline, Date.now() + MENU_OPEN_WAIT_MS);
      do {
        settle(n);
        n.sym.atspi_accessible_clear_cache(this.#acc);
        popup = this.#controlled(held);
      } while ((!popup || !new ElementActor(n, popup).#showing()) && Date.now() < until);
      if (!popup) return null;
    }
    const names = childNames(n, popup);
    const want = value.trim().toLowerCase();
    const index = names.findIndex((x) => x.trim().toLowerCase() === want);
    if (index < 0) {
      // Leave it as it was: closed.
      pressCombo(n, parseCombo("Escape"));
      settle(n);
      const offered = names.filter((x) => x.trim() !== "");
      throw new DesktopError("ELEMENT_NOT_FOUND", `no option named "${value}"`, {
        suggestion: offered.length
          ? `Pass one of: ${offered.slice(0, 20).join(", ")}`
          : "The popup shows no options; read the app after opening it",
        details: { options: offered.slice(0, 50) },
      });
    }
    using option = n.own(n.sym.atspi_accessible_get_child_at_index(popup, index, n.err.buf));
    n.check("read option");
    if (!option) return null;
    new ElementActor(n, option.ptr, false, this.#deadline).pointerClick("left", 1);
    return { via: "input", detail: "popup opened, option clicked" };
  }

  /** The first object the element controls (CONTROLLER_FOR: ARIA's aria-controls), owned by `held`. */
  #controlled(held: DisposableStack): Ptr | null {
    const n = this.#n;
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
          const target = held.use(n.own(n.sym.atspi_relation_get_target(rel, 0)));
          if (target) found = target.ptr;
        } finally {
          n.sym.g_object_unref(rel);
        }
      }
    } finally {
      n.sym.g_array_unref(arr);
    }
    return found;
  }

  /** Sets the text of the editable field inside a combo box with an entry; null when it has none. */
  #setEntryText(value: string): ActionResult | null {
    const n = this.#n;
    const count = Math.min(n.sym.atspi_accessible_get_child_count(this.#acc, n.err.buf), 16);
    n.check("read children");
    for (let i = 0; i < count; i++) {
      using child = n.own(n.sym.atspi_accessible_get_child_at_index(this.#acc, i, n.err.buf));
      n.check("read child");
      if (!child) continue;
      using et = n.own(n.sym.atspi_accessible_get_editable_text_iface(child.ptr));
      if (et) return new ElementActor(n, child.ptr, false, this.#deadline).setValue(value);
    }
    return null;
  }

  /**
   * Selects the option named `value`: through the Selection interface of the
   * element, or of its single list or menu child (a combo box keeps its items
   * there: GTK's combos, Firefox's `<select>`), else by the option's own
   * action. Null when the element holds no options at all.
   */
  #select(value: string): ActionResult | null {
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
    let selectable = this.#role() === COMBO_BOX_ROLE;
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
      const viaSelection = sel !== null &&
        !(role === ATSPI_ROLE.MENU && isGtk(this.#toolkit()));
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
          new ElementActor(n, holder),
          new ElementActor(n, option.ptr),
        );
        if (picked) return picked;
      }
      const actions = option ? optional(() => readActions(n, option.ptr)) ?? [] : [];
      const lower = actions.map((x) => x.toLowerCase());
      const i = lower.includes("select") ? lower.indexOf("select") : pickClickAction(actions);
      if (option && i >= 0) {
        new ElementActor(n, option.ptr).#doAction(i, actions[i]);
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
  #pickFromPopup(popup: ElementActor, option: ElementActor): ActionResult | null {
    if (!popup.#showing() || !option.#showing()) {
      const names = optional(() => readActions(this.#n, this.#acc)) ?? [];
      const i = pickClickAction(names);
      if (i < 0) return null;
      this.#doAction(i, names[i]);
      if (!popup.#waitShowing() || !option.#waitShowing()) return null;
    }
    const box = option.#visiblePart();
    if (!box) return null;
    clickAt(this.#n, centreOf(box));
    return { via: "input", detail: "popup opened, option clicked" };
  }

  /** Scrolls into view (no amount) or wheels `amount` steps at the centre. */
  scroll(action: Extract<Action, { kind: "scroll" }>): ActionResult {
    const n = this.#n;
    if (action.amount === undefined) {
      this.#scrollTo();
      return { via: "accessible", detail: "scroll_to" };
    }
    wheelAt(n, this.centre(), action.direction ?? "down", action.amount, this.#deadline);
    return { via: "input", detail: `wheel ${action.direction ?? "down"} x${action.amount}` };
  }
}

/** The range of a Value, or undefined when the app does not say. */
function readRange(n: Native, val: Ptr): { min: number; max: number } | undefined {
  return optional(() => {
    const min = n.sym.atspi_value_get_minimum_value(val, n.err.buf);
    n.check("read the minimum");
    const max = n.sym.atspi_value_get_maximum_value(val, n.err.buf);
    n.check("read the maximum");
    return { min, max };
  }) ?? undefined;
}

/**
 * Carries out an action at a screen point (synthesized input only), its
 * arguments checked first and the display's input held throughout.
 *
 * @param n the native session
 * @param p the point
 * @param action what to do
 * @param deadline the command's deadline (ms since the epoch): typing and wheel steps stop there
 * @returns how it was done
 * @throws DesktopError ACTION_NOT_SUPPORTED for an action that needs an element
 */
export function actAtPoint(
  n: Native,
  p: Point,
  action: Action,
  deadline = Infinity,
): ActionResult {
  checkActionArgs(action);
  using _input = holdInput(action.kind, deadline);
  switch (action.kind) {
    case "click":
      clickAt(n, p, action.button ?? "left", action.count ?? 1);
      return { via: "input", detail: "click" };
    case "type":
      clickAt(n, p);
      typeInChunks({
        text: action.text,
        deadline,
        send: (chunk) => typeString(n, chunk),
        check: () => settle(n),
      });
      return { via: "input", detail: "keyboard" };
    case "key": {
      const combo = parseCombo(action.combo);
      const repeat = action.repeat ?? 1;
      repeatSteps({
        count: repeat,
        deadline,
        what: `presses of ${action.combo}`,
        step: () => (pressCombo(n, combo), repeat > 1 && settle(n)),
      });
      return { via: "input", detail: repeat > 1 ? `${action.combo} x${repeat}` : action.combo };
    }
    case "scroll":
      wheelAt(n, p, action.direction ?? "down", action.amount ?? 3, deadline);
      return { via: "input", detail: "wheel" };
    case "drag":
      dragBetween(n, p, action.to);
      return { via: "input", detail: "drag" };
    default:
      throw new DesktopError(
        "ACTION_NOT_SUPPORTED",
        `${action.kind} needs an element, not a point`,
        { suggestion: "Target an element with --ref, --id or --text" },
      );
  }
}

/**
 * Lets synthesized input reach the app before the next request: key events
 * travel through the X server while accessibility calls go over D-Bus, so a
 * later focus change could overtake them.
 */
function settle(n: Native): void {
  sleepSync(60);
  n.pump();
}

function childNames(n: Native, acc: Ptr): string[] {
  const count = n.sym.atspi_accessible_get_child_count(acc, n.err.buf);
  n.check("read children");
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    using c = n.own(n.sym.atspi_accessible_get_child_at_index(acc, i, n.err.buf));
    n.check("read child");
    out.push(c ? n.str(n.sym.atspi_accessible_get_name(c.ptr, n.err.buf), "read name") : "");
  }
  return out;
}
