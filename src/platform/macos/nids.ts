/**
 * Per-session element identities: each `nid` maps back to a retained
 * AXUIElementRef. The same UI element read twice (CFEqual) keeps its nid, so
 * nids stay stable across reads and the table does not grow with each read.
 *
 * @module
 */

import type { CFOwned, CFRef, CoreFoundation } from "../../ffi/macos/cf.ts";

interface Entry {
  ref: CFOwned;
  pid: number;
  hash: bigint;
  /** Read generation that last saw it. */
  seen: number;
}

/** Entries above which references unseen for a few reads are released. */
const SOFT_CAP = 20_000;
/** Reads after which an unseen reference may be released (once above the cap). */
const KEEP_READS = 4;

/** The nid table of one provider session. */
export class NidTable {
  readonly #cf: CoreFoundation;
  readonly #byId = new Map<string, Entry>();
  readonly #byHash = new Map<bigint, string[]>();
  #next = 1;
  #generation = 0;

  /** @param cf CoreFoundation helper */
  constructor(cf: CoreFoundation) {
    this.#cf = cf;
  }

  /** Number of retained references. */
  get size(): number {
    return this.#byId.size;
  }

  /** Starts a new read generation (and prunes when the table is large). */
  beginRead(): void {
    this.#generation++;
    if (this.#byId.size <= SOFT_CAP) return;
    for (const [id, e] of this.#byId) {
      if (this.#generation - e.seen > KEEP_READS) this.#drop(id, e);
    }
  }

  /**
   * Stores an owned element reference and returns its nid. If an equal
   * element is already stored, the new reference is released and the
   * existing nid returned.
   *
   * @param ref owned AXUIElementRef (ownership moves into the table)
   * @param pid owning process
   * @returns the nid and the reference the table keeps (borrowed)
   */
  add(owned: CFOwned, pid: number): { nid: string; ref: CFRef } {
    // Take the reference out of the caller's wrapper so disposing that wrapper later is a no-op.
    const ref = this.#cf.own(owned.take());
    const hash = this.#cf.hash(ref.ptr);
    for (const id of this.#byHash.get(hash) ?? []) {
      const e = this.#byId.get(id)!;
      if (this.#cf.equal(e.ref.ptr, ref.ptr)) {
        ref[Symbol.dispose]();
        e.seen = this.#generation;
        return { nid: id, ref: e.ref.ptr };
      }
    }
    const nid = `ax:${pid}:${this.#next++}`;
    this.#byId.set(nid, { ref, pid, hash, seen: this.#generation });
    const ids = this.#byHash.get(hash);
    if (ids) ids.push(nid);
    else this.#byHash.set(hash, [nid]);
    return { nid, ref: ref.ptr };
  }

  /** The reference behind a nid (borrowed), or undefined. */
  get(nid: string | undefined): { ref: CFRef; pid: number } | undefined {
    const e = nid === undefined ? undefined : this.#byId.get(nid);
    return e ? { ref: e.ref.ptr, pid: e.pid } : undefined;
  }

  #drop(id: string, e: Entry): void {
    this.#byId.delete(id);
    const ids = this.#byHash.get(e.hash)?.filter((x) => x !== id) ?? [];
    if (ids.length) this.#byHash.set(e.hash, ids);
    else this.#byHash.delete(e.hash);
    e.ref[Symbol.dispose]();
  }

  /** Releases every reference. */
  clear(): void {
    for (const [id, e] of this.#byId) this.#drop(id, e);
  }
}
