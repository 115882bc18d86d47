/**
 * Warm reads: a long-lived process (an MCP worker, `observe`, `wait`) keeps
 * the last raw tree it read of each app, and follows that app's AT-SPI
 * events. A read of an app that sent no event since its tree was read, and
 * that passes a cheap validation of what events do not cover (the screen
 * boxes of a few nodes, which scrolling and moving change silently), is
 * answered from the kept tree. An app that did send events has the parts
 * they name read again (a node whose name, value, text or state changed;
 * the subtree of a node whose children changed), spliced into the kept
 * tree: a read costs what changed, not the whole app. A part whose box moved
 * may have moved what lies around it (a longer link pushes the button after
 * it), so the part grows to its parent (a table cell's to its table) until
 * its box holds. An event the kept tree cannot place (a node it does not
 * hold, a kind it cannot tell the extent of, too many events), parts that
 * would cover much of the tree, a failed validation or an old tree mean a
 * cold read. Each app's events are numbered, so an event that arrives while
 * a read runs is re-checked by the next read.
 *
 * A node that manages its descendants (GTK 3's tree views and list boxes,
 * LibreOffice's sheets) changes its children with no event that says so:
 * the ATK bridge forwards no children-changed from such a node (a tree
 * view's new row comes as row-inserted alone). Its subtree is therefore read
 * again by every read of a tree that holds it, events or not; a tree whose
 * such subtrees are too large to re-read is not kept.
 *
 * Bounds: trees larger than {@link LiveTreeLimits.maxNodesPerApp} are not
 * kept, the trees kept hold at most {@link LiveTreeLimits.maxNodesTotal}
 * nodes (the least recently used go first), a tree older than
 * {@link LiveTreeLimits.maxAgeMs} is read again, an app that quit is
 * dropped, and an app whose validation found a change its events did not
 * announce {@link LiveTreeLimits.maxMisses} times is read cold from then on.
 * A secure field's text is never held (the readers never read it; the tree
 * kept drops it again).
 *
 * Off by default: one-shot commands gain nothing from it. A long-lived
 * process turns it on with {@link setLiveTrees}, a loop that reads again and
 * again holds it on with {@link holdLiveTrees}; `DESKTOP_LIVE_TREE=0` keeps
 * it off.
 *
 * @module
 */

import type { AtspiRawNode } from "./raw.ts";
import { isHidden } from "./convert.ts";

/** The raw node the trees hold (see raw.ts). */
export type { AtspiRawNode };

/** AT-SPI's password text role: its value is never held. */
const ROLE_PASSWORD_TEXT = 40;
/** AT-SPI's combo box role: its choices come from its hidden popup, read with its subtree. */
const ROLE_COMBO_BOX = 11;
/** Table parts whose width follows the other rows' (a column grows for one cell). */
const TABLE_PART_ROLES: ReadonlySet<number> = new Set([10, 47, 56, 57, 58, 90]);
/** Tables, tree tables and trees: where a table part's change is re-read from. */
const TABLE_ROLES: ReadonlySet<number> = new Set([55, 65, 66]);
/** ATSPI_STATE_MANAGES_DESCENDANTS (31) in the low state word. */
const MANAGES_DESCENDANTS_BIT = 2 ** 31;

/** Bounds of the trees kept. */
export interface LiveTreeLimits {
  /** A tree with more nodes than this is not kept (read cold each time). */
  maxNodesPerApp: number;
  /** All trees kept hold at most this many nodes; the least recently used are dropped. */
  maxNodesTotal: number;
  /** A tree kept longer than this is read again, events or not. */
  maxAgeMs: number;
  /** Validations that found an unannounced change before an app is read cold for good. */
  maxMisses: number;
  /** Nodes whose boxes a validation asks the app for. */
  samples: number;
  /** Events noted per app between reads; more, and the next read is cold. */
  maxEvents: number;
  /** Largest share of a tree's nodes that a read re-reads in parts; more, and it reads cold. */
  maxPatchShare: number;
}

/** The default bounds. */
export const DEFAULT_LIMITS: LiveTreeLimits = {
  maxNodesPerApp: 60_000,
  maxNodesTotal: 200_000,
  maxAgeMs: 60_000,
  maxMisses: 3,
  samples: 8,
  maxEvents: 256,
  maxPatchShare: 0.3,
};

