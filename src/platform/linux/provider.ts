/**
 * The Linux {@link Provider}: AT-SPI through libatspi (plus the optional bulk
 * D-Bus reader for speed). Every operation runs under one deadline, discovery
 * included: apps are discovered through our own D-Bus client, all at once,
 * each under its own per-app deadline (discover.ts), so stopped neighbours
 * cost one per-app timeout, not one each; libatspi's per-call D-Bus timeout is
 * set below the deadline, and long walks check it between calls, so a stopped
 * app yields APP_UNRESPONSIVE instead of a hang.
 *
 * @module
 */

import { DesktopError, toDesktopError } from "../../errors.ts";
import type { AppInfo, Bounds, Element, Point, Snapshot, WindowInfo } from "../../model/element.ts";
import { walk } from "../../model/tree.ts";
import type {
  Action,
  ActionResult,
  ActionTarget,
  ChangeHint,
  Provider,
  ProviderActOptions,
  ProviderOptions,
  ReadOptions,
  Scope,
  ScreenCapture,
  StartedApp,
  WindowOp,
  WindowState,
} from "../provider.ts";
import { actAtPoint, actOnAccessible } from "./act.ts";
import {
  appInfo,
  type LiveApp,
  liveApps,
  type LiveWindow,
  liveWindows,
  windowInfo,
} from "./apps.ts";
import { type BulkReader, connectBulkReader } from "./bus_reader.ts";
import {
  framesAwaitingDocument,
  parseNodeId,
  rawToElement,
  shiftBoxes,
  windowToElement,
} from "./convert.ts";
import { a11yBusAddress, AppDirectory, sessionBusAddress } from "./discover.ts";
import { nativeError, suggestionFor } from "./errors.ts";
import { Native } from "./native.ts";
import { quietLibatspiLog } from "./glib_log.ts";
import type { AtspiRawNode } from "./raw.ts";
import { matchApp, matchWindow } from "./scope.ts";
import { processStopped } from "./hung.ts";
import { findUnregistered, unregisteredWithWindows } from "./unregistered.ts";
import { optional, readExtents, readNode, walkTree } from "./walk.ts";
import {
  livePatchesEnabled,
  LiveTrees,
  liveTreesEnabled,
  type LiveTreeStats,
  type TreeKey,
  treeKey,
} from "./live_tree.ts";
import {
  largeTreeTimeout,
  newProgress,
  type ReadProgress,
  stillAnswering,
} from "./dbus/read_progress.ts";
import { noReplyError } from "./dbus/errors.ts";
import { captureScreen, windowOriginOnScreen } from "./screen.ts";
import { processRunning, signalProcess, startApp } from "./launch.ts";
import {
  appClients,
  type Client,
  closeAppWindows,
  originAmong,
  pidsWithWindows,
  placePopups,
  popupSurfaces,
  untitledTitleAmong,
  windowAction,
} from "./windows.ts";
import { clipboardGet, clipboardSet } from "./clipboard.ts";
import { boxesRelativeToWindow, isGtkAtk, readToolkit, type Toolkit } from "./toolkit.ts";
import { gridsInReadingOrder } from "./reading_order.ts";
import { startWatch } from "./watch.ts";

/**
 * Per-call D-Bus timeout for an operation deadline: a quarter of it, so a
 * stopped app costs at most a few timeouts before the deadline, within
 * 100 ms..3 s.
 */
export function callTimeoutFor(timeoutMs: number): number {
  return Math.min(3000, Math.max(100, Math.floor(timeoutMs / 4)));
}

/** Whether a path exists. */
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Longest wait for a browser's document that is on its way (see framesAwaitingDocument). */
const DOCUMENT_SETTLE_MS = 1500;
/** Time a read keeps for itself after such a wait, before its deadline. */
const MIN_READ_LEFT_MS = 1000;
/**
 * How long an unchanged read waits for its one round trip to the registry and the app: an
 * idle app answers in a millisecond; a later answer is a doubt, and the apps are listed.
 */
const QUICK_LOOK_MS = 250;

/** How many nodes a raw tree holds. */
function countNodes(root: AtspiRawNode): number {
  let n = 0;
  const stack = [root];
  while (stack.length) {
    n++;
    stack.push(...stack.pop()!.children);
  }
  return n;
}

/** The AT-SPI backend. */
export class LinuxProvider implements Provider {
  /** Always "linux". */
  readonly platform = "linux" as const;
  #native: Native | null = null;
  /** The current operation's libatspi call timeout, applied when libatspi opens mid-operation. */
  #callTimeoutMs = 0;
  #dir: AppDirectory;
  #timeoutMs: number;
  #bulk: Promise<BulkReader | null> | null = null;
  /** Each app's toolkit, by bus name: asked once. */
  readonly #toolkits = new Map<string, Toolkit>();
  #stops = new Set<() => void>();
  #closed = false;
  /** The trees kept between reads, once warm reads are on (see live_tree.ts). */
  #live: LiveTrees | null = null;
  /** The last listing of every app (see #listedApp). */
  #listed: LiveApp[] | null = null;
  /** Cold reads of kept trees under way, by tree: a read of the same tree waits for its end. */
  readonly #reading = new Map<string, ColdRead>();

