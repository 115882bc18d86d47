/**
 * What an action did: read the app again until it settles (bounded), diff the
 * reads, and judge whether the action had the effect it should have. Pure: the
 * caller passes the read function, so every backend gets the same policy.
 *
 * @module
 */

import { type Change, diffTrees } from "../diff/diff.ts";
import { isSilentField } from "../diff/noise.ts";
import { type Element, VALUE_FIELDS } from "../model/element.ts";
import { walk } from "../model/tree.ts";
import { DesktopError } from "../errors.ts";
import { locateAll, toStored } from "../identity/same.ts";
import { indexedBase, stripIndex } from "../identity/syntax.ts";
import { twinByCells } from "../identity/twin_rows.ts";
import type { Action } from "../platform/provider.ts";
import { type InView, inViewOf } from "./in_view.ts";

/** How long an action's effect may take to show, by default (ms). */
export const DEFAULT_SETTLE_MS = 1500;

/**
 * How long an action's changes must hold still before they count as its
 * effect (ms). Apps show an effect in stages: rustdoc's theme radio is
 * checked at once, and the settings it reveals reach the accessibility tree
 * 600 ms later; two reads that agree 150 ms apart would have missed them.
 */
export const ACTION_QUIET_MS = 500;

/**
 * The same for typed text (ms): pages and apps that act on text as it is
 * typed wait for a pause first (rustdoc's search runs 500 ms after the last
 * key, a debounced suggestion list 250-300 ms).
 */
export const TYPED_QUIET_MS = 700;

/** The first pause before reading the app again (ms); later pauses grow to {@link MAX_POLL_MS}. */
const POLL_MS = 100;

/** The longest pause between two reads while the app settles (ms). */
const MAX_POLL_MS = 400;

/** Options of {@link settleChanges}. */
export interface SettleOptions {
  /** Longest wait for a change to show (ms). */
  settleMs?: number;
  /** The caller's deadline (ms since the epoch): settling ends by it, whatever `settleMs` says. */
  deadline?: number;
  /**
   * Count moves and resizes as the action's effect (scroll and drag move
   * things; for other actions they are noise). They are reported only with
   * {@link SettleOptions.reportBounds}.
   */
  bounds?: boolean;
  /** Keep bounds changes in the reported changes (default: left out). */
  reportBounds?: boolean;
  /**
   * How long the changes must hold still before they count as settled (ms;
   * default 0: two reads in a row agree). Text typed into a field often
   * acts only after a pause (a search that runs 300-500 ms after the last
   * key): its effect is the field's value and then, later, the results.
   */
  quietMs?: number;
  /**
   * Whether changes are an effect that may end the wait once they hold
   * still (default: any change). Changes it says no to are waited past, to
   * the settle time: a press that only moved the keyboard focus may show its
   * effect later (a handler that answers after a network round trip).
   */
  isEffect?: (changes: Change[]) => boolean;
  /** Sleeps `ms` (tests pass a fake clock). */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds now (tests pass a fake clock). */
  now?: () => number;
}

/** The settled state after an action. */
export interface Settled {
  /** The last tree read (refs assigned by the reader). */
  root: Element;
  /** Changes from the tree before the action to {@link Settled.root}. */
  changes: Change[];
  /** Why reading again failed, when it did (the last good tree is kept). */
  readError?: DesktopError;
  /** How many elements only moved or resized (left out of `changes`, see `reportBounds`). */
  boxesOnly?: number;
  /** The tree read before the action (where removed elements were). */
  before?: Element;
}

/**
 * Reads the app again until the action's changes show and hold still (two
 * reads in a row agree, for at least `quietMs`), or until the settle time is over. Nothing changing
 * costs the whole settle time; a change that shows at once costs
 * reads over `quietMs`.
 *
 * @param before the tree read before the action (refs assigned)
 * @param read reads the tree again (refs assigned)
 * @param opts settle time, bounds, clock
 * @returns the last tree and its changes
 * @example
 * ```ts
 * import { settleChanges } from "./effect.ts";
 * const before = { i: 1, ref: "f", r: "input" as const, v: "" };
 * const after = { ...before, v: "x" };
 * const s = await settleChanges(before, () => Promise.resolve(after), { sleep: () => Promise.resolve() });
 * console.log(s.changes.length); // 1
 * ```
 */
