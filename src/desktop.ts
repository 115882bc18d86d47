/**
 * The library's main entry: a {@link Desktop} session over one provider.
 * Everything the CLI and the MCP server do goes through these methods.
 *
 * @module
 */

import type { Element, Snapshot } from "./model/element.ts";
import type { Change } from "./diff/diff.ts";
import type { Action, Provider, Scope } from "./platform/provider.ts";
import { DesktopError, toDesktopError } from "./errors.ts";
import {
  type ActOptions,
  type ActResult,
  type CreateDesktopOptions,
  DEFAULT_TIMEOUT_MS,
  type Desktop,
  type DesktopOptions,
  type ReadRequest,
  type ReadResult,
  type WaitCondition,
} from "./desktop_types.ts";
import { assignIds } from "./model/tree.ts";
import { foldLabels } from "./model/semantics.ts";
import { type FilterResult, filterTree } from "./model/filter.ts";
import { ReadMemo, treePrint } from "./state/read_memo.ts";
import { assignRefs } from "./refs/generate.ts";
import { findElements, resolveRef } from "./refs/resolve.ts";
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
  printedSince,
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
import { menuHoldingKeys, windowHolding } from "./act/focus_window.ts";
import {
  FIRST_PAGE_NOTCHES,
  holdersFor,
  moreRowsHint,
  pageNotches,
  rowHolders,
} from "./act/rows_out_of_view.ts";
import {
  checkActionArgs,
  checkTypeTarget,
  insideWebContent,
  SECOND_ROUTE_LOOK_MS,
  secondRoute,
} from "./act/policy.ts";
import { launchApp, quitApp, windowCommand } from "./apps/apps.ts";
import { clipboard } from "./apps/clipboard.ts";
import { fillFields } from "./fill/fill.ts";
import { runSteps } from "./run/run.ts";
import { takeScreenshot } from "./screenshot/screenshot.ts";

