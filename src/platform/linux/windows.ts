/**
 * Window management on X11: find the X window behind an accessible window
 * (by process id, title and box), then move, resize, raise, minimize,
 * maximize, restore or close it. With a window manager the EWMH/ICCCM
 * requests go through it; without one (a bare Xvfb) the window is configured
 * directly: minimize unmaps it, maximize fills the screen and remembers the
 * old box in a property of the window so restore can put it back.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { SIZE_HINTS, X_EVENT, X_MASK, XEVENT_SIZE } from "../../ffi/x11.ts";
import type { Bounds, Element, WindowInfo } from "../../model/element.ts";
import type { WindowOp, WindowState } from "../provider.ts";
import { shiftBoxes } from "./convert.ts";
import { X11 } from "./x11.ts";
import { waylandSession } from "./wayland/mod.ts";

/**
 * The error for a window operation in a Wayland session without an X
 * display: only the compositor places, sizes and closes windows, and it
 * gives no client a way to ask.
 */
function windowOpOnWayland(op: string): DesktopError | null {
  const s = waylandSession();
  if (!s) return null;
  const who = s.compositor === "mutter"
    ? "GNOME's mutter"
    : s.compositor === "kde"
    ? "KDE's KWin"
    : s.compositor === "wlroots"
    ? "this wlroots compositor"
    : "this Wayland compositor";
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `cannot ${op} a window on ${who} (Wayland display ${s.display}): only the compositor ` +
      "places, sizes and closes windows, and it gives this tool no way to ask",
    {
      suggestion: "Use the app's own controls by ref (its close button or menu), or run the " +
        "app under X11 or Xwayland (DISPLAY set)",
      details: { compositor: s.compositor, wayland: s.display },
    },
  );
}

/** Property where a maximize without a window manager keeps the box to restore. */
const RESTORE_PROPERTY = "_DESKTOP_RESTORE_GEOMETRY";

/** `WM_STATE` value of an iconified window (ICCCM). */
const ICONIC_STATE = 3n;

/** A client window of an app: its X id, title, box on the screen, and whether it is mapped. */
export interface Client {
  /** The X window id. */
  win: bigint;
  /** `_NET_WM_NAME`, else `WM_NAME`. */
  title: string;
  /** Its box on the screen. */
  b: Bounds;
  /** Whether it is mapped and viewable. */
  viewable: boolean;
  /** `_GTK_FRAME_EXTENTS` (left, right, top, bottom): the shadow around what the app calls its window. */
  frame?: number[];
}

/** Whether a window manager runs (EWMH: `_NET_SUPPORTING_WM_CHECK` on the root). */
function hasWindowManager(x: X11): boolean {
  return x.longs(x.root, "_NET_SUPPORTING_WM_CHECK").length > 0;
}

/** The top-level client windows of a process (`_NET_WM_PID`), managed or not. */
function clientsOf(x: X11, pid: number): Client[] {
  const managed = x.longs(x.root, "_NET_CLIENT_LIST");
  const pool = managed.length ? managed : x.children(x.root);
  const out: Client[] = [];
  for (const win of pool) {
    const pids = x.longs(win, "_NET_WM_PID");
    if (pids.length === 0 || Number(pids[0]) !== pid) continue;
    const geo = x.geometry(win);
    if (!geo) continue;
    const title = x.text(win, "_NET_WM_NAME") || x.text(win, "WM_NAME");
    // Unmapped helper windows (GTK's leader window) carry no WM_PROTOCOLS.
    if (!x.property(win, "WM_PROTOCOLS") && !geo.viewable) continue;
    out.push({ win, title, b: geo.b, viewable: geo.viewable });
  }
  return out;
}

/** EWMH window types of the surfaces a toolkit opens over its windows (menus, popovers). */
const POPUP_TYPES = [
  "_NET_WM_WINDOW_TYPE_MENU",
  "_NET_WM_WINDOW_TYPE_POPUP_MENU",
  "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU",
  "_NET_WM_WINDOW_TYPE_COMBO",
];

/**
 * Where an app's popup surfaces lie on the screen: its viewable top-level X
 * windows whose type says menu or popup (a GTK 4 popover is one, of its own
 * size, placed by the toolkit). None without an X display.
 *
 * @param pid the app's process
 * @returns their boxes
 */