export async function settleChanges(
  before: Element,
  read: () => Promise<Element>,
  opts: SettleOptions = {},
): Promise<Settled> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = opts.now ?? Date.now;
  const hard = opts.deadline ?? Infinity;
  const until = Math.min(now() + (opts.settleMs ?? DEFAULT_SETTLE_MS), hard);
  const diffOpts = { ignoreBounds: !opts.bounds };
  let root = before;
  let changes: Change[] = [];
  let prev: Element | null = null;
  let pause = POLL_MS;
  let readError: DesktopError | undefined;
  /** When the last read began: a read shows the app as it was then, not when it ends. */
  let began = now();
  /** What the last read and its comparison took: one that would end past the deadline waits. */
  let cost = 0;
  /** When the first read showing the state now held began. */
  let heldSince = began;
  /** Whether the changes read so far are an effect (see `isEffect`). */
  let seen = false;
  do {
    await sleep(Math.min(pause, Math.max(0, until - now())) || POLL_MS);
    if (now() + (prev ? cost : 0) >= hard) {
      // No time left to read again: judge on what was read, if anything was.
      return finish(prev ? { root, changes } : { root, changes, readError: pastDeadline() });
    }
    // Back off: a big app read many times over would slow the app it watches.
    pause = Math.min(MAX_POLL_MS, Math.round(pause * 1.6));
    let cur: Element;
    began = now();
    try {
      cur = await read();
    } catch (e) {
      if (!(e instanceof DesktopError)) throw e;
      // An app that is quitting (the action asked it to) stops answering before its process
      // ends: ask again while there is time, and it becomes APP_NOT_FOUND.
      if (e.code === "APP_UNRESPONSIVE" && now() < until) {
        readError = e;
        continue;
      }
      return finish({ root, changes, readError: e });
    }
    readError = undefined;
    root = cur;
    changes = diffTrees(before, cur, diffOpts);
    const same = prev !== null && diffTrees(prev, cur, diffOpts).length === 0;
    if (!same) heldSince = began;
    seen = changes.length > 0 && (opts.isEffect?.(changes) ?? true);
    const holds = seen && same && now() - heldSince >= (opts.quietMs ?? 0);
    cost = now() - began;
    if (holds) break;
    prev = cur;
    // A read that took longer than the settle time (a large app) began before the effect had
    // its time to show: "nothing changed" waits for one read begun after that time.
  } while (now() < until || (!seen && began < until - POLL_MS && now() < hard));
  const settled: Settled = readError ? { root, changes, readError } : { root, changes };
  return finish(settled);

  function finish(s: Settled): Settled {
    return { ...(opts.bounds && !opts.reportBounds ? withoutBoxes(s) : s), before };
  }
}

/** A settled state with bounds left out of its changes, counting the elements that only moved. */
function withoutBoxes(s: Settled): Settled {
  let boxesOnly = 0;
  const changes: Change[] = [];
  for (const ch of s.changes) {
    if (ch.type !== "changed" || !("b" in ch.changes)) {
      changes.push(ch);
      continue;
    }
    const { b: _b, ...rest } = ch.changes;
    if (Object.keys(rest).length) changes.push({ ...ch, changes: rest });
    else boxesOnly++;
  }
  return { ...s, changes, ...(boxesOnly ? { boxesOnly } : {}) };
}

function pastDeadline(): DesktopError {
  return new DesktopError("TIMEOUT", "the command's deadline passed before the effect was read", {
    suggestion: "Read the app to see the action's effect, or raise --timeout",
  });
}

