/**
 * The AX tree reader: one batched `AXUIElementCopyMultipleAttributeValues`
 * per element, error placeholders parsed by position, our own wall-clock
 * deadline, and element references kept in the session's nid table.
 *
 * A secure text field's AXValue is never requested: AXValue is not in the
 * batch (the role is unknown until the batch returns) and is read in a
 * second call only for value-bearing, non-secure roles.
 *
 * @module
 */

import type { Bounds, Element } from "../../model/element.ts";
import { isSecureAx, roleFromAx } from "../../model/roles.ts";
import { AX_ERROR } from "../../ffi/macos/ax_error.ts";
import type { CFOwned } from "../../ffi/macos/cf.ts";
import { friendlyAction } from "./action_names.ts";
import { type AxJs, type AxSession, deadlineError } from "./session.ts";

/** Options of {@link readTree}. */
export interface ReadTreeOptions {
  /** Levels below the root to read (undefined: all). */
  depth?: number;
  /** Read AXPosition/AXSize. */
  bounds: boolean;
  /** Absolute deadline (ms since epoch). */
  deadline: number;
  /** App name, for messages. */
  app: string;
  /** App pid. */
  pid: number;
}

/** Longest value text kept. */
export const VALUE_CAP = 2000;

const BATCH = [
  "AXRole",
  "AXSubrole",
  "AXTitle",
  "AXDescription",
  "AXHelp",
  "AXPlaceholderValue",
  "AXEnabled",
  "AXFocused",
  "AXSelected",
  "AXExpanded",
  "AXRequired",
  "AXInvalid",
  "AXChildren",
  "AXTitleUIElement",
  "AXMinValue",
  "AXMaxValue",
  "AXDisclosing",
  "AXMenuItemMarkChar",
  "AXPosition",
  "AXSize",
] as const;
type BatchAttr = typeof BATCH[number];
const BATCH_NO_BOUNDS = BATCH.filter((a) => a !== "AXPosition" && a !== "AXSize");

/** Roles whose AXValue carries information (text, number, state). */
const VALUE_ROLES = new Set([
  "AXStaticText",
  "AXTextField",
  "AXTextArea",
  "AXComboBox",
  "AXCheckBox",
  "AXRadioButton",
  "AXSwitch",
  "AXToggle",
  "AXSlider",
  "AXIncrementor",
  "AXStepper",
  "AXProgressIndicator",
  "AXLevelIndicator",
  "AXRelevanceIndicator",
  "AXValueIndicator",
  "AXHeading",
  "AXPopUpButton",
  "AXDateField",
  "AXTimeField",
  "AXScrollBar",
  "AXDisclosureTriangle",
]);

/** Roles whose numeric value is a check state (0, 1, 2 = mixed). */
const CHECK_ROLES = new Set(["AXCheckBox", "AXRadioButton", "AXSwitch", "AXToggle"]);

/** Editable roles: report `ro` when their value cannot be set. */
const EDITABLE_ROLES = new Set(["AXTextField", "AXTextArea", "AXComboBox"]);

/** Containers and text whose actions are not worth an extra round trip each. */
const NO_ACTION_ROLES = new Set([
  "AXApplication",
  "AXStaticText",
  "AXGroup",
  "AXScrollArea",
  "AXSplitGroup",
  "AXWebArea",
  "AXList",
  "AXTable",
  "AXOutline",
  "AXLayoutArea",
  "AXMenuBar",
  "AXTabGroup",
  "AXScrollBar",
  "AXHeading",
  "AXColumn",
]);

type Fields = Partial<Record<BatchAttr, AxJs>> & { children: CFOwned[]; titleElement?: CFOwned };

/**
 * Reads `root` (owned: it moves into the nid table) and its descendants.
 *
 * @param s the session
 * @param root the element to start from
 * @param opts depth, bounds, deadline
 * @returns the element tree, or null when the root vanished while reading
 */
export function readTree(s: AxSession, root: CFOwned, opts: ReadTreeOptions): Element | null {
  s.nids.beginRead();
  const labels = new Set<string>();
  const el = readElement(s, root, { ...opts, labels }, 0);
  if (el) {
    assignDepthFirstIds(el, { n: 1 });
    if (labels.size) demoteLabels(el, labels);
  }
  return el;
}

/**
 * A static text that labels another element (its AXTitleUIElement) keeps its
 * text as value, not label: the labelled element already carries that label,
 * and two elements named "Email" would make both refs ambiguous.
 */
