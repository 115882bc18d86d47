/**
 * The element model every backend produces and every formatter consumes.
 *
 * Keys are deliberately short: agents pay for every character they read, and
 * the same keys appear in `json`, `yaml`, snapshots and observe events.
 *
 * @module
 */

/** Short role names agents see. One vocabulary for every platform. */
export type Role =
  | "app"
  | "window"
  | "dialog"
  | "btn"
  | "input"
  | "txt"
  | "lnk"
  | "img"
  | "chk"
  | "toggle"
  | "radio"
  | "combo"
  | "slider"
  | "spin"
  | "progress"
  | "menubar"
  | "menu"
  | "menuitem"
  | "tablist"
  | "tab"
  | "tabpanel"
  | "list"
  | "listitem"
  | "listbox"
  | "option"
  | "row"
  | "cell"
  | "colheader"
  | "table"
  | "tree"
  | "treeitem"
  | "group"
  | "scroll"
  | "toolbar"
  | "statusbar"
  | "form"
  | "web"
  | "heading"
  | "landmark"
  | "navigation"
  | "main"
  | "banner"
  | "contentinfo"
  | "search"
  | "region"
  | "complementary"
  | "separator"
  | "tooltip"
  | "other";

/** Bounds in global screen pixels: x, y, width, height (top-left origin). */
export type Bounds = [x: number, y: number, w: number, h: number];

/** A screen point in global pixels. */
export interface Point {
  /** Horizontal pixel, global coordinates. */
  x: number;
  /** Vertical pixel, global coordinates. */
  y: number;
}

/**
 * One accessible element. Optional keys are omitted when they carry no
 * information (an enabled element has no `e`, an unfocused one no `f`).
 */
export interface Element {
  /**
   * Numeric id: depth-first position in the last read, from 1. Elements that
   * find, actions and wait return carry the id of the app's last read, or 0
   * when that read did not show them.
   */
  i: number;
  /** Stable landmark ref such as `form/email` (see src/refs). */
  ref?: string;
  /** Short role from the shared vocabulary. */
  r: Role;
  /** Label (title/name), never the value. */
  t?: string;
  /** Value: text content, number, selection. Never present for secure fields. */
  v?: string;
  /**
   * Value text: the value in words where the number is not what the user
   * sees (a slider at 3 showing "March", a spin button at 90 showing "1:30":
   * ARIA `aria-valuetext`, AT-SPI's value text). Present only when it says
   * something the value does not. Never present for secure fields.
   */
  vt?: string;
  /**
   * A text field's selection as character offsets `[start, end]`, or its
   * caret as an empty range `[n, n]`: read where it matters (a focused field,
   * a document), never for a secure field.
   */
  sel?: [number, number];
  /** Description / help text. */
  d?: string;
  /** Bounds in global pixels. */
  b?: Bounds;
  /** Focused. */
  f?: true;
  /** Enabled state: present (false) only when the element is disabled. */
  e?: false;
  /** Selected. */
  s?: true;
  /** Checked state for check boxes, toggles, radios, check menu items. */
  chk?: boolean | "mixed";
  /** Expanded state, present only for expandable elements. */
  exp?: boolean;
  /** Required form field. */
  req?: true;
  /** A field whose entry the app rejects (aria-invalid, a failed check). */
  inv?: true;
  /** Read-only (editable role that cannot be edited). */
  ro?: true;
  /** Secure (password) field: its value is never read, printed or saved. */
  sec?: true;
  /** Range minimum, for sliders, spin buttons, progress bars. */
  min?: number;
  /** Range maximum. */
  max?: number;
  /**
   * Sort order of a column header whose column is sorted (`aria-sort`,
   * AT-SPI's `sort` attribute, AX sort direction): absent when unsorted.
   */
  sort?: "ascending" | "descending" | "other";
  /** Heading level (1-6) for headings. */
  lv?: number;
  /** Placeholder text of an input. */
  ph?: string;
  /** Action names the element supports (`press`, `activate`, `toggle`...). */
  a?: string[];
  /** Children, in document order. */
  c?: Element[];
  /**
   * Platform-native identity (AT-SPI `busName:objectPath`, AX element hash).
   * Used by the provider to act on the element and by the ref store as a fast
   * path; never printed in the agent format.
   */
  nid?: string;
  /**
   * The `nid` of the control this element labels (AT-SPI LABEL_FOR, macOS
   * AXTitleUIElement seen from the label, HTML `<label>`). Read by
   * `foldLabels` (src/model/semantics.ts), which folds the label into its
   * control; never printed or saved.
   */
  lf?: string;
}

