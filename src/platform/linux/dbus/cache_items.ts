/**
 * The rows of `org.a11y.atspi.Cache.GetItems` and how they become a tree:
 * which rows are whose children, and in what order.
 *
 * @module
 */

import type { Reader } from "./unmarshal.ts";
import type { DBusValue } from "./value.ts";

/** One object as the app's cache describes it. */
export interface CacheItem {
  /** Object path. */
  path: string;
  /** Parent's object path ("" for none). */
  parent: string;
  /** Index in the parent (-1 when the toolkit does not say). */
  index: number;
  /** Number of children the object reports. */
  childCount: number;
  /** D-Bus interfaces. */
  interfaces: string[];
  /** Accessible name. */
  name: string;
  /** AtspiRole value. */
  role: number;
  /** Accessible description. */
  description: string;
  /** State bitfield words (low, high). */
  states: [number, number];
}

/** The signature at-spi2-core's bridges, Chromium and GTK4 answer with. */
export const ITEMS_SIGNATURE = "a((so)(so)(so)iiassusau)";

function isRef(v: DBusValue): v is [string, string] {
  return Array.isArray(v) && v.length === 2 && typeof v[1] === "string";
}

function words(v: DBusValue): [number, number] {
  const a = Array.isArray(v) ? v : [];
  return [typeof a[0] === "number" ? a[0] : 0, typeof a[1] === "number" ? a[1] : 0];
}

/**
 * Parses the body of a GetItems reply. Rows of the current layout
 * (`(so)(so)(so)iiassusau`) and of the legacy one without index and child
 * count (`(so)(so)(so)assusau`) are accepted; anything else is skipped.
 *
 * @param body the reply body
 * @returns one item per understood row
 * @example
 * ```ts
 * import { parseItems } from "./cache_items.ts";
 * parseItems([[[[":1.2", "/a"], [":1.2", "/root"], [":1.2", "/root"], 0, 0, [], "OK", 43, "", [0, 0]]]]);
 * ```
 */
export function parseItems(body: DBusValue[]): CacheItem[] {
  const rows = Array.isArray(body[0]) ? body[0] : [];
  const out: CacheItem[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    if (row.length === 10 && isRef(row[0]) && isRef(row[2])) {
      out.push({
        path: row[0][1],
        parent: row[2][1],
        index: row[3] as number,
        childCount: row[4] as number,
        interfaces: row[5] as string[],
        name: row[6] as string,
        role: row[7] as number,
        description: row[8] as string,
        states: words(row[9]),
      });
    } else if (row.length === 8 && isRef(row[0]) && isRef(row[2])) {
      // Legacy layout: (so)(so)(so)assusau, children counted from the rows.
      out.push({
        path: row[0][1],
        parent: row[2][1],
        index: -1,
        childCount: -1,
        interfaces: row[3] as string[],
        name: row[4] as string,
        role: row[5] as number,
        description: row[6] as string,
        states: words(row[7]),
      });
    }
  }
  return out;
}

/** Interface lists shared between rows (most rows repeat a few lists). */
const IFACE_LISTS = new Map<string, string[]>();

/**
 * Reads a GetItems reply body straight from the wire: for the common
 * signature without building nested arrays (thousands of rows), otherwise
 * through the generic reader and {@link parseItems}.
 *
 * @param r reader positioned on the body
 * @param signature the body signature
 * @returns the rows
 * @throws DesktopError INTERNAL for malformed data
 */
export function readItems(r: Reader, signature: string): CacheItem[] {
  if (signature !== ITEMS_SIGNATURE) return parseItems(r.readAll(signature));
  const bytes = r.readUint32();
  r.align(8);
  const end = r.position + bytes;
  const out: CacheItem[] = [];
  while (r.position < end) {
    r.align(8); // row struct
    r.align(8); // object reference
    r.skipString();
    const path = r.readString();
    r.align(8); // application reference
    r.skipString();
    r.skipString();
    r.align(8); // parent reference
    r.skipString();
    const parent = r.readString(true);
    const index = r.readInt32();
    const childCount = r.readInt32();
    const nIfaceBytes = r.readUint32();
    const ifaceEnd = r.position + nIfaceBytes;
    const ifaces: string[] = [];
    let key = "";
    while (r.position < ifaceEnd) {
      const s = r.readString(true);
      ifaces.push(s);
      key += s + ",";
    }
    let interfaces = IFACE_LISTS.get(key);
    if (!interfaces) {
      if (IFACE_LISTS.size > 256) IFACE_LISTS.clear();
      IFACE_LISTS.set(key, interfaces = ifaces);
    }
    const name = r.readString();
    const role = r.readUint32();
    const description = r.readString(true);
    const nStateBytes = r.readUint32();
    const stateEnd = r.position + nStateBytes;
    const states: [number, number] = [0, 0];
    for (let i = 0; r.position < stateEnd; i++) {
      const w = r.readUint32();
      if (i < 2) states[i] = w;
    }
    out.push({ path, parent, index, childCount, interfaces, name, role, description, states });
  }
  return out;
}

/** Cache rows indexed for tree building. */
export interface ItemIndex {
  /** Row by object path. */
  byPath: Map<string, CacheItem>;
  /** Child rows by parent path, in row order. */
  childrenOf: Map<string, CacheItem[]>;
}

/**
 * Indexes rows by path and by parent.
 *
 * @param items parsed rows
 * @returns the index
 */
export function indexItems(items: readonly CacheItem[]): ItemIndex {
  const byPath = new Map<string, CacheItem>();
  const childrenOf = new Map<string, CacheItem[]>();
  for (const it of items) {
    byPath.set(it.path, it);
    if (!it.parent) continue;
    let list = childrenOf.get(it.parent);
    if (!list) childrenOf.set(it.parent, list = []);
    list.push(it);
  }
  return { byPath, childrenOf };
}

/**
 * The children of an object in order, when the cache alone can tell: the rows
 * must account for every child the object reports and their indices must be
 * exactly 0..n-1. Otherwise (lazy toolkits, objects that manage their
 * descendants, missing indices) the caller asks the app with GetChildren.
 *
 * @param idx the index
 * @param parent the parent row
 * @returns ordered child rows, or null when the cache cannot tell
 */
export function cachedChildren(idx: ItemIndex, parent: CacheItem): CacheItem[] | null {
  // A count of -1 (GTK3 menus, the legacy layout) says nothing about order:
  // their rows come in hash order, so the caller asks GetChildren.
  if (parent.childCount < 0) return null;
  const rows = idx.childrenOf.get(parent.path) ?? [];
  if (rows.length !== parent.childCount) return null;
  const ordered = new Array<CacheItem | undefined>(rows.length);
  for (const r of rows) {
    if (r.index < 0 || r.index >= rows.length || ordered[r.index]) return null;
    ordered[r.index] = r;
  }
  return ordered as CacheItem[];
}
