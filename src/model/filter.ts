/**
 * Read filters, applied after refs are assigned so that a filtered read shows
 * the same refs as a full one.
 *
 * Order: `scopeRef` picks the subtree; `depth` limits it; `roles`, `text` and
 * `focused` select matches (all given must hold), and the output keeps every
 * match plus the ancestors that lead to it (a row, list item, option or tree
 * item kept for its role keeps what it holds too: its cells are what tell it
 * apart; a match that is one of several twins keeps the first text of its row,
 * the name that tells it from the others); `prune` lifts the children of
 * anonymous containers into their parent; `maxElements` keeps the first N
 * elements in document order (a prefix in pre-order always includes the
 * ancestors of what it keeps).
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import { isAnonymous } from "../output/agent_line.ts";
import { resolveRef } from "../refs/resolve.ts";
import type { Element, Role } from "./element.ts";
import { INTERACTIVE_ROLES } from "./roles.ts";

/** Filters of `read`, `find` and `observe`. */
export interface FilterOptions {
  /** Keep only these roles (plus the ancestors that lead to them). */
  roles?: ReadonlySet<Role>;
  /** Keep elements whose label, value or description contains this (case-insensitive). */
  text?: string;
  /**
   * Maximum depth below the root, counting only levels that are printed: an
   * anonymous container (which the agent format leaves out, lifting its
   * children) and, with `prune`, a prunable one, add no level.
   */
  depth?: number;
  /** Keep only the focused element and its ancestors. */
  focused?: boolean;
  /** Keep only the subtree of the element with this ref (resolved like --ref). */
  scopeRef?: string;
  /** Cut the output after this many elements. */
  maxElements?: number;
  /** Drop anonymous containers, lifting their children. */
  prune?: boolean;
}

/** A filtered tree and how much was left out. */
export interface FilterResult {
  /** The filtered tree (a copy); null when nothing matched. */
  root: Element | null;
  /** Elements in the input tree. */
  total: number;
  /** Elements in the output tree. */
  kept: number;
  /** Elements cut by `maxElements` (0 when none). */
  truncated: number;
}

/**
 * Roles whose content comes with them when `roles` keeps them: a row is read
 * by its cells (`--interactive` keeps a file list's rows with their names).
 */
const ROW_CONTENT_ROLES: ReadonlySet<Role> = new Set<Role>([
  "row",
  "listitem",
  "option",
  "treeitem",
]);

/** Roles `prune` may drop when they carry no label and no value. */
const PRUNABLE: ReadonlySet<Role> = new Set<Role>(["group", "other", "scroll"]);

/**
 * Whether `prune` drops an element: an unlabeled group, other or scroll
 * container with no value and no focus.
 *
 * @param el the element
 * @returns true when its children can take its place
 */
export function isPrunable(el: Element): boolean {
  return PRUNABLE.has(el.r) && !el.t?.trim() && !el.d?.trim() && !el.ph?.trim() && !el.v &&
    !el.f;
}

/** Counts the elements of a tree. */
function count(root: Element): number {
  let n = 0;
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    n++;
    for (const kid of el.c ?? []) stack.push(kid);
  }
  return n;
}

/** Throws INVALID_ARGS unless `v` is undefined or an integer >= `min`. */
function checkInt(v: number | undefined, name: string, min: number): void {
  if (v === undefined) return;
  if (!Number.isInteger(v) || v < min) {
    throw new DesktopError("INVALID_ARGS", `${name} must be an integer >= ${min}, got ${v}`, {
      suggestion: `Pass ${name} as a whole number of at least ${min}`,
    });
  }
}

/** Case-insensitive text match on label, value (never secure), description, placeholder. */
function textMatches(el: Element, needle: string): boolean {
  for (const s of [el.t, el.d, el.ph, el.sec ? undefined : el.v]) {
    if (s && s.normalize("NFKC").toLowerCase().includes(needle)) return true;
  }
  return false;
}