export function popupSurfaces(pid: number): Bounds[] {
  let x: X11;
  try {
    x = X11.shared();
  } catch {
    return []; // no X display
  }
  const types = new Set(POPUP_TYPES.map((t) => x.atom(t)));
  const out: Bounds[] = [];
  for (const win of x.children(x.root)) {
    const pids = x.longs(win, "_NET_WM_PID");
    if (pids.length === 0 || Number(pids[0]) !== pid) continue;
    if (!x.longs(win, "_NET_WM_WINDOW_TYPE").some((t) => types.has(t))) continue;
    const geo = x.geometry(win);
    if (geo?.viewable) out.push(geo.b);
  }
  return out;
}

/** How far (px) a popup's box as the app reports it may be from its window's size. */
const POPUP_SIZE_SLACK = 12;
/** How far (px) from where a popup shows the app may report it (GTK 4: its owner's place). */
const POPUP_PLACE_SLACK = 120;

/** Where a box the app reports shows on screen: in a popup surface, moved by `delta`. */
export interface PopupPlace {
  /** What to add to the box, and to every box inside it. */
  delta: [number, number];
  /** The popup surface's box on the screen. */
  surface: Bounds;
  /** How far its size is from the surface's (px): the smaller, the surer. */
  off: number;
}

/**
 * The popup surface an element's reported box stands for: one of the app's
 * popup windows ({@link popupSurfaces}) of its size, within a few pixels,
 * near its reported place. GTK 4 on X11 reports a popover as if it sat at
 * its owner, tens of pixels from its window: the window tells where it is.
 *
 * @param surfaces the app's popup windows on the screen
 * @param box the element's box as the app reports it
 * @returns where it shows, or null when no popup window is it
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { popupPlace } from "./windows.ts";
 * // A drop-down's popover reported at its button, shown 26 px lower (with its shadow).
 * const place = popupPlace([[17, 171, 191, 414]], [20, 145, 191, 408]);
 * assert.deepEqual(place?.delta, [-3, 26]);
 * assert.equal(popupPlace([[17, 171, 191, 414]], [20, 145, 400, 300]), null);
 * assert.equal(popupPlace([[600, 500, 191, 414]], [20, 145, 191, 408]), null);
 * ```
 */
export function popupPlace(surfaces: readonly Bounds[], box: Bounds): PopupPlace | null {
  let best: PopupPlace | null = null;
  for (const s of surfaces) {
    const off = Math.max(Math.abs(s[2] - box[2]), Math.abs(s[3] - box[3]));
    const delta: [number, number] = [s[0] - box[0], s[1] - box[1]];
    if (off > POPUP_SIZE_SLACK || Math.max(...delta.map(Math.abs)) > POPUP_PLACE_SLACK) continue;
    if (!best || off < best.off) best = { delta, surface: s, off };
  }
  return best;
}

/**
 * Moves the boxes of each popover a read holds to where its popup window
 * shows ({@link popupPlace}): the outermost part of a window whose box is a
 * popup window's, each popup window once. Boxes of the windows themselves
 * stay.
 *
 * @param root the app (or one window) as read, boxes on the screen as reported
 * @param surfaces the app's popup windows on the screen ({@link popupSurfaces})
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { placePopups } from "./windows.ts";
 * import type { Element } from "../../model/element.ts";
 * const item: Element = { i: 4, r: "listitem", b: [32, 164, 167, 16] };
 * const popover: Element = { i: 3, r: "group", b: [20, 145, 191, 408], c: [item] };
 * const root: Element = { i: 1, r: "app", c: [{ i: 2, r: "window", b: [0, 0, 408, 315], c: [popover] }] };
 * placePopups(root, [[17, 171, 191, 414]]);
 * assert.deepEqual(item.b, [29, 190, 167, 16]);
 * assert.deepEqual(root.c![0].b, [0, 0, 408, 315]);
 * ```
 */