/** What the element schema says of one field of {@link Element}. */
export interface FieldSpec {
  /** Shown by every output (agent, json, yaml, diff, observe, MCP, snapshot files). */
  printed: boolean;
  /** Compared by the diff: a change of it is reported. */
  diff: boolean;
  /** The element's own state, patched in place when it changes (observe): not its place or kind. */
  local: boolean;
  /** Part of what the element holds or is set to: a change of it is the effect an action looks for. */
  value: boolean;
}

const NOT_SHOWN: FieldSpec = { printed: false, diff: false, local: false, value: false };
const ID: FieldSpec = { printed: true, diff: false, local: false, value: false };
const KIND: FieldSpec = { printed: true, diff: true, local: false, value: false };
const STATE: FieldSpec = { printed: true, diff: true, local: true, value: false };
const VALUE: FieldSpec = { printed: true, diff: true, local: true, value: true };

/**
 * The element schema: every key of {@link Element}, in the order outputs
 * write it (children `c` last), with what each one is. Every key list
 * (`PRINTED_KEYS`, `DIFF_FIELDS`, `LOCAL_KEYS`, `VALUE_FIELDS`) is derived
 * from it, so a new field is added here once. Not printed or saved: `nid`
 * (native identity), `lf` (label relation) and `c` (written as children).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FIELDS } from "./element.ts";
 * assert.equal(FIELDS.v.value, true);
 * assert.equal(FIELDS.nid.printed, false);
 * ```
 */
export const FIELDS: Readonly<Record<keyof Element, FieldSpec>> = {
  i: ID,
  ref: ID,
  r: KIND,
  t: { printed: true, diff: true, local: false, value: true },
  v: VALUE,
  // What it shows for its value ("March", a spin's typed number not taken yet): news too.
  vt: { printed: true, diff: true, local: false, value: true },
  sel: STATE,
  d: KIND,
  ph: KIND,
  b: { printed: true, diff: true, local: true, value: false },
  f: STATE,
  e: STATE,
  s: { printed: true, diff: true, local: true, value: true },
  chk: VALUE,
  exp: VALUE,
  req: STATE,
  inv: STATE,
  ro: STATE,
  sec: KIND,
  min: KIND,
  max: KIND,
  sort: KIND,
  lv: KIND,
  a: KIND,
  c: NOT_SHOWN,
  nid: NOT_SHOWN,
  lf: NOT_SHOWN,
};

/** The keys of {@link FIELDS} whose spec has `flag` set, in schema order. */
function keysWhere(flag: keyof FieldSpec): (keyof Element)[] {
  return (Object.keys(FIELDS) as (keyof Element)[]).filter((k) => FIELDS[k][flag]);
}

/**
 * The keys any output shows of an element, in the order it is written:
 * agent, json, yaml, diff, observe, MCP and snapshot files all project
 * through it (`elementData` in src/output/data.ts). A secure element's `v`
 * is dropped by the projection whatever a backend set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PRINTED_KEYS } from "./element.ts";
 * assert.deepEqual(PRINTED_KEYS.slice(0, 4), ["i", "ref", "r", "t"]);
 * assert.ok(!PRINTED_KEYS.includes("nid"));
 * ```
 */
export const PRINTED_KEYS: readonly string[] = keysWhere("printed");

/**
 * The fields the diff compares, in the order a change lists them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DIFF_FIELDS } from "./element.ts";
 * assert.ok(DIFF_FIELDS.includes("v") && !DIFF_FIELDS.includes("ref"));
 * ```
 */
export const DIFF_FIELDS: readonly (keyof Element)[] = keysWhere("diff");

