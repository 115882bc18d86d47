/**
 * The library's main entry: a {@link Desktop} session over one provider.
 * Everything the CLI and the MCP server do goes through these methods.
 *
 * @module
 */

import type { AppInfo, Element, Role, Snapshot, WindowInfo } from "./model/element.ts";
import type { FilterOptions, FilterResult } from "./model/filter.ts";
import type { Action, ActionResult, Provider, Scope } from "./platform/provider.ts";
import { DesktopError, toDesktopError } from "./errors.ts";
import { assignIds } from "./model/tree.ts";
import { foldLabels } from "./model/semantics.ts";
import { filterTree } from "./model/filter.ts";
import { assignRefs } from "./refs/generate.ts";
import { findElements, resolveRef, type TextQuery } from "./refs/resolve.ts";
import {
  createFileRefStore,
  createMemoryRefStore,
  type RefStore,
  stateDir,
  type StoredRead,
} from "./state/ref_store.ts";
import {
  changesAsLastRead,
  checkPointInScope,
  indexedBase,
  locateAll,
  numberedAsLastRead,
  renamedSince,
  resolveTarget,
  sameAppRun,
  type Target,
  toStored,
  twinCounts,
  validatePoint,
  validateRef,
} from "./identity/mod.ts";
import { checkCondition, waitUntil } from "./session/wait.ts";
import { DEFAULT_SETTLE_MS, effectOf } from "./act/effect.ts";
import { checkActionArgs, checkTypeTarget } from "./act/policy.ts";
import type { Change } from "./diff/diff.ts";
import {
  launchApp,
  type Launched,
  type Quit,
  quitApp,
  windowCommand,
  type WindowResult,
} from "./apps/apps.ts";
import type { WindowOp } from "./platform/provider.ts";
import { clipboard } from "./apps/clipboard.ts";
import { type FilledField, type FillField, fillFields } from "./fill/fill.ts";
import { type RunOptions, type RunReport, runSteps } from "./run/run.ts";
import {
  type Screenshot,
  type ScreenshotRequest,
  takeScreenshot,
} from "./screenshot/screenshot.ts";

export type { Target };

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
  /**
   * The element acted on, as it is after the action (as before it when the
   * effect was not checked, or when it is gone: see `gone`); absent for
   * point targets.
   */
  element?: Element;
  /** What the action changed, ref-keyed (absent when the effect was not checked). */
  changes?: Change[];
  /** Set when the effect could not be confirmed, saying why (e.g. nothing changed). */
  unverified?: string;
  /** True when the element is gone after the action (a dialog's button that closed it). */
  gone?: true;
  /**
   * When the element was found under another label than the last read
   * showed: a toggle whose label flipped since (`Pause updates`, now `Start
   * updates`), found by its native node. `was` is the last read's label,
   * `now` the one it had when the action was done.
   */
  renamed?: { was: string; now: string };
}

/** Options of {@link Desktop.act}. */
export interface ActOptions {
  /**
   * Longest wait for the action's effect to show (ms, default 1500). The app
   * is read again until its changes hold still or this time is over.
   */
  settleMs?: number;
  /** Check the effect at all (default true); false returns as soon as the action is sent. */
  verify?: boolean;
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
  /**
   * Deadline of each call (read, act, wait...) in ms, from its start to its
   * answer: an action's resolving read, the action and the check of its
   * effect all fit in it.
   */
  timeoutMs?: number;
  /**
   * A deadline for the whole session (ms since the epoch), e.g. a CLI
   * command's, set when the command starts: every call also ends by it.
   */
  deadline?: number;
  /** Persist each read's ids and refs to the ref store (CLI: yes). */
  persistRefs?: boolean;
  /**
   * The session whose ids a persisted store keeps (`--session`); undefined:
   * the default session. Ids belong to the session that read them.
   */
  session?: string;
}

