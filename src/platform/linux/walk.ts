/**
 * The libatspi tree reader: walks one app (or subtree) through the cached
 * libatspi API and produces {@link AtspiRawNode}s, the same shape the bulk
 * D-Bus reader returns, so both share one conversion.
 *
 * Speed: the cache mask is ATSPI_CACHE_ALL, so role, name, description,
 * states, interfaces, attributes and children come from memory; only
 * extents, action names, text, values and relations cost a round trip each,
 * and they are read only where they matter.
 *
 * @module
 */

import { ATSPI_COORD_TYPE_SCREEN, ATSPI_RELATION } from "../../ffi/atspi.ts";
import { cstr, readCString, readPointerArray } from "../../ffi/cstring.ts";
import { DesktopError } from "../../errors.ts";
import { nativeError } from "./errors.ts";
import { hasState, isHidden } from "./convert.ts";
import {
  type AtspiRawNode,
  linkRange,
  PASSIVE_ROLES,
  readsAttributes,
  readsLinkRange,
  readsSelection,
  readsText,
  selectionOf,
  TEXT_CAP,
  TRUNCATION_MARK,
} from "./raw.ts";
import { type Native, objectId, type Ptr, stateWords } from "./native.ts";

/** Options of {@link walkTree}. */
export interface WalkOptions {
  /** Levels below the root to read (undefined: all). */
  depth?: number;
  /** Read screen extents of every node. */
  bounds: boolean;
  /** Absolute deadline (ms since epoch). */
  deadline: number;
}

/** Roles that may be labelled by another object. */
const LABELLABLE_ROLES = new Set([7, 11, 31, 43, 44, 45, 51, 52, 61, 62, 79, 40, 87]);

const ATTRIBUTE_KEYS = ["placeholder-text", "level", "tag", "id"] as const;
const ATTRIBUTE_KEY_BUFS = ATTRIBUTE_KEYS.map((k) => cstr(k));

/**
 * Reads `root` and its descendants.
 *
 * @param n the native session
 * @param root the object to start from (borrowed)
 * @param opts depth, bounds and deadline
 * @returns the raw tree
 */
export function walkTree(n: Native, root: Ptr, opts: WalkOptions): AtspiRawNode {
  const node = readNode(n, root, opts.bounds);
  walkChildren(n, root, node, opts, 0, new Set([node.path]));
  return node;
}

function walkChildren(
  n: Native,
  acc: Ptr,
  node: AtspiRawNode,
  opts: WalkOptions,
  level: number,
  seen: Set<string>,
): void {
  if (opts.depth !== undefined && level >= opts.depth) return;
  // A container that manages its descendants (a spreadsheet's 2^34 cells)
  // builds every child it is asked for: this reader leaves them out; the bulk
  // reader reads the part that is showing.
  if (hasState(node.states, 31 /* MANAGES_DESCENDANTS */)) return;
  const count = n.sym.atspi_accessible_get_child_count(acc, n.err.buf);
  n.check("read child count");
  for (let i = 0; i < count; i++) {
    if (Date.now() > opts.deadline) {
      throw new DesktopError("TIMEOUT", "reading the accessibility tree ran past the deadline", {
        suggestion: "Narrow the read (--window, --depth) or raise --timeout",
      });
    }
    // Index checked against the count first: libatspi 2.46 crashes past the end.
    const childPtr = n.sym.atspi_accessible_get_child_at_index(acc, i, n.err.buf);
    const info = n.err.take();
    if (info) {
      const err = nativeError("read child", info.message, "STALE_REF");
      if (err.code !== "STALE_REF") throw err;
      assertAppAlive(n, acc);
      continue; // the child went away while we read: skip it
    }
    using child = n.own(childPtr);
    if (!child) continue;
    let childNode: AtspiRawNode;
    try {
      childNode = readNode(n, child.ptr, opts.bounds);
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code !== "STALE_REF") throw e;
      assertAppAlive(n, acc);
      continue;
    }
    if (isHidden(childNode, node.role)) continue;
    // Some toolkits (GTK4) list one object under two parents; keep the first, and never loop.
    if (seen.has(childNode.path)) continue;
    seen.add(childNode.path);
    node.children.push(childNode);
    walkChildren(n, child.ptr, childNode, opts, level + 1, seen);
  }
}

/**
 * Tells a vanished child from a vanished app: asks the bus daemon for the
 * app's process (no round trip to the app itself) and throws APP_NOT_FOUND
 * when the app is gone, so a read never returns a silently truncated tree.
 */
