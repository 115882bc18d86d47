/**
 * The observe engine: read once, then re-read whenever the UI may have
 * changed and report only what changed, matched by ref.
 *
 * Matching by ref (not by traversal position) is what keeps the stream
 * quiet: a row inserted at the top of a long list is one `added`, not a
 * shift of every element below it.
 *
 * @module
 */

import type { Desktop } from "../desktop_types.ts";
import { type Change, diffTrees, enclosingRefs } from "../diff/diff.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import type { Element, Role } from "../model/element.ts";
import { filterTree } from "../model/filter.ts";
import { assignIds, walk } from "../model/tree.ts";
import { foldLabels } from "../model/semantics.ts";
import { treeData } from "../output/data.ts";
import type { Provider, Scope } from "../platform/provider.ts";
import { assignRefs } from "../refs/generate.ts";
import { Sleeper } from "./_sleeper.ts";
import { patchElements } from "./patch.ts";
import type { ObserveEvent } from "./events.ts";
import { holdLiveTrees } from "../platform/linux/live_tree.ts";

/** Default polling interval in milliseconds. */
export const DEFAULT_INTERVAL_MS = 1000;

/** Default delay between a change notification and the re-read, in milliseconds. */
export const DEFAULT_DEBOUNCE_MS = 30;

/** Options of {@link observe}. */
export interface ObserveOptions {
  /**
   * Milliseconds between reads when the provider cannot notify changes; with
   * notifications, the interval of a safety re-read (default 1000).
   */
  interval?: number;
  /** Seconds to watch for changes, counted from the baseline snapshot; 0 or absent: until aborted. */
  duration?: number;
  /** Report only elements with these roles. */
  roles?: ReadonlySet<Role>;
  /** Observe only elements at most this deep below the root. */
  depth?: number;
  /** Observe only the subtree of the element with this ref (a dialog, a web page). */
  scopeRef?: string;
  /** Do not report position and size changes. */
  ignoreBounds?: boolean;
  /** Do not report focus changes. */
  ignoreFocus?: boolean;
  /** Ends the stream (with a `done` event) when aborted. */
  signal?: AbortSignal;
  /**
   * Milliseconds to wait after a change notification before re-reading, so a
   * burst of notifications costs one read (default 30).
   */
  debounce?: number;
}

/** One read, reduced to what observe diffs. */
interface View {
  /** The filtered tree (ids and refs from the full tree). */
  root: Element;
  /** Elements an observer is told about (those matching the role filter). */
  count: number;
  /** Role of each ref in the view; only built when a role filter is set. */
  roles?: Map<string, Role>;
  /** Each element by ref. */
  byRef: Map<string, Element>;
  /** Elements of the view by native id. */
  byNid: Map<string, Element>;
  /** Native ids of every element of the full read. */
  known: Set<string>;
}

/**
 * Streams the changes of an app's UI: a `snapshot` event, then `added`,
 * `removed` and `changed` events as they happen (none while the UI is
 * stable), `error` events for failed reads, and a final `done`.
 *
 * A new subtree (a dialog, a list row with its cells) is one `added` event
 * whose `el.c` holds the new descendants with their refs; a vanished subtree
 * is one `removed` event for its root.
 *
 * With a provider that can notify changes (`watch`), a burst of
 * notifications triggers one re-read after {@link ObserveOptions.debounce};
 * a safety re-read still runs every `interval`. Otherwise it polls every
 * `interval`. Only the previous read is kept, so memory stays flat.
 *
 * @param source a provider, or a Desktop session (its provider is used)
 * @param scope the app or window to observe
 * @param opts interval, duration, filters, ignore flags, abort signal
 * @returns the event stream; iterating throws the DesktopError of the initial read
 *   (APP_NOT_FOUND, WINDOW_NOT_FOUND...) if it fails
 * @throws DesktopError INVALID_ARGS for a bad interval, duration, depth or debounce
 * @example
 * ```ts ignore
 * import { observe } from "./observe.ts";
 * for await (const ev of observe(provider, { app: "gedit" }, { duration: 5 })) {
 *   console.log(JSON.stringify(ev));
 * }
 * ```
 */
export function observe(
  source: Provider | Desktop,
  scope: Scope,
  opts: ObserveOptions = {},
): AsyncIterable<ObserveEvent> {
  validateObserveOptions(opts);
  const provider = "provider" in source ? source.provider : source;
  return run(provider, scope, opts);
}

/**
 * Checks observe options without starting anything.
 *
 * @param opts the options
 * @throws DesktopError INVALID_ARGS for a bad interval, duration, depth or debounce
 */