/** The verdict on an action's effect. */
export interface Effect {
  /** What changed, ref-keyed. */
  changes: Change[];
  /** The target as it is after the action; null when it is gone; absent for a point. */
  after?: Element | null;
  /** Set when the action's effect could not be confirmed, saying why. */
  unverified?: string;
  /** After a scroll of an element in a direction: what it shows now and showed before. */
  inView?: { now: InView; was: InView | null };
}

/**
 * Judges a settled action: the element as it is now, and whether the action
 * did what it should. `type` and `set-value` that changed nothing anywhere,
 * on an element that shows its value, fail with ACTION_FAILED (the keys or
 * the value went nowhere); any other action that changed nothing is
 * reported as unverified, since a click may rightly change nothing visible.
 *
 * @param action what was done
 * @param target the element acted on, as read before (absent for a point)
 * @param settled the state after the action
 * @param settleMs the settle time, for messages
 * @returns the effect
 * @throws DesktopError ACTION_FAILED when typing or setting a value had no effect
 * @example
 * ```ts
 * import { judgeEffect } from "./effect.ts";
 * const el = { i: 2, ref: "f", r: "input" as const, v: "" };
 * const root = { i: 1, ref: "w", r: "window" as const, c: [{ ...el, v: "hi" }] };
 * const changes = [{ type: "changed" as const, ref: "f", i: 2, changes: { v: ["", "hi"] as [unknown, unknown] } }];
 * const e = judgeEffect({ kind: "type", text: "hi" }, el, { root, changes }, 1500);
 * console.log(e.after?.v, e.unverified); // "hi" undefined
 * ```
 */