function assertAppAlive(n: Native, acc: Ptr): void {
  n.sym.atspi_accessible_get_process_id(acc, n.err.buf);
  const info = n.err.take();
  if (info) {
    throw new DesktopError("APP_NOT_FOUND", "the app exited while it was being read", {
      suggestion: "Run `desktop list` to see running apps; start the app again if needed",
      details: { cause: info.message },
    });
  }
}

/**
 * Reads one object's own properties (no children).
 *
 * @param n the native session
 * @param acc the object (borrowed)
 * @param bounds read its screen extents
 * @returns the node with an empty `children`
 */
export function readNode(n: Native, acc: Ptr, bounds: boolean): AtspiRawNode {
  const s = n.sym;
  const { bus, path } = objectId(acc);
  const role = s.atspi_accessible_get_role(acc, n.err.buf);
  n.check("read role");
  const name = n.str(s.atspi_accessible_get_name(acc, n.err.buf), "read name");
  const description = n.str(s.atspi_accessible_get_description(acc, n.err.buf), "read description");
  let states: [number, number] = [0, 0];
  {
    using set = n.own(s.atspi_accessible_get_state_set(acc));
    if (set) states = stateWords(set.ptr);
  }
  const interfaces = readInterfaces(n, acc);
  const node: AtspiRawNode = {
    bus,
    path,
    role,
    name,
    description,
    states,
    interfaces,
    children: [],
  };
  const has = (i: string) => interfaces.includes(`org.a11y.atspi.${i}`);

  // Optional properties: a toolkit that fails one (GTK4 lists actions it cannot
  // name) loses that property, not the whole read.
  if (bounds && has("Component")) node.extents = optional(() => readExtents(n, acc));
  if (has("Action") && !PASSIVE_ROLES.has(role)) node.actions = optional(() => readActions(n, acc));
  if (has("Value")) node.value = optional(() => readValue(n, acc));
  if (has("Text")) {
    const kids = n.sym.atspi_accessible_get_child_count(acc, n.err.buf);
    const failed = n.err.take() !== null;
    const leaf = !failed && kids === 0 && !hasState(states, 31 /* MANAGES_DESCENDANTS */);
    if (readsText(node, leaf)) node.text = optional(() => readText(n, acc));
    if (readsSelection(node)) {
      const sel = optional(() => readSelection(n, acc));
      if (sel) node.selection = sel;
    }
  }
  if (readsAttributes(node)) {
    const attrs = optional(() => readAttributes(n, acc));
    if (attrs) node.attributes = attrs;
  }
  if (name === "" && (LABELLABLE_ROLES.has(role) || has("EditableText"))) {
    const label = optional(() => readLabelledBy(n, acc));
    if (label) node.labelledBy = label;
  }
  if (readsLinkRange(node)) {
    const range = optional(() => readLinkRange(n, acc));
    if (range) node.linkRange = range;
  }
  for (const k of ["extents", "actions", "value", "text"] as const) {
    if (node[k] === undefined) delete node[k];
  }
  return node;
}

/**
 * Runs a read of an optional property: an unresponsive app still fails the
 * read, any other native error just leaves the property out.
 *
 * @param fn the read
 * @returns its result, or undefined when it failed
 */
export function optional<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DesktopError && e.code === "APP_UNRESPONSIVE") throw e;
    return undefined;
  }
}

function readInterfaces(n: Native, acc: Ptr): string[] {
  const arr = n.sym.atspi_accessible_get_interfaces(acc);
  if (arr === null) return [];
  try {
    return readPointerArray(arr).map((p) => {
      const name = readCString(p);
      n.free(p);
      return `org.a11y.atspi.${name}`;
    });
  } finally {
    n.sym.g_array_unref(arr);
  }
}

/**
 * Screen extents of a Component object, or undefined when it has none.
 *
 * @param n the native session
 * @param acc the object
 * @returns x, y, w, h
 */
export function readExtents(n: Native, acc: Ptr): [number, number, number, number] | undefined {
  using comp = n.own(n.sym.atspi_accessible_get_component_iface(acc));
  if (!comp) return undefined;
  const rect = n.sym.atspi_component_get_extents(comp.ptr, ATSPI_COORD_TYPE_SCREEN, n.err.buf);
  n.check("read extents");
  if (rect === null) return undefined;
  const v = new Deno.UnsafePointerView(rect);
  const out: [number, number, number, number] = [
    v.getInt32(0),
    v.getInt32(4),
    v.getInt32(8),
    v.getInt32(12),
  ];
  n.free(rect);
  return out;
}

/**
 * The action names of an Action object, in index order.
 *
 * @param n the native session
 * @param acc the object
 * @returns action names (may contain "")
 */
