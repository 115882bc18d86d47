/**
 * What the last read showed, as identity checks it and the ref store keeps
 * it: the shapes of a stored read. Pure: the store (src/state/ref_store.ts)
 * reads and writes them.
 *
 * @module
 */

import type { ElementBrief } from "../model/element.ts";

/** What the store remembers of one printed element. */
export interface StoredElement extends ElementBrief {
  /** Numeric id in that read. */
  i: number;
  /** Platform-native identity, when the backend has one. */
  nid?: string;
  /** Child-index path from the read's root (`0.2.5`). */
  path: string;
  /** The key of the row (or tree item) it sat in, when it sat in one. */
  row?: string;
  /** For an indexed ref (`ok.2`): how many elements shared its base ref in that read. */
  n?: number;
}

/** The app a stored read came from. */
export interface StoredApp {
  /** Application name. */
  name: string;
  /** Process id. */
  pid: number;
  /** Process start time, when known: a different one means the app restarted. */
  started?: number;
}

/** One stored read. */
export interface StoredRead {
  /** The app that was read. */
  app: StoredApp;
  /** ISO timestamp of the read. */
  readAt: string;
  /** Printed elements in document order. */
  elements: StoredElement[];
  /** True when elements were dropped to respect the size cap. */
  truncated?: boolean;
  /**
   * Elements that actions printed since the read (what their changes added,
   * or renamed), newest last, id 0: a ref an action printed means that
   * element until the next read, as one the read printed does.
   */
  printed?: StoredElement[];
}
