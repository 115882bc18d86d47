/**
 * The Linux {@link Provider}: AT-SPI through libatspi (plus the optional bulk
 * D-Bus reader for speed). Every operation runs under one deadline: libatspi's
 * per-call D-Bus timeout is set below it, and long walks check it between
 * calls, so a stopped app yields APP_UNRESPONSIVE instead of a hang.
 *
 * @module
 */

import { DesktopError, toDesktopError } from "../../errors.ts";
import type { AppInfo, Bounds, Element, Snapshot, WindowInfo } from "../../model/element.ts";
import type {
  Action,
  ActionResult,
  ActionTarget,
  ChangeHint,
  Provider,
  ProviderOptions,
  ReadOptions,
  Scope,
  ScreenCapture,
} from "../provider.ts";
import { ElementActor } from "./act.ts";
import { appInfo, listLiveApps, type LiveApp, liveWindows, windowInfo } from "./apps.ts";
import { type BulkReader, connectBulkReader } from "./bus_reader.ts";
import { parseNodeId, rawToElement } from "./convert.ts";
import { nativeError, suggestionFor } from "./errors.ts";
import { clickAt, dragBetween, pressCombo, typeString, wheelAt } from "./input.ts";
import { parseCombo } from "./keys.ts";
import { Native } from "./native.ts";
import type { AtspiRawNode } from "./raw.ts";
import { matchApp, matchWindow } from "./scope.ts";
import { readNode, walkTree } from "./walk.ts";
import { captureScreen } from "./screen.ts";
import { startWatch } from "./watch.ts";

/**
 * Per-call D-Bus timeout for an operation deadline: a quarter of it, so a
 * stopped app costs at most a few timeouts before the deadline, within
 * 100 ms..3 s.
 */
export function callTimeoutFor(timeoutMs: number): number {
  return Math.min(3000, Math.max(100, Math.floor(timeoutMs / 4)));
}

/** The AT-SPI backend. */
export class LinuxProvider implements Provider {
  /** Always "linux". */
  readonly platform = "linux" as const;
  #n: Native;
  #timeoutMs: number;
  #bulk: Promise<BulkReader | null> | null = null;
  #stops = new Set<() => void>();
  #closed = false;

  /** @param opts the per-operation deadline */
  constructor(opts: ProviderOptions) {
    this.#timeoutMs = opts.timeoutMs;
    this.#n = Native.open();
  }

  /** Starts an operation: sets libatspi's call timeout and returns the deadline. */
  #begin(): number {
    if (this.#closed) throw new DesktopError("INTERNAL", "the provider is closed");
    this.#n.setTimeout(callTimeoutFor(this.#timeoutMs));
    this.#n.pump();
    return Date.now() + this.#timeoutMs;
  }

