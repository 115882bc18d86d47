/**
 * Apps and windows as wholes: launch an app and wait until it is on the
 * accessibility bus with a window, quit it through its own windows (or end
 * its process), and move, resize, raise, minimize, maximize, restore or close
 * a window. The backends provide the primitives; the waiting, the choice of
 * window and the error codes live here, once for every platform.
 *
 * @module
 */

import type { Desktop } from "../desktop_types.ts";
import { DesktopError } from "../errors.ts";
import type { AppInfo, WindowInfo } from "../model/element.ts";
import type { Provider, Scope, WindowOp, WindowState } from "../platform/provider.ts";
import type { Launched, Quit, WindowResult } from "./types.ts";
export type { Launched, Quit, WindowResult };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function missing(provider: Provider, what: string): DesktopError {
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `the ${provider.platform} backend cannot ${what}`,
    { suggestion: "Run on a live Linux (X11) or macOS desktop, not on a snapshot" },
  );
}

/**
 * Starts an app and returns once it is on the accessibility bus with at least
 * one window.
 *
 * @param desktop the session
 * @param spec app name, desktop file id / bundle id, or command
 * @param timeoutMs how long to wait for it to register
 * @returns the app, its windows and the command started
 * @throws DesktopError APP_NOT_FOUND for nothing to start, ACTION_FAILED when it
 *   exits at once, TIMEOUT when it does not register in time (it keeps running:
 *   the error carries its pid)
 */
export async function launchApp(
  desktop: Desktop,
  spec: string,
  timeoutMs: number,
): Promise<Launched> {
  const provider = desktop.provider;
  if (!provider.startApp) throw missing(provider, "launch apps");
  const started = await provider.startApp(spec);
  const deadline = Date.now() + timeoutMs;
  const byName = (a: AppInfo) =>
    !!started.name && a.name.toLowerCase() === started.name.toLowerCase();
  for (;;) {
    let apps: AppInfo[] = [];
    try {
      // Only apps on the bus: one listed as off it is still starting, or cannot be read.
      apps = (await provider.listApps()).filter((a) => !a.offBus);
    } catch {
      // the bus may be busy while the app registers: try again
    }
    const exited = started.exitCode();
    // A launcher that handed over to an already running instance exits at once with 0.
    const app = apps.find((a) => started.owns(a.pid)) ??
      (exited === 0 ? apps.find(byName) : undefined);
    if (app) {
      const windows = await provider.listWindows({ pid: app.pid }).catch(() => []);
      if (windows.length) return { app, windows, command: started.command };
    } else if (exited !== null && exited !== 0) {
      throw new DesktopError("ACTION_FAILED", `${started.command[0]} exited with code ${exited}`, {
        suggestion: "Run the command in a terminal to see why it fails",
        details: { command: started.command, code: exited },
      });
    }
    if (Date.now() >= deadline) {
      throw new DesktopError(
        "TIMEOUT",
        `${
          started.command[0]
        } did not show a window on the accessibility bus within ${timeoutMs} ms`,
        {
          suggestion: "It may still be starting (run list), or it has no accessibility support; " +
            `end it with \`desktop quit --pid ${started.pid} --force\``,
          details: { pid: started.pid, command: started.command },
        },
      );
    }
    await sleep(200);
  }
}

/**
 * Quits an app: asks each of its windows to close, as its close button does,
 * and waits for the process to exit; with `force`, ends the process (SIGTERM,
 * then SIGKILL after a grace period).
 *
 * @param desktop the session
 * @param scope which app
 * @param opts force, and the deadline
 * @returns the app and how it was ended
 * @throws DesktopError APP_NOT_FOUND, ACTION_NOT_SUPPORTED (no window to close),
 *   TIMEOUT when it is still running (it may be asking to save changes)
 */