export function placePopups(root: Element, surfaces: readonly Bounds[]): void {
  const left = [...surfaces];
  const visit = (el: Element): void => {
    const place = el.b && left.length ? popupPlace(left, el.b) : null;
    if (place) {
      shiftBoxes(el, place.delta[0], place.delta[1]);
      left.splice(left.indexOf(place.surface), 1);
      return;
    }
    for (const c of el.c ?? []) visit(c);
  };
  for (const w of root.r === "app" ? root.c ?? [] : [root]) for (const c of w.c ?? []) visit(c);
}

/**
 * The processes that show a window on the X display: the `_NET_WM_PID` of
 * every viewable top-level client window (managed or not).
 *
 * @returns the pids, each once; none without an X display
 */
export function pidsWithWindows(): number[] {
  let x: X11;
  try {
    x = X11.open();
  } catch {
    return []; // no X display: Wayland, or none
  }
  using _ = x;
  const managed = x.longs(x.root, "_NET_CLIENT_LIST");
  const pids = new Set<number>();
  for (const win of managed.length ? managed : x.children(x.root)) {
    const pid = x.longs(win, "_NET_WM_PID")[0];
    if (pid === undefined || pids.has(Number(pid))) continue;
    if (x.geometry(win)?.viewable) pids.add(Number(pid));
  }
  return [...pids];
}

/** The X window that shows an accessible window: same title, else the nearest box. */
function clientFor(x: X11, info: WindowInfo): Client {
  const clients = clientsOf(x, info.pid);
  if (clients.length === 0) {
    throw new DesktopError("WINDOW_NOT_FOUND", `no X11 window of ${info.app} (pid ${info.pid})`, {
      suggestion: "The app may draw through Wayland or have closed the window; run list --windows",
    });
  }
  const distance = (c: Client) =>
    info.b ? c.b.reduce((s, v, i) => s + Math.abs(v - info.b![i]), 0) : 0;
  const titled = clients.filter((c) => info.title && c.title === info.title);
  const pool = titled.length ? titled : clients;
  return pool.reduce((best, c) =>
    (c.viewable !== best.viewable ? c.viewable : distance(c) < distance(best)) ? c : best
  );
}

/** Sends a 32-bit client message to the root window (how EWMH requests reach the WM). */
function clientMessage(x: X11, win: bigint, type: string, data: bigint[], to = x.root): void {
  const ev = new Uint8Array(XEVENT_SIZE);
  const v = new DataView(ev.buffer);
  v.setInt32(0, X_EVENT.ClientMessage, true);
  v.setInt32(16, 1, true); // send_event
  v.setBigUint64(32, win, true); // window
  v.setBigUint64(40, x.atom(type), true); // message_type
  v.setInt32(48, 32, true); // format
  data.slice(0, 5).forEach((d, i) => v.setBigUint64(56 + i * 8, d, true));
  const mask = to === x.root ? X_MASK.SubstructureRedirect | X_MASK.SubstructureNotify : 0n;
  x.x.XSendEvent(x.dpy, to, 0, mask, ev);
}

/** Raises a window and gives it the keyboard focus (through the window manager when there is one). */
function activate(x: X11, c: Client, wm: boolean): void {
  if (wm) clientMessage(x, c.win, "_NET_ACTIVE_WINDOW", [2n, 0n, 0n]);
  else {
    x.x.XMapRaised(x.dpy, c.win);
    x.takeError();
    x.x.XSetInputFocus(x.dpy, c.win, 2, 0n);
  }
}

/** Min and max sizes from WM_NORMAL_HINTS (0 when not set). */
function sizeLimits(x: X11, win: bigint): { min: [number, number]; max: [number, number] } {
  const hints = new Uint8Array(SIZE_HINTS.size);
  const supplied = new BigInt64Array(1);
  const none = { min: [0, 0] as [number, number], max: [0, 0] as [number, number] };
  if (!x.x.XGetWMNormalHints(x.dpy, win, hints, new Uint8Array(supplied.buffer))) return none;
  const v = new DataView(hints.buffer);
  const flags = Number(v.getBigInt64(SIZE_HINTS.flags, true));
  return {
    min: flags & SIZE_HINTS.PMinSize
      ? [v.getInt32(SIZE_HINTS.minWidth, true), v.getInt32(SIZE_HINTS.minHeight, true)]
      : none.min,
    max: flags & SIZE_HINTS.PMaxSize
      ? [v.getInt32(SIZE_HINTS.maxWidth, true), v.getInt32(SIZE_HINTS.maxHeight, true)]
      : none.max,
  };
}