export function judgeEffect(
  action: Action,
  target: Element | undefined,
  settled: Settled,
  settleMs: number,
): Effect {
  const { changes, readError } = settled;
  // Whole milliseconds in messages (the settle time may be what is left of a deadline).
  settleMs = Math.round(settleMs);
  const after = target ? twinAgain(settled, target) ?? findAgain(settled.root, target) : undefined;
  const effect: Effect = { changes, ...(target ? { after } : {}) };
  if ((readError?.code === "WINDOW_NOT_FOUND" || readError?.code === "APP_NOT_FOUND") && target) {
    // The window the read was scoped to closed, or the app quit (a quit dialog's Save): the
    // element went with it.
    effect.after = null;
    return effect;
  }
  if (readError) {
    effect.unverified = `the app could not be read after the action (${readError.code}: ` +
      `${readError.message})`;
    return effect;
  }
  // Elements that only moved (a scroll) are an effect, though not listed.
  const moved = settled.boxesOnly ?? 0;
  if (!target) {
    if (changes.length === 0 && !moved) effect.unverified = `nothing changed within ${settleMs} ms`;
    return effect;
  }
  const own = after ? changes.find((c) => c.type === "changed" && c.ref === after.ref) : undefined;
  if (action.kind === "type" || action.kind === "set-value") {
    // Only its value counts: a field that took the focus while the keys went to another
    // app changed too, but not its text.
    // A combo box with an entry takes the text in its entry: a value inside it counts too.
    const inside = after ? descendantRefs(after) : new Set<string>();
    const ownValue = (own?.type === "changed" &&
      Object.keys(own.changes).some((k) => VALUE_FIELDS.has(k))) ||
      changes.some((c) => c.type === "changed" && inside.has(c.ref) && "v" in c.changes);
    if (ownValue && action.kind === "type" && after && !holdsTyped(after, action.text)) {
      // Keys that arrive as other characters (a keyboard map that could not type them) change
      // the value too: say so rather than ok.
      effect.unverified = after.r === "spin" && after.vt !== undefined &&
          holdsTyped({ ...after, v: after.vt }, action.text)
        // A spin button takes a typed number when it is committed (GTK: Return, Tab, leaving).
        ? `the field shows ${JSON.stringify(after.vt)} but the spin still holds ${after.v}: ` +
          "key Return or Tab commits it"
        : `the value does not hold the typed text (it reads ${
          JSON.stringify(String(after.v ?? "").slice(-80))
        })`;
      return effect;
    }
    if (ownValue || (after && alreadySet(action, after))) return effect;
    // A check box shows its value as its checked state: a set-value that left it as it was
    // provably did nothing.
    const showsValue = target.v !== undefined || after?.v !== undefined ||
      TEXT_ROLES.has(target.r) ||
      (action.kind === "set-value" && (target.chk !== undefined || after?.chk !== undefined));
    // Text that submits (a newline, a tab) may clear or leave its field: no verdict then.
    const submits = action.kind === "type" && /[\n\r\t]/.test(action.text);
    if (after && changes.length > 0 && showsValue && !target.sec && !submits) {
      throw new DesktopError(
        "ACTION_FAILED",
        action.kind === "type"
          ? `typed ${[...action.text].length} characters but the element's value did not change ` +
            "(other elements did)"
          : "set the value but the element's value did not change (other elements did)",
        {
          suggestion: "The keys may have gone to another element or app; read the app to see " +
            "where they went, then retry (or click the element first)",
          details: { ref: target.ref, changed: changes.map((c) => c.ref).slice(0, 10) },
        },
      );
    }
    if (changes.length === 0 && showsValue && !target.sec) {
      throw new DesktopError(
        "ACTION_FAILED",
        action.kind === "type"
          ? `typed ${[...action.text].length} characters but nothing changed within ${settleMs} ms`
          : `set the value but nothing changed within ${settleMs} ms`,
        {
          suggestion: action.kind === "type"
            ? "The element may not have taken keyboard focus, or may be read-only; " +
              "read it to check its state, then retry (or click it first)"
            : "The app did not take the value (a read-only element, or one that reverts it); " +
              "read it to check its state",
          details: {
            ref: target.ref,
            value: target.sec ? undefined : target.v ?? null,
            ...(target.chk !== undefined ? { checked: target.chk } : {}),
          },
        },
      );
    }
    effect.unverified = after
      ? "the element's value did not change" +
        (changes.length ? "; other elements did" : ` within ${settleMs} ms`)
      : "the element is gone after the action";
    return effect;
  }
  if (action.kind === "focus" && after) {
    // Focus is the effect asked for: the element's own focused state is the verdict.
    if (!after.f) effect.unverified = "the element does not report the keyboard focus";
    return effect;
  }
  if (
    action.kind === "click" && after && target.chk === false && after.chk === false &&
    (action.button ?? "left") === "left" && (action.count ?? 1) === 1 && changes.length > 0
  ) {
    // A plain click checks what it presses (a check box, a toggle, a radio button): one that
    // is still unchecked did not take it, whatever else moved (a list that scrolled under it).
    effect.unverified = `the element is still unchecked; other elements changed`;
    return effect;
  }
  if (action.kind === "click" && after && LIST_ITEM_ROLES.has(target.r)) {
    // The app's own witness of where a press on a list went: the item it selected. Another
    // item selected while this one is not means the press went there (a list that moved).
    const took = otherItemSelected(changes, settled.root, after);
    if (took) {
      effect.unverified =
        `another item took the click: ${took.ref} became ${took.state}, not the element`;
      return effect;
    }
    const lives = changes.length > 0 ? listLifeOnly(changes, settled, target, after) : 0;
    if (lives) {
      // A live list (a process monitor's figures, rows that come and go) changes whether or
      // not the press landed: only the item, or what lies outside its list, witnesses it.
      effect.unverified = `the row did not become selected or focused, and nothing outside ` +
        `its list changed within ${settleMs} ms; its list changes by itself (${lives} changes, ` +
        "in other rows too)";
      return effect;
    }
  }
  if (action.kind === "scroll" && action.direction && after) {
    // Its boxes are out of the changes: say where the view went instead.
    const axis = action.direction === "up" || action.direction === "down"
      ? "vertical"
      : "horizontal";
    const now = inViewOf(settled.root, after, axis);
    const was = settled.before ? inViewOf(settled.before, target, axis) : null;
    if (now) effect.inView = { now, was };
  }
  if (changes.length === 0 && !moved) effect.unverified = `nothing changed within ${settleMs} ms`;
  else if (!moved && onlyFocusMoved(action, target, changes, after?.ref)) {
    // Synthesized input gives the app (and a clicked button) the keyboard focus: that alone
    // says nothing of what the click was for (a calculator's key that did not register).
    effect.unverified = changes.some((c) => c.type === "changed" && "f" in c.changes)
      ? `only the keyboard focus moved within ${settleMs} ms`
      : `nothing visible changed within ${settleMs} ms`;
  }
  return effect;
}