  private constructor(opts: ProviderOptions, dir: AppDirectory) {
    this.#timeoutMs = opts.timeoutMs;
    this.#dir = dir;
  }

  /**
   * libatspi, opened on first use: a read the bulk reader answers needs none,
   * and opening it costs a dlopen and a bus connection.
   */
  get #n(): Native {
    if (this.#native) return this.#native;
    // Its GLib warnings (a stopped app's GetItems reply) must not join the JSON on stderr.
    quietLibatspiLog();
    const n = Native.open();
    // Sets libatspi's cache mask on the desktop (the fallback walk is several
    // times slower without its cache); libatspi keeps the desktop object.
    n.desktop()[Symbol.dispose]();
    n.setTimeout(this.#callTimeoutMs || callTimeoutFor(this.#timeoutMs));
    return this.#native = n;
  }

  /**
   * Finds the accessibility bus through the session bus, and points libatspi
   * at exactly that bus (`AT_SPI_BUS_ADDRESS`), so it never reads a stale or
   * foreign `AT_SPI_BUS` X property, nor autolaunches a session bus.
   *
   * @param opts the per-operation deadline
   * @returns the provider
   * @throws DesktopError PERMISSION_DENIED without a session bus or accessibility bus,
   *   PLATFORM_NOT_SUPPORTED without libatspi
   */
  static async open(opts: ProviderOptions): Promise<LinuxProvider> {
    const deadline = Math.min(Date.now() + opts.timeoutMs, opts.deadline ?? Infinity);
    const session = sessionBusAddress((k) => Deno.env.get(k), exists);
    const a11y = Deno.env.get("AT_SPI_BUS_ADDRESS") || await a11yBusAddress(session, deadline);
    Deno.env.set("DBUS_SESSION_BUS_ADDRESS", session);
    Deno.env.set("AT_SPI_BUS_ADDRESS", a11y);
    return new LinuxProvider(opts, await AppDirectory.open(a11y, deadline));
  }

  /**
   * Starts an operation: returns its deadline (the earlier of its own timeout
   * and the caller's), and sets libatspi's call timeout inside it, so that no
   * synchronous call outlives it. TIMEOUT when the caller's has passed.
   */
  #begin(callerDeadline?: number): number {
    if (this.#closed) throw new DesktopError("INTERNAL", "the provider is closed");
    const deadline = Math.min(Date.now() + this.#timeoutMs, callerDeadline ?? Infinity);
    const left = deadline - Date.now();
    if (left <= 0) throw pastDeadline();
    this.#callTimeoutMs = Math.min(callTimeoutFor(this.#timeoutMs), left);
    this.#native?.setTimeout(this.#callTimeoutMs);
    this.#native?.pump();
    return deadline;
  }

  async warmUp(deadline: number): Promise<void> {
    try {
      // libatspi (the kept trees follow its events) and the bulk reader's connection.
      this.#liveTrees();
      void this.#n;
      this.#bulk ??= connectBulkReader(Math.max(1, deadline - Date.now()));
      await this.#bulk;
    } catch {
      // The command that needs it says what is wrong.
    }
  }

  /** Runs `fn` with native references released at the end and errors made DesktopErrors. */
  #op<T>(fn: (stack: DisposableStack) => T): T {
    const stack = new DisposableStack();
    try {
      return fn(stack);
    } catch (e) {
      throw toDesktopError(e);
    } finally {
      stack.dispose();
    }
  }

  /**
   * Every registered app, discovered at once, each under its own deadline;
   * with `pid`, only that process's apps (no other app is asked anything).
   */
  async #apps(deadline: number, pid?: number): Promise<LiveApp[]> {
    try {
      const apps = liveApps(await this.#dir.apps(deadline, callTimeoutFor(this.#timeoutMs), pid));
      if (pid === undefined) {
        // An app that quit takes its kept trees with it.
        this.#live?.retain(new Set(apps.map((a) => a.bus)));
        this.#listed = apps;
      }
      return apps;
    } catch (e) {
      throw toDesktopError(e);
    }
  }

  /** The apps a scope can mean: a `pid` scope lists that process's apps only. */
  async #appsFor(scope: Scope, deadline: number): Promise<LiveApp[]> {
    if (scope.pid === undefined) return await this.#apps(deadline);
    const own = await this.#apps(deadline, scope.pid);
    // None: the error lists the running apps as candidates.
    return own.length ? own : await this.#apps(deadline);
  }

