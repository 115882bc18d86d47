/**
 * `screenshot`: the screen, a window or one element as PNG, optionally
 * scaled down, optionally with marks (each interactive element's box with its
 * id and ref) so what the agent sees maps to what it can target.
 *
 * The backend only hands out pixels of a screen rectangle; choosing the
 * rectangle, scaling, marking and encoding happen here, once for every
 * platform.
 *
 * @module
 */

import type { Desktop, Target } from "../desktop_types.ts";
import { DesktopError } from "../errors.ts";
import type { Bounds, Element, Point, Snapshot, WindowInfo } from "../model/element.ts";
import { INTERACTIVE_ROLES } from "../model/roles.ts";
import { scaleImage } from "../output/image.ts";
import { drawMarks, type Mark, marksOf } from "../output/marks.ts";
import { encodePng } from "../output/png.ts";
import { writePrivateFile } from "../io/private_write.ts";
import type { Scope } from "../platform/provider.ts";
import type { Screenshot, ScreenshotRequest } from "./types.ts";
export type { Screenshot, ScreenshotRequest };

function hasScope(s: Scope): boolean {
  return s.app !== undefined || s.pid !== undefined || s.window !== undefined ||
    s.windowId !== undefined;
}

function hasTarget(t: Target | undefined): t is Target {
  return !!t && (t.ref !== undefined || t.id !== undefined || t.text !== undefined);
}

/** The window a scope names: the one matched, else the app's focused one, else its first. */
async function windowOf(desktop: Desktop, scope: Scope): Promise<WindowInfo> {
  const wins = (await desktop.listWindows(scope)).filter((w) => w.b && w.b[2] > 0 && w.b[3] > 0);
  const win = wins.find((w) => w.focused) ?? wins[0];
  if (!win) {
    throw new DesktopError("WINDOW_NOT_FOUND", "the app has no window on screen to capture", {
      suggestion: "Check `desktop list --windows`; raise or restore the window first",
    });
  }
  return win;
}

/**
 * What to add to the boxes of a window and its elements to place them on
 * the captured screen (see `Provider.windowOrigin`). Where the platform
 * cannot say (a Wayland compositor that tells no client where a window
 * is), PLATFORM_NOT_SUPPORTED: nothing is cropped or marked at a guessed
 * place.
 */
async function originOf(desktop: Desktop, scope: Scope, win?: WindowInfo): Promise<Point> {
  const provider = desktop.provider;
  if (!provider.windowOrigin) return { x: 0, y: 0 };
  let w = win;
  const window = async () => w ??= await windowOf(desktop, scope);
  const origin = await provider.windowOrigin(window);
  if (origin) return origin;
  throw new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `the place of window "${
      (await window()).title
    }" on screen is unknown: its app's boxes are relative to ` +
      "the window, and this Wayland compositor does not tell a client where a window is",
    {
      suggestion: "Take the whole screen (desktop screenshot with no --app, --window, --ref or " +
        "--marks), or read the tree",
    },
  );
}

/** The scope of the top-level window that holds an element of a read (its app, and its title). */
function windowScopeOf(snapshot: Snapshot, element: Element): Scope {
  const app = { pid: snapshot.app.pid };
  const holds = (el: Element): boolean => el.i === element.i || (el.c ?? []).some(holds);
  const top = (snapshot.root.c ?? []).find(holds);
  return top?.t ? { ...app, window: top.t } : app;
}

function shifted(b: Bounds, o: Point): Bounds {
  return [b[0] + o.x, b[1] + o.y, b[2], b[3]];
}

/**
 * Takes a screenshot: of one element when a target is given, else of the
 * scoped app's window, else of the whole screen.
 *
 * @param desktop the session
 * @param scope app or window (empty: the whole screen)
 * @param req target, scale, marks
 * @returns the PNG and what it shows
 * @throws DesktopError INVALID_ARGS for a bad scale, PLATFORM_NOT_SUPPORTED when the
 *   backend cannot capture, ELEMENT_NOT_FOUND / WINDOW_NOT_FOUND for a missing target
 */
export async function takeScreenshot(
  desktop: Desktop,
  scope: Scope,
  req: ScreenshotRequest = {},
): Promise<Screenshot> {
  const factor = req.scale ?? 1;
  if (!(factor > 0 && factor <= 1)) {
    throw new DesktopError("INVALID_ARGS", `scale must be above 0 and at most 1, got ${factor}`, {
      suggestion: "Pass e.g. --scale 0.5 for half the size",
    });
  }
  const provider = desktop.provider;
  if (!provider.capture) {
    throw new DesktopError(
      "PLATFORM_NOT_SUPPORTED",
      `the ${provider.platform} backend cannot take screenshots`,
      { suggestion: "Take screenshots of a live desktop (Linux X11 or macOS), not a snapshot" },
    );
  }
  let rect: Bounds | undefined;
  let of: Screenshot["of"] = "screen";
  let window: WindowInfo | undefined;
  let element: Element | undefined;
  let origin: Point | undefined;
  if (hasTarget(req.target)) {
    const { snapshot, results: [got] } = await desktop.resolveMany(scope, [req.target]);
    if (got instanceof DesktopError) throw got;
    element = got;
    if (!element.b || element.b[2] <= 0 || element.b[3] <= 0) {
      throw new DesktopError("ELEMENT_NOT_FOUND", "the element has no box on screen", {
        suggestion: "Scroll it into view (desktop scroll --ref ...) or capture its window",
      });
    }
    // The boxes of what is read are where the app says: on Wayland, within its window (the one
    // that holds the element, not the app's focused one).
    origin = await originOf(desktop, windowScopeOf(snapshot, element));
    rect = shifted(element.b, origin);
    of = "element";
  } else if (hasScope(scope)) {
    window = await windowOf(desktop, scope);
    origin = await originOf(desktop, scope, window);
    rect = shifted(window.b!, origin);
    of = "window";
  }
  let marks: Mark[] = [];
  if (req.marks && !origin) origin = await originOf(desktop, scope);
  const capture = await provider.capture(rect);
  // The capture's region in the boxes' own coordinates.
  const region = origin ? shifted(capture.region, { x: -origin.x, y: -origin.y }) : capture.region;
  if (req.marks) {
    // The captured window's app, read whole: boxes outside the region are dropped below.
    const markScope = window ? { pid: window.pid } : scope;
    const { view } = await desktop.read(markScope, { roles: INTERACTIVE_ROLES });
    marks = view.root ? marksOf(view.root, region) : [];
  }
  const image = scaleImage(capture.image, factor);
  const scale = capture.scale * (image.width / capture.image.width);
  if (marks.length) {
    drawMarks(image, marks, { x: region[0], y: region[1], scale });
  }
  return {
    png: await encodePng(image),
    width: image.width,
    height: image.height,
    region: capture.region,
    scale,
    of,
    ...(window ? { window } : {}),
    ...(element ? { element } : {}),
    marks,
  };
}

/**
 * Writes a screenshot's PNG to the file `--out` names, private to the user
 * (0600) and replaced whole.
 *
 * @param path the file
 * @param png the PNG bytes
 * @throws DesktopError INVALID_ARGS when the path is a directory (or a device,
 *   or a pipe) or cannot be written, as for a bad `--save` path
 */
export async function saveScreenshot(path: string, png: Uint8Array): Promise<void> {
  await writePrivateFile(path, png, "--out");
}