function state(x: X11, c: Client): WindowState {
  const geo = x.geometry(c.win);
  const wmState = x.longs(c.win, "WM_STATE");
  const netState = x.longs(c.win, "_NET_WM_STATE");
  const maxV = x.atom("_NET_WM_STATE_MAXIMIZED_VERT");
  return {
    ...(geo ? { b: geo.b } : {}),
    minimized: geo ? !geo.viewable || wmState[0] === ICONIC_STATE : false,
    maximized: netState.includes(maxV) || x.longs(c.win, RESTORE_PROPERTY).length === 4,
    exists: geo !== null,
  };
}

/**
 * Polls the window until `done` holds for its state or the deadline passes.
 *
 * @returns the last state and whether `done` held
 */
async function settle(
  x: X11,
  c: Client,
  done: (s: WindowState) => boolean,
  deadline: number,
): Promise<{ s: WindowState; ok: boolean }> {
  for (;;) {
    x.takeError(); // a round trip: the server has applied every request
    const s = state(x, c);
    if (done(s)) return { s, ok: true };
    if (Date.now() >= deadline) return { s, ok: false };
    await new Promise((r) => setTimeout(r, 50));
  }
}

const same = (a: number, b: number) => Math.abs(a - b) <= 1;

/**
 * Carries out one window operation and waits until the window shows it.
 *
 * @param info the window (from listWindows)
 * @param op what to do
 * @param timeoutMs how long to wait for the effect
 * @returns the window's state afterwards
 * @throws DesktopError ACTION_NOT_SUPPORTED (a fixed-size window, close without
 *   WM_DELETE_WINDOW), ACTION_FAILED when the window did not change in time
 */