/**
 * Whether an element's value holds typed text: its printable part (keys such
 * as Enter and Tab act rather than insert). A value the element does not
 * show, or a secret one, gives no verdict.
 */
function holdsTyped(el: Element, text: string): boolean {
  if (el.sec || el.v === undefined) return true;
  // Line breaks and tabs are keys (Return, Tab): compare the rest on both sides.
  const typed = text.replace(/[\p{Cc}]/gu, "");
  const v = String(el.v).replace(/[\p{Cc}]/gu, "");
  // A long value is read cut, ending in "…" (2000 characters on Linux): what was typed may lie
  // past the cut.
  if (v.length > 1000 && v.endsWith("…")) return true;
  return typed === "" || v.includes(typed);
}

/** The refs of an element's descendants. */
function descendantRefs(el: Element): Set<string> {
  const out = new Set<string>();
  walk(el, (e) => void (e !== el && e.ref !== undefined && out.add(e.ref)));
  return out;
}

/**
 * Whether changes are only the keyboard focus moving, which is no effect of
 * the action: synthesized input gives the app (and a pressed button) the
 * focus, which says nothing of what the press was for. It is the effect of
 * a click into a field, and of a key that moved the focus on to another
 * element (Tab, an arrow in a menu).
 *
 * @param action what was done (not `focus`: there the focus is the effect)
 * @param target the element acted on
 * @param changes what changed
 * @param targetRef the element's ref now
 */
function onlyFocusMoved(
  action: Action,
  target: Element,
  changes: Change[],
  targetRef: string | undefined,
): boolean {
  if (TEXT_ROLES.has(target.r) || !changes.every(focusOnly)) return false;
  return !(action.kind === "key" && focusMovedOn(changes, targetRef));
}

/** Whether an element other than the one acted on took the keyboard focus. */
function focusMovedOn(changes: Change[], targetRef: string | undefined): boolean {
  return changes.some((c) =>
    c.type === "changed" && "f" in c.changes && c.changes.f[1] === true && c.ref !== targetRef
  );
}

/**
 * Whether a change says nothing of what an action did: only a focus change,
 * or nothing a reader would see (an icon glyph, spacing). A reorder (`at`)
 * is news.
 */
function focusOnly(c: Change): boolean {
  if (c.type !== "changed") return false;
  return Object.entries(c.changes).every(([k, [a, b]]) => k === "f" || isSilentField(k, a, b));
}

/** Roles of list items, which a click selects. */
const LIST_ITEM_ROLES: ReadonlySet<string> = new Set([
  "row",
  "cell",
  "option",
  "treeitem",
  "listitem",
]);

/**
 * The ref of a list item that became selected by the change while `el` (the
 * item clicked, as it is now) is not selected: neither it, its row, nor an
 * item inside it. Undefined when no other item was selected.
 */
function otherItemSelected(
  changes: Change[],
  root: Element,
  el: Element,
): { ref: string; state: "selected" | "focused" } | undefined {
  const path = pathTo(root, el);
  if (!path) return undefined;
  const inside = descendantRefs(el);
  const around = new Set(path.map((x) => x.ref).filter((r) => r !== undefined));
  // The selection first, then the focus: a spreadsheet's click moves its cursor (focus) alone.
  for (const [key, state] of [["s", "selected"], ["f", "focused"]] as const) {
    const has = (x: Element | undefined) => x?.[key] === true;
    // The element, a row or item around it, or a cell in it took it: the press landed.
    if (path.some(has) || findAll(el, has)) return undefined;
    for (const c of changes) {
      if (c.type !== "changed" || !(key in c.changes) || c.changes[key][1] !== true) continue;
      if (around.has(c.ref) || inside.has(c.ref)) continue;
      // Only another item witnesses where the press went (a field may take the focus anyway).
      if (
        key === "f" &&
        !LIST_ITEM_ROLES.has(pathWhere(root, (x) => x.ref === c.ref)?.at(-1)?.r ?? "")
      ) {
        continue;
      }
      return { ref: c.ref, state };
    }
  }
  return undefined;
}

