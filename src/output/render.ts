/**
 * Renders element trees and changes as text for agents and programs.
 *
 * @module
 */

import type { Change } from "../diff/diff.ts";
import type { Element } from "../model/element.ts";

/** Output formats of `read` and `find`. */
export type Format = "agent" | "yaml" | "json";

/** How to render. */
export interface RenderOptions {
  /** Output format. */
  format: Format;
  /** Flat list with landmark paths instead of a tree. */
  flat?: boolean;
  /** Extra top-level fields for yaml/json (app, window, truncated...). */
  meta?: Record<string, unknown>;
}

/** Renders a tree (with ids and refs assigned) in the chosen format. */
export function renderElements(root: Element, opts: RenderOptions): string {
  throw new Error(`not implemented ${root.r} ${opts}`);
}

/** Renders diff changes as agent text (one line each) or JSONL. */
export function renderChanges(changes: Change[], format: "agent" | "jsonl"): string {
  throw new Error(`not implemented ${changes} ${format}`);
}