export async function windowAction(
  info: WindowInfo,
  op: WindowOp,
  timeoutMs: number,
): Promise<WindowState> {
  const wayland = windowOpOnWayland(op.kind);
  if (wayland) throw wayland;
  using x = X11.open();
  const c = clientFor(x, info);
  const wm = hasWindowManager(x);
  const deadline = Date.now() + Math.min(timeoutMs, 5000);
  const fail = (what: string, s: WindowState) =>
    new DesktopError("ACTION_FAILED", `the window did not ${what}`, {
      suggestion: wm
        ? "The window manager refused; try --restore first, or check the app's own limits"
        : "The app refused the request; check the window's limits",
      details: { window: info.title, state: s },
    });
  switch (op.kind) {
    case "move": {
      x.x.XMoveWindow(x.dpy, c.win, op.x, op.y);
      // A window manager may add its frame's offset: any move counts there.
      const moved = (s: WindowState) =>
        !!s.b && (same(s.b[0], op.x) && same(s.b[1], op.y) ||
          wm && (s.b[0] !== c.b[0] || s.b[1] !== c.b[1]));
      const r = await settle(x, c, moved, deadline);
      if (!r.ok) throw fail(`move to ${op.x},${op.y}`, r.s);
      return r.s;
    }
    case "resize": {
      const { min, max } = sizeLimits(x, c.win);
      if (max[0] > 0 && min[0] === max[0] && min[1] === max[1]) {
        throw new DesktopError(
          "ACTION_NOT_SUPPORTED",
          `the window "${info.title}" cannot be resized`,
          {
            suggestion: "Its size is fixed by the app (minimum = maximum size); move it instead",
            details: { size: min },
          },
        );
      }
      const tooSmall = op.w < min[0] || op.h < min[1];
      const tooBig = max[0] > 0 && (op.w > max[0] || op.h > max[1]);
      if (tooSmall || tooBig) {
        throw new DesktopError(
          "ACTION_NOT_SUPPORTED",
          `the window "${info.title}" cannot be ${op.w}x${op.h}`,
          {
            suggestion: `Its size must be at least ${min[0]}x${min[1]}` +
              (max[0] > 0 ? ` and at most ${max[0]}x${max[1]}` : ""),
            details: { min, ...(max[0] > 0 ? { max } : {}) },
          },
        );
      }
      x.x.XResizeWindow(x.dpy, c.win, op.w, op.h);
      const r = await settle(
        x,
        c,
        (s) => !!s.b && same(s.b[2], op.w) && same(s.b[3], op.h),
        deadline,
      );
      if (!r.ok) throw fail(`resize to ${op.w}x${op.h}`, r.s);
      return r.s;
    }
    case "raise": {
      activate(x, c, wm);
      return (await settle(x, c, () => true, deadline)).s;
    }
    case "minimize": {
      if (wm) x.x.XIconifyWindow(x.dpy, c.win, x.screen);
      else x.x.XUnmapWindow(x.dpy, c.win);
      const r = await settle(x, c, (s) => !!s.minimized, deadline);
      if (!r.ok) throw fail("minimize", r.s);
      return r.s;
    }
    case "maximize": {
      const { min, max } = sizeLimits(x, c.win);
      if (max[0] > 0 && min[0] === max[0] && min[1] === max[1]) {
        throw new DesktopError(
          "ACTION_NOT_SUPPORTED",
          `the window "${info.title}" cannot be maximized`,
          {
            suggestion: "Its size is fixed by the app (minimum = maximum size); move it instead",
            details: { size: min },
          },
        );
      }
      if (wm) {
        clientMessage(x, c.win, "_NET_WM_STATE", [
          1n,
          x.atom("_NET_WM_STATE_MAXIMIZED_VERT"),
          x.atom("_NET_WM_STATE_MAXIMIZED_HORZ"),
          2n,
        ]);
      } else {
        const { width, height } = x.size;
        if (x.longs(c.win, RESTORE_PROPERTY).length !== 4) {
          x.setLongs(c.win, RESTORE_PROPERTY, "CARDINAL", c.b.map((v) => BigInt(Math.max(0, v))));
        }
        x.x.XMoveResizeWindow(x.dpy, c.win, 0, 0, width, height);
      }
      const { width, height } = x.size;
      const r = await settle(
        x,
        c,
        (s) => !!s.maximized && !!s.b && (wm || (same(s.b[2], width) && same(s.b[3], height))),
        deadline,
      );
      if (!r.ok) throw fail("maximize", r.s);
      return r.s;
    }
    case "restore": {
      const before = state(x, c);
      if (before.minimized) x.x.XMapRaised(x.dpy, c.win);
      if (wm) {
        clientMessage(x, c.win, "_NET_WM_STATE", [
          0n,
          x.atom("_NET_WM_STATE_MAXIMIZED_VERT"),
          x.atom("_NET_WM_STATE_MAXIMIZED_HORZ"),
          2n,
        ]);
      } else {
        const saved = x.longs(c.win, RESTORE_PROPERTY);
        if (saved.length === 4) {
          const [sx, sy, sw, sh] = saved.map(Number);
          x.x.XMoveResizeWindow(x.dpy, c.win, sx, sy, sw, sh);
          x.x.XDeleteProperty(x.dpy, c.win, x.atom(RESTORE_PROPERTY));
        }
      }
      const r = await settle(x, c, (s) => !s.minimized && !s.maximized, deadline);
      if (!r.ok) throw fail("restore", r.s);
      return r.s;
    }
    case "close": {
      const protocols = x.longs(c.win, "WM_PROTOCOLS");
      if (!protocols.includes(x.atom("WM_DELETE_WINDOW"))) {
        throw new DesktopError(
          "ACTION_NOT_SUPPORTED",
          `the window "${info.title}" cannot be asked to close`,
          {
            suggestion: "Use the app's own close button or menu, or quit --force",
          },
        );
      }
      clientMessage(x, c.win, "WM_PROTOCOLS", [x.atom("WM_DELETE_WINDOW"), 0n], c.win);
      x.flush();
      // The app decides (it may ask to save first): report what happened within the deadline.
      return (await settle(x, c, (s) => !s.exists || !!s.minimized, deadline)).s;
    }
  }
}

/**
 * Asks every window of a process to close (WM_DELETE_WINDOW), as a window
 * manager's close button does.
 *
 * @param pid the app's process
 * @returns how many windows were asked
 */
