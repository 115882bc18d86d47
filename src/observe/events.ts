/**
 * The events of an observe stream. One JSON object per line on the CLI; the
 * same objects from the library's {@link observe} iterator.
 *
 * Keys follow the element model's compact style. `ts` is milliseconds since
 * the Unix epoch, so events can be ordered and timed without a second clock.
 *
 * @module
 */

import type { Element, FlatElement } from "../model/element.ts";
import type { ErrorCode } from "../errors.ts";

/** First event of every stream: how many elements the initial read found. */
export interface SnapshotEvent {
  /** Event type. */
  type: "snapshot";
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /** Elements in the observed (filtered) tree. */
  count: number;
}

/**
 * An element appeared. When it came with descendants (a dialog and its
 * buttons, a row and its cells), they are in `el.c`, each with its ref, and
 * get no event of their own.
 */
export interface AddedEvent {
  /** Event type. */
  type: "added";
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /** The new element; `c` holds its new descendants, if any. */
  el: FlatElement & { c?: Element[] };
  /** Landmark path of its ancestors, when it has any. */
  p?: string;
  /** The element's ref: act on it with `--ref`. */
  ref: string;
}

/** An element disappeared (with its descendants, which get no event of their own). */
export interface RemovedEvent {
  /** Event type. */
  type: "removed";
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /** Ref the element had. */
  ref: string;
  /** Numeric id it had in the previous read. */
  i: number;
  /** Its role. */
  r: string;
  /** Its label, when it had one. */
  t?: string;
}

/** Some properties of an element changed. */
export interface ChangedEvent {
  /** Event type. */
  type: "changed";
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /** The element's ref. */
  ref: string;
  /** Its numeric id in the current read. */
  i: number;
  /** Changed fields (compact keys) as `[old, new]`. */
  changes: Record<string, [unknown, unknown]>;
}

/**
 * A read failed. Transient failures keep the previous baseline and the stream
 * goes on; APP_NOT_FOUND (the app quit) ends it.
 */
export interface ErrorEvent {
  /** Event type. */
  type: "error";
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /** Stable error code. */
  code: ErrorCode;
  /** Human-readable message. */
  error: string;
}

/** Last event of every stream: the duration was reached, the app quit, or it was aborted. */
export interface DoneEvent {
  /** Event type. */
  type: "done";
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /** Time observed, formatted in seconds with one decimal (`"10.0s"`). */
  elapsed: string;
  /** Number of added, removed and changed events emitted. */
  events: number;
}

/** Any event of an observe stream. */
export type ObserveEvent =
  | SnapshotEvent
  | AddedEvent
  | RemovedEvent
  | ChangedEvent
  | ErrorEvent
  | DoneEvent;
