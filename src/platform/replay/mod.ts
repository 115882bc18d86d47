/**
 * The replay backend: serves a saved snapshot as if it were a live app.
 * Reading, finding and resolving work; actions do not (a snapshot is
 * read-only).
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
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

/** Case-insensitive exact app name, else substring; pid must agree when given. */
function appMatches(app: AppInfo, scope: Scope): boolean {
  if (scope.pid !== undefined && scope.pid !== app.pid) return false;
  if (scope.app === undefined) return true;
  const want = scope.app.toLowerCase(), have = app.name.toLowerCase();
  return have === want || have.includes(want);
}

function pickWindow(windows: ReplayWindow[], scope: Scope): ReplayWindow {
  const hits = windows.filter((w) =>
    (scope.windowId === undefined || w.info.id === scope.windowId) &&
    (scope.window === undefined ||
      w.info.title.toLowerCase().includes(scope.window.toLowerCase()))
  );
  if (hits.length === 1) return hits[0];
  const wanted = scope.windowId !== undefined ? `id ${scope.windowId}` : `"${scope.window}"`;
  throw new DesktopError(
    hits.length ? "AMBIGUOUS_TARGET" : "WINDOW_NOT_FOUND",
    hits.length ? `${hits.length} windows match ${wanted}` : `no window matches ${wanted}`,
    {
      suggestion: "Run `desktop list --windows` and pass --window-id",
      candidates: (hits.length ? hits : windows).map((w) => ({
        i: w.info.id,
        r: "window",
        t: w.info.title,
      })),
    },
  );
}