  /** Runs `fn` with native references released at the end and errors made DesktopErrors. */
  #op<T>(fn: (stack: DisposableStack, deadline: number) => T): T {
    const deadline = this.#begin();
    const stack = new DisposableStack();
    try {
      return fn(stack, deadline);
    } catch (e) {
      throw toDesktopError(e);
    } finally {
      stack.dispose();
    }
  }

  /** Registered apps with names, pids and window counts. */
  listApps(): Promise<AppInfo[]> {
    return Promise.resolve(this.#op((stack) => listLiveApps(this.#n, stack).map(appInfo)));
  }

  /** Top-level windows, of one app or of all apps. */
  listWindows(scope: Scope = {}): Promise<WindowInfo[]> {
    return Promise.resolve(this.#op((stack) => {
      const apps = listLiveApps(this.#n, stack);
      const scoped = scope.app !== undefined || scope.pid !== undefined;
      const chosen = scoped ? [apps[matchApp(apps, scope)]] : apps.filter((a) => a.responsive);
      const out: WindowInfo[] = [];
      for (const app of chosen) {
        const wins = this.#windowsOf(app, stack);
        for (const w of wins) out.push(windowInfo(app, w));
      }
      if (scope.window !== undefined || scope.windowId !== undefined) {
        const i = matchWindow(out, scope);
        return [out[i]];
      }
      return out;
    }));
  }

  #windowsOf(app: LiveApp, stack: DisposableStack) {
    if (!app.responsive) throw unresponsive(app);
    return liveWindows(this.#n, app, stack);
  }

  /** Reads one app (or one of its windows) as an element tree. */
  async read(scope: Scope, opts: ReadOptions = {}): Promise<Snapshot> {
    const bounds = opts.bounds ?? true;
    const target = this.#op((stack) => {
      const apps = listLiveApps(this.#n, stack);
      const app = apps[matchApp(apps, scope)];
      if (!app.responsive) throw unresponsive(app);
      const wins = liveWindows(this.#n, app, stack, false);
      const wi = matchWindow(wins, scope);
      return {
        info: appInfo(app),
        bus: app.bus,
        path: wi >= 0 ? wins[wi].path : app.path,
        window: wi >= 0 ? windowInfo(app, wins[wi]) : undefined,
        expectChildren: wi >= 0 || wins.length > 0,
      };
    });
    const deadline = Date.now() + this.#timeoutMs;
    const raw = await this.#readRaw(
      target.bus,
      target.path,
      opts.depth,
      bounds,
      deadline,
      target.expectChildren,
    );
    const root: Element = rawToElement(raw);
    if (target.window && root.b) target.window.b = root.b;
    const snap: Snapshot = { app: target.info, readAt: new Date().toISOString(), root };
    if (target.window) snap.window = target.window;
    return snap;
  }

  /** Reads with the bulk reader when it works, else with the libatspi walk. */
  async #readRaw(
    bus: string,
    path: string,
    depth: number | undefined,
    bounds: boolean,
    deadline: number,
    expectChildren: boolean,
  ): Promise<AtspiRawNode> {
    this.#bulk ??= connectBulkReader(callTimeoutFor(this.#timeoutMs));
    const bulk = await this.#bulk;
    if (bulk) {
      try {
        const tree = await bulk.readTree(bus, path, { depth, bounds, deadline });
        // An app that reports windows but comes back empty was not read: fall back.
        if (tree.children.length > 0 || !expectChildren || depth === 0) return tree;
      } catch (e) {
        // A verdict about the app stands; anything else falls back to libatspi.
        if (e instanceof DesktopError && isAppVerdict(e)) throw e;
      }
    }
    return this.#op((stack) => {
      const acc = stack.use(lookupOrStale(this.#n, `${bus}${path}`));
      return walkTree(this.#n, acc.ptr, { depth, bounds, deadline });
    });
  }

  /**
   * Carries out an action on an element (by its nid, which already names its
   * app, so the scope is not consulted) or at a screen point.
   */
  act(_scope: Scope, target: ActionTarget, action: Action): Promise<ActionResult> {
    return Promise.resolve(this.#op((stack) => {
      if ("point" in target) return actAtPoint(this.#n, target.point, action);
      const nid = target.element.nid;
      if (!nid) {
        throw new DesktopError("STALE_REF", "the element carries no native identity", {
          suggestion: "Read the app again and target an element from that read",
        });
      }
      const acc = stack.use(lookupOrStale(this.#n, nid));
      return new ElementActor(this.#n, acc.ptr).run(action);
    }));
  }

  /** Calls `onChange` on AT-SPI events from the scoped app; returns the stop function. */
  /**
   * Reads elements again by nid, each alone (no children), with bounds; null
   * for one that is gone. Used by observe to follow value and state changes.
   */
  readNodes(_scope: Scope, nids: readonly string[]): Promise<Array<Element | null>> {
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

  watch(scope: Scope, onChange: (hint?: ChangeHint) => void): Promise<() => void> {
    const bus = this.#op((stack) => {
      const apps = listLiveApps(this.#n, stack);
      const app = apps[matchApp(apps, scope)];
      if (!app.responsive) throw unresponsive(app);
      return app.bus;
    });
    const stop = startWatch(this.#n, bus, onChange);
    const wrapped = () => {
      if (this.#stops.delete(wrapped)) stop();
    };
    this.#stops.add(wrapped);
    return Promise.resolve(wrapped);
  }

  /** The pixels of a rectangle of the screen (X11). */
  capture(rect?: Bounds): Promise<ScreenCapture> {
    return Promise.resolve(captureScreen(rect));
  }

  /** Stops watches and closes the bulk reader. libatspi stays loaded for the process. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of [...this.#stops]) stop();
    this.#bulk?.then((b) => b?.close()).catch(() => {});
  }
}

function isAppVerdict(e: DesktopError): boolean {
  return e.code === "APP_UNRESPONSIVE" || e.code === "APP_NOT_FOUND" || e.code === "TIMEOUT" ||
    e.code === "STALE_REF";
}

function unresponsive(app: LiveApp): DesktopError {
  return new DesktopError(
    "APP_UNRESPONSIVE",
    `${app.name} (pid ${app.pid}) does not answer accessibility requests`,
    { suggestion: suggestionFor("APP_UNRESPONSIVE"), details: { pid: app.pid, app: app.name } },
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

function actAtPoint(n: Native, p: { x: number; y: number }, action: Action): ActionResult {
  switch (action.kind) {
    case "click":
      clickAt(n, p, action.button ?? "left", action.count ?? 1);
      return { via: "input", detail: "click" };
    case "type":
      clickAt(n, p);
      typeString(n, action.text);
      return { via: "input", detail: "keyboard" };
    case "key":
      pressCombo(n, parseCombo(action.combo));
      return { via: "input", detail: action.combo };
    case "scroll":
      wheelAt(n, p, action.direction ?? "down", action.amount ?? 3);
      return { via: "input", detail: "wheel" };
    case "drag":
      dragBetween(n, p, action.to);
      return { via: "input", detail: "drag" };
    default:
      throw new DesktopError(
        "ACTION_NOT_SUPPORTED",
        `${action.kind} needs an element, not a point`,
        { suggestion: "Target an element with --ref, --id or --text" },
      );
  }
}