/**
 * An element's own state keys: what a live change patches in place without
 * a new read (value, text selection, box, focus, enabled, selected, checked,
 * expanded, required, read-only).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LOCAL_KEYS } from "./element.ts";
 * assert.deepEqual(LOCAL_KEYS, ["v", "sel", "b", "f", "e", "s", "chk", "exp", "req", "inv", "ro"]);
 * ```
 */
export const LOCAL_KEYS: readonly (keyof Element)[] = keysWhere("local");

/**
 * The fields whose change is a change of what the element holds or is set
 * to (label, value, selected, checked, expanded): the effect an action on it
 * looks for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { VALUE_FIELDS } from "./element.ts";
 * assert.deepEqual([...VALUE_FIELDS], ["t", "v", "vt", "s", "chk", "exp"]);
 * ```
 */
export const VALUE_FIELDS: ReadonlySet<string> = new Set(keysWhere("value"));

/**
 * The few keys that name an element in a result, an error's candidates, a
 * step report, a screenshot mark or the ref store: id, ref, role, label and
 * box.
 */
export interface ElementBrief {
  /** Numeric id in the read it came from (absent when that read did not show it). */
  i?: number;
  /** Stable ref. */
  ref?: string;
  /** Short role. */
  r: string;
  /** Label. */
  t?: string;
  /** Bounds in global pixels. */
  b?: Bounds;
}

/**
 * The value an element may show: its `v`, or nothing for a secure
 * (password) field, whatever a backend or a file set. Every output, diff,
 * search and check reads a value through this, so a secure value is never
 * printed, compared, matched or saved.
 *
 * @param el the element
 * @returns the value to show, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shownValue } from "./element.ts";
 * assert.equal(shownValue({ v: "me@x.org" }), "me@x.org");
 * assert.equal(shownValue({ v: "hunter2", sec: true }), undefined);
 * ```
 */
export function shownValue(el: Pick<Element, "v" | "sec">): string | undefined {
  return el.sec ? undefined : el.v;
}

/**
 * The value text an element may show (`vt`), or nothing for a secure field:
 * the companion of {@link shownValue}.
 *
 * @param el the element
 * @returns the value text to show, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shownValueText } from "./element.ts";
 * assert.equal(shownValueText({ vt: "March" }), "March");
 * assert.equal(shownValueText({ vt: "x", sec: true }), undefined);
 * ```
 */
export function shownValueText(el: Pick<Element, "vt" | "sec">): string | undefined {
  return el.sec ? undefined : el.vt;
}

/** An element in a flat list: no children, plus its landmark path. */
export interface FlatElement extends Omit<Element, "c"> {
  /** Landmark path of the element's ancestors, e.g. `window > form`. */
  p?: string;
}

/** A running application with an accessible UI. */
export interface AppInfo {
  /** Application name as the accessibility API reports it. */
  name: string;
  /** Process id. */
  pid: number;
  /** Process start time (ms since epoch) when known, to detect restarts. */
  started?: number;
  /** Bundle id (macOS) or bus name (Linux), when known. */
  id?: string;
  /** Whether the app is frontmost / active. */
  focused?: boolean;
  /** Number of top-level windows, when known. */
  windows?: number;
  /** Present (true) when the app did not answer in time (stopped, hung, busy). */
  unresponsive?: true;
  /**
   * Present when the process shows windows but is not on the accessibility
   * bus (Linux): its toolkit, and what turns its accessibility on.
   */
  offBus?: { toolkit: string; remedy: string };
}

/** A top-level window of an application. */
export interface WindowInfo {
  /** Window id, unique within one provider session (platform window number where it exists). */
  id: number;
  /** Window title. */
  title: string;
  /** Owning application name. */
  app: string;
  /** Owning process id. */
  pid: number;
  /** Window bounds in global pixels. */
  b?: Bounds;
  /** Whether the window is active / focused. */
  focused?: boolean;
}

/** The result of one read: which app it came from, and the element tree. */
export interface Snapshot {
  /** The app that was read. */
  app: AppInfo;
  /** The window the read was scoped to, if any. */
  window?: WindowInfo;
  /** ISO timestamp of the read. */
  readAt: string;
  /** Root of the tree (the app element, or the window when scoped to one). */
  root: Element;
}