export type {
  ActOptions,
  ActResult,
  CreateDesktopOptions,
  Desktop,
  DesktopOptions,
  ReadRequest,
  ReadResult,
  Target,
  WaitCondition,
};
export { DEFAULT_TIMEOUT_MS };

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
  let store: RefStore;
  try {
    store = opts.store ??
      defaultStore(opts.persistRefs ?? false, opts.session, provider.platform === "replay");
  } catch (e) {
    // A bad session name: the provider's bus connection would keep the process alive.
    provider.close();
    throw e;
  }
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Whole milliseconds: a deadline from performance.timeOrigin would print as 2915.69189453125 ms.
  const sessionDeadline = opts.deadline === undefined ? Infinity : Math.floor(opts.deadline);

  /** The deadline of a call starting now: its own timeout, within the session's deadline. */
  function callDeadline(ms = timeoutMs): number {
    const caller = opts.callerDeadline?.();
    return Math.min(Date.now() + ms, sessionDeadline, caller === undefined ? Infinity : caller);
  }

  /** A fresh read with ids and refs, not persisted, ending by `deadline`. */
  async function readFull(scope: Scope, deadline: number, bounds = true): Promise<Snapshot> {
    return prepared(await provider.read(scope, { bounds, deadline }));
  }

  /** A backend's read with its labels folded, and ids and refs (in place). */
  function prepared(snapshot: Snapshot): Snapshot {
    foldLabels(snapshot.root);
    assignIds(snapshot.root);
    assignRefs(snapshot.root);
    return snapshot;
  }

  /** The last read, for a read that repeats it over an unchanged tree (see the option). */
  const memo = opts.reuseUnchangedReads
    ? new ReadMemo<{ snapshot: Snapshot; view: FilterResult; stored: StoredRead }>()
    : null;

  /**
   * Remembers again a read answered before: a store that can renews only its file's time (while
   * the file is still the one it wrote); another saves it whole, as read at `readAt`.
   */
  const saveAgain = (stored: StoredRead, readAt: string) =>
    store.saveAgain ? store.saveAgain(stored) : store.save({ ...stored, readAt });

  /** The last read of this app (by pid, else an earlier run of the same name). */
  function lastRead(app: { pid: number; name: string }) {
    return store.load(app.pid, app.name);
  }

  /**
   * Keeps with the last read what an action's changes printed, so that a ref
   * they printed means that element until the next read (see
   * {@link StoredRead.printed}). Changes the caller does not show give no ref
   * a new meaning: they only follow what the read showed.
   */
  async function rememberPrinted(
    run: StoredRead | null,
    changes: Change[],
    after: Element | undefined,
    shown: boolean | undefined,
  ): Promise<void> {
    if (!run || !after || !changes.length) return;
    const printed = printedSince(run, changes, after, shown !== false);
    // Changes that gave no ref a meaning and took none away leave the store as it is.
    if (printed === run.printed || (!run.printed && !printed.length)) return;
    await store.save({ ...run, printed });
  }

  /** The last read, only when it is of this very run of the app. */
  async function lastReadOfRun(app: Snapshot["app"]) {
    const stored = await lastRead(app);
    return stored && sameAppRun(stored, app) ? stored : null;
  }

  async function resolveIn(snapshot: Snapshot, target: Target): Promise<Element> {
    return resolveTarget(snapshot, target, await lastRead(snapshot.app));
  }

  /**
   * Reads after a scroll once the container's rows hold still: a smooth
   * scroll goes on for a few frames, and a virtual list makes its rows anew
   * on each, so a row found mid-scroll would be gone when acted on. Still
   * means the same rows in {@link STILL_READS} reads in a row: on a busy
   * machine one frame of a scroll can come later than the next read.
   */
  async function readScrolled(scope: Scope, holder: Element, deadline: number): Promise<Snapshot> {
    const rowsOf = (s: Snapshot) => {
      const found = locateAll(s.root).find(({ el }) =>
        holder.nid !== undefined ? el.nid === holder.nid : el.ref === holder.ref
      )?.el;
      return JSON.stringify((found?.c ?? []).map((c) => [c.t, c.b?.[1]]));
    };
    let last = await readFull(scope, deadline);
    let same = 1;
    const until = Math.min(deadline, Date.now() + ROWS_STILL_MS);
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      const next = await readFull(scope, deadline);
      same = rowsOf(next) === rowsOf(last) ? same + 1 : 1;
      last = next;
      if (same >= STILL_READS) return next;
    }
    return last;
  }

  /**
   * Resolves a target; one that is not found while a list, tree or table
   * holds more rows than it shows (src/act/rows_out_of_view.ts) is looked
   * for by scrolling that container down, a page at a time, reading again
   * after each, until the target is found or the container's end. The error
   * otherwise names the containers and how to scroll them.
   */
  async function resolveReaching(
    scope: Scope,
    snapshot: Snapshot,
    target: Target,
    deadline: number,
  ): Promise<{ snapshot: Snapshot; element: Element; reached?: string }> {
    try {
      return { snapshot, element: await resolveIn(snapshot, target) };
    } catch (e) {
      if (!(e instanceof DesktopError) || e.code !== "ELEMENT_NOT_FOUND") throw e;
      const holders = rowHolders(snapshot.root);
      if (holders.length === 0) throw e;
      let holder = target.id === undefined ? holdersFor(holders, target)[0]?.el : undefined;
      let notches = FIRST_PAGE_NOTCHES;
      for (let page = 0; holder && page < MAX_ROW_PAGES && Date.now() < deadline; page++) {
        const step: Action = { kind: "scroll", direction: "down", amount: notches };
        await provider.act(scope, { element: holder }, step, { deadline });
        const next = await readScrolled(scope, holder, deadline);
        try {
          const element = await resolveIn(next, target);
          const what = `${holder.r}${holder.t ? ` ${JSON.stringify(holder.t)}` : ""}`;
          return {
            snapshot: next,
            element,
            reached: `scrolled ${what} down ${page + 1}x to reach it`,
          };
        } catch (again) {
          if (!(again instanceof DesktopError) || again.code !== "ELEMENT_NOT_FOUND") throw again;
        }
        const was: Element = holder;
        holder = rowHolders(next.root).find((h) =>
          was.nid !== undefined ? h.el.nid === was.nid : h.el.ref === was.ref
        )?.el;
        if (holder) notches = pageNotches(was, holder, notches);
      }
      const hint = moreRowsHint(holders);
      throw new DesktopError(e.code, e.message, {
        suggestion: e.suggestion ? `${hint}. ${e.suggestion}` : hint,
        ...(e.candidates ? { candidates: e.candidates } : {}),
        details: { ...e.details, moreRows: holders.map((h) => h.el.ref ?? h.el.r) },
      });
    }
  }

  const desktop: Desktop = {
    provider,
    listApps: () => provider.listApps(),
    listWindows: (scope) => provider.listWindows(scope),

    async read(scope, req = {}) {
      const opts = { bounds: req.bounds ?? true, deadline: callDeadline() };
      const question = memo ? JSON.stringify([scope, req]) : "";
      const prior = memo?.versioned(question);
      if (prior && await provider.unchangedSince?.(scope, opts, prior.version)) {
        // The backend kept the app's tree and nothing changed since: the same answer, read now.
        const { snapshot, view, stored } = prior.answer;
        const readAt = new Date().toISOString();
        await saveAgain(stored, readAt);
        return { snapshot: { ...snapshot, readAt }, view };
      }
      const version: { value?: string } = {};
      const fetched = await provider.read(scope, { ...opts, ...(memo ? { version } : {}) });
      const tree = memo ? treePrint(fetched) : "";
      const kept = memo?.get(question, tree);
      if (kept) {
        // The same tree asked the same: the same ids, refs and records, read now.
        await saveAgain(kept.stored, fetched.readAt);
        memo?.set(question, tree, kept, version.value);
        return { snapshot: { ...kept.snapshot, readAt: fetched.readAt }, view: kept.view };
      }
      const snapshot = prepared(fetched);
      const view = filterTree(snapshot.root, req);
      const all = locateAll(snapshot.root);
      const located = new Map(all.map((x) => [x.el.i, x]));
      const twins = twinCounts(all);
      const printed = view.root ? locateAll(view.root) : [];
      const stored = {
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
      };
      await store.save(stored);
      memo?.set(question, tree, { snapshot, view, stored }, version.value);
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
      /** The last tree an action's effect was read from (what its changes printed). */
      let lastTree: Element | undefined;
      const reread = async () => (lastTree = (await readFull(scope, deadline)).root);
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
        const effect = await effectOf(
          action,
          undefined,
          before.root,
          reread,
          settleMs,
          deadline,
          opts.bounds,
        );
        const run = await lastReadOfRun(before.app);
        const changes = changesAsLastRead(effect.changes, before.root, run);
        await rememberPrinted(run, changes, lastTree, opts.changesShown);
        return { ...result, changes, ...unverifiedOf(effect, result) };
      }
      let snapshot = await readFull(scope, deadline);
      let element: Element;
      let reached: string | undefined;
      if (hasAnyTarget(target)) {
        ({ snapshot, element, reached } = await resolveReaching(scope, snapshot, target, deadline));
      } else {
        element = numberedAsLastRead(
          focusedOrRoot(snapshot.root, action),
          await lastReadOfRun(snapshot.app),
        );
      }
      if (action.kind === "drag") checkPointInScope(snapshot, action.to);
      const focusedGuess = !hasAnyTarget(target);
      if (action.kind === "type") checkTypeTarget(element, focusedGuess);
      const was = renamedSince(element);
      const renamed = was === undefined ? {} : { renamed: { was, now: element.t ?? "" } };
      const holder = focusedGuess ? windowHolding(snapshot.root, element) : undefined;
      // Keys for an element outside an open menu would go to the menu: close it first, as a
      // user's click into the field would.
      let closedMenus = 0;
      if (!focusedGuess && KEYBOARD_ACTIONS.has(action.kind)) {
        for (let menu; closedMenus < 3 && (menu = menuHoldingKeys(snapshot.root, element));) {
          // An open menu holds the keyboard: Escape goes to it wherever the focus says it is.
          const b = menu.b ?? element.b ?? [0, 0, 0, 0];
          const at = { x: Math.round(b[0] + b[2] / 2), y: Math.round(b[1] + b[3] / 2) };
          await provider.act(scope, { point: at }, ESCAPE, { deadline });
          closedMenus++;
          snapshot = await readFull(scope, deadline);
        }
      }
      const done = await provider.act(scope, { element }, action, { deadline, focusedGuess });
      let result = {
        ...done,
        ...(reached || closedMenus
          ? {
            detail: [
              done.detail,
              reached,
              closedMenus ? `closed the open menu first (Escape x${closedMenus})` : undefined,
            ].filter(Boolean).join("; "),
          }
          : {}),
        ...renamed,
        ...(holder ? { focusIn: holder } : {}),
      };
      if (!verify) return { ...result, element };
      const judge = (ms = settleMs) =>
        effectOf(action, element, snapshot.root, reread, ms, deadline, opts.bounds);
      let effect = await judge();
      // A route that showed nothing is taken again another way: an accessible press as a user's
      // click, a wheel as the scroll bar (src/act/policy.ts).
      const routeFor = (e: typeof effect) =>
        e.after
          ? secondRoute(
            action,
            result.via,
            e.unverified,
            insideWebContent(snapshot.root, element),
            result.detail,
          )
          : null;
      let route = routeFor(effect);
      if (route) {
        // A last look first: an effect that shows late (a handler that answers after a round
        // trip) must not get a second press.
        effect = await judge(SECOND_ROUTE_LOOK_MS);
        route = routeFor(effect);
      }
      if (route) {
        const again = await Promise.resolve()
          .then(() => provider.act(scope, { element }, route.action, { deadline, focusedGuess }))
          .catch((e) => toDesktopError(e));
        if (again instanceof DesktopError) {
          effect = {
            ...effect,
            unverified: `${effect.unverified}; ${route.untaken} (${again.code}: ${again.message})`,
          };
        } else {
          result = { ...result, ...again, detail: `${again.detail ?? again.via}; ${route.why}` };
          effect = await judge();
        }
      }
      const run = await lastReadOfRun(snapshot.app);
      const changes = changesAsLastRead(effect.changes, snapshot.root, run);
      await rememberPrinted(run, changes, lastTree, opts.changesShown);
      return {
        ...result,
        element: effect.after ? afterAsLastRead(effect.after, element, run, changes) : element,
        changes,
        ...unverifiedOf(effect, result),
        ...(effect.after === null ? { gone: true as const } : {}),
        ...(effect.inView ? { inView: effect.inView } : {}),
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
 * action resolved when it is the element acted on, found again (the same
 * node: a toggle that renamed itself keeps its id, as the action's changes
 * show it; without native ids, the same ref: a twin row whose `.N` shifted
 * since the last read keeps the id the agent named it by), else looked up as
 * usual, else the id of its own line among the changes (drawn anew, the
 * differ followed it).
 */
function afterAsLastRead(
  after: Element,
  acted: Element,
  run: StoredRead | null,
  changes: readonly Change[],
): Element {
  const same = after.nid !== undefined
    ? after.nid === acted.nid
    : acted.nid === undefined && after.ref === acted.ref && after.r === acted.r;
  if (same && acted.i) return { ...after, i: acted.i };
  const numbered = numberedAsLastRead(after, run);
  if (numbered.i) return numbered;
  // Drawn anew on another node: the line says the id its own change line says.
  const own = changes.find((c) => c.type === "changed" && c.ref === after.ref);
  return own?.type === "changed" && own.i ? { ...after, i: own.i } : numbered;
}

/**
 * The file store of the session, or memory. Reads of saved snapshots go to a
 * store of their own (`replay/` in the state directory): a snapshot of a
 * running app carries its pid, and must never replace what the agent last
 * read of the live app.
 */
/** Why an action's effect is in doubt: the action's own doubt first, then its effect's. */
function unverifiedOf(
  effect: { unverified?: string },
  result: { unverified?: string },
): { unverified?: string } {
  const why = [result.unverified, effect.unverified].filter((x) => x).join("; ");
  return why ? { unverified: why } : {};
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
/** Actions whose keys go where the keyboard focus is. */
const KEYBOARD_ACTIONS: ReadonlySet<Action["kind"]> = new Set(["type", "key", "set-value"]);

/** The key that closes an open menu, one level at a time. */
const ESCAPE: Action = { kind: "key", combo: "Escape" };

/** The most pages a target not found is looked for in a container that holds more rows. */
const MAX_ROW_PAGES = 40;

/** The longest wait for a scrolled container's rows to hold still (ms). */
const ROWS_STILL_MS = 2000;
/** How many reads 100 ms apart must show a scrolled container's same rows. */
const STILL_READS = 3;

function focusedOrRoot(root: Element, action: Action): Element {
  const focused = locateAll(root).filter((x) => x.el.f).pop()?.el;
  if (focused) return focused;
  if (action.kind === "key") return root;
  throw new DesktopError("ELEMENT_NOT_FOUND", `no focused element to ${action.kind} into`, {
    suggestion: "Target the element with --ref, --id or --text",
  });
}
