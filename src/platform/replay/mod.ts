/**
 * The replay backend: serves a saved snapshot as if it were a live app.
 * Reading, finding and resolving work; actions do not (a snapshot is
 * read-only).
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { appMatches, matchWindow } from "../../model/scope.ts";
import type { AppInfo, Element, Snapshot, WindowInfo } from "../../model/element.ts";
import type {
  Action,
  ActionResult,
  ActionTarget,
  Provider,
  ProviderOptions,
  ReadOptions,
  Scope,
} from "../provider.ts";
import { readSnapshotFile } from "./snapshot_file.ts";

export { readSnapshotFile, snapshotToText } from "./snapshot_file.ts";

/**
 * Opens a snapshot file as a provider (read through the bounded reader: see
 * {@link readSnapshotFile}).
 *
 * @param path the snapshot file
 * @param opts provider options: reading the file must end by the deadline
 * @returns the replay provider
 * @throws DesktopError SNAPSHOT_INVALID for a missing or bad file, TIMEOUT past the deadline
 *
 * @example
 * ```ts ignore
 * import { openReplayProvider } from "./mod.ts";
 * const p = await openReplayProvider("tests/fixtures/browser_form.json", { timeoutMs: 1000 });
 * console.log((await p.read({})).app.name); // "Chromium"
 * ```
 */
export async function openReplayProvider(
  path: string,
  opts: ProviderOptions,
): Promise<Provider> {
  const deadline = opts.deadline ?? Date.now() + opts.timeoutMs;
  return createReplayProvider(await readSnapshotFile(path, { deadline }), path);
}

/**
 * A provider over a snapshot already in memory.
 *
 * @param snapshot the snapshot to serve (copied on every read)
 * @param source name used in messages
 * @returns the replay provider
 */
export function createReplayProvider(snapshot: Snapshot, source = "snapshot"): Provider {
  const windows = windowsOf(snapshot);

  function checkApp(scope: Scope): void {
    if (!appMatches(snapshot.app, scope)) {
      const wanted = scope.app !== undefined ? `"${scope.app}"` : `pid ${scope.pid}`;
      throw new DesktopError(
        "APP_NOT_FOUND",
        `the snapshot ${source} holds ${snapshot.app.name} (pid ${snapshot.app.pid}), not ${wanted}`,
        {
          suggestion: `Drop --app/--pid or pass --app "${snapshot.app.name}"`,
          candidates: [{ name: snapshot.app.name, pid: snapshot.app.pid }],
        },
      );
    }
  }

  return {
    platform: "replay",
    listApps(): Promise<AppInfo[]> {
      return Promise.resolve([{ ...snapshot.app, windows: windows.length }]);
    },
    listWindows(scope: Scope = {}): Promise<WindowInfo[]> {
      try {
        checkApp(scope);
        return Promise.resolve(windows.map((w) => w.info));
      } catch (err) {
        return Promise.reject(err);
      }
    },
    read(scope: Scope, _opts?: ReadOptions): Promise<Snapshot> {
      try {
        checkApp(scope);
        if (scope.window === undefined && scope.windowId === undefined) {
          return Promise.resolve(structuredClone(snapshot));
        }
        const w = pickWindow(windows, scope);
        return Promise.resolve({
          app: structuredClone(snapshot.app),
          window: { ...w.info },
          readAt: snapshot.readAt,
          root: structuredClone(w.el),
        });
      } catch (err) {
        return Promise.reject(err);
      }
    },
    act(_scope: Scope, _target: ActionTarget, action: Action): Promise<ActionResult> {
      return Promise.reject(
        new DesktopError(
          "PLATFORM_NOT_SUPPORTED",
          `cannot ${action.kind}: ${source} is a saved snapshot, which is read-only`,
          {
            suggestion:
              "Drop --from to act on the live app; read, find and ref resolution work on snapshots",
          },
        ),
      );
    },
    close(): void {},
  };
}

interface ReplayWindow {
  info: WindowInfo;
  el: Element;
}

/** The snapshot's windows: the root itself when it is one, else the root's window children. */
function windowsOf(snapshot: Snapshot): ReplayWindow[] {
  const { app, root } = snapshot;
  if (root.r === "window" || root.r === "dialog") {
    const info: WindowInfo = snapshot.window ??
      { id: 1, title: root.t ?? "", app: app.name, pid: app.pid, ...(root.b ? { b: root.b } : {}) };
    return [{ info, el: root }];
  }
  return (root.c ?? [])
    .filter((el) => el.r === "window" || el.r === "dialog")
    .map((el, k) => ({
      el,
      info: {
        id: k + 1,
        title: el.t ?? "",
        app: app.name,
        pid: app.pid,
        ...(el.b ? { b: el.b } : {}),
        ...(el.f ? { focused: true } : {}),
      },
    }));
}

/** The window a scope names, by the one scope matcher (id, else title: exact, then unique part). */
function pickWindow(windows: ReplayWindow[], scope: Scope): ReplayWindow {
  return windows[matchWindow(windows.map((w) => w.info), scope)];
}
