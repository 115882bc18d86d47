/**
 * Read filters, applied after refs are assigned so that a filtered read shows
 * the same refs as a full one.
 *
 * @module
 */

import type { Element, Role } from "./element.ts";

/** Filters of `read`, `find` and `observe`. */
export interface FilterOptions {
  /** Keep only these roles (plus the ancestors that lead to them). */
  roles?: ReadonlySet<Role>;
  /** Keep elements whose label, value or description contains this (case-insensitive). */
  text?: string;
  /** Maximum depth below the root. */
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

/** Applies read filters to a tree with refs assigned. Never mutates the input. */
export function filterTree(root: Element, opts: FilterOptions): FilterResult {
  throw new Error(`not implemented ${root.r} ${opts}`);
}