  /**
   * The app a scope that names it (by name or pid) means, from the last
   * listing of every app, when that listing still holds for it (see
   * `AppDirectory.sameAsListed`): an unchanged read then costs one round
   * trip, not a question to every app. Null on any doubt (an app that did
   * not answer, a stopped one, the focused app asked for): the caller lists
   * the apps again.
   */
  async #listedApp(scope: Scope, deadline: number): Promise<LiveApp | null> {
    const apps = this.#listed;
    if (!apps || (scope.app === undefined && scope.pid === undefined)) return null;
    if (apps.some((a) => !a.responsive)) return null;
    let i: number;
    try {
      i = matchApp(apps, scope);
    } catch {
      return null;
    }
    const app = apps[i];
    if (processStopped(app.pid)) return null;
    const until = Math.min(deadline, Date.now() + QUICK_LOOK_MS);
    return await this.#dir.sameAsListed(app, until) ? app : null;
  }

  /** The kept trees, when warm reads are on in this process. */
  #liveTrees(): LiveTrees | null {
    if (!liveTreesEnabled()) {
      // Turned off again: nothing kept is followed any longer.
      this.#live?.close();
      return this.#live = null;
    }
    return this.#live ??= new LiveTrees({
      watch: (bus, onEvent) =>
        startWatch(this.#n, bus, (_hint, ev) => onEvent({ path: ev.path, kind: ev.type })),
      extents: (bus, path) =>
        this.#op((stack) => {
          const acc = stack.use(lookupOrStale(this.#n, `${bus}${path}`));
          return readExtents(this.#n, acc.ptr);
        }),
      pump: () => this.#n.pump(),
    });
  }

  /** The app a scope names; APP_UNRESPONSIVE when it does not answer. */
  async #app(scope: Scope, deadline: number): Promise<LiveApp> {
    const apps = await this.#appsFor(scope, deadline);
    let app = apps[matchRunningApp(apps, scope)];
    if (!app.responsive && !app.stopped && this.#readingOnAnswered(app.bus)) {
      // Silent only to the listing: the app answers this process's read of its tree first
      // (its calls came before), and a read joins that one rather than ask again.
      return { ...app, responsive: true };
    }
    if (!app.responsive && app.brief) {
      // The listing gave it only a short look: the target gets its full time.
      const until = Math.min(deadline, Date.now() + callTimeoutFor(this.#timeoutMs));
      const fresh = liveApps([await this.#dir.again(app, until)])[0];
      // Still silent: it keeps the names the listing found for it.
      app = fresh.responsive ? fresh : { ...fresh, name: app.name, aliases: app.aliases };
    }
    if (!app.responsive) throw unresponsive(app);
    return app;
  }

  /** Whether a read of the app's tree is under way here and the app answered it just now. */
  #readingOnAnswered(bus: string): boolean {
    const now = Date.now();
    for (const cold of this.#reading.values()) {
      if (cold.bus === bus && stillAnswering(cold.progress, now)) return true;
    }
    return false;
  }

  /** Registered apps with names, pids and window counts; ones that did not answer are marked. */
  async listApps(): Promise<AppInfo[]> {
    const deadline = this.#begin();
    const apps = (await this.#apps(deadline)).map(appInfo);
    // Processes that show windows nobody can read: listed, with what would let them join.
    const registered = new Set(apps.map((a) => a.pid));
    const off = unregisteredWithWindows(pidsWithWindows(), registered);
    return [
      ...apps,
      ...off.map((o): AppInfo => ({
        name: o.name,
        pid: o.pid,
        offBus: { toolkit: o.toolkit, remedy: o.remedy },
      })),
    ];
  }

  /** Top-level windows, of one app or of all apps that answer. */
  async listWindows(scope: Scope = {}): Promise<WindowInfo[]> {
    const deadline = this.#begin();
    const apps = await this.#appsFor(scope, deadline);
    const scoped = scope.app !== undefined || scope.pid !== undefined;
    const chosen = scoped ? [apps[matchRunningApp(apps, scope)]] : apps.filter((a) => a.responsive);
    const lists = await Promise.all(chosen.map(async (app) => {
      if (!app.responsive) throw unresponsive(app);
      try {
        const clients = appClients(app.pid) ?? [];
        const listed = liveWindows(app, await this.#dir.windows(app, deadline, true));
        return titled(listed, clients).map((w) => this.#onScreen(app, windowInfo(app, w), clients));
      } catch (e) {
        if (scoped) throw toDesktopError(e);
        return []; // an unscoped listing keeps the apps that answer
      }
    }));
    const out = lists.flat();
    if (scope.window !== undefined || scope.windowId !== undefined) {
      return [out[matchWindow(out, scope)]];
    }
    return out;
  }

  /** Reads one app (or one of its windows) as an element tree, all under one deadline. */
  async read(scope: Scope, opts: ReadOptions = {}): Promise<Snapshot> {
    const deadline = this.#begin(opts.deadline);
    const app = await this.#app(scope, deadline);
    try {
      return await this.#readApp(app, scope, opts, deadline);
    } catch (e) {
      throw quitOr(app, toDesktopError(e));
    }
  }

  async #readApp(
    app: LiveApp,
    scope: Scope,
    opts: ReadOptions,
    deadline: number,
  ): Promise<Snapshot> {
    const bounds = opts.bounds ?? true;
    const { clients, wins, wi } = await this.#windowsOf(app, scope, deadline);
    const window = wi >= 0 ? windowInfo(app, wins[wi]) : undefined;
    let version: number | null = null;
    const read = async () => {
      const got = await this.#readRaw(
        this.#treeKey(app, wins, wi, opts.depth, bounds),
        deadline,
        wi >= 0 || wins.length > 0,
      );
      version = got.version;
      return got.tree;
    };
    let raw = await read();
    // A browser's document that is on its way (Firefox builds it when first asked for) is
    // waited for, a bounded moment, until it holds still: else the first read of a page would
    // show no page, or half of one.
    if (opts.depth === undefined && framesAwaitingDocument(raw).length > 0) {
      const until = Math.min(deadline - MIN_READ_LEFT_MS, Date.now() + DOCUMENT_SETTLE_MS);
      let size = -1;
      for (let wait = 50; Date.now() + wait < until; wait = Math.min(wait * 2, 200)) {
        await new Promise((r) => setTimeout(r, wait));
        raw = await read();
        const now = countNodes(raw);
        if (framesAwaitingDocument(raw).length === 0 && now === size) break;
        size = now;
      }
    }
    // GTK 2 and 3 list a grid's children most recent first: read them as laid out.
    if (bounds && isGtkAtk(this.#toolkitOf(app))) gridsInReadingOrder(raw);
    const root: Element = wi >= 0 ? windowToElement(raw) : rawToElement(raw);
    if (bounds && this.#boxesRelativeToWindow(app)) {
      for (const w of root.r === "app" ? root.c ?? [] : [root]) {
        // A window whose box starts at 0,0 reported its children relative to itself.
        const origin = w.b && w.b[0] === 0 && w.b[1] === 0
          ? originAmong(clients ?? [], w.t ?? "", w.b)
          : null;
        if (origin) shiftBoxes(w, origin[0], origin[1]);
      }
      // A popover shows in a window of its own, away from where the app says it is.
      const popups = popupSurfaces(app.pid);
      if (popups.length) placePopups(root, popups);
    }
    if (root.r === "window" && !root.t && window?.title) root.t = window.title;
    for (const w of root.r === "app" ? root.c ?? [] : []) {
      const title = w.r === "window" && !w.t ? untitledTitleAmong(clients ?? [], w.b) : undefined;
      if (title) w.t = title;
    }
    if (window && root.b) window.b = root.b;
    const snap: Snapshot = { app: appInfo(app), readAt: new Date().toISOString(), root };
    if (window) snap.window = window;
    if (opts.version && version !== null) {
      opts.version.value = readVersion(app, wins, wi, clients, version);
    }
    return snap;
  }

  /**
   * Whether a read of `scope` now would return what the read that gave
   * `version` returned: the same app and windows, the same X client windows
   * (titles and places), and the kept tree unchanged (no event since, its
   * sampled boxes hold; see live_tree.ts). False whenever in doubt, and
   * on any error (a read then says what went wrong).
   */
  async unchangedSince(scope: Scope, opts: ReadOptions, version: string): Promise<boolean> {
    const live = this.#live;
    if (!live || !liveTreesEnabled()) return false;
    try {
      const deadline = this.#begin(opts.deadline);
      const app = await this.#listedApp(scope, deadline) ?? await this.#app(scope, deadline);
      // A read of the whole app keeps its windows in its tree (an event changes that), so its
      // window list is not asked again; a read of one window matches the list first.
      const whole = scope.window === undefined && scope.windowId === undefined;
      const { clients, wins, wi } = whole
        ? { clients: appClients(app.pid), wins: [], wi: -1 }
        : await this.#windowsOf(app, scope, deadline);
      const kept = live.unchanged(this.#treeKey(app, wins, wi, opts.depth, opts.bounds ?? true));
      return kept !== null && readVersion(app, wins, wi, clients, kept) === version;
    } catch {
      return false;
    }
  }

  /**
   * An app's windows as a read sees them: titled (an untitled one takes its
   * X window's title), the one the scope names (-1: the whole app), and the
   * app's X client windows they were titled from (null without X).
   */
  async #windowsOf(
    app: LiveApp,
    scope: Scope,
    deadline: number,
  ): Promise<{ clients: Client[] | null; wins: LiveWindow[]; wi: number }> {
    let wins;
    const clients = appClients(app.pid);
    try {
      // Boxes only to match a window by title: an untitled one takes its X window's by its box.
      const boxes = scope.window !== undefined;
      wins = titled(liveWindows(app, await this.#dir.windows(app, deadline, boxes)), clients ?? []);
    } catch (e) {
      throw toDesktopError(e);
    }
    return { clients, wins, wi: matchWindow(wins, scope) };
  }

  /** Which kept tree a read of the app (or of its window `wi`) is. */
  #treeKey(
    app: LiveApp,
    wins: LiveWindow[],
    wi: number,
    depth: number | undefined,
    bounds: boolean,
  ): TreeKey {
    return { bus: app.bus, path: wi >= 0 ? wins[wi].path : app.path, depth, bounds };
  }

  /** A window's box on the screen (see {@link LinuxProvider.#boxesRelativeToWindow}). */
  #onScreen(app: LiveApp, w: WindowInfo, clients: readonly Client[]): WindowInfo {
    if (!w.b || w.b[0] !== 0 || w.b[1] !== 0 || !this.#boxesRelativeToWindow(app)) return w;
    const origin = originAmong(clients, w.title, w.b);
    return origin ? { ...w, b: [origin[0], origin[1], w.b[2], w.b[3]] } : w;
  }

  /** Whether the app reports boxes relative to its window (see toolkit.ts). */
  #boxesRelativeToWindow(app: LiveApp): boolean {
    return boxesRelativeToWindow(this.#toolkitOf(app));
  }

  /** The app's toolkit: asked once per app (a read through the bus has asked already). */
  #toolkitOf(app: LiveApp): Toolkit {
    let toolkit = this.#toolkits.get(app.bus);
    if (toolkit === undefined) {
      toolkit = optional(() =>
        this.#op((stack) =>
          readToolkit(this.#n, stack.use(lookupOrStale(this.#n, `${app.bus}${app.path}`)).ptr)
        )
      ) ?? { name: "", version: "" };
      this.#toolkits.set(app.bus, toolkit);
    }
    return toolkit;
  }

  /**
   * Reads from the kept tree when it is still true, with the parts the app's
   * events named read again (see live_tree.ts), else cold.
   */
  async #readRaw(
    key: TreeKey,
    deadline: number,
    expectChildren: boolean,
  ): Promise<{ tree: AtspiRawNode; version: number | null }> {
    const { bus, path, depth, bounds } = key;
    const live = this.#liveTrees();
    if (!live) {
      const tree = await this.#readRawCold(bus, path, depth, bounds, deadline, expectChildren);
      return { tree, version: null };
    }
    const got: { version?: number } = {};
    const kept = await live.get(
      key,
      livePatchesEnabled()
        ? (part, partDepth, exact) => this.#readPart(bus, part, partDepth, bounds, deadline, exact)
        : undefined,
      got,
    );
    if (kept) return { tree: kept, version: got.version ?? null };
    const id = treeKey(key);
    let cold = this.#reading.get(id);
    if (!cold) {
      const seq = live.begin(bus);
      const reader = { bulk: false };
      const progress = newProgress();
      // This process lives on after the caller: it goes on reading a large tree past the
      // caller's deadline (a bounded time) and keeps it, so that a read again is answered.
      const readOn = { deadline: Math.max(deadline, Date.now() + READ_ON_MS), progress };
      // Parts are read by the bulk reader: a tree the libatspi walk made is not patched.
      const done = this.#readRawCold(
        bus,
        path,
        depth,
        bounds,
        deadline,
        expectChildren,
        reader,
        readOn,
      ).then((tree) => ({ tree, version: live.put(key, tree, seq, reader.bulk) }));
      const reading = { bus, done, progress, started: Date.now() };
      this.#reading.set(id, cold = reading);
      const over = () => {
        if (this.#reading.get(id) === reading) this.#reading.delete(id);
      };
      done.then(over, over);
    }
    return await byDeadline(cold, deadline, bus);
  }

  /**
   * Reads a part of an app again for the kept tree, with the bulk reader as
   * the whole read did: object by object, the app's cache unasked (one
   * GetItems is the whole app), unless `exact` says the part holds choices
   * a read orders as the whole read did only from the cache.
   */
  async #readPart(
    bus: string,
    path: string,
    depth: number | undefined,
    bounds: boolean,
    deadline: number,
    exact: boolean,
  ): Promise<AtspiRawNode> {
    const bulk = await this.#bulk;
    if (!bulk) throw new DesktopError("INTERNAL", "no bulk reader");
    return await bulk.readTree(bus, path, { depth, bounds, deadline, bulk: exact });
  }

  /** Counters of the kept trees (see live_tree.ts), or null while warm reads are off. */
  liveTreeStats(): LiveTreeStats | null {
    return this.#live?.stats() ?? null;
  }

  /** Reads with the bulk reader when it works, else with the libatspi walk. */
  async #readRawCold(
    bus: string,
    path: string,
    depth: number | undefined,
    bounds: boolean,
    deadline: number,
    expectChildren: boolean,
    reader?: { bulk: boolean },
    readOn?: { deadline: number; progress: ReadProgress },
  ): Promise<AtspiRawNode> {
    this.#bulk ??= connectBulkReader(Math.max(1, deadline - Date.now()));
    const bulk = await this.#bulk;
    if (bulk) {
      try {
        const tree = await bulk.readTree(bus, path, {
          depth,
          bounds,
          // Only the bulk reader reads on: it waits for the app without blocking this process.
          deadline: readOn?.deadline ?? deadline,
          ...(readOn ? { progress: readOn.progress } : {}),
        });
        // The read asked the toolkit already: the toolkit rules need no libatspi call.
        if (!this.#toolkits.has(bus)) this.#toolkits.set(bus, await bulk.toolkit(bus, deadline));
        // An app that reports windows but comes back empty was not read: fall back.
        if (tree.children.length > 0 || !expectChildren || depth === 0) {
          if (reader) reader.bulk = true;
          return tree;
        }
      } catch (e) {
        // A verdict about the app stands; anything else falls back to libatspi.
        if (e instanceof DesktopError && isAppVerdict(e)) throw e;
      }
    }
    const left = deadline - Date.now();
    if (left <= 0) throw pastDeadline();
    this.#callTimeoutMs = Math.min(callTimeoutFor(this.#timeoutMs), left);
    this.#n.setTimeout(this.#callTimeoutMs);
    return this.#op((stack) => {
      const acc = stack.use(lookupOrStale(this.#n, `${bus}${path}`));
      return walkTree(this.#n, acc.ptr, { depth, bounds, deadline });
    });
  }

  /**
   * Carries out an action on an element (by its nid, which already names its
   * app, so the scope is not consulted) or at a screen point.
   */
  act(
    _scope: Scope,
    target: ActionTarget,
    action: Action,
    opts: ProviderActOptions = {},
  ): Promise<ActionResult> {
    const deadline = this.#begin(opts.deadline);
    return Promise.resolve(this.#op((stack) => {
      if ("point" in target) return actAtPoint(this.#n, target.point, action, deadline);
      // A row the reader made of a tree view's cells (GTK 3 lists them flat under the table)
      // has no object of its own: its first cell stands for it, as a click on a row lands there.
      const nid = target.element.nid ?? firstNid(target.element);
      if (!nid) {
        throw new DesktopError("ACTION_NOT_SUPPORTED", "the element has no object in the app", {
          suggestion: "Act on one of its children (read --scope-ref it) instead",
        });
      }
      const acc = stack.use(lookupOrStale(this.#n, nid));
      return actOnAccessible(this.#n, acc.ptr, action, {
        deadline,
        ...(opts.focusedGuess ? { focusedGuess: true } : {}),
      });
    }));
  }

  /** Calls `onChange` on AT-SPI events from the scoped app; returns the stop function. */
  /**
   * Reads elements again by nid, each alone (no children), with bounds; null
   * for one that is gone. Used by observe to follow value and state changes.
   */
  readNodes(_scope: Scope, nids: readonly string[]): Promise<Array<Element | null>> {
    this.#begin();
    return Promise.resolve(nids.map((nid) => {
      try {
        return this.#op((stack) => {
          const acc = stack.use(lookupOrStale(this.#n, nid));
          return rawToElement(readNode(this.#n, acc.ptr, true));
        });
      } catch (e) {
        if (e instanceof DesktopError && e.code === "STALE_REF") return null;
        throw e;
      }
    }));
  }

  async watch(scope: Scope, onChange: (hint?: ChangeHint) => void): Promise<() => void> {
    const { bus } = await this.#app(scope, this.#begin());
    const stop = startWatch(this.#n, bus, onChange);
    const wrapped = () => {
      if (this.#stops.delete(wrapped)) stop();
    };
    this.#stops.add(wrapped);
    return wrapped;
  }

  /** The pixels of a rectangle of the screen (X11, wlroots, mutter). */
  capture(rect?: Bounds): Promise<ScreenCapture> {
    const deadline = this.#begin();
    return Promise.resolve(captureScreen(rect, deadline - Date.now()));
  }

  /** Where a window's own boxes start on screen (see windowOriginOnScreen). */
  windowOrigin(window: () => Promise<WindowInfo>): Promise<Point | null> {
    return windowOriginOnScreen(window);
  }

  /** Starts an app detached from this process (see launch.ts). */
  startApp(spec: string): Promise<StartedApp> {
    return Promise.resolve(startApp(spec));
  }

  /** Asks each X11 window of the process to close. */
  closeApp(pid: number): Promise<number> {
    return Promise.resolve(closeAppWindows(pid));
  }

  /** Whether the process runs (/proc). */
  processRunning(pid: number): boolean {
    return processRunning(pid);
  }

  /** SIGTERM (then SIGCONT, so a stopped process acts on it), or SIGKILL with force. */
  endProcess(pid: number, force: boolean): void {
    if (force) return signalProcess(pid, "SIGKILL");
    signalProcess(pid, "SIGTERM");
    signalProcess(pid, "SIGCONT");
  }

  /** Window management through X11 (see windows.ts). */
  windowAction(win: WindowInfo, op: WindowOp, timeoutMs: number): Promise<WindowState> {
    return windowAction(win, op, timeoutMs);
  }

  /** The CLIPBOARD selection's text. */
  clipboardGet(): Promise<string> {
    return clipboardGet(Math.min(this.#timeoutMs, 5000));
  }

  /** Owns the CLIPBOARD selection from a detached process that outlives this one. */
  clipboardSet(text: string): Promise<void> {
    return clipboardSet(text, this.#timeoutMs);
  }

  /** Stops watches and closes the bulk reader. libatspi stays loaded for the process. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of [...this.#stops]) stop();
    this.#live?.close();
    this.#dir.close();
    this.#bulk?.then((b) => b?.close()).catch(() => {});
  }
}

/** How long a long-lived process reads on a tree whose caller stopped waiting. */
const READ_ON_MS = 60_000;

/** A cold read of a tree to keep, under way. */
interface ColdRead {
  /** The app's bus name. */
  bus: string;
  /** The tree and its kept version. */
  done: Promise<{ tree: AtspiRawNode; version: number | null }>;
  /** How far it got. */
  progress: ReadProgress;
  /** When it began (ms since epoch). */
  started: number;
}

/**
 * The end of a cold read, or at `deadline` the verdict on it: a large tree
 * still read on (TIMEOUT, saying so), or an app that stopped answering.
 */
async function byDeadline(
  cold: ColdRead,
  deadline: number,
  bus: string,
): Promise<{ tree: AtspiRawNode; version: number | null }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        stillAnswering(cold.progress, Date.now())
          ? largeTreeTimeout(cold.progress, Date.now() - cold.started, true)
          : noReplyError("reading its accessibility tree", bus),
      );
    }, Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([cold.done, cut]);
  } finally {
    clearTimeout(timer);
  }
}

function isAppVerdict(e: DesktopError): boolean {
  return e.code === "APP_UNRESPONSIVE" || e.code === "APP_NOT_FOUND" || e.code === "TIMEOUT" ||
    e.code === "STALE_REF";
}

/** The caller's deadline passed before (or while) the operation ran. */
function pastDeadline(): DesktopError {
  return new DesktopError("TIMEOUT", "the command's deadline passed", {
    suggestion: suggestionFor("TIMEOUT"),
  });
}

/**
 * An app that quit during a command leaves its calls unanswered (NoReply,
 * Disconnected), which reads as unresponsive: when its process is gone, the
 * verdict is APP_NOT_FOUND instead, so the agent relaunches rather than waits.
 */
function quitOr(app: LiveApp, e: DesktopError): DesktopError {
  if (e.code !== "APP_UNRESPONSIVE" || processAlive(app.pid)) return e;
  return new DesktopError("APP_NOT_FOUND", `${app.name} (pid ${app.pid}) quit during the command`, {
    suggestion: "start the app again, then read it; `desktop list` shows the running apps",
    details: { pid: app.pid, app: app.name },
  });
}

/** Whether a process still runs (a zombie counts as gone). */
function processAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function unresponsive(app: LiveApp): DesktopError {
  const why = app.stopped ? " (its process is stopped)" : "";
  return new DesktopError(
    "APP_UNRESPONSIVE",
    `${app.name} (pid ${app.pid}) does not answer accessibility requests${why}`,
    {
      suggestion: app.stopped
        ? "The app's process is stopped (SIGSTOP, a debugger, Ctrl+Z): continue it " +
          `(kill -CONT ${app.pid}) and retry, or end it with \`desktop quit --pid ${app.pid} --force\``
        : suggestionFor("APP_UNRESPONSIVE"),
      details: { pid: app.pid, app: app.name, ...(app.stopped ? { stopped: true } : {}) },
    },
  );
}

/** A live reference to the object a nid names; STALE_REF when it is gone. */
function lookupOrStale(n: Native, nid: string) {
  const stale = () =>
    new DesktopError("STALE_REF", "the element is gone (its app exited or the UI changed)", {
      suggestion: suggestionFor("STALE_REF"),
    });
  const id = parseNodeId(nid);
  if (!id) throw stale();
  const acc = n.lookup(id.bus, id.path);
  if (!acc) throw stale();
  // A round trip proves the object still exists (and the app still answers).
  n.sym.atspi_accessible_get_role(acc.ptr, n.err.buf);
  const info = n.err.take();
  if (info) {
    acc[Symbol.dispose]();
    const err = nativeError("find the element", info.message, "STALE_REF");
    throw err.code === "STALE_REF" ? stale() : err; // unresponsive, or the whole app gone
  }
  return acc;
}

/** The native id of an element's first descendant that has one (depth-first), if any. */
function firstNid(el: Element): string | undefined {
  let found: string | undefined;
  walk(el, (e) => {
    if (found !== undefined) return false;
    if (e !== el && e.nid) found = e.nid;
  });
  return found;
}

/** Windows with the X title filled in where the accessible one is empty (see untitledTitleAmong). */
function titled(wins: LiveWindow[], clients: readonly Client[]): LiveWindow[] {
  return wins.map((w) => w.title ? w : { ...w, title: untitledTitleAmong(clients, w.b) ?? "" });
}

/**
 * What names a read's result exactly, beside the kept tree's version: the
 * app, the window read and the list it was matched in (a read of the whole
 * app has its windows in its tree), and the X client windows its titles
 * and origins came from.
 */
function readVersion(
  app: LiveApp,
  wins: readonly LiveWindow[],
  wi: number,
  clients: readonly Client[] | null,
  tree: number,
): string {
  const xs = clients?.map((c) => [String(c.win), c.title, c.b, c.viewable, c.frame ?? null]);
  return JSON.stringify([appInfo(app), wi >= 0 ? wins : [], wi, xs ?? null, tree]);
}

/**
 * matchApp, and when no app on the bus matches: an app that does not answer
 * and goes by that name (see hung.ts) is the one meant; else, with silent
 * apps about, the app meant may be one of them (APP_UNRESPONSIVE, never a
 * certain APP_NOT_FOUND); else whether a GUI process of that name or pid runs
 * anyway: the error then says so and what would let it join.
 */
function matchRunningApp(apps: readonly LiveApp[], scope: Scope): number {
  try {
    return matchApp(apps, scope);
  } catch (e) {
    if (!(e instanceof DesktopError)) throw e;
    const silent = apps.flatMap((a, i) => a.responsive ? [] : [i]);
    if (silent.length && scope.pid === undefined) {
      const named = scope.app === undefined ? -1 : silentByName(apps, silent, scope.app);
      if (named >= 0) return named;
      if (e.details?.reason === "noMatch" || scope.app === undefined) {
        throw maybeSilent(apps, silent, scope, e);
      }
    }
    if (e.details?.reason !== "noMatch") throw e;
    const off = findUnregistered(scope, new Set(apps.map((a) => a.pid)));
    if (!off) throw e;
    throw new DesktopError(
      "APP_NOT_FOUND",
      `"${off.name}" (pid ${off.pid}, ${off.toolkit}) runs but is not on the accessibility bus`,
      {
        suggestion: off.canJoin
          ? `${off.remedy}. Restart it with \`desktop launch ${off.name}\`, which turns ` +
            "accessibility on"
          : off.remedy,
        candidates: e.candidates,
        details: { pid: off.pid, process: off.name, toolkit: off.toolkit },
      },
    );
  }
}

/**
 * The silent app that goes by `name` (any of its aliases: exact, else the
 * only one that contains it, case-insensitive), or -1.
 */
function silentByName(apps: readonly LiveApp[], silent: number[], name: string): number {
  const q = name.trim().toLowerCase();
  if (!q) return -1;
  const names = (i: number) => (apps[i].aliases ?? [apps[i].name]).map((n) => n.toLowerCase());
  const exact = silent.filter((i) => names(i).includes(q));
  if (exact.length === 1) return exact[0];
  const sub = exact.length ? [] : silent.filter((i) => names(i).some((n) => n.includes(q)));
  return sub.length === 1 ? sub[0] : -1;
}

/**
 * No app that answers is the one meant (by name, or as the focused app), and
 * some apps do not answer: the one meant may be among them, so the verdict is
 * APP_UNRESPONSIVE naming them, not APP_NOT_FOUND.
 */
function maybeSilent(
  apps: readonly LiveApp[],
  silent: number[],
  scope: Scope,
  e: DesktopError,
): DesktopError {
  const list = silent.map((i) => `${apps[i].name || "?"} (pid ${apps[i].pid})`).join(", ");
  const what = scope.app === undefined
    ? "no app that answers has the focus"
    : `no app that answers matches --app "${scope.app}"`;
  return new DesktopError(
    "APP_UNRESPONSIVE",
    `${what}, and ${silent.length === 1 ? "one app does" : `${silent.length} apps do`} not ` +
      `answer accessibility requests (it may be ${silent.length === 1 ? "it" : "one of them"}): ` +
      list,
    {
      suggestion: "Wait and retry, or pass --pid of the app meant; `desktop list` marks the " +
        "apps that do not answer",
      candidates: e.candidates,
      details: { unresponsive: silent.map((i) => ({ pid: apps[i].pid, app: apps[i].name })) },
    },
  );
}