/** An event from an app: its source's object path and its type. */
export interface LiveEvent {
  /** The source's object path. */
  path: string;
  /** The event type with its detail (`object:state-changed:focused`). */
  kind: string;
}

/**
 * Reads the subtree at `path` again, exactly as the cold read that made the
 * kept tree read those nodes (same paths, child order and fields); depth 0
 * reads the node alone. `exact`: the part holds a closed combo box's
 * choices, which a read of a part orders only the way the whole read did
 * when it reads as the whole read did (from the app's cache).
 */
export type Reread = (path: string, depth: number | undefined, exact: boolean) => Promise<
  AtspiRawNode
>;

/**
 * Events a table sends about its rows and columns (a GTK 3 tree view that
 * manages its descendants sends these, and no children-changed): its subtree
 * is read again. The watchers listen for them (watch.ts).
 */
export const TABLE_MODEL_EVENTS: readonly string[] = [
  "object:row-inserted",
  "object:row-deleted",
  "object:row-reordered",
  "object:column-inserted",
  "object:column-deleted",
  "object:column-reordered",
  "object:model-changed",
  "object:visible-data-changed",
];
const TABLE_MODEL_EVENT_SET: ReadonlySet<string> = new Set(TABLE_MODEL_EVENTS);

/** How much of the kept tree an event makes a read re-read. */
export type EventExtent = "node" | "subtree" | "parent";

/** States whose change can show or hide a node (its parent's children change). */
const VISIBILITY_STATES: ReadonlySet<string> = new Set([
  "showing",
  "visible",
  "defunct",
  "manages-descendants",
]);

/**
 * What an event makes a read re-read: the source alone (a name, value or
 * state of its own), its subtree (its children, its text, which places the
 * links in it, its selection, a table's rows and columns), or its parent's
 * subtree (it was shown, hidden or destroyed); null when the event's reach
 * is not known (a window opened or closed, a kind not listed): the read is
 * then cold.
 *
 * @param kind the event type with its detail
 * @returns the extent, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventExtent } from "./live_tree.ts";
 * assert.equal(eventExtent("object:children-changed:add"), "subtree");
 * assert.equal(eventExtent("object:row-inserted"), "subtree");
 * assert.equal(eventExtent("object:state-changed:checked"), "node");
 * assert.equal(eventExtent("object:state-changed:showing"), "parent");
 * assert.equal(eventExtent("window:create"), null);
 * ```
 */
export function eventExtent(kind: string): EventExtent | null {
  if (kind.startsWith("object:children-changed")) return "subtree";
  if (kind.startsWith("object:text-changed")) return "subtree";
  if (kind === "object:selection-changed") return "subtree";
  if (TABLE_MODEL_EVENT_SET.has(kind)) return "subtree";
  if (
    kind === "object:property-change:accessible-name" ||
    kind === "object:property-change:accessible-description" ||
    kind === "object:property-change:accessible-value" ||
    kind === "object:value-changed" ||
    kind === "object:text-caret-moved" ||
    kind === "object:text-selection-changed" ||
    kind === "window:activate" ||
    kind === "window:deactivate"
  ) return "node";
  const state = /^object:state-changed:(.+)$/.exec(kind)?.[1];
  if (state !== undefined) return VISIBILITY_STATES.has(state) ? "parent" : "node";
  return null;
}

/** What the kept trees need from the backend. */
export interface LiveTreeHooks {
  /**
   * Starts following an app's events; `onEvent` is called for each event
   * from it, with its source and type (an event without them makes the next
   * read cold). Returns the stop function, or null when the app's events cannot
   * be followed (its trees are then never kept).
   */
  watch(bus: string, onEvent: (event?: LiveEvent) => void): (() => void) | null;
  /**
   * Asks the app for a node's screen box now (a round trip, so the events
   * the app sent before it are in by the time it returns). Undefined when it
   * has none; throws when the app does not answer.
   */
  extents(bus: string, path: string): [number, number, number, number] | undefined;
  /** Dispatches the events received so far (runs the event callbacks). */
  pump(): void;
}

/** Which tree of an app a read asks for. */
export interface TreeKey {
  /** The app's unique bus name. */
  bus: string;
  /** The path the read starts at (the app, or one window). */
  path: string;
  /** Levels read (undefined: all). */
  depth?: number;
  /** Whether boxes were read. */
  bounds: boolean;
}