export function validateObserveOptions(opts: ObserveOptions): void {
  const bad = (flag: string, value: unknown, rule: string) =>
    new DesktopError("INVALID_ARGS", `${flag} must be ${rule}, got ${value}`, {
      suggestion: `Pass ${flag} as ${rule}`,
    });
  const { interval, duration, depth, debounce } = opts;
  if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) {
    throw bad("interval", interval, "a positive number of milliseconds");
  }
  if (duration !== undefined && !(Number.isFinite(duration) && duration >= 0)) {
    throw bad("duration", duration, "a number of seconds >= 0");
  }
  if (depth !== undefined && !(Number.isInteger(depth) && depth >= 0)) {
    throw bad("depth", depth, "an integer >= 0");
  }
  if (debounce !== undefined && !(Number.isFinite(debounce) && debounce >= 0)) {
    throw bad("debounce", debounce, "a number of milliseconds >= 0");
  }
}

async function* run(
  provider: Provider,
  scope: Scope,
  opts: ObserveOptions,
): AsyncGenerator<ObserveEvent> {
  const interval = opts.interval ?? DEFAULT_INTERVAL_MS;
  const debounce = opts.debounce ?? DEFAULT_DEBOUNCE_MS;
  const started = Date.now();
  // Set once the baseline is read: the duration is time spent watching for
  // changes, however long the first read of a busy app took.
  let deadline = Infinity;
  const { signal } = opts;
  const sleeper = new Sleeper();
  const onAbort = () => sleeper.wake();
  signal?.addEventListener("abort", onAbort);
  // When a change notification arrived that no read has covered yet.
  let dirtySince: number | null = null;
  // Since the last read: whether some notification needs the whole tree, and
  // the elements whose own state changed (read alone when that is all).
  let structural = false;
  const touched = new Set<string>();
  let stopWatch: (() => void) | undefined;
  let events = 0;
  // The safety reads of an app that sent no event are answered from its kept tree.
  const releaseLiveTrees = holdLiveTrees();

  try {
    // Watch before the first read, so a change landing between the two is not missed.
    if (provider.watch) {
      try {
        stopWatch = await provider.watch(scope, (hint) => {
          if (!hint || hint.structural || touched.size >= MAX_PATCHED) structural = true;
          else touched.add(hint.nid);
          // Coalesce: the first notification schedules a read, later ones ride along.
          if (dirtySince === null) {
            dirtySince = Date.now();
            sleeper.wake();
          }
        });
      } catch {
        // Notifications are an optimisation; polling alone still sees every change.
        stopWatch = undefined;
      }
    }

    let prev = await readView(provider, scope, opts);
    if (opts.duration) deadline = Date.now() + opts.duration * 1000;
    yield { type: "snapshot", ts: Date.now(), count: prev.count };

    let lastRead = Date.now();
    while (!signal?.aborted) {
      const now = Date.now();
      if (now >= deadline) break;
      const due = Math.min(
        lastRead + interval,
        dirtySince === null ? Infinity : Math.max(dirtySince + debounce, lastRead + debounce),
      );
      if (now < due) {
        await sleeper.sleepUntil(Math.min(due, deadline));
        continue;
      }

      const notified = dirtySince !== null;
      dirtySince = null;
      // Only states changed, and no safety read is due: read just those elements.
      if (
        notified && !structural && touched.size > 0 && provider.readNodes &&
        now < lastRead + interval
      ) {
        const nids = [...touched];
        touched.clear();
        const changes = await patchView(provider, scope, prev, nids, opts);
        if (changes) {
          const ts = Date.now();
          for (const change of changes) {
            if (opts.roles && !matchesRoles(change, opts.roles, prev, prev)) continue;
            events++;
            yield toEvent(change, ts, prev);
          }
          continue;
        }
      }
      structural = false;
      touched.clear();
      let curr: View;
      try {
        curr = await readView(provider, scope, opts);
      } catch (err) {
        lastRead = Date.now();
        const e = toDesktopError(err);
        // The app read at the start is gone: it quit, and nothing more will ever change.
        const quit = e.code === "APP_NOT_FOUND";
        const error = quit && !/\bquit\b/.test(e.message)
          ? `the app quit (${e.message})`
          : e.message;
        yield { type: "error", ts: Date.now(), code: e.code, error };
        if (quit) break;
        continue;
      }
      lastRead = Date.now();

      const ts = Date.now();
      const changes = diffTrees(prev.root, curr.root, {
        ignoreBounds: opts.ignoreBounds,
        ignoreFocus: opts.ignoreFocus,
      });
      const kept = opts.roles
        ? changes.filter((c) => matchesRoles(c, opts.roles!, curr, prev))
        : changes;
      const reported = new Set(kept.map((c) => `${c.type} ${c.ref}`));
      const enclosing = enclosingRefs(changes);
      for (const change of kept) {
        // Descendants of a new (or vanished) element travel with its event.
        if (enclosing(change).some((u) => reported.has(`${change.type} ${u}`))) continue;
        events++;
        yield toEvent(change, ts, curr);
      }
      prev = curr;
    }

    const elapsedMs = Date.now() - started;
    yield { type: "done", ts: Date.now(), elapsed: `${(elapsedMs / 1000).toFixed(1)}s`, events };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    sleeper.wake();
    releaseLiveTrees();
    try {
      stopWatch?.();
    } catch {
      // Stopping a watch on an app that already quit can fail; nothing to release then.
    }
  }
}