export async function quitApp(
  desktop: Desktop,
  scope: Scope,
  opts: { force?: boolean; timeoutMs: number },
): Promise<Quit> {
  const provider = desktop.provider;
  if (!provider.processRunning || !provider.endProcess || !provider.closeApp) {
    throw missing(provider, "quit apps");
  }
  const running = provider.processRunning.bind(provider);
  const deadline = Date.now() + opts.timeoutMs;
  let app: AppInfo;
  try {
    app = (await provider.read(scope, { depth: 0, bounds: false })).app;
  } catch (e) {
    const pid = opts.force ? forcePid(e, scope, running) : undefined;
    if (pid === undefined) throw e;
    const name = e instanceof DesktopError && typeof e.details?.app === "string"
      ? e.details.app
      : `process ${pid}`;
    app = { name, pid };
  }
  const gone = async (ms: number) => {
    const until = Date.now() + ms;
    while (running(app.pid)) {
      if (Date.now() >= until) return false;
      await sleep(50);
    }
    return true;
  };
  if (opts.force) {
    provider.endProcess(app.pid, false);
    // The grace period leaves room for SIGKILL within the deadline.
    const grace = Math.min(FORCE_GRACE_MS, Math.max(0, (deadline - Date.now()) / 2));
    if (!(await gone(grace))) {
      provider.endProcess(app.pid, true);
      if (!(await gone(Math.max(KILL_WAIT_MS, deadline - Date.now())))) {
        throw new DesktopError("ACTION_FAILED", `process ${app.pid} survived SIGKILL`, {
          suggestion: "It may be stuck in the kernel (uninterruptible I/O); try again later",
          details: { pid: app.pid },
        });
      }
    }
    return { app, via: "signal" };
  }
  const asked = await provider.closeApp(app.pid);
  if (asked === 0) {
    throw new DesktopError("ACTION_NOT_SUPPORTED", `${app.name} has no window to ask to close`, {
      suggestion: `Use its own quit menu item, or \`desktop quit --pid ${app.pid} --force\``,
    });
  }
  if (!(await gone(opts.timeoutMs))) {
    throw new DesktopError(
      "TIMEOUT",
      `${app.name} is still running after its windows were asked to close`,
      {
        suggestion:
          "It may be asking to save changes: read it and answer its dialog, or use --force",
        details: { pid: app.pid },
      },
    );
  }
  return { app, via: "windows" };
}

/** Longest wait for a process to end on SIGTERM before SIGKILL. */
const FORCE_GRACE_MS = 2000;
/** Shortest wait for a process to end on SIGKILL, even past the deadline. */
const KILL_WAIT_MS = 500;

/**
 * The process `quit --force` may end although the app could not be read: a
 * hung app (APP_UNRESPONSIVE names its pid), or `--pid` of a process that
 * never reached the bus (a launch that timed out) or stopped answering.
 */
function forcePid(
  e: unknown,
  scope: Scope,
  running: (pid: number) => boolean,
): number | undefined {
  if (!(e instanceof DesktopError)) return undefined;
  if (e.code === "APP_UNRESPONSIVE") {
    const pid = typeof e.details?.pid === "number" ? e.details.pid : scope.pid;
    return pid !== undefined && running(pid) ? pid : undefined;
  }
  // --pid --force also ends a process that never reached the bus.
  const offBus = e.code === "APP_NOT_FOUND" && scope.pid !== undefined &&
    scope.app === undefined && running(scope.pid);
  return offBus ? scope.pid : undefined;
}

/**
 * The window a scope means: the one matched by --window/--window-id, else the
 * app's focused window, else its first.
 */
async function windowOf(desktop: Desktop, scope: Scope): Promise<WindowInfo> {
  const wins = await desktop.listWindows(scope);
  const win = wins.find((w) => w.focused) ?? wins[0];
  if (!win) {
    throw new DesktopError("WINDOW_NOT_FOUND", "the app has no window", {
      suggestion: "Check `desktop list --windows`",
    });
  }
  return win;
}

/**
 * Carries out window operations in order (restore before move and resize,
 * raise last), each checked on the window itself.
 *
 * @param desktop the session
 * @param scope the app and/or window
 * @param ops what to do
 * @param timeoutMs deadline for each operation's effect
 * @returns the window and its final state
 * @throws DesktopError INVALID_ARGS without operations, WINDOW_NOT_FOUND,
 *   ACTION_NOT_SUPPORTED (e.g. a window that cannot be resized), ACTION_FAILED
 */
export async function windowCommand(
  desktop: Desktop,
  scope: Scope,
  ops: readonly WindowOp[],
  timeoutMs: number,
): Promise<WindowResult> {
  const provider = desktop.provider;
  if (!provider.windowAction) throw missing(provider, "manage windows");
  if (ops.length === 0) {
    throw new DesktopError("INVALID_ARGS", "no window operation given", {
      suggestion:
        "Pass --move X,Y, --resize W,H, --raise, --minimize, --maximize, --restore or --close",
    });
  }
  const window = await windowOf(desktop, scope);
  let state: WindowState = {};
  for (const op of orderWindowOps(ops)) state = await provider.windowAction(window, op, timeoutMs);
  return { window, state };
}

/** Order in which several operations given at once are applied. */
const OP_ORDER: readonly WindowOp["kind"][] = [
  "restore",
  "maximize",
  "move",
  "resize",
  "minimize",
  "raise",
  "close",
];

/**
 * Sorts window operations into the order they are applied.
 *
 * @param ops operations in any order
 * @returns the same operations, restore first and close last
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { orderWindowOps } from "./apps.ts";
 * const ops = orderWindowOps([{ kind: "raise" }, { kind: "move", x: 1, y: 2 }]);
 * assert.deepEqual(ops.map((o) => o.kind), ["move", "raise"]);
 * ```
 */
export function orderWindowOps(ops: readonly WindowOp[]): WindowOp[] {
  return [...ops].sort((a, b) => OP_ORDER.indexOf(a.kind) - OP_ORDER.indexOf(b.kind));
}