/**
 * Applies read filters to a tree with refs assigned. Never mutates the input:
 * the result is a copy (elements are shallow copies with new `c` arrays).
 * Throws INVALID_ARGS for a negative depth or a max below 1, and whatever
 * resolving `scopeRef` throws (ELEMENT_NOT_FOUND, AMBIGUOUS_TARGET...).
 *
 * @param root the tree, ids and refs assigned
 * @param opts the filters
 * @returns the filtered copy and counts
 * @example
 * ```ts
 * import { filterTree } from "./filter.ts";
 * const root = { i: 1, ref: "form", r: "form" as const, c: [
 *   { i: 2, ref: "form/email", r: "input" as const, t: "Email" },
 *   { i: 3, ref: "form/hint", r: "txt" as const, t: "Hint" },
 * ] };
 * const out = filterTree(root, { roles: new Set(["input" as const]) });
 * console.log(out.kept, out.root?.c?.map((e) => e.ref)); // 2 ["form/email"]
 * ```
 */
export function filterTree(root: Element, opts: FilterOptions): FilterResult {
  checkInt(opts.depth, "--depth", 0);
  checkInt(opts.maxElements, "--max-elements", 1);
  const total = count(root);
  const base = opts.scopeRef !== undefined ? resolveRef(root, opts.scopeRef) : root;

  const needle = opts.text?.trim().normalize("NFKC").toLowerCase() || undefined;
  const roles = opts.roles?.size ? opts.roles : undefined;
  const selective = roles !== undefined || needle !== undefined || !!opts.focused;
  // Nothing to select, lift or cut by depth (a plain read): every element is kept, as it is.
  if (!selective && !opts.prune && opts.depth === undefined) {
    return capped(copyTree(base), total, opts.maxElements);
  }
  // GTK 3 gives a menu bar's titles (File, Edit) the role of the menu they open: a labeled
  // menu is clicked like a menu item.
  const roleMatches = (el: Element) =>
    roles!.has(el.r) || (el.r === "menu" && roles!.has("menuitem") && !!el.t?.trim());
  const matches = (el: Element): boolean =>
    (!roles || roleMatches(el)) && (!needle || textMatches(el, needle)) &&
    (!opts.focused || !!el.f);

  // Pre-order list with parent positions; then decide bottom-up (reverse order).
  // `whole`: inside a row the role filter kept, so kept whatever it is.
  type Item = { el: Element; parent: number; depth: number; whole: boolean };
  const order: Item[] = [];
  const stack: Item[] = [{ el: base, parent: -1, depth: 0, whole: false }];
  const keepsContent = (el: Element) =>
    roles !== undefined && ROW_CONTENT_ROLES.has(el.r) && matches(el);
  while (stack.length) {
    const item = stack.pop()!;
    const at = order.length;
    order.push(item);
    // A container that is not printed adds no level: its children stand in its place. Levels
    // only count for a depth limit.
    let next = item.depth;
    if (opts.depth !== undefined) {
      const printed = at === 0 || !(isAnonymous(item.el) || (opts.prune && isPrunable(item.el)));
      next += printed ? 1 : 0;
      if (next > opts.depth) continue;
    }
    const kids = item.el.c ?? [];
    const whole = item.whole || keepsContent(item.el);
    for (let k = kids.length - 1; k >= 0; k--) {
      stack.push({ el: kids[k], parent: at, depth: next, whole });
    }
  }
  const context = selective ? twinContext(order, (el) => matches(el)) : new Set<number>();
  // Kept children of each position, collected in reverse document order (a list only for
  // positions that keep any).
  const keptKids: Array<Element[] | undefined> = new Array(order.length);
  const keptOf = (at: number) => keptKids[at] ??= [];
  let out: Element | null = null;
  for (let k = order.length - 1; k >= 0; k--) {
    const { el, parent, whole } = order[k];
    const kids = keptKids[k]?.reverse() ?? NO_ELEMENTS;
    const keep = !selective || whole || matches(el) || kids.length > 0 || context.has(k);
    if (!keep) continue;
    const lift = opts.prune && parent >= 0 && isPrunable(el);
    if (lift) {
      // Children go to the parent in place of the container (reverse order there).
      for (let j = kids.length - 1; j >= 0; j--) keptOf(parent).push(kids[j]);
      continue;
    }
    const { c: _c, ...own } = el;
    const copy: Element = own;
    if (kids.length) copy.c = kids;
    if (parent >= 0) keptOf(parent).push(copy);
    else out = copy;
  }

  return capped(out, total, opts.maxElements);
}