/** A session over one provider. */
export interface Desktop {
  /** The provider underneath. */
  readonly provider: Provider;
  /** Running apps. */
  listApps(): Promise<AppInfo[]>;
  /** Windows, optionally of one app. */
  listWindows(scope?: Scope): Promise<WindowInfo[]>;
  /**
   * Read, assign ids and refs, filter, and record what the filters kept as
   * the session's last read of the app: later `--id N` and refs mean what
   * this read printed. The only method that records.
   */
  read(scope: Scope, req?: ReadRequest): Promise<ReadResult>;
  /**
   * Every element matching a text/roles query, in document order, numbered
   * with the ids of the last read (0: not in it). Records nothing.
   */
  find(scope: Scope, query: TextQuery): Promise<Element[]>;
  /** Resolve a target to one element of a fresh read (errors: see refs.md). */
  resolve(scope: Scope, target: Target): Promise<Element>;
  /**
   * Resolve several targets against one fresh read (fill, run --dry-run):
   * each result is the element, or the DesktopError its target got.
   */
  resolveMany(
    scope: Scope,
    targets: readonly Target[],
  ): Promise<{ snapshot: Snapshot; results: Array<Element | DesktopError> }>;
  /**
   * Resolve the target, carry out the action, then (unless `verify: false`)
   * read the app again until it settles and report what changed. Typing or
   * setting a value that changed nothing fails with ACTION_FAILED; any other
   * action that changed nothing comes back with `unverified` set.
   */
  act(scope: Scope, target: Target, action: Action, opts?: ActOptions): Promise<ActResult>;
  /** Wait until a condition holds; TIMEOUT otherwise. */
  wait(scope: Scope, cond: WaitCondition, timeoutMs: number): Promise<Element | null>;
  /**
   * A PNG of the screen, the scoped app's window, or one element (`req.target`),
   * optionally scaled down and marked with the ids and refs of interactive elements.
   */
  screenshot(scope: Scope, req?: ScreenshotRequest): Promise<Screenshot>;
  /**
   * Start an app (name, desktop file / bundle id, or command) and wait until it
   * shows a window on the accessibility bus (default deadline 30 s); TIMEOUT otherwise.
   */
  launch(spec: string, opts?: { timeoutMs?: number }): Promise<Launched>;
  /** Quit an app through its windows' close requests, or end its process with `force`. */
  quit(scope: Scope, opts?: { force?: boolean; timeoutMs?: number }): Promise<Quit>;
  /** Move, resize, raise, minimize, maximize, restore or close the scoped window. */
  window(scope: Scope, ops: readonly WindowOp[]): Promise<WindowResult>;
  /** The system clipboard's text ("" when empty). */
  clipboardGet(): Promise<string>;
  /** Put text on the system clipboard (it stays after the process exits). */
  clipboardSet(text: string): Promise<void>;
  /**
   * Set many fields from one read, then report what each became (read back
   * from the app). Nothing is set when a field's target does not resolve.
   */
  fill(scope: Scope, fields: readonly FillField[]): Promise<FilledField[]>;
  /**
   * Run a list of steps (a parsed run file), stopping at the first failing
   * step; `dryRun` resolves every target without acting.
   */
  run(doc: unknown, opts?: RunOptions): Promise<RunReport>;
  /** Release the provider. */
  close(): void;
}

// Implementation: createDesktop and its helpers.

/** Options of {@link createDesktop}: the session options plus an explicit store. */
export interface CreateDesktopOptions extends DesktopOptions {
  /**
   * Where reads are remembered for `--id` and refs. Default: the file store
   * in the state directory (of `session`) when `persistRefs`, else an
   * in-memory store. Replay reads use a file store of their own: they never
   * touch the live store.
   */
  store?: RefStore;
}