function demoteLabels(el: Element, labels: ReadonlySet<string>): void {
  if (el.r === "txt" && el.nid && labels.has(el.nid) && el.t !== undefined && el.v === undefined) {
    el.v = el.t;
    delete el.t;
  }
  for (const c of el.c ?? []) demoteLabels(c, labels);
}

function assignDepthFirstIds(el: Element, counter: { n: number }): void {
  el.i = counter.n++;
  for (const c of el.c ?? []) assignDepthFirstIds(c, counter);
}

type WalkOptions = ReadTreeOptions & { labels: Set<string> };

function readElement(
  s: AxSession,
  owned: CFOwned,
  opts: WalkOptions,
  level: number,
): Element | null {
  if (Date.now() > opts.deadline) {
    owned[Symbol.dispose]();
    throw deadlineError(opts.app, s.timeoutMs, "reading the accessibility tree");
  }
  const { nid, ref } = s.nids.add(owned, opts.pid);
  const attrs = opts.bounds ? BATCH : BATCH_NO_BOUNDS;
  const res = s.copyMany(ref, attrs, (slots) => {
    const f: Fields = { children: [] };
    attrs.forEach((name, i) => {
      const slot = slots[i];
      if (!("ptr" in slot)) return;
      if (name === "AXChildren") {
        const kids = s.toJs(slot.ptr);
        if (kids && typeof kids === "object" && "array" in kids) {
          f.children = kids.array.map((k) => s.cf.retain(k));
        }
      } else if (name === "AXTitleUIElement") {
        const t = s.toJs(slot.ptr);
        if (t && typeof t === "object" && "element" in t) f.titleElement = s.cf.retain(t.element);
      } else {
        f[name] = s.toJs(slot.ptr);
      }
    });
    return f;
  });
  if (res.err !== 0 || !res.result) {
    // An element that died between its parent's read and its own is skipped.
    if (res.err === AX_ERROR.InvalidUIElement && level > 0) return null;
    throw s.appError(res.err, opts.pid, { op: "reading the accessibility tree", app: opts.app });
  }
  const f = res.result;
  using stack = new DisposableStack();
  for (const c of f.children) stack.use(c);
  if (f.titleElement) stack.use(f.titleElement);

  const role = str(f.AXRole) ?? "AXUnknown";
  const subrole = str(f.AXSubrole) || undefined;
  const el: Element = { i: 0, r: roleFromAx(role, subrole), nid };
  const secure = isSecureAx(role, subrole);
  let title = str(f.AXTitle);
  if (f.titleElement) {
    if (!title) title = labelText(s, f.titleElement);
    opts.labels.add(s.nids.add(s.cf.retain(f.titleElement.ptr), opts.pid).nid);
  }
  if (title) el.t = title;
  const desc = str(f.AXDescription) || str(f.AXHelp);
  if (desc && desc !== title) el.d = desc;
  if (f.AXEnabled === false) el.e = false;
  if (f.AXFocused === true) el.f = true;
  if (f.AXSelected === true) el.s = true;
  if (typeof f.AXExpanded === "boolean") el.exp = f.AXExpanded;
  else if (role === "AXRow" && typeof f.AXDisclosing === "boolean") el.exp = f.AXDisclosing;
  if (f.AXRequired === true) el.req = true;
  // WebKit says "true" (or "spelling", "grammar" for text marked so, not a rejected entry).
  if (f.AXInvalid === true || str(f.AXInvalid) === "true") el.inv = true;
  const ph = str(f.AXPlaceholderValue);
  if (ph) el.ph = ph;
  if (typeof f.AXMinValue === "number") el.min = f.AXMinValue;
  if (typeof f.AXMaxValue === "number") el.max = f.AXMaxValue;
  const b = bounds(f.AXPosition, f.AXSize);
  if (b) el.b = b;
  if (str(f.AXMenuItemMarkChar)) el.chk = true;
  if (secure) el.sec = true;
  else if (VALUE_ROLES.has(role)) applyValue(s, ref, role, el);
  if (role === "AXColumnHeader") {
    const d = s.read(ref, "AXSortDirection", VALUE_CAP);
    const sort = d.err === 0 && typeof d.value === "string" ? SORT_DIRECTIONS[d.value] : undefined;
    if (sort) el.sort = sort;
  }
  if (EDITABLE_ROLES.has(role) && !secure) {
    const { err, settable } = s.settable(ref, "AXValue");
    if (err === 0 && !settable) el.ro = true;
  }
  if (!NO_ACTION_ROLES.has(role)) {
    const { names } = s.actionNames(ref);
    if (names.length) el.a = names.map(friendlyAction);
  }

  const deeper = opts.depth === undefined || level < opts.depth;
  // Closed menus of the menu bar are hundreds of items: read them only while open.
  const pruned = role === "AXMenuBarItem" && f.AXSelected !== true;
  if (deeper && !pruned && f.children.length) {
    const kids: Element[] = [];
    for (const c of f.children) {
      const kid = readElement(s, c, opts, level + 1);
      if (kid) kids.push(kid);
    }
    if (kids.length) el.c = kids;
    // An AXList's rows are the items one picks from it (a list box, as AT-SPI says): options.
    if (role === "AXList" && kids.some((k) => k.r === "row")) {
      el.r = "listbox";
      for (const k of kids) if (k.r === "row") k.r = "option";
    }
  }
  return el;
}