/** The result for a filtered copy: counted, and cut to `maxElements` when it holds more. */
function capped(out: Element | null, total: number, maxElements?: number): FilterResult {
  let kept = out ? count(out) : 0;
  let truncated = 0;
  if (out && maxElements !== undefined && kept > maxElements) {
    truncated = kept - maxElements;
    cut(out, maxElements);
    kept = maxElements;
  }
  return { root: out, total, kept, truncated };
}

/**
 * A copy of a whole tree as {@link filterTree} makes it: each element a
 * shallow copy without `c`, then its copied children under `c` when it has
 * any (iterative: deep trees do not overflow).
 */
function copyTree(root: Element): Element {
  const copyOf = (el: Element): Element => {
    const { c: _c, ...own } = el;
    return own;
  };
  const top = copyOf(root);
  // Originals and their copies, side by side.
  const from: Element[] = [root];
  const to: Element[] = [top];
  while (from.length) {
    const el = from.pop()!;
    const copy = to.pop()!;
    const kids = el.c;
    if (!kids?.length) continue;
    const out: Element[] = new Array(kids.length);
    for (let k = 0; k < kids.length; k++) {
      out[k] = copyOf(kids[k]);
      from.push(kids[k]);
      to.push(out[k]);
    }
    copy.c = out;
  }
  return top;
}

/** No elements (read only): the kept children of a position that keeps none. */
const NO_ELEMENTS: Element[] = [];

/** A twin's index at the end of its ref: `.2` of `watchlist/remove.2`. */
const TWIN_INDEX = /\.\d+$/;

/**
 * What tells kept twins apart when their rows are left out: for each match
 * whose ref is one of several twins (`remove.1`, `remove.2`...), the first
 * text of the largest container that holds it and no other of its twins
 * (its row: the name beside a Remove button), outside the twin itself. A
 * row whose role the filter keeps brings its cells anyway; this is for rows
 * that are plain groups.
 *
 * @param order the elements in pre-order, each with its parent's position
 * @param matches whether an element is a match of the filter
 * @returns the positions of the texts to keep
 */
function twinContext(
  order: ReadonlyArray<{ el: Element; parent: number }>,
  matches: (el: Element) => boolean,
): Set<number> {
  const out = new Set<number>();
  const twins = new Map<string, number[]>();
  order.forEach(({ el }, k) => {
    if (el.ref === undefined || !TWIN_INDEX.test(el.ref) || !matches(el)) return;
    const base = el.ref.replace(TWIN_INDEX, "");
    const list = twins.get(base);
    if (list) list.push(k);
    else twins.set(base, [k]);
  });
  if (![...twins.values()].some((l) => l.length > 1)) return out;
  // Subtree sizes: in pre-order, an element's subtree is [k, k + size[k]).
  const size = order.map(() => 1);
  for (let k = order.length - 1; k > 0; k--) size[order[k].parent] += size[k];
  const holds = (a: number, k: number) => k >= a && k < a + size[a];
  for (const group of twins.values()) {
    if (group.length < 2) continue;
    for (const t of group) {
      let row = -1;
      for (let p = order[t].parent; p >= 0; p = order[p].parent) {
        if (group.some((o) => o !== t && holds(p, o))) break;
        row = p;
      }
      if (row < 0) continue;
      for (let k = row + 1; k < row + size[row]; k++) {
        if (holds(t, k)) {
          k = t + size[t] - 1;
          continue;
        }
        const el = order[k].el;
        if (!INTERACTIVE_ROLES.has(el.r) && el.t?.trim()) {
          out.add(k);
          break;
        }
      }
    }
  }
  return out;
}

/** Keeps the first `max` elements of a tree (our own copy) in pre-order. */
function cut(root: Element, max: number): void {
  const keep = new Set<Element>();
  const stack: Element[] = [root];
  while (stack.length && keep.size < max) {
    const el = stack.pop()!;
    keep.add(el);
    const kids = el.c ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  for (const el of keep) {
    if (!el.c) continue;
    const kids = el.c.filter((kid) => keep.has(kid));
    if (kids.length) el.c = kids;
    else delete el.c;
  }
}
