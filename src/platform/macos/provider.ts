/**
 * The macOS Provider: scope resolution over the window list, reads through
 * the AX tree reader, actions, watches, and cleanup on close.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { AppInfo, Bounds, Snapshot, WindowInfo } from "../../model/element.ts";
import type {
  Action,
  ActionResult,
  ActionTarget,
  Provider,
  ProviderActOptions,
  ReadOptions,
  Scope,
  ScreenCapture,
  StartedApp,
  WindowOp,
  WindowState,
} from "../provider.ts";
import { captureScreen } from "./screen.ts";
import { macWindowAction } from "./windows.ts";
import { macClipboardGet, macClipboardSet } from "./clipboard.ts";
import { macEndProcess, macProcessRunning, pressQuit, startMacApp } from "./launch.ts";
import { matchApp, matchWindow } from "../../model/scope.ts";
import { actOnElement, actOnPoint } from "./act.ts";
import { appsFrom, type AxWindow, axWindows, cgWindows, sameBounds, windowInfos } from "./apps.ts";
import {
  looksEmpty,
  looksLikeChromium,
  restoreEnhanced,
  switchOnWebContent,
  type WebContentState,
} from "./chromium.ts";
import { readTree } from "./read.ts";
import type { AxSession } from "./session.ts";
import { startWatch } from "./watch.ts";

/** Longest wait for a Chromium/Electron tree to appear after switching it on. */
const WEB_CONTENT_WAIT_MS = 3000;

/** The AX-backed provider. */
export class MacosProvider implements Provider {
  /** Always `macos`. */
  readonly platform = "macos" as const;
  readonly #s: AxSession;
  readonly #web: WebContentState = { done: new Set(), enhanced: new Set() };
  readonly #watchers = new Set<() => void>();

  /** @param session the open session (closed by {@link close}) */
  constructor(session: AxSession) {
    this.#s = session;
  }