export function closeAppWindows(pid: number): number {
  if (waylandSession()) return 0; // no window can be asked to close: the caller's fallback runs
  using x = X11.open();
  let n = 0;
  for (const c of clientsOf(x, pid)) {
    if (!x.longs(c.win, "WM_PROTOCOLS").includes(x.atom("WM_DELETE_WINDOW"))) continue;
    clientMessage(x, c.win, "WM_PROTOCOLS", [x.atom("WM_DELETE_WINDOW"), 0n], c.win);
    n++;
  }
  x.flush();
  x.takeError();
  return n;
}

/**
 * Where an app's window lies on the screen, by the X server: for toolkits that
 * report boxes relative to their window (GTK 4 on X11). The window is picked
 * by title, else by size.
 *
 * @param pid the app's process
 * @param title the window's accessible title
 * @param b its box as the app reports it (only the size counts)
 * @returns the screen position of the window's top-left corner as the app counts it (inside any
 *   shadow the X window includes), or null when it has no X11 window
 */
export function windowOrigin(pid: number, title: string, b: Bounds): [number, number] | null {
  return originAmong(appClients(pid) ?? [], title, b);
}

/**
 * An app's top-level client windows on the X display, each with its frame
 * extents, read in one go: a read takes titles and origins of all its
 * windows from them (and a long-lived process compares them to tell whether
 * anything the X server adds to a read changed).
 *
 * @param pid the app's process
 * @returns its client windows, or null when there is no X display (Wayland, or none)
 */
export function appClients(pid: number): Client[] | null {
  let x: X11;
  try {
    // Asked on every read (a kept tree's version names them): the process's one display.
    x = X11.shared();
  } catch {
    return null; // no X display (Wayland): a client's window has no known place on screen
  }
  return clientsOf(x, pid).map((c) => {
    const frame = c.viewable ? x.longs(c.win, "_GTK_FRAME_EXTENTS").map(Number) : [];
    return frame.length === 4 ? { ...c, frame } : c;
  });
}

/**
 * Where an app's window lies on the screen, among its client windows (see
 * {@link windowOrigin}): the viewable one of that title, else of the
 * nearest size.
 *
 * @param clients the app's client windows ({@link appClients})
 * @param title the window's accessible title
 * @param b its box as the app reports it (only the size counts)
 * @returns the screen position of its top-left corner inside any shadow, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { originAmong } from "./windows.ts";
 * const win = { win: 1n, title: "Form", b: [100, 50, 420, 310] as [number, number, number, number],
 *   viewable: true, frame: [10, 10, 5, 15] };
 * assert.deepEqual(originAmong([win], "Form", [0, 0, 400, 290]), [110, 55]);
 * assert.equal(originAmong([], "Form", [0, 0, 400, 290]), null);
 * ```
 */
export function originAmong(
  clients: readonly Client[],
  title: string,
  b: Bounds,
): [number, number] | null {
  const shown = clients.filter((c) => c.viewable);
  if (shown.length === 0) return null;
  const size = (c: Client) => Math.abs(c.b[2] - b[2]) + Math.abs(c.b[3] - b[3]);
  const titled = shown.filter((c) => c.title === title);
  const pool = titled.length ? titled : shown;
  const best = pool.reduce((a, c) => (size(c) < size(a) ? c : a));
  // The X window may include the toolkit's shadow or resize border around what the app calls its
  // window: _GTK_FRAME_EXTENTS says how wide (left, right, top, bottom); without it, the size
  // difference is split evenly (GTK 4 under a window manager without a compositor: 5 px a side).
  const frame = best.frame ?? [];
  const left = frame.length === 4 ? frame[0] : Math.max(0, Math.floor((best.b[2] - b[2]) / 2));
  const top = frame.length === 4 ? frame[2] : Math.max(0, Math.floor((best.b[3] - b[3]) / 2));
  return [best.b[0] + left, best.b[1] + top];
}

