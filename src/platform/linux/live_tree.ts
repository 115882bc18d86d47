/**
 * Warm reads: a long-lived process (an MCP worker, `observe`, `wait`) keeps
 * the last raw tree it read of each app, and follows that app's AT-SPI
 * events. A read of an app that sent no event since its tree was read, and
 * that passes a cheap validation of what events do not cover (the screen
 * boxes of a few nodes, which scrolling and moving change silently), is
 * answered from the kept tree; any event, a failed validation or an old
 * tree means a cold read. Each app gets its own event counter, so an event
 * that arrives while a read runs makes the next read cold too.
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

/** AT-SPI's password text role: its value is never held. */
const ROLE_PASSWORD_TEXT = 40;

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
}

/** The default bounds. */
export const DEFAULT_LIMITS: LiveTreeLimits = {
  maxNodesPerApp: 60_000,
  maxNodesTotal: 200_000,
  maxAgeMs: 60_000,
  maxMisses: 3,
  samples: 8,
};

/** What the kept trees need from the backend. */
export interface LiveTreeHooks {
  /**
   * Starts following an app's events; `onEvent` is called for each event
   * from it. Returns the stop function, or null when the app's events cannot
   * be followed (its trees are then never kept).
   */
  watch(bus: string, onEvent: () => void): (() => void) | null;
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
}

interface AppState {
  seq: number;
  stop: (() => void) | null;
  misses: number;
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

function sameBox(a?: readonly number[], b?: readonly number[]): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
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

  /**
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
      app = { seq: 0, stop: null, misses: 0 };
      const state = app;
      this.#apps.set(bus, app);
      try {
        app.stop = this.#hooks.watch(bus, () => {
          state.seq++;
        });
      } catch {
        app.stop = null;
      }
    }
    if (!app.stop || app.misses >= this.#limits.maxMisses) return null;
    return app.seq;
  }

  /**
   * The kept tree for a read, when no event came since it was read and the
   * validation finds the sampled boxes unchanged; else null (read cold).
   *
   * @param k which tree
   * @returns a copy the caller may change, or null
   */
  get(k: TreeKey): AtspiRawNode | null {
    const key = treeKey(k);
    const entry = this.#entries.get(key);
    const app = this.#apps.get(k.bus);
    if (!entry || !app || !app.stop || app.misses >= this.#limits.maxMisses) {
      this.#misses++;
      return null;
    }
    if (Date.now() - entry.at > this.#limits.maxAgeMs) return this.#cold(key);
    let changed = false;
    try {
      // Round trips first: the events the app sent before its answers are in after them.
      for (const s of entry.samples) {
        if (!sameBox(this.#hooks.extents(k.bus, s.path), s.box)) changed = true;
      }
      if (entry.samples.length === 0) this.#hooks.extents(k.bus, k.path);
      this.#hooks.pump();
    } catch {
      return this.#cold(key);
    }
    if (app.seq !== entry.seq) return this.#cold(key);
    if (changed) {
      this.#silent++;
      app.misses++;
      return this.#cold(key);
    }
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#hits++;
    return copyRaw(entry.tree);
  }

  /**
   * Keeps a tree a cold read made (a copy of it).
   *
   * @param k which tree
   * @param tree the tree read
   * @param seq the app's event count from {@link LiveTrees.begin} before the read
   */
  put(k: TreeKey, tree: AtspiRawNode, seq: number | null): void {
    const key = treeKey(k);
    this.#drop(key);
    if (seq === null) return;
    const nodes = countRaw(tree);
    if (nodes > this.#limits.maxNodesPerApp) return;
    const kept = copyRaw(tree);
    const samples = k.bounds ? pickSamples(kept, this.#limits.samples) : [];
    this.#entries.set(key, { key, bus: k.bus, tree: kept, nodes, seq, at: Date.now(), samples });
    this.#nodes += nodes;
    for (const [old] of this.#entries) {
      if (this.#nodes <= this.#limits.maxNodesTotal) break;
      this.#drop(old);
    }
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
    };
  }

  /** Forgets everything and stops following every app. */
  close(): void {
    for (const bus of [...this.#apps.keys()]) this.forget(bus);
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