  #open(): AxSession {
    if (this.#s.closed) {
      throw new DesktopError("INTERNAL", "the macOS provider was used after close()", {
        suggestion: "Open a new session",
      });
    }
    return this.#s;
  }

  /** Running apps with a normal window, front to back. */
  listApps(): Promise<AppInfo[]> {
    return attempt(() => {
      const s = this.#open();
      return appsFrom(s, cgWindows(s));
    });
  }

  /** Windows (layer 0), of one app when the scope names it. */
  listWindows(scope?: Scope): Promise<WindowInfo[]> {
    return attempt(() => this.#listWindows(scope));
  }

  #listWindows(scope?: Scope): WindowInfo[] {
    const s = this.#open();
    const all = cgWindows(s).filter((w) => w.layer === 0);
    const apps = appsFrom(s, all);
    const chosen = scope && (scope.app !== undefined || scope.pid !== undefined)
      ? [apps[matchApp(apps, scope)]]
      : apps;
    const out: WindowInfo[] = [];
    for (const app of chosen) {
      using appEl = s.appElement(app.pid);
      const { windows } = axWindows(s, appEl);
      try {
        out.push(...windowInfos(all.filter((w) => w.pid === app.pid), windows, !!app.focused));
      } finally {
        for (const w of windows) w.ref[Symbol.dispose]();
      }
    }
    return out;
  }

  /** Resolves the scope to an app (and window) from the window list. */
  #resolve(s: AxSession, scope: Scope): { app: AppInfo; windows: WindowInfo[] } {
    const cg = cgWindows(s).filter((w) => w.layer === 0);
    const apps = appsFrom(s, cg);
    if (scope.pid !== undefined && !apps.some((a) => a.pid === scope.pid)) {
      // No on-screen window (minimized, menu-bar app): a pid still names it if AX answers.
      const hidden = probeApp(s, scope.pid);
      if (hidden) apps.push(hidden);
    }
    const app = apps[matchApp(apps, scope)];
    const windows = cg.filter((w) => w.pid === app.pid).map((w, i) => ({
      id: w.number,
      title: w.name,
      app: w.owner,
      pid: w.pid,
      b: w.bounds,
      ...(app.focused && i === 0 ? { focused: true as const } : {}),
    }));
    return { app, windows };
  }

  /** Reads an app (or one of its windows). */
  async read(scope: Scope, opts: ReadOptions = {}): Promise<Snapshot> {
    const s = this.#open();
    const deadline = Date.now() + s.timeoutMs;
    const { app, windows } = this.#resolve(s, scope);
    const waitMs = Math.min(WEB_CONTENT_WAIT_MS, s.timeoutMs / 2);
    if (looksLikeChromium(app.name)) await switchOnWebContent(s, app.pid, this.#web, waitMs);
    let snap = this.#readOnce(s, scope, app, windows, opts, deadline);
    // An app that shows nothing may be Chromium/Electron under another name: switch it on, reread.
    if (!this.#web.done.has(app.pid) && looksEmpty(snap.root)) {
      await switchOnWebContent(s, app.pid, this.#web, waitMs);
      snap = this.#readOnce(s, scope, app, windows, opts, deadline);
    }
    this.#web.done.add(app.pid);
    return snap;
  }

  #readOnce(
    s: AxSession,
    scope: Scope,
    app: AppInfo,
    cgWins: WindowInfo[],
    opts: ReadOptions,
    deadline: number,
  ): Snapshot {
    using appEl = s.appElement(app.pid);
    const wanted = scope.window !== undefined || scope.windowId !== undefined;
    const ax = wanted ? axWindows(s, appEl) : { err: 0, windows: [] as AxWindow[] };
    try {
      let root = appEl;
      let window: WindowInfo | undefined;
      if (wanted) {
        // Titles come from AX (the window list hides them without Screen Recording).
        const infos = windowInfos(
          cgWins.map((w) => ({
            number: w.id,
            pid: w.pid,
            owner: w.app,
            name: w.title,
            bounds: w.b!,
            layer: 0,
          })),
          ax.windows,
          !!app.focused,
        );
        window = infos[matchWindow(infos, scope)];
        const match = ax.windows.find((w) => sameBounds(w.bounds, window!.b)) ??
          ax.windows.find((w) => w.title === window!.title);
        if (!match) {
          throw new DesktopError(
            "WINDOW_NOT_FOUND",
            `window ${window.id} "${window.title}" has no accessible counterpart in ${app.name}`,
            { suggestion: "Run `desktop list --windows` again; the window may have closed" },
          );
        }
        root = match.ref;
      }
      const tree = readTree(s, root, {
        depth: opts.depth,
        bounds: opts.bounds ?? true,
        deadline,
        app: app.name,
        pid: app.pid,
      });
      if (!tree) {
        throw new DesktopError("APP_NOT_FOUND", `${app.name} went away while being read`, {
          suggestion: "Run `desktop list` to see running apps",
        });
      }
      return {
        app,
        ...(window ? { window } : {}),
        readAt: new Date().toISOString(),
        root: tree,
      };
    } finally {
      for (const w of ax.windows) w.ref[Symbol.dispose]();
    }
  }

  /** Carries out an action on an element of the last reads, or at a point. */
  act(
    scope: Scope,
    target: ActionTarget,
    action: Action,
    opts: ProviderActOptions = {},
  ): Promise<ActionResult> {
    try {
      const s = this.#open();
      const deadline = opts.deadline ?? Date.now() + s.timeoutMs;
      if ("point" in target) {
        // A point is global: bring the scoped app to the front so the point lands on it.
        if (scope.app !== undefined || scope.pid !== undefined) {
          using app = s.appElement(this.#resolve(s, scope).app.pid);
          s.set(app.ptr, "AXFrontmost", s.cf.boolean(true));
        }
        return Promise.resolve(actOnPoint(s, target.point, action, deadline));
      }
      const entry = s.nids.get(target.element.nid);
      if (!entry) {
        throw new DesktopError(
          "STALE_REF",
          "the element does not come from a read of this session",
          { suggestion: "Read the app again and act on a fresh ref" },
        );
      }
      const app = cgWindows(s).find((w) => w.pid === entry.pid)?.owner ?? `pid ${entry.pid}`;
      return Promise.resolve(
        actOnElement({ s, ref: entry.ref, pid: entry.pid, app }, action, deadline),
      );
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Calls `onChange` on AX notifications from the scoped app. */
  watch(scope: Scope, onChange: () => void): Promise<() => void> {
    try {
      const s = this.#open();
      const { app } = this.#resolve(s, scope);
      const stop = startWatch(s, app.pid, s.appElement(app.pid), onChange);
      const wrapped = () => {
        this.#watchers.delete(wrapped);
        stop();
      };
      this.#watchers.add(wrapped);
      return Promise.resolve(wrapped);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The pixels of a screen rectangle (CGWindowListCreateImage). */
  capture(rect?: Bounds): Promise<ScreenCapture> {
    return attempt(() => captureScreen(this.#open().libs, rect));
  }

  /** Window management through the window's AX element. */
  windowAction(win: WindowInfo, op: WindowOp, _timeoutMs: number): Promise<WindowState> {
    return attempt(() => macWindowAction(this.#open(), win, op));
  }

  /** The general pasteboard's text. */
  clipboardGet(): Promise<string> {
    return attempt(() => macClipboardGet(this.#open()));
  }

  /** Puts text on the general pasteboard. */
  clipboardSet(text: string): Promise<void> {
    return attempt(() => macClipboardSet(this.#open(), text));
  }

  /** Starts an app through LaunchServices (`open`), or a command. */
  startApp(spec: string): Promise<StartedApp> {
    return startMacApp(spec);
  }

  /** Asks an app to quit through its app menu's Quit item; 1 when pressed, 0 without one. */
  closeApp(pid: number): Promise<number> {
    return attempt(() => pressQuit(this.#open(), pid));
  }

  /** Whether a process still runs. */
  processRunning(pid: number): boolean {
    return macProcessRunning(pid);
  }

  /** SIGTERM, or SIGKILL with `force`. */
  endProcess(pid: number, force: boolean): void {
    macEndProcess(pid, force);
  }

  /** Stops watchers, restores AXEnhancedUserInterface, releases every reference. */
  close(): void {
    if (this.#s.closed) return;
    for (const stop of [...this.#watchers]) stop();
    restoreEnhanced(this.#s, this.#web);
    this.#s.close();
  }
}

/** An app without on-screen windows, if its pid answers AX. */
function probeApp(s: AxSession, pid: number): AppInfo | undefined {
  using el = s.appElement(pid);
  const { err, value } = s.read(el.ptr, "AXTitle");
  if (err !== 0) return undefined;
  return { name: typeof value === "string" && value ? value : `pid ${pid}`, pid, windows: 0 };
}

/** Runs synchronous work, turning a throw into a rejected promise. */
function attempt<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}
