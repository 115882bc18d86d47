/**
 * The library's main entry: a {@link Desktop} session over one provider.
 * Everything the CLI and the MCP server do goes through these methods.
 *
 * @module
 */

import type { AppInfo, Element, Point, Role, Snapshot, WindowInfo } from "./model/element.ts";
import type { FilterOptions, FilterResult } from "./model/filter.ts";
import type { Action, ActionResult, Provider, Scope } from "./platform/provider.ts";
import { type Candidate, DesktopError } from "./errors.ts";
import { assignIds } from "./model/tree.ts";
import { filterTree } from "./model/filter.ts";
import { assignRefs } from "./refs/generate.ts";
import { findElements, resolveRef, resolveText, validateRef } from "./refs/resolve.ts";
import {
  createFileRefStore,
  createMemoryRefStore,
  type RefStore,
  stateDir,
  type StoredRead,
} from "./state/ref_store.ts";
import {
  checkIndexedRef,
  checkShortRef,
  indexedBase,
  locateAll,
  type Located,
  resolveStoredId,
  toStored,
  twinCounts,
} from "./session/identity.ts";
import { checkCondition, waitUntil } from "./session/wait.ts";
import {
  type Screenshot,
  type ScreenshotRequest,
  takeScreenshot,
} from "./screenshot/screenshot.ts";

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
  /**
   * Read bounds (default true). False is faster but, where a backend tells
   * hidden pages by their boxes (GTK 4 on Linux), keeps their content in the
   * tree; to only leave boxes out of the output, render with `bounds: false`.
   */
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
  /**
   * A PNG of the screen, the scoped app's window, or one element (`req.target`),
   * optionally scaled down and marked with the ids and refs of interactive elements.
   */
  screenshot(scope: Scope, req?: ScreenshotRequest): Promise<Screenshot>;
  /** Release the provider. */
  close(): void;
}

// Implementation: createDesktop and its helpers.

/** Options of {@link createDesktop}: the session options plus an explicit store. */
export interface CreateDesktopOptions extends DesktopOptions {
  /**
   * Where reads are remembered for `--id` and indexed refs. Default: the file
   * store in the state directory when `persistRefs`, else an in-memory store.
   */
  store?: RefStore;
}

/** Default per-operation deadline. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Opens a session over a provider.
 *
 * @param provider the backend (see `openProvider` in src/platform/load.ts)
 * @param opts deadline, ref persistence, store
 * @returns the session; `close()` releases the provider
 *
 * @example
 * ```ts ignore
 * import { createDesktop } from "./desktop.ts";
 * import { openProvider } from "./platform/load.ts";
 * const desktop = createDesktop(await openProvider({ from: "snap.json", timeoutMs: 5000 }));
 * const email = await desktop.resolve({}, { ref: "form/email" });
 * console.log(email.r); // "input"
 * desktop.close();
 * ```
 */
export function createDesktop(provider: Provider, opts: CreateDesktopOptions = {}): Desktop {
  const store = opts.store ?? defaultStore(opts.persistRefs ?? false);

  /** A fresh read with ids and refs, not persisted. */
  async function readFull(scope: Scope, bounds = true): Promise<Snapshot> {
    const snapshot = await provider.read(scope, { bounds });
    assignIds(snapshot.root);
    assignRefs(snapshot.root);
    return snapshot;
  }

  async function resolveIn(snapshot: Snapshot, target: Target): Promise<Element> {
    try {
      return await resolveTarget(snapshot, target);
    } catch (e) {
      if (!(e instanceof DesktopError) || !e.candidates?.length) throw e;
      throw withLastReadIds(e, await store.load(snapshot.app.pid));
    }
  }

  async function resolveTarget(snapshot: Snapshot, target: Target): Promise<Element> {
    checkTarget(target);
    const root = snapshot.root;
    if (target.ref !== undefined) {
      validateRef(target.ref);
      const found = resolveRef(root, target.ref);
      const stored = await store.load(snapshot.app.pid);
      const fresh = locateAll(root);
      checkIndexedRef(found, fresh, stored, snapshot.app);
      checkShortRef(target.ref, found, fresh, stored, snapshot.app);
      return numberedAsLastRead(found, stored);
    }
    if (target.id !== undefined) {
      // By name too: a read of an earlier run of the app means "restarted", not "never read".
      const stored = await store.load(snapshot.app.pid, snapshot.app.name);
      const found = resolveStoredId(locateAll(root), stored, snapshot.app, target.id);
      return { ...found, i: target.id };
    }
    const found = target.text !== undefined
      ? resolveText(root, { text: target.text, exact: target.exact, roles: target.roles })
      : elementAtPoint(locateAll(root), target.point!);
    return numberedAsLastRead(found, await store.load(snapshot.app.pid));
  }

  const desktop: Desktop = {
    provider,
    listApps: () => provider.listApps(),
    listWindows: (scope) => provider.listWindows(scope),

    async read(scope, req = {}) {
      const snapshot = await readFull(scope, req.bounds ?? true);
      const view = filterTree(snapshot.root, req);
      const all = locateAll(snapshot.root);
      const paths = new Map(all.map((x) => [x.el.i, x.path]));
      const twins = twinCounts(all);
      const printed = view.root ? locateAll(view.root) : [];
      await store.save({
        app: {
          name: snapshot.app.name,
          pid: snapshot.app.pid,
          ...(snapshot.app.started !== undefined ? { started: snapshot.app.started } : {}),
        },
        readAt: snapshot.readAt,
        elements: printed.map(({ el }) => {
          const base = indexedBase(el.ref);
          return toStored(el, paths.get(el.i) ?? "", base ? twins.get(base) : undefined);
        }),
      });
      return { snapshot, view };
    },

    async resolve(scope, target) {
      return await resolveIn(await readFull(scope), target);
    },

    async act(scope, target, action) {
      if (target.point && !hasElementTarget(target)) {
        return await provider.act(scope, { point: target.point }, action);
      }
      const snapshot = await readFull(scope);
      const element = hasAnyTarget(target) ? await resolveIn(snapshot, target) : numberedAsLastRead(
        focusedOrRoot(snapshot.root, action),
        await store.load(snapshot.app.pid),
      );
      const result = await provider.act(scope, { element }, action);
      return { ...result, element };
    },

    async wait(scope, cond, timeoutMs) {
      const given = [cond.text, cond.gone, cond.ref].filter((x) => x !== undefined).length;
      if (given !== 1) {
        throw new DesktopError("INVALID_ARGS", "wait takes exactly one condition", {
          suggestion: "Pass one of --for-text, --gone, --for-ref",
        });
      }
      if (cond.ref !== undefined) validateRef(cond.ref);
      let pid = 0;
      const found = await waitUntil(provider, scope, timeoutMs, async () => {
        // With bounds, as read sees it: a backend tells hidden pages (GTK 4
        // stacks) from shown ones by their boxes, and hidden text must not count.
        const snapshot = await readFull(scope);
        pid = snapshot.app.pid;
        return checkCondition(snapshot.root, cond, findElements, refOrUndefined);
      });
      return found && numberedAsLastRead(found, await store.load(pid));
    },

    screenshot: (scope, req) => takeScreenshot(desktop, scope, req),

    close: () => provider.close(),
  };
  return desktop;
}

