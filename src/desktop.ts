/**
 * The library's main entry: a {@link Desktop} session over one provider.
 * Everything the CLI and the MCP server do goes through these methods.
 *
 * @module
 */

import type { AppInfo, Element, Point, Role, Snapshot, WindowInfo } from "./model/element.ts";
import type { FilterOptions, FilterResult } from "./model/filter.ts";
import type { Action, ActionResult, Provider, Scope } from "./platform/provider.ts";

/** How an action names its element. At most one of ref, id, text; or a point. */
export interface Target {
  /** Stable ref (`form/email`), exact or unique suffix. */
  ref?: string;
  /** Numeric id of the last read (checked against the ref store). */
  id?: number;
  /** Text to match (label, value, description). */
  text?: string;
  /** Roles to restrict text matching to. */
  roles?: ReadonlySet<Role>;
  /** Exact label match for text. */
  exact?: boolean;
  /** A screen point instead of an element. */
  point?: Point;
}

/** A read request: provider options plus the pure filters. */
export interface ReadRequest extends FilterOptions {
  /** Include bounds (default true). */
  bounds?: boolean;
}

/** A read: the full snapshot (ids and refs assigned) and the filtered view of it. */
export interface ReadResult {
  /** The full tree as read, with ids and refs. */
  snapshot: Snapshot;
  /** What the filters kept. */
  view: FilterResult;
}

/** What an action did, for the CLI to print. */
export interface ActResult extends ActionResult {
  /** The element acted on (absent for point targets). */
  element?: Element;
}

/** Conditions `wait` can wait for. */
export interface WaitCondition {
  /** An element with this text appears. */
  text?: string;
  /** This text is gone. */
  gone?: string;
  /** An element with this ref exists. */
  ref?: string;
  /** Restrict to roles. */
  roles?: ReadonlySet<Role>;
}

/** Options of {@link Desktop}. */
export interface DesktopOptions {
  /** Per-operation deadline in ms. */
  timeoutMs?: number;
  /** Persist each read's ids and refs to the ref store (CLI: yes). */
  persistRefs?: boolean;
}

/** A session over one provider. */
export interface Desktop {
  /** The provider underneath. */
  readonly provider: Provider;
  /** Running apps. */
  listApps(): Promise<AppInfo[]>;
  /** Windows, optionally of one app. */
  listWindows(scope?: Scope): Promise<WindowInfo[]>;
  /** Read, assign ids and refs, persist to the ref store, filter. */
  read(scope: Scope, req?: ReadRequest): Promise<ReadResult>;
  /** Resolve a target to one element of a fresh read (errors: see refs.md). */
  resolve(scope: Scope, target: Target): Promise<Element>;
  /** Resolve the target, then carry out the action. */
  act(scope: Scope, target: Target, action: Action): Promise<ActResult>;
  /** Wait until a condition holds; TIMEOUT otherwise. */
  wait(scope: Scope, cond: WaitCondition, timeoutMs: number): Promise<Element | null>;
  /** Release the provider. */
  close(): void;
}