function str(v: AxJs | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function bounds(pos: AxJs | undefined, size: AxJs | undefined): Bounds | undefined {
  if (!pos || typeof pos !== "object" || !("type" in pos) || pos.type !== "point") return;
  if (!size || typeof size !== "object" || !("type" in size) || size.type !== "size") return;
  return [Math.round(pos.x), Math.round(pos.y), Math.round(size.w), Math.round(size.h)];
}

/**
 * The text of the element that labels another (AXTitleUIElement): its title,
 * description or (static text) value. The value is read only after the role
 * shows the label is not a secure field.
 */
function labelText(s: AxSession, label: CFOwned): string | undefined {
  const r = s.copyMany(
    label.ptr,
    ["AXRole", "AXSubrole", "AXTitle", "AXDescription"],
    (slots) => slots.map((sl) => ("ptr" in sl ? str(s.toJs(sl.ptr)) : undefined)),
  );
  const [role, subrole, title, desc] = r.result ?? [];
  if (r.err !== 0 || isSecureAx(role ?? "", subrole)) return undefined;
  const { value } = s.read(label.ptr, "AXValue");
  if (typeof value === "string" && value) return value;
  return title || desc || undefined;
}

/** Roles whose number may have words: AXValueDescription is read for them. */
const VALUE_TEXT_ROLES: ReadonlySet<string> = new Set(["AXSlider", "AXIncrementor", "AXStepper"]);

/** AXSortDirection values to the sort order a line says. */
const SORT_DIRECTIONS: Readonly<Record<string, "ascending" | "descending">> = {
  AXAscendingSortDirection: "ascending",
  AXDescendingSortDirection: "descending",
};

function applyValue(s: AxSession, ref: Deno.PointerObject, role: string, el: Element): void {
  const { err, value } = s.read(ref, "AXValue", VALUE_CAP);
  if (err !== 0 || value === null) return;
  if (CHECK_ROLES.has(role)) {
    if (typeof value === "number") el.chk = value === 2 ? "mixed" : value !== 0;
    else if (typeof value === "boolean") el.chk = value;
    return;
  }
  if (role === "AXDisclosureTriangle") {
    if (typeof value === "number" || typeof value === "boolean") el.exp = Boolean(value);
    return;
  }
  if (role === "AXHeading") {
    if (typeof value === "number" && value >= 1 && value <= 6) el.lv = value;
    return;
  }
  if (typeof value === "string") {
    if (!value) return;
    const text = value.length > VALUE_CAP ? value.slice(0, VALUE_CAP) : value;
    // Static text shows its content as AXValue: that content is its label.
    if (role === "AXStaticText" && !el.t) el.t = text;
    else el.v = text;
  } else if (typeof value === "number") {
    el.v = String(Math.round(value * 1e6) / 1e6);
    // The value in words (a slider's "March" at 3: aria-valuetext, NSSlider's description).
    if (VALUE_TEXT_ROLES.has(role)) {
      const d = s.read(ref, "AXValueDescription", VALUE_CAP);
      const words = d.err === 0 && typeof d.value === "string" ? d.value.trim() : "";
      if (words && words !== el.v) el.vt = words;
    }
  } else if (typeof value === "boolean") {
    el.v = String(value);
  }
}
