/**
 * The read rules every page and app must keep, as checks on a read's JSON
 * tree: no twin index on a labelled control, no ref that carries a cell's
 * value, no toolkit class name in a ref. Shared by the corpus and app tests.
 *
 * @module
 */

import type { Element } from "../../src/model/element.ts";
import { slug } from "../../src/refs/generate.ts";

/** Controls a label can name. */
const CONTROLS = new Set(["input", "combo", "spin", "slider", "chk", "radio", "toggle"]);

/** Roles whose label is a control's own text, not data. */
const INTERACTIVE = new Set([
  "btn",
  "lnk",
  "chk",
  "radio",
  "toggle",
  "combo",
  "input",
  "spin",
  "slider",
  "menuitem",
]);

/** What one picks in a list: a table's row, a list's item, a list box's option. */
const ROW_LIKE = new Set(["row", "listitem", "option"]);

function* all(el: Element, anc: Element[] = []): Generator<[Element, Element[]]> {
  yield [el, anc];
  for (const kid of el.c ?? []) yield* all(kid, [...anc, el]);
}

/** The ref without its `.N` twin index. */
function base(ref: string): string {
  return ref.replace(/\.\d+$/, "");
}

/**
 * Twin indexes between a control and a text with the same ref: the label was
 * not folded into its control.
 *
 * @param root the tree
 * @returns descriptions of the offending pairs
 */
export function labelTwins(root: Element): string[] {
  const groups = new Map<string, Element[]>();
  for (const [el] of all(root)) {
    if (!el.ref || base(el.ref) === el.ref) continue;
    const list = groups.get(base(el.ref)) ?? [];
    list.push(el);
    groups.set(base(el.ref), list);
  }
  const out: string[] = [];
  for (const [ref, els] of groups) {
    const control = els.find((e) => CONTROLS.has(e.r));
    const text = els.find((e) => e.r === "txt");
    if (control && text) out.push(`${ref}: ${control.r} and its label text are twins`);
  }
  return out;
}

/**
 * Refs that carry a cell's value: below a row, a segment equal to the slug of
 * one of its cells' text (the row's own key column excepted; a cell named
 * after the control it holds, such as a Refund button, is not data).
 *
 * @param root the tree
 * @returns the offending refs with the value they carry
 */
export function valueRefs(root: Element): string[] {
  const out: string[] = [];
  for (const [row] of all(root)) {
    if (!ROW_LIKE.has(row.r) || !row.ref) continue;
    const rowRef = row.ref;
    const inside = [...all(row)].map(([e]) => e).slice(1);
    const controlText = new Set(
      inside.filter((e) => INTERACTIVE.has(e.r) && e.t).map((e) => slug(e.t!)),
    );
    const values = new Set<string>();
    for (const cell of inside) {
      if (cell.r !== "cell" || !cell.t) continue;
      const s = slug(cell.t);
      if (s && !controlText.has(s) && !rowRef.split("/").includes(s)) values.add(s);
    }
    for (const e of inside) {
      if (!e.ref?.startsWith(rowRef + "/")) continue;
      const segs = e.ref.slice(rowRef.length + 1).split("/").map(base);
      for (const s of segs) if (values.has(s)) out.push(`${e.ref} carries "${s}"`);
    }
  }
  return out;
}

/** Slugs of toolkit class names (`gtkbutton`, `adwgizmo`...). */
const CLASS_SEGMENT = /^(?:gtk|adw|gdk|gsk)[a-z0-9]+$/;

/**
 * Refs with a toolkit class name as a segment.
 *
 * @param root the tree
 * @returns the offending refs
 */
export function classNameRefs(root: Element): string[] {
  const out: string[] = [];
  for (const [el] of all(root)) {
    if (el.ref?.split("/").some((s) => CLASS_SEGMENT.test(base(s)))) out.push(el.ref);
  }
  return out;
}
