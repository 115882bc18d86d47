/**
 * Ref, id and text resolution (guide: refs.md section 2). Never guesses:
 * a missing or ambiguous target is an error with candidates.
 *
 * @module
 */

import type { Element, Role } from "../model/element.ts";

/**
 * Checks a ref's syntax, throwing INVALID_ARGS for malformed refs (empty
 * segments, whitespace, bad `.N` suffix).
 */
export function validateRef(ref: string): void {
  throw new Error(`not implemented ${ref}`);
}

/**
 * Finds the element a ref names in a tree with refs assigned: exact match,
 * else a unique suffix match on a segment boundary. Throws ELEMENT_NOT_FOUND
 * or AMBIGUOUS_TARGET with up to 10 candidates, nearest first.
 */
export function resolveRef(root: Element, ref: string): Element {
  throw new Error(`not implemented ${root.r} ${ref}`);
}

/** Options of text targeting and `find`. */
export interface TextQuery {
  /** Text to match against label, value and description. */
  text?: string;
  /** Require an exact (case-insensitive) label match instead of a substring. */
  exact?: boolean;
  /** Restrict to these roles. */
  roles?: ReadonlySet<Role>;
}

/** Every element matching a query, in document order. */
export function findElements(root: Element, query: TextQuery): Element[] {
  throw new Error(`not implemented ${root.r} ${query}`);
}

/**
 * The one element matching a text query. Throws ELEMENT_NOT_FOUND or
 * AMBIGUOUS_TARGET (with candidates) instead of picking the first.
 */
export function resolveText(root: Element, query: TextQuery): Element {
  throw new Error(`not implemented ${root.r} ${query}`);
}

/** Looks an element up by numeric id in a tree (no staleness check: see the ref store). */
export function findById(root: Element, id: number): Element | undefined {
  throw new Error(`not implemented ${root.r} ${id}`);
}