/**
 * The X title of the window behind an accessible window that has none (Qt 5
 * leaves a main window's accessible name empty when the app sets its title
 * late: KCalc): the app's viewable client window of the same box (see
 * {@link titleOfSameBox}), among its client windows read already.
 *
 * @param clients the app's client windows ({@link appClients})
 * @param b the accessible window's box, when it has one
 * @returns the title, or undefined without a window of that box
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { untitledTitleAmong } from "./windows.ts";
 * const win = { win: 1n, title: "KCalc", b: [506, 375, 268, 288] as [number, number, number, number], viewable: true };
 * assert.equal(untitledTitleAmong([win], [506, 375, 268, 288]), "KCalc");
 * assert.equal(untitledTitleAmong([win], [0, 0, 0, 0]), undefined);
 * ```
 */
export function untitledTitleAmong(
  clients: readonly Client[],
  b: Bounds | undefined,
): string | undefined {
  if (!b || b[2] <= 0 || b[3] <= 0) return undefined; // Chromium's frames around empty documents
  return titleOfSameBox(clients.filter((c) => c.viewable && c.title), b);
}

/** How far an X window's box may lie from the accessible one's (a toolkit's shadow, a border). */
const SAME_BOX_SLACK = 32;

/**
 * The title of the client window whose box is the accessible window's, give
 * or take a border or a shadow on each side; by size alone when the box is
 * relative to its window (at 0,0: see toolkit.ts). A window merely inside
 * another (Chromium's omnibox popup, an untitled frame over the browser
 * window) takes no title from it.
 *
 * @param clients the app's viewable client windows, with titles and boxes
 * @param b the accessible window's box
 * @returns the title, or undefined when no client has that box
 * @example
 * ```ts
 * import { titleOfSameBox } from "./windows.ts";
 * const main = { win: 1n, title: "KCalc", b: [506, 375, 268, 288] as [number, number, number, number], viewable: true };
 * console.log(titleOfSameBox([main], [506, 375, 268, 288]), titleOfSameBox([main], [520, 400, 200, 60])); // KCalc undefined
 * ```
 */
export function titleOfSameBox(clients: readonly Client[], b: Bounds): string | undefined {
  const relative = b[0] === 0 && b[1] === 0;
  const near = (c: Client) =>
    c.b.every((v, i) => {
      if (relative && i < 2) return true;
      return Math.abs(v - b[i]) <= (i < 2 ? SAME_BOX_SLACK : 2 * SAME_BOX_SLACK);
    });
  const pool = clients.filter(near);
  if (!pool.length) return undefined;
  const distance = (c: Client) => c.b.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0);
  return pool.reduce((a, c) => (distance(c) < distance(a) ? c : a)).title;
}

/**
 * The process whose window has the keyboard focus (`_NET_WM_PID` of the
 * focus window or the nearest ancestor that has one), or 0 when no window
 * has it.
 */
function focusOwner(x: X11): number {
  let win = x.inputFocus();
  for (let depth = 0; win > 1n && win !== x.root && depth < 64; depth++) {
    const pids = x.longs(win, "_NET_WM_PID");
    if (pids.length) return Number(pids[0]);
    win = x.parent(win);
  }
  return 0;
}

/**
 * Makes sure synthesized input reaches an app: when the keyboard focus is
 * on another app's window (or on none), raises the app's window and gives
 * it the focus, as `window --raise` does. Left alone when the app already
 * has the focus, so its open menus and popups stay open. Without it, keys
 * meant for a field of this app would go to whatever app has the focus,
 * and a click could land on a window lying over this one.
 *
 * @param pid the app's process
 * @param title the title of the window to raise, when known (picks among the app's windows)
 * @param b that window's box, when known
 * @returns whether the focus had to be moved
 * @throws DesktopError WINDOW_NOT_FOUND when the app has no X11 window
 */
export function ensureAppFocused(pid: number, title?: string, b?: Bounds): boolean {
  // On Wayland the compositor alone gives the focus: nothing to ask of it.
  if (waylandSession()) return false;
  using x = X11.open();
  if (focusOwner(x) === pid) return false;
  const c = clientFor(x, {
    id: 0,
    app: `pid ${pid}`,
    pid,
    title: title ?? "",
    ...(b ? { b } : {}),
  });
  activate(x, c, hasWindowManager(x));
  x.flush();
  x.takeError();
  return true;
}