/** Counters, for tests and benchmarks. */
export interface LiveTreeStats {
  /** Reads answered from a kept tree. */
  hits: number;
  /** Reads that went cold. */
  misses: number;
  /** Validations that found a change no event announced. */
  silentChanges: number;
  /** Trees kept now. */
  trees: number;
  /** Nodes kept now. */
  nodes: number;
  /** Apps read cold for good (their events proved unreliable). */
  coldApps: string[];
  /** Reads answered by re-reading the parts that events named. */
  patched: number;
  /** Nodes those reads re-read, in all. */
  nodesReread: number;
}

interface Entry {
  key: string;
  bus: string;
  tree: AtspiRawNode;
  nodes: number;
  /** The app's event count when the read that made it began. */
  seq: number;
  at: number;
  /** Nodes checked by validation: path and box. */
  samples: Array<{ path: string; box: [number, number, number, number] | undefined }>;
  /** Whether its parts may be re-read alone (the read that made it can read parts alike). */
  patchable: boolean;
  /** A read is re-reading its parts now (a second read at once reads cold). */
  patching?: boolean;
  /** Which tree this is: a new number whenever a read puts it or a patch changes it. */
  version: number;
  /** It holds a node that manages its descendants: every read re-reads that subtree. */
  managed: boolean;
}

interface AppState {
  seq: number;
  stop: (() => void) | null;
  misses: number;
  /** The events since the oldest kept tree's read, numbered (at most maxEvents). */
  events: Array<{ seq: number; event: LiveEvent | undefined }>;
  /** The number of the last event dropped from `events` for room. */
  dropped: number;
}

/** A part of a kept tree a read re-reads: a node alone, or its subtree. */
interface Part {
  node: AtspiRawNode;
  whole: boolean;
  fresh?: AtspiRawNode;
}

let enabled = false;
let holders = 0;

/**
 * Turns warm reads on or off for this process (off by default; the
 * environment variable `DESKTOP_LIVE_TREE=0` keeps them off).
 *
 * @param on whether reads may be answered from kept trees
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { liveTreesEnabled, setLiveTrees } from "./live_tree.ts";
 * setLiveTrees(true);
 * assert.equal(liveTreesEnabled(), Deno.env.get("DESKTOP_LIVE_TREE") !== "0");
 * setLiveTrees(false);
 * assert.equal(liveTreesEnabled(), false);
 * ```
 */
export function setLiveTrees(on: boolean): void {
  enabled = on;
}

/**
 * Turns warm reads on until the returned function is called: for a loop that
 * reads the same app again and again (`observe`, `wait`) in a process that
 * otherwise reads once.
 *
 * @returns the release function (idempotent)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdLiveTrees, liveTreesEnabled } from "./live_tree.ts";
 * const release = holdLiveTrees();
 * assert.equal(liveTreesEnabled(), Deno.env.get("DESKTOP_LIVE_TREE") !== "0");
 * release();
 * release();
 * assert.equal(liveTreesEnabled(), false);
 * ```
 */
export function holdLiveTrees(): () => void {
  holders++;
  let held = true;
  return () => {
    if (held) holders--;
    held = false;
  };
}

/**
 * Whether warm reads are on in this process.
 *
 * @returns true after {@link setLiveTrees}(true) or while held, unless `DESKTOP_LIVE_TREE=0`
 */
export function liveTreesEnabled(): boolean {
  if (!enabled && holders === 0) return false;
  try {
    return Deno.env.get("DESKTOP_LIVE_TREE") !== "0";
  } catch {
    return true;
  }
}

/**
 * Whether a kept tree may re-read only the parts its app's events name (and
 * the subtrees of nodes that manage their descendants); otherwise any event,
 * and any read of a tree holding such a node, means a cold read. On by
 * default; `DESKTOP_LIVE_PATCH=0` turns it off.
 *
 * @returns whether patching is on
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { livePatchesEnabled } from "./live_tree.ts";
 * assert.equal(livePatchesEnabled(), Deno.env.get("DESKTOP_LIVE_PATCH") !== "0");
 * ```
 */
export function livePatchesEnabled(): boolean {
  try {
    return Deno.env.get("DESKTOP_LIVE_PATCH") !== "0";
  } catch {
    return true;
  }
}

/**
 * The key of a tree in the cache.
 *
 * @param k the read's app, path, depth and bounds
 * @returns a string key
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { treeKey } from "./live_tree.ts";
 * assert.equal(treeKey({ bus: ":1.2", path: "/r", bounds: true }), ":1.2 /r all b");
 * ```
 */