/** Default deadline of one call (ms). */
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
  const store = opts.store ??
    defaultStore(opts.persistRefs ?? false, opts.session, provider.platform === "replay");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /** The deadline of a call starting now: its own timeout, within the session's deadline. */
  function callDeadline(ms = timeoutMs): number {
    return Math.min(Date.now() + ms, opts.deadline ?? Infinity);
  }

  /** A fresh read with ids and refs, not persisted, ending by `deadline`. */
  async function readFull(scope: Scope, deadline: number, bounds = true): Promise<Snapshot> {
    const snapshot = await provider.read(scope, { bounds, deadline });
    foldLabels(snapshot.root);
    assignIds(snapshot.root);
    assignRefs(snapshot.root);
    return snapshot;
  }

  /** The last read of this app (by pid, else an earlier run of the same name). */
  function lastRead(app: { pid: number; name: string }) {
    return store.load(app.pid, app.name);
  }

  /** The last read, only when it is of this very run of the app. */
  async function lastReadOfRun(app: Snapshot["app"]) {
    const stored = await lastRead(app);
    return stored && sameAppRun(stored, app) ? stored : null;
  }

  async function resolveIn(snapshot: Snapshot, target: Target): Promise<Element> {
    return resolveTarget(snapshot, target, await lastRead(snapshot.app));
  }

  const desktop: Desktop = {
    provider,
    listApps: () => provider.listApps(),
    listWindows: (scope) => provider.listWindows(scope),

    async read(scope, req = {}) {
      const snapshot = await readFull(scope, callDeadline(), req.bounds ?? true);
      const view = filterTree(snapshot.root, req);
      const all = locateAll(snapshot.root);
      const located = new Map(all.map((x) => [x.el.i, x]));
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
          // Located in the full read: path and row are those of the whole tree.
          const x = located.get(el.i) ?? { el, path: "" };
          return toStored({ ...x, el }, base ? twins.get(base) : undefined);
        }),
      });
      return { snapshot, view };
    },

    async find(scope, query) {
      const snapshot = await readFull(scope, callDeadline());
      const run = await lastReadOfRun(snapshot.app);
      return findElements(snapshot.root, query).map((el) => numberedAsLastRead(el, run));
    },

    async resolve(scope, target) {
      return await resolveIn(await readFull(scope, callDeadline()), target);
    },

    async resolveMany(scope, targets) {
      const snapshot = await readFull(scope, callDeadline());
      const results: Array<Element | DesktopError> = [];
      for (const t of targets) {
        results.push(await resolveIn(snapshot, t).catch((e) => toDesktopError(e)));
      }
      return { snapshot, results };
    },

    async act(scope, target, action, opts = {}) {
      checkActionArgs(action);
      if (action.kind === "drag") validatePoint(action.to, "the drag destination");
      // One deadline for the whole action: resolving read, action, and effect check.
      const deadline = callDeadline();
      const verify = opts.verify ?? true;
      const settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
      const reread = async () => (await readFull(scope, deadline)).root;
      if (target.point && !hasElementTarget(target)) {
        validatePoint(target.point);
        // The point must fall inside a window of the scoped app: APP_NOT_FOUND
        // and WINDOW_NOT_FOUND come from this read, as for element targets.
        const windows = await provider.read(scope, { depth: 1, bounds: true, deadline });
        checkPointInScope(windows, target.point);
        // A drag ends where a click there would land: inside the scope too.
        if (action.kind === "drag") checkPointInScope(windows, action.to);
        // Best effort: the effect is checked when the app can be read whole.
        const before = verify ? await readFull(scope, deadline).catch(() => null) : null;
        const result = await provider.act(scope, { point: target.point }, action, { deadline });
        if (!before) return result;
        const effect = await effectOf(action, undefined, before.root, reread, settleMs, deadline);
        const run = await lastReadOfRun(before.app);
        const changes = changesAsLastRead(effect.changes, before.root, run);
        return { ...result, changes, ...unverifiedOf(effect) };
      }
      const snapshot = await readFull(scope, deadline);
      const element = hasAnyTarget(target) ? await resolveIn(snapshot, target) : numberedAsLastRead(
        focusedOrRoot(snapshot.root, action),
        await lastReadOfRun(snapshot.app),
      );
      if (action.kind === "drag") checkPointInScope(snapshot, action.to);
      const focusedGuess = !hasAnyTarget(target);
      if (action.kind === "type") checkTypeTarget(element, focusedGuess);
      const was = renamedSince(element);
      const renamed = was === undefined ? {} : { renamed: { was, now: element.t ?? "" } };
      const result = {
        ...await provider.act(scope, { element }, action, { deadline, focusedGuess }),
        ...renamed,
      };
      if (!verify) return { ...result, element };
      const effect = await effectOf(action, element, snapshot.root, reread, settleMs, deadline);
      const run = await lastReadOfRun(snapshot.app);
      return {
        ...result,
        element: effect.after ? afterAsLastRead(effect.after, element, run) : element,
        changes: changesAsLastRead(effect.changes, snapshot.root, run),
        ...unverifiedOf(effect),
        ...(effect.after === null ? { gone: true as const } : {}),
      };
    },

    async wait(scope, cond, timeoutMs) {
      const given = [cond.text, cond.gone, cond.ref].filter((x) => x !== undefined).length;
      if (given !== 1) {
        throw new DesktopError("INVALID_ARGS", "wait takes exactly one condition", {
          suggestion: "Pass one of --for-text, --gone, --for-ref",
        });
      }
      if (cond.ref !== undefined) validateRef(cond.ref);
      let app: Snapshot["app"] | undefined;
      // The wait's own time, within the session's deadline; each read ends by it too.
      const deadline = callDeadline(timeoutMs);
      const found = await waitUntil(provider, scope, deadline - Date.now(), async () => {
        // With bounds, as read sees it: a backend tells hidden pages (GTK 4
        // stacks) from shown ones by their boxes, and hidden text must not count.
        const snapshot = await readFull(scope, deadline);
        app = snapshot.app;
        return checkCondition(snapshot.root, cond, findElements, refOrUndefined);
      });
      return found && numberedAsLastRead(found, app ? await lastReadOfRun(app) : null);
    },

    screenshot: (scope, req) => takeScreenshot(desktop, scope, req),
    launch: (spec, o = {}) => launchApp(desktop, spec, o.timeoutMs ?? 30_000),
    quit: (scope, o = {}) =>
      quitApp(desktop, scope, { force: o.force, timeoutMs: o.timeoutMs ?? timeoutMs }),
    window: (scope, ops) => windowCommand(desktop, scope, ops, timeoutMs),
    clipboardGet: () => clipboard(provider).get(),
    clipboardSet: (text) => clipboard(provider).set(text),
    fill: (scope, fields) => fillFields(desktop, scope, fields),
    run: (doc, o) => runSteps(desktop, doc, o),

    close: () => provider.close(),
  };
  return desktop;
}

/**
 * The element after an action, under the id the last read gave it: the id the
 * action resolved when it is the same node (a toggle that renamed itself keeps
 * its id, as the action's changes show it), else looked up as usual.
 */
function afterAsLastRead(after: Element, acted: Element, run: StoredRead | null): Element {
  if (after.nid !== undefined && after.nid === acted.nid && acted.i) {
    return { ...after, i: acted.i };
  }
  return numberedAsLastRead(after, run);
}

/**
 * The file store of the session, or memory. Reads of saved snapshots go to a
 * store of their own (`replay/` in the state directory): a snapshot of a
 * running app carries its pid, and must never replace what the agent last
 * read of the live app.
 */
function unverifiedOf(effect: { unverified?: string }): { unverified?: string } {
  return effect.unverified ? { unverified: effect.unverified } : {};
}

function defaultStore(persist: boolean, session: string | undefined, replay: boolean): RefStore {
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
  return createFileRefStore(replay ? `${dir}/replay` : dir, undefined, undefined, session);
}

function hasElementTarget(t: Target): boolean {
  return t.ref !== undefined || t.id !== undefined || t.text !== undefined;
}

function hasAnyTarget(t: Target): boolean {
  return hasElementTarget(t) || t.point !== undefined;
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