export function readActions(n: Native, acc: Ptr): string[] {
  using act = n.own(n.sym.atspi_accessible_get_action_iface(acc));
  if (!act) return [];
  const count = n.sym.atspi_action_get_n_actions(act.ptr, n.err.buf);
  n.check("read actions");
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(n.str(n.sym.atspi_action_get_action_name(act.ptr, i, n.err.buf), "read action name"));
  }
  return out;
}

function readValue(n: Native, acc: Ptr): AtspiRawNode["value"] {
  using val = n.own(n.sym.atspi_accessible_get_value_iface(acc));
  if (!val) return undefined;
  const current = n.sym.atspi_value_get_current_value(val.ptr, n.err.buf);
  n.check("read value");
  const min = n.sym.atspi_value_get_minimum_value(val.ptr, n.err.buf);
  n.check("read minimum");
  const max = n.sym.atspi_value_get_maximum_value(val.ptr, n.err.buf);
  n.check("read maximum");
  return { current, min, max };
}

function readText(n: Native, acc: Ptr): string | undefined {
  using text = n.own(n.sym.atspi_accessible_get_text_iface(acc));
  if (!text) return undefined;
  const count = n.sym.atspi_text_get_character_count(text.ptr, n.err.buf);
  n.check("read text length");
  if (count <= 0) return "";
  const head = n.str(
    n.sym.atspi_text_get_text(text.ptr, 0, Math.min(count, TEXT_CAP), n.err.buf),
    "read text",
  );
  return count > TEXT_CAP ? head + TRUNCATION_MARK : head;
}

/** A text's selection, or its caret as an empty range (see {@link selectionOf}). */
function readSelection(n: Native, acc: Ptr): [number, number] | undefined {
  using text = n.own(n.sym.atspi_accessible_get_text_iface(acc));
  if (!text) return undefined;
  const caret = n.sym.atspi_text_get_caret_offset(text.ptr, n.err.buf);
  n.check("read caret");
  const count = n.sym.atspi_text_get_n_selections(text.ptr, n.err.buf);
  n.check("read selections");
  let range: [number, number] | undefined;
  if (count > 0) {
    const r = n.sym.atspi_text_get_selection(text.ptr, 0, n.err.buf);
    n.check("read selection");
    if (r !== null) {
      const v = new Deno.UnsafePointerView(r);
      range = [v.getInt32(0), v.getInt32(4)];
      n.free(r);
    }
  }
  return selectionOf(caret, range);
}

function readAttributes(n: Native, acc: Ptr): Record<string, string> | undefined {
  const table = n.sym.atspi_accessible_get_attributes(acc, n.err.buf);
  n.check("read attributes");
  if (table === null) return undefined;
  try {
    const out: Record<string, string> = {};
    ATTRIBUTE_KEYS.forEach((key, i) => {
      const v = n.sym.g_hash_table_lookup(table, ATTRIBUTE_KEY_BUFS[i]);
      if (v !== null) out[key] = readCString(v); // borrowed from the table
    });
    return Object.keys(out).length ? out : undefined;
  } finally {
    n.sym.g_hash_table_unref(table);
  }
}

/** Where a link sits in its parent's text (Hyperlink's start and end), if it says. */
function readLinkRange(n: Native, acc: Ptr): [number, number] | undefined {
  using link = n.own(n.sym.atspi_accessible_get_hyperlink(acc));
  n.check("read hyperlink");
  if (!link) return undefined;
  const start = n.sym.atspi_hyperlink_get_start_index(link.ptr, n.err.buf);
  n.check("read link start");
  const end = n.sym.atspi_hyperlink_get_end_index(link.ptr, n.err.buf);
  n.check("read link end");
  return linkRange(start, end);
}

function readLabelledBy(n: Native, acc: Ptr): string | undefined {
  const arr = n.sym.atspi_accessible_get_relation_set(acc, n.err.buf);
  n.check("read relations");
  if (arr === null) return undefined;
  let label: string | undefined;
  try {
    for (const rel of readPointerArray(arr)) {
      if (rel === null) continue;
      try {
        if (label !== undefined) continue;
        if (n.sym.atspi_relation_get_relation_type(rel) !== ATSPI_RELATION.LABELLED_BY) continue;
        if (n.sym.atspi_relation_get_n_targets(rel) < 1) continue;
        using target = n.own(n.sym.atspi_relation_get_target(rel, 0));
        if (!target) continue;
        const name = n.str(n.sym.atspi_accessible_get_name(target.ptr, n.err.buf), "read label");
        if (name) label = name;
      } finally {
        n.sym.g_object_unref(rel);
      }
    }
  } finally {
    n.sym.g_array_unref(arr);
  }
  return label;
}