export function treeKey(k: TreeKey): string {
  return `${k.bus} ${k.path} ${k.depth ?? "all"} ${k.bounds ? "b" : "-"}`;
}

/**
 * How many nodes a raw tree holds.
 *
 * @param root the tree
 * @returns the count
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countRaw } from "./live_tree.ts";
 * const leaf = { bus: "", path: "/b", role: 1, name: "", description: "", states: [0, 0] as [number, number], interfaces: [], children: [] };
 * assert.equal(countRaw({ ...leaf, path: "/a", children: [leaf] }), 2);
 * ```
 */
export function countRaw(root: AtspiRawNode): number {
  let n = 0;
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    n++;
    for (const c of node.children) stack.push(c);
  }
  return n;
}

/**
 * A deep copy of a raw tree without any secure field's text or value text.
 *
 * @param node the tree
 * @returns the copy
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { copyRaw } from "./live_tree.ts";
 * const pw = { bus: "", path: "/p", role: 40, name: "", description: "", states: [0, 0] as [number, number], interfaces: [], children: [], text: "hunter2" };
 * assert.equal(copyRaw(pw).text, undefined);
 * ```
 */
export function copyRaw(node: AtspiRawNode): AtspiRawNode {
  const out: AtspiRawNode = { ...node, children: node.children.map(copyRaw) };
  if (node.states) out.states = [node.states[0], node.states[1]];
  if (node.extents) out.extents = [...node.extents];
  if (node.interfaces) out.interfaces = [...node.interfaces];
  if (node.actions) out.actions = [...node.actions];
  if (node.value) out.value = { ...node.value };
  if (node.linkRange) out.linkRange = [...node.linkRange];
  if (node.labelFor) out.labelFor = [...node.labelFor];
  if (node.attributes) out.attributes = { ...node.attributes };
  if (node.choices) out.choices = [...node.choices];
  if (node.role === ROLE_PASSWORD_TEXT) {
    delete out.text;
    if (out.value) delete out.value.text;
  }
  return out;
}

/** Up to `n` nodes with boxes, spread over the tree in document order (the first always in). */
function pickSamples(root: AtspiRawNode, n: number): Entry["samples"] {
  const boxed: AtspiRawNode[] = [];
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.extents && node.path) boxed.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  if (boxed.length === 0) return [];
  const picks = new Set<AtspiRawNode>();
  // The top-level windows first (moved, resized), then nodes spread over the rest (scrolled).
  for (const w of root.children) if (w.extents && picks.size < Math.ceil(n / 2)) picks.add(w);
  const step = boxed.length / Math.max(1, n - picks.size);
  for (let i = 0; picks.size < n && i < boxed.length; i += Math.max(1, step)) {
    picks.add(boxed[Math.floor(i)]);
  }
  picks.add(boxed[boxed.length - 1]);
  return [...picks].map((p) => ({ path: p.path, box: p.extents && [...p.extents] }));
}

/** Whether two raw subtrees are alike in every field. */
function sameRaw(a: AtspiRawNode, b: AtspiRawNode): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameBox(a?: readonly number[], b?: readonly number[]): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A kept tree's nodes by path, and each node's parent (nodes a reader made up have no path). */
interface Places {
  byPath: Map<string, AtspiRawNode>;
  parentOf: Map<AtspiRawNode, AtspiRawNode | null>;
}

function placesOf(root: AtspiRawNode): Places {
  const byPath = new Map<string, AtspiRawNode>();
  const parentOf = new Map<AtspiRawNode, AtspiRawNode | null>([[root, null]]);
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.path && !byPath.has(node.path)) byPath.set(node.path, node);
    for (const c of node.children) {
      parentOf.set(c, node);
      stack.push(c);
    }
  }
  return { byPath, parentOf };
}

/** A node's ancestors, nearest first. */
function ancestors(places: Places, node: AtspiRawNode): AtspiRawNode[] {
  const out: AtspiRawNode[] = [];
  for (let p = places.parentOf.get(node); p; p = places.parentOf.get(p)) out.push(p);
  return out;
}

/** Whether a node manages its descendants (the ATK bridge forwards no children-changed from it). */
function managesDescendants(node: AtspiRawNode): boolean {
  return (node.states[0] & MANAGES_DESCENDANTS_BIT) !== 0;
}