/** Roles of elements that hold list items: a press on an item changes the item, or outside. */
const LIST_ROLES: ReadonlySet<string> = new Set(["table", "list", "listbox", "tree"]);

/**
 * How many changes lie in the clicked item's list, when they say nothing of
 * the press: the item (or its row, or what is inside it) is not selected or
 * focused and its states did not change, nothing changed outside the list or
 * on the list itself, and other items of the list changed too (a live list:
 * the item's own figures change with theirs). 0 when something witnesses the
 * press, or the item is in no list.
 */
function listLifeOnly(changes: Change[], settled: Settled, target: Element, el: Element): number {
  const path = pathTo(settled.root, el);
  if (!path) return 0;
  const at = path.findLastIndex((x, k) => k < path.length - 1 && LIST_ROLES.has(x.r));
  if (at < 0) return 0;
  const own = path.slice(at + 1);
  // Selected or focused (before or now): the press may rightly change nothing.
  const witnessed = (x: Element) => x.s === true || x.f === true;
  if (own.some(witnessed) || findAll(el, witnessed) || target.s || target.f) return 0;
  const itemRefs = new Set<string>();
  for (const x of own) if (x.ref !== undefined) itemRefs.add(x.ref);
  for (const r of descendantRefs(el)) itemRefs.add(r);
  const list = path[at];
  const listRefs = descendantRefs(list);
  const before = settled.before
    ? pathWhere(settled.before, (x) => x.ref === target.ref && x.r === target.r)
    : null;
  const listBefore = before?.findLast((x) => LIST_ROLES.has(x.r) && x.ref === list.ref);
  if (listBefore) { for (const r of descendantRefs(listBefore)) listRefs.add(r); }
  let others = 0;
  for (const c of changes) {
    if (itemRefs.has(c.ref)) {
      // A state of its own that changed (expanded, checked) is the press's doing.
      if (c.type !== "changed" || Object.keys(c.changes).some((k) => ITEM_STATES.has(k))) return 0;
      continue;
    }
    // Outside the list, or the list itself (a removed element's place is known only from the
    // tree before, when the caller gave it).
    if (!listRefs.has(c.ref)) return 0;
    others++;
  }
  // Only its own text changed (a row that shows what the press did): that is the witness.
  return others ? changes.length : 0;
}

/** Fields of an item that a press changes and the app does not change by itself. */
const ITEM_STATES: ReadonlySet<string> = new Set(["s", "f", "exp", "chk"]);

/** The elements from the root down to `el` (by identity), or null when it is not there. */
function pathTo(root: Element, el: Element): Element[] | null {
  return pathWhere(root, (x) => x === el);
}

/** The elements from the root down to the first that passes `test`, or null when none does. */
function pathWhere(root: Element, test: (x: Element) => boolean): Element[] | null {
  if (test(root)) return [root];
  for (const c of root.c ?? []) {
    const below = pathWhere(c, test);
    if (below) return [root, ...below];
  }
  return null;
}

/** Whether an element below `el` passes `test`. */
function findAll(el: Element, test: (x: Element) => boolean): boolean {
  for (const c of el.c ?? []) if (test(c) || findAll(c, test)) return true;
  return false;
}

/** Roles whose value is their text: typing into them must change it. */
const TEXT_ROLES: ReadonlySet<string> = new Set(["input", "combo", "spin"]);

/**
 * A twin row without a native id, found again by the cell that keeps its text
 * (see src/identity/twin_rows.ts): its `.N` index shifts when a twin comes or
 * goes while the action settles (a process that ended). Undefined when the
 * target is no such twin, or the cells do not tell.
 */