/**
 * The element under the id the app's last read gave it, so that an id printed
 * by find, an action or wait means what `--id` means. The fresh read's own
 * numbering must not leak out: after the UI shifted, its N can be another
 * element than the last read's N. An element that read did not show gets 0
 * (no id yet; printers omit it).
 */
function numberedAsLastRead(el: Element, stored: StoredRead | null): Element {
  const i = lastReadId(el, stored) ?? 0;
  return i === el.i ? el : { ...el, i };
}

/** The id the last read gave an element with this ref, role, label (and native id). */
function lastReadId(
  el: { ref?: string; r: string; t?: string; nid?: string },
  stored: StoredRead | null,
): number | undefined {
  return stored?.elements.find((s) =>
    s.ref === el.ref && s.r === el.r && s.t === el.t &&
    (s.nid === undefined || el.nid === undefined || s.nid === el.nid)
  )?.i;
}

/** The same error with its candidates' ids taken from the last read (none when it lacked them). */
function withLastReadIds(e: DesktopError, stored: StoredRead | null): DesktopError {
  const candidates = (e.candidates ?? []).map((c) => {
    if (!("r" in c)) return c; // an app, not an element
    const { i: _fresh, r, ref, ...rest } = c;
    const i = lastReadId(c, stored);
    return { r, ...(ref !== undefined ? { ref } : {}), ...(i !== undefined ? { i } : {}), ...rest };
  });
  return new DesktopError(e.code, e.message, {
    suggestion: e.suggestion,
    candidates: candidates as Candidate[],
    details: e.details,
    cause: e,
  });
}

function defaultStore(persist: boolean): RefStore {
  if (!persist) return createMemoryRefStore();
  let dir: string | null = null;
  try {
    dir = stateDir();
  } catch {
    // No --allow-env: same as no state directory.
  }
  if (!dir) {
    console.error(
      "desktop: warning: no state directory (set DESKTOP_STATE_DIR or HOME); --id works only within one process",
    );
    return createMemoryRefStore();
  }
  return createFileRefStore(dir);
}

function hasElementTarget(t: Target): boolean {
  return t.ref !== undefined || t.id !== undefined || t.text !== undefined;
}

function hasAnyTarget(t: Target): boolean {
  return hasElementTarget(t) || t.point !== undefined;
}

/** Exactly one of ref, id, text, point. */
function checkTarget(t: Target): void {
  const given = [t.ref, t.id, t.text, t.point].filter((x) => x !== undefined).length;
  if (given === 1) return;
  throw new DesktopError(
    "INVALID_ARGS",
    given === 0 ? "no target given" : "give only one of --ref, --id, --text, --x/--y",
    { suggestion: "Target an element with exactly one of --ref, --id, --text or --x/--y" },
  );
}

function refOrUndefined(root: Element, ref: string): Element | undefined {
  try {
    return resolveRef(root, ref);
  } catch (err) {
    if (err instanceof DesktopError && err.code !== "INVALID_ARGS") return undefined;
    throw err;
  }
}

/** The element keys go to when no target is given: the focused one (type needs one). */
function focusedOrRoot(root: Element, action: Action): Element {
  const focused = locateAll(root).filter((x) => x.el.f).pop()?.el;
  if (focused) return focused;
  if (action.kind === "key") return root;
  throw new DesktopError("ELEMENT_NOT_FOUND", `no focused element to ${action.kind} into`, {
    suggestion: "Target the element with --ref, --id or --text",
  });
}

/** The deepest element whose bounds contain the point. */
function elementAtPoint(all: Located[], p: Point): Element {
  let best: Located | undefined;
  for (const x of all) {
    const b = x.el.b;
    if (!b || p.x < b[0] || p.y < b[1] || p.x >= b[0] + b[2] || p.y >= b[1] + b[3]) continue;
    if (!best || x.path.split(".").length >= best.path.split(".").length) best = x;
  }
  if (!best) {
    throw new DesktopError("ELEMENT_NOT_FOUND", `no element at (${p.x},${p.y})`, {
      suggestion: "Check the coordinates against bounds from read",
    });
  }
  return best.el;
}