/** The outermost nodes of a tree that manage their descendants. */
function managersOf(root: AtspiRawNode): AtspiRawNode[] {
  const out: AtspiRawNode[] = [];
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (managesDescendants(node)) out.push(node);
    else for (const c of node.children) stack.push(c);
  }
  return out;
}

/** Whether a node's fields depend on children the tree does not hold (a combo box's choices). */
function readWithChildren(node: AtspiRawNode): boolean {
  return node.role === ROLE_COMBO_BOX || node.choices !== undefined || node.chosen !== undefined;
}

/** Whether a subtree holds a closed combo box's choices. */
function holdsChoices(root: AtspiRawNode): boolean {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.choices !== undefined || node.chosen !== undefined) return true;
    for (const c of node.children) stack.push(c);
  }
  return false;
}

/**
 * The trees one process keeps, per app, kept true by the apps' events.
 */
export class LiveTrees {
  readonly #hooks: LiveTreeHooks;
  readonly #limits: LiveTreeLimits;
  /** Least recently used first. */
  readonly #entries = new Map<string, Entry>();
  readonly #apps = new Map<string, AppState>();
  #nodes = 0;
  #hits = 0;
  #misses = 0;
  #silent = 0;
  #patched = 0;
  #nodesReread = 0;
  /** The last version handed out (see {@link LiveTrees.unchanged}). */
  #version = 0;