function twinAgain(settled: Settled, target: Element): Element | undefined {
  if (target.nid !== undefined || indexedBase(target.ref) === undefined || !settled.before) {
    return undefined;
  }
  const before = locateAll(settled.before);
  // The target is a copy of the element of the read before (its id is the last read's).
  const was = before.find((x) => x.el.ref === target.ref && x.el.r === target.r);
  if (!was) return undefined;
  // The read before, as the store would keep it.
  const read = { app: { name: "", pid: 0 }, readAt: "", elements: before.map((x) => toStored(x)) };
  const fresh = locateAll(settled.root);
  const base = stripIndex(target.ref!);
  const twins = fresh.filter((x) =>
    x.el.r === target.r && x.el.ref !== undefined && stripIndex(x.el.ref) === base
  );
  return twinByCells(fresh, toStored(was), read, twins)?.el;
}

/** The target in the new tree: same native object first, else the same ref (as the differ matches); null when gone. */
function findAgain(root: Element, target: Element): Element | null {
  let byRef: Element | null = null;
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (target.nid !== undefined && el.nid === target.nid) return el;
    // Only the same kind of element: a dialog opened by the click may take the button's ref.
    if (byRef === null && el.ref === target.ref && target.ref !== undefined && el.r === target.r) {
      byRef = el;
    }
    for (const c of el.c ?? []) stack.push(c);
  }
  // Its native object is gone but its ref is there: apps that make objects on
  // demand (spreadsheet cells) give the same cell a new object on each read.
  return byRef;
}

/** Whether set-value asked for the state the element already has (nothing to change). */
function alreadySet(action: Action, el: Element): boolean {
  if (action.kind !== "set-value") return false;
  const want = action.value.trim().toLowerCase();
  if (el.chk !== undefined) {
    const on = ["true", "on", "yes", "1", "checked", "check"].includes(want);
    const off = ["false", "off", "no", "0", "unchecked", "uncheck"].includes(want);
    return (on && el.chk === true) || (off && el.chk === false);
  }
  const v = el.v === undefined ? "" : String(el.v);
  if (v.trim().toLowerCase() === want || el.vt?.trim().toLowerCase() === want) return true;
  return want !== "" && Number.isFinite(Number(want)) && Number(v) === Number(want) && v !== "";
}

/**
 * Settles and judges in one step: what the action changed and whether it had
 * the effect it should have (see {@link settleChanges} and {@link judgeEffect}).
 *
 * @param action what was done
 * @param target the element acted on, as read before (absent for a point)
 * @param before the tree read before the action
 * @param read reads the tree again
 * @param settleMs longest wait for the effect to show
 * @param deadline the caller's deadline (ms since the epoch), which settling never passes
 * @param reportBounds keep moves and resizes in the changes (default: left out; a scroll
 *   or drag that only moved things is still verified by them)
 * @returns the effect
 * @throws DesktopError ACTION_FAILED when typing or setting a value had no effect
 */
export async function effectOf(
  action: Action,
  target: Element | undefined,
  before: Element,
  read: () => Promise<Element>,
  settleMs: number = DEFAULT_SETTLE_MS,
  deadline?: number,
  reportBounds = false,
): Promise<Effect> {
  const bounds = reportBounds || action.kind === "scroll" || action.kind === "drag";
  // Typed text may act after a pause (search as one types): its changes wait for it.
  const quietMs = action.kind === "type" ? TYPED_QUIET_MS : ACTION_QUIET_MS;
  // The judge's rule, for the wait too: a focus that moved alone does not end it early.
  const isEffect = target && action.kind !== "focus"
    ? (changes: Change[]) => !onlyFocusMoved(action, target, changes, target.ref)
    : undefined;
  const settled = await settleChanges(before, read, {
    settleMs,
    bounds,
    reportBounds,
    deadline,
    quietMs,
    ...(isEffect ? { isEffect } : {}),
  });
  return judgeEffect(action, target, settled, settleMs);
}