/** Most elements one notification burst may name before a full read is cheaper. */
const MAX_PATCHED = 32;

/** The fast path: reads the touched elements alone; null when a full read is needed. */
async function patchView(
  provider: Provider,
  scope: Scope,
  view: View,
  nids: string[],
  opts: ObserveOptions,
): Promise<Change[] | null> {
  try {
    const fresh = await provider.readNodes!(scope, nids);
    return patchElements(view, nids, fresh, opts);
  } catch {
    return null; // the full read that follows reports the error, if it persists
  }
}

/** Reads the scope, assigns ids and refs on the full tree, then applies the filters. */
async function readView(provider: Provider, scope: Scope, opts: ObserveOptions): Promise<View> {
  const snapshot = await provider.read(scope, { bounds: true });
  const full = snapshot.root;
  // Refs come from the full tree so they match what `read` prints for the same UI.
  foldLabels(full);
  assignIds(full);
  assignRefs(full);
  let root = full;
  if (opts.roles || opts.depth !== undefined || opts.scopeRef !== undefined) {
    const filtered = filterTree(full, {
      roles: opts.roles,
      depth: opts.depth,
      scopeRef: opts.scopeRef,
    });
    // Nothing matched: diff against an empty root so every later match shows as added.
    root = filtered.root ?? { i: full.i, ref: full.ref, r: full.r };
  }
  let count = 0;
  const roles = opts.roles ? new Map<string, Role>() : undefined;
  const byRef = new Map<string, Element>();
  const byNid = new Map<string, Element>();
  const known = new Set<string>();
  walk(full, (el) => {
    if (el.nid !== undefined) known.add(el.nid);
  });
  walk(root, (el) => {
    if (!opts.roles || opts.roles.has(el.r)) count++;
    if (el.nid !== undefined) byNid.set(el.nid, el);
    if (el.ref === undefined) return;
    byRef.set(el.ref, el);
    if (roles) roles.set(el.ref, el.r);
  });
  return { root, count, roles, byRef, byNid, known };
}

/** Whether a change is about an element of one of the observed roles. */
function matchesRoles(
  change: Change,
  roles: ReadonlySet<Role>,
  curr: View,
  prev: View,
): boolean {
  switch (change.type) {
    case "added":
      return roles.has(change.el.r);
    case "removed":
      return roles.has(change.r as Role);
    case "changed": {
      // An element whose role changed into or out of the filter counts either way.
      const before = prev.roles?.get(change.ref);
      const after = curr.roles?.get(change.ref);
      return (before !== undefined && roles.has(before)) ||
        (after !== undefined && roles.has(after));
    }
  }
}

/** An element safe to print: the one projection every output uses (no native id, no secret). */
function printable(el: Element): Element {
  return treeData(el) as unknown as Element;
}

function toEvent(change: Change, ts: number, curr: View): ObserveEvent {
  switch (change.type) {
    case "added": {
      const children = curr.byRef.get(change.ref)?.c;
      return {
        type: "added",
        ts,
        el: children?.length ? { ...change.el, c: children.map(printable) } : change.el,
        ...(change.p ? { p: change.p } : {}),
        ref: change.ref,
      };
    }
    case "removed":
      return {
        type: "removed",
        ts,
        ref: change.ref,
        i: change.i,
        r: change.r,
        ...(change.t !== undefined ? { t: change.t } : {}),
      };
    case "changed":
      return { type: "changed", ts, ref: change.ref, i: change.i, changes: change.changes };
  }
}