  /**
   * Keeps no tree yet; follows an app from its first {@link LiveTrees.begin}.
   *
   * @param hooks the backend's event and box calls
   * @param limits the bounds (default {@link DEFAULT_LIMITS})
   */
  constructor(hooks: LiveTreeHooks, limits: Partial<LiveTreeLimits> = {}) {
    this.#hooks = hooks;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /**
   * The app's event count now: pass it to {@link LiveTrees.put} with the tree
   * a read then makes. Starts following the app's events on first use.
   *
   * @param bus the app's bus name
   * @returns the count, or null when the app's trees are not kept
   */
  begin(bus: string): number | null {
    let app = this.#apps.get(bus);
    if (!app) {
      app = { seq: 0, stop: null, misses: 0, events: [], dropped: 0 };
      const state = app;
      this.#apps.set(bus, app);
      try {
        app.stop = this.#hooks.watch(bus, (event) => this.#note(state, event));
      } catch {
        app.stop = null;
      }
    }
    if (!app.stop || app.misses >= this.#limits.maxMisses) return null;
    return app.seq;
  }

  /**
   * The kept tree for a read: as kept when no event came since it was read;
   * with the parts the events named read again (through `reread`) when
   * events came; null (read cold) when the tree cannot be trusted or the
   * events cannot be placed. Either way the sampled boxes must hold.
   *
   * @param k which tree
   * @param reread reads a part of the tree again; without it, any event means a cold read
   * @param out receives the version of the tree returned (see {@link LiveTrees.unchanged})
   * @returns a copy the caller may change, or null
   */
  async get(
    k: TreeKey,
    reread?: Reread,
    out: { version?: number } = {},
  ): Promise<AtspiRawNode | null> {
    const key = treeKey(k);
    const checked = this.#validate(k);
    if (!checked) return null;
    const { entry, app, moved } = checked;
    if (app.seq === entry.seq && !entry.managed) {
      if (moved.size > 0) {
        this.#silent++;
        app.misses++;
        return this.#cold(key);
      }
      this.#touch(key, entry);
      this.#hits++;
      out.version = entry.version;
      return copyRaw(entry.tree);
    }
    if (!reread || !entry.patchable || entry.patching || k.depth !== undefined) {
      return this.#cold(key);
    }
    const seq = app.seq;
    entry.patching = true;
    const patched = await this.#patch(k, entry, app, moved, reread).catch(() => null).finally(
      () => entry.patching = false,
    );
    if (!patched) {
      // A read that kept a tree meanwhile keeps it.
      if (this.#entries.get(key) === entry) return this.#cold(key);
      this.#misses++;
      return null;
    }
    if (this.#entries.get(key) === entry) {
      // Events that arrive from here on are re-checked by the next read.
      this.#nodes += patched.nodes - entry.nodes;
      // Parts read as they were kept: the same tree, the same version.
      const version = patched.changed ? ++this.#version : entry.version;
      const { changed: _, ...fields } = patched;
      Object.assign(entry, fields, { seq, version });
      this.#touch(key, entry);
      this.#trim(app);
      out.version = entry.version;
    }
    return copyRaw(patched.tree);
  }

  /**
   * The version of the kept tree when a read now would return it as it was
   * kept (no event since it was read or patched, the sampled boxes hold, and
   * it holds no node that manages its descendants, whose children change
   * unannounced): a caller that kept what it made of that version may use it
   * again without reading the tree. Null otherwise (read it:
   * {@link LiveTrees.get}).
   *
   * @param k which tree
   * @returns the version, or null
   */
  unchanged(k: TreeKey): number | null {
    const checked = this.#validate(k);
    if (!checked) return null;
    const { entry, app, moved } = checked;
    if (app.seq !== entry.seq || entry.managed) return null;
    if (moved.size > 0) {
      this.#silent++;
      app.misses++;
      return this.#cold(entry.key);
    }
    this.#touch(entry.key, entry);
    this.#hits++;
    return entry.version;
  }

  /**
   * The kept entry for a read with the nodes whose sampled boxes moved, after
   * a round trip that brings in the events the app sent before it; null (a
   * cold read) when there is none, the app is not followed, or it is too old.
   */
  #validate(k: TreeKey): { entry: Entry; app: AppState; moved: Set<string> } | null {
    const key = treeKey(k);
    const entry = this.#entries.get(key);
    const app = this.#apps.get(k.bus);
    if (!entry || !app || !app.stop || app.misses >= this.#limits.maxMisses) {
      this.#misses++;
      return null;
    }
    if (Date.now() - entry.at > this.#limits.maxAgeMs) return this.#cold(key);
    const moved = new Set<string>();
    try {
      // Round trips first: the events the app sent before its answers are in after them.
      for (const s of entry.samples) {
        if (!sameBox(this.#hooks.extents(k.bus, s.path), s.box)) moved.add(s.path);
      }
      if (entry.samples.length === 0) this.#hooks.extents(k.bus, k.path);
      this.#hooks.pump();
    } catch {
      return this.#cold(key);
    }
    return { entry, app, moved };
  }

  /**
   * Keeps a tree a cold read made (a copy of it).
   *
   * @param k which tree
   * @param tree the tree read
   * @param seq the app's event count from {@link LiveTrees.begin} before the read
   * @param patchable whether its parts may be re-read alone later (the reader can read parts
   *   as it read them in the whole), default true
   * @returns the kept tree's version (see {@link LiveTrees.unchanged}), or null when not kept
   *   (too large, not followed, or holding nodes that manage their descendants whose subtrees
   *   it cannot re-read at each read)
   */
  put(k: TreeKey, tree: AtspiRawNode, seq: number | null, patchable = true): number | null {
    const key = treeKey(k);
    this.#drop(key);
    if (seq === null) return null;
    const nodes = countRaw(tree);
    if (nodes > this.#limits.maxNodesPerApp) return null;
    const managers = managersOf(tree);
    if (managers.length > 0) {
      // Every read re-reads these subtrees: kept only where that can be done, and pays.
      const size = managers.reduce((n, m) => n + countRaw(m), 0);
      if (!patchable || k.depth !== undefined || size > this.#budget(nodes)) return null;
    }
    const version = ++this.#version;
    const kept = copyRaw(tree);
    const samples = k.bounds ? pickSamples(kept, this.#limits.samples) : [];
    this.#entries.set(key, {
      key,
      bus: k.bus,
      tree: kept,
      nodes,
      seq,
      at: Date.now(),
      samples,
      patchable,
      version,
      managed: managers.length > 0,
    });
    this.#nodes += nodes;
    for (const [old] of this.#entries) {
      if (this.#nodes <= this.#limits.maxNodesTotal) break;
      this.#drop(old);
    }
    const app = this.#apps.get(k.bus);
    if (app) this.#trim(app);
    return this.#entries.has(key) ? version : null;
  }

  /**
   * Forgets every app not in `alive` (it quit), and stops following it.
   *
   * @param alive the bus names of the apps running now
   */
  retain(alive: ReadonlySet<string>): void {
    for (const bus of [...this.#apps.keys()]) if (!alive.has(bus)) this.forget(bus);
  }

  /**
   * Forgets an app's trees and stops following its events.
   *
   * @param bus the app's bus name
   */
  forget(bus: string): void {
    for (const [key, e] of [...this.#entries]) if (e.bus === bus) this.#drop(key);
    const app = this.#apps.get(bus);
    this.#apps.delete(bus);
    try {
      app?.stop?.();
    } catch {
      // Already stopped.
    }
  }

  /** Counters (see {@link LiveTreeStats}). */
  stats(): LiveTreeStats {
    return {
      hits: this.#hits,
      misses: this.#misses,
      silentChanges: this.#silent,
      trees: this.#entries.size,
      nodes: this.#nodes,
      coldApps: [...this.#apps].filter(([, a]) => a.misses >= this.#limits.maxMisses).map(([b]) =>
        b
      ),
      patched: this.#patched,
      nodesReread: this.#nodesReread,
    };
  }

  /** Forgets everything and stops following every app. */
  close(): void {
    for (const bus of [...this.#apps.keys()]) this.forget(bus);
  }

  /** The most nodes a read of a tree of `nodes` nodes re-reads in parts. */
  #budget(nodes: number): number {
    return Math.max(1, Math.floor(nodes * this.#limits.maxPatchShare));
  }

  /** Numbers an event and notes it, within the bound (the oldest go: see `dropped`). */
  #note(app: AppState, event: LiveEvent | undefined): void {
    app.seq++;
    app.events.push({ seq: app.seq, event });
    if (app.events.length > this.#limits.maxEvents) app.dropped = app.events.shift()!.seq;
  }

  /** Drops the events no kept tree of the app needs any longer. */
  #trim(app: AppState): void {
    let oldest = app.seq;
    for (const e of this.#entries.values()) {
      if (this.#apps.get(e.bus) === app) oldest = Math.min(oldest, e.seq);
    }
    let n = 0;
    while (n < app.events.length && app.events[n].seq <= oldest) n++;
    if (n > 0) app.events.splice(0, n);
  }

  /**
   * The entry's tree with the parts its app's events named read again, its
   * node count and new samples, and whether any part read differs from the
   * one kept; null when a cold read is the answer (an event it cannot place,
   * too much to re-read, a box outside the parts that moved). Throws when a
   * part cannot be read.
   */
  async #patch(
    k: TreeKey,
    entry: Entry,
    app: AppState,
    moved: ReadonlySet<string>,
    reread: Reread,
  ): Promise<
    (Pick<Entry, "tree" | "nodes" | "samples" | "managed"> & { changed: boolean }) | null
  > {
    if (app.dropped > entry.seq) return null;
    const tree = entry.tree;
    const places = placesOf(tree);
    const labels = new Set<string>();
    for (const node of places.byPath.values()) if (node.labelledBy) labels.add(node.labelledBy);
    const parts = new Map<AtspiRawNode, Part>();
    /** Objects events came from that the kept tree does not hold. */
    const unplaced = new Set<string>();
    // Subtrees whose children change with no event that says so: read again, events or not.
    for (const manager of managersOf(tree)) addPart(parts, places, manager, true);
    for (const { seq, event } of app.events) {
      if (seq <= entry.seq) continue;
      const extent = event ? eventExtent(event.kind) : null;
      if (!event || !extent) return null;
      const node = places.byPath.get(event.path);
      if (!node) {
        // A destroyed object the tree does not hold changes nothing in it.
        if (event.kind === "object:state-changed:defunct") continue;
        // An object made since the read (a popover's parts announce themselves as they are
        // made): a part read again must hold it, else the change is where the tree is not.
        unplaced.add(event.path);
        continue;
      }
      const target = extent === "parent" ? places.parentOf.get(node) : node;
      if (!target) return null;
      addPart(parts, places, target, extent !== "node");
    }
    const budget = this.#budget(entry.nodes);
    let changed = false;
    let nodesReread = 0;
    // Read the parts; a part whose box moved grows to where the move stops.
    for (let round = 0; round < 64; round++) {
      const todo = [...parts.values()].filter((p) => !p.fresh);
      if (todo.length === 0) break;
      let size = 0;
      for (const p of parts.values()) size += p.whole ? countRaw(p.node) : 1;
      if (size > budget) return null;
      await Promise.all(todo.map(async (part) => {
        const exact = part.whole && holdsChoices(part.node);
        part.fresh = await reread(part.node.path, part.whole ? undefined : 0, exact);
        nodesReread += part.whole ? countRaw(part.fresh) : 1;
      }));
      for (const part of todo) {
        const fresh = part.fresh!;
        if (fresh.path !== part.node.path) return null;
        // A label renamed: the controls it labels hold its name (labelledBy), and no event
        // names them.
        if (fresh.name !== part.node.name && labels.has(part.node.name)) return null;
        const parent = places.parentOf.get(part.node) ?? null;
        if (!parent) return null;
        if (sameBox(fresh.extents, part.node.extents) && !isHidden(fresh, parent.role)) continue;
        addPart(parts, places, growTo(places, part.node), true);
      }
    }
    if ([...parts.values()].some((p) => !p.fresh)) return null;
    // A sampled box outside the parts read that moved: the change reached further, or the
    // app scrolled; either way a whole read is the answer.
    const covered = (node: AtspiRawNode) =>
      parts.has(node) || ancestors(places, node).some((a) => parts.get(a)?.whole);
    for (const path of moved) {
      const node = places.byPath.get(path);
      if (!node || !covered(node)) return null;
    }
    if (unplaced.size > 0) {
      const fresh = new Set<string>();
      for (const part of parts.values()) {
        const stack = part.whole && part.fresh ? [part.fresh] : [];
        while (stack.length) {
          const n = stack.pop()!;
          fresh.add(n.path);
          stack.push(...n.children);
        }
      }
      for (const path of unplaced) if (!fresh.has(path)) return null;
    }
    for (const part of parts.values()) {
      const parent = places.parentOf.get(part.node);
      if (!parent) return null;
      const fresh = part.fresh!;
      const replacement = part.whole
        ? copyRaw(fresh)
        : { ...copyRaw({ ...fresh, children: [] }), children: part.node.children };
      if (!part.whole) {
        delete replacement.pending;
        if (part.node.pending) replacement.pending = true;
      }
      const siblings = parent.children;
      const i = siblings.indexOf(part.node);
      if (i < 0) return null;
      if (isHidden(fresh, parent.role)) siblings.splice(i, 1);
      else siblings[i] = replacement;
      if (isHidden(fresh, parent.role) || !sameRaw(replacement, part.node)) changed = true;
    }
    this.#patched++;
    this.#nodesReread += nodesReread;
    const nodes = countRaw(tree);
    if (nodes > this.#limits.maxNodesPerApp) return null;
    return {
      tree,
      nodes,
      samples: k.bounds ? pickSamples(tree, this.#limits.samples) : [],
      managed: managersOf(tree).length > 0,
      changed,
    };
  }

  #touch(key: string, entry: Entry): void {
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  #drop(key: string): null {
    const e = this.#entries.get(key);
    if (e) {
      this.#entries.delete(key);
      this.#nodes -= e.nodes;
    }
    return null;
  }

  /** Drops a tree a read could not use, and counts the cold read. */
  #cold(key: string): null {
    this.#misses++;
    return this.#drop(key);
  }
}

/**
 * Adds a part to re-read, merged with the others: a part inside a whole
 * subtree already listed adds nothing, a subtree swallows the parts inside
 * it, a node under one that manages its descendants (a tree view, whose rows
 * the reader makes up from its cells and their states) is read with the
 * outermost such ancestor, and a node whose fields come from children the
 * tree does not hold (a combo box's choices) with its subtree.
 */
function addPart(
  parts: Map<AtspiRawNode, Part>,
  places: Places,
  node: AtspiRawNode,
  whole: boolean,
): void {
  let chain = ancestors(places, node);
  const manager = chain.findLast(managesDescendants);
  if (manager) {
    [node, whole] = [manager, true];
    chain = ancestors(places, node);
  }
  if (readWithChildren(node)) whole = true;
  if (chain.some((a) => parts.get(a)?.whole)) return;
  const had = parts.get(node);
  if (had && (had.whole || !whole)) return;
  if (whole) {
    for (const other of [...parts.keys()]) {
      if (other !== node && ancestors(places, other).includes(node)) parts.delete(other);
    }
  }
  parts.set(node, { node, whole });
}

/**
 * Where a part whose box moved is read again from: its parent (the siblings
 * after it moved with it), or for a table's cell, row or header, the table
 * (a column that grew moved the cells of every row).
 */
function growTo(places: Places, node: AtspiRawNode): AtspiRawNode {
  const chain = ancestors(places, node);
  if (TABLE_PART_ROLES.has(node.role)) {
    const table = chain.find((a) => TABLE_ROLES.has(a.role));
    if (table) return table;
  }
  return chain[0];
}
