/**
 * The contract every backend (Linux AT-SPI, macOS AX, replay) implements.
 * Commands and the library never branch on the platform: they call these
 * methods and get the same element model back.
 *
 * @module
 */

import type { AppInfo, Bounds, Element, Point, Snapshot, WindowInfo } from "../model/element.ts";
import type { RgbaImage } from "../output/image.ts";

/** Which app or window an operation is about. Empty means "the focused app". */
export interface Scope {
  /** App name: case-insensitive exact match first, then unique substring. */
  app?: string;
  /** Process id. */
  pid?: number;
  /** Window title substring. */
  window?: string;
  /** Window id as `list` reports it. */
  windowId?: number;
}

/** Options for {@link Provider.read}. Filtering happens later, in the pure model. */
export interface ReadOptions {
  /** Maximum depth below the root to walk (undefined: no limit). */
  depth?: number;
  /** Skip bounds when the caller does not need them (faster on some platforms). */
  bounds?: boolean;
  /**
   * The caller's deadline (ms since the epoch), e.g. the whole command's:
   * the operation ends by the earlier of it and its own `timeoutMs`.
   */
  deadline?: number;
  /**
   * Receives a version that names what this read returned, when the backend
   * keeps the app's tree between reads (a long-lived process): pass it to
   * {@link Provider.unchangedSince} later.
   */
  version?: { value?: string };
}

/** Options for {@link Provider.act}. */
export interface ProviderActOptions {
  /** The caller's deadline (ms since the epoch), as in {@link ReadOptions.deadline}. */
  deadline?: number;
  /**
   * The element was taken as the focused one (no target given): keys go
   * where the keyboard focus is, and a modal dialog that has it takes them.
   */
  focusedGuess?: boolean;
}

/** Mouse buttons for click. */
export type MouseButton = "left" | "right" | "middle";

/** Scroll directions. */
export type ScrollDirection = "up" | "down" | "left" | "right";

/** Everything the tool can do to an element or a point. */
export type Action =
  /** Press: the element's own default action first, else a synthesized click at its centre. */
  | {
    kind: "click";
    button?: MouseButton;
    count?: number;
    /** Click with the pointer at the element's visible point, not its accessible action. */
    pointer?: boolean;
  }
  /** Type text into the element (focuses it first). */
  | { kind: "type"; text: string; /** Clear the field first. */ replace?: boolean }
  /** Press a key combo such as `ctrl+a`, `Return`, `shift+Tab`. */
  | { kind: "key"; combo: string; /** Press it this many times (1..100). */ repeat?: number }
  /** Perform a named accessibility action (`press`, `activate`, `expand`...). */
  | { kind: "action"; name: string }
  /** Set the value: text, number, toggle state (`true`/`false`) or selection. */
  | { kind: "set-value"; value: string }
  /** Scroll by `amount` steps, or bring the element into view when `amount` is absent. */
  | {
    kind: "scroll";
    direction?: ScrollDirection;
    amount?: number;
    /** Turn the view's scroll bar (its accessible value), not the wheel. */
    bar?: boolean;
  }
  /** Drag from the target to a point. */
  | { kind: "drag"; to: Point }
  /** Give keyboard focus (and raise the window). */
  | { kind: "focus" };

/** What an action is aimed at: an element from the last read, or a screen point. */
export type ActionTarget = { element: Element } | { point: Point };

/** How the provider carried out an action (reported to the agent). */
export interface ActionResult {
  /** `accessible` when done through the accessibility API, `input` when synthesized. */
  via: "accessible" | "input";
  /** Optional detail, e.g. the action name used. */
  detail?: string;
  /**
   * Set when the action was carried out but whether it reached the element
   * is in doubt, saying why (a list that moved as a click went in).
   */
  unverified?: string;
}

/** Options every provider takes when it is created. */
export interface ProviderOptions {
  /**
   * Deadline for each operation in milliseconds. A hung app must produce
   * APP_UNRESPONSIVE within it, never a hang.
   */
  timeoutMs: number;
  /**
   * The caller's deadline (ms since the epoch) for opening the provider: a
   * command's start-up counts against the command's deadline.
   */
  deadline?: number;
}

/** What a change notification says about its source. */
export interface ChangeHint {
  /** Native id of the element the notification came from. */
  nid: string;
  /**
   * False when the notification concerns the element alone (value, text,
   * name, checked, focused, selected, expanded...): reading it again shows
   * whether anything that moves refs changed. True when children, visibility
   * or windows may have changed, so the tree must be read again.
   */
  structural: boolean;
}

/** Pixels of a part of the screen, from {@link Provider.capture}. */
export interface ScreenCapture {
  /** The pixels. */
  image: RgbaImage;
  /** The part of the screen they show, in global screen pixels (clipped to the screen). */
  region: Bounds;
  /** Image pixels per screen pixel (2 on a Retina display). */
  scale: number;
}

/** A process {@link Provider.startApp} started. */
export interface StartedApp {
  /** Its process id. */
  pid: number;
  /** The argument vector it was started with. */
  command: string[];
  /** The app's name from its launcher entry, when it came from one. */
  name?: string;
  /** Whether a process is this one or one it started (launcher scripts fork). */
  owns(pid: number): boolean;
  /** The exit code once it has exited, else null. */
  exitCode(): number | null;
}

/** What {@link Provider.windowAction} does to a window. */
export type WindowOp =
  | { kind: "move"; x: number; y: number }
  | { kind: "resize"; w: number; h: number }
  | { kind: "raise" }
  | { kind: "minimize" }
  | { kind: "maximize" }
  | { kind: "restore" }
  | { kind: "close" };

/** A window's state after a {@link WindowOp}. */
export interface WindowState {
  /** Its box in global pixels. */
  b?: Bounds;
  /** Minimized (iconified, or unmapped where no window manager runs). */
  minimized?: boolean;
  /** Maximized. */
  maximized?: boolean;
  /** False once the window is gone (closed). */
  exists?: boolean;
}

/**
 * A live (or replayed) accessibility backend. Elements returned by {@link read}
 * carry a `nid` the same provider instance can act on until {@link close}.
 */
export interface Provider {
  /** Which backend this is. */
  readonly platform: "linux" | "macos" | "replay";
  /** Running apps with an accessible UI. */
  listApps(): Promise<AppInfo[]>;
  /** Top-level windows, optionally of one app. */
  listWindows(scope?: Scope): Promise<WindowInfo[]>;
  /**
   * Read the tree of one app (or window). Throws APP_NOT_FOUND (with running
   * apps as candidates), WINDOW_NOT_FOUND, APP_UNRESPONSIVE.
   */
  read(scope: Scope, opts?: ReadOptions): Promise<Snapshot>;
  /**
   * Optional: whether a read of `scope` with `opts` now would return what
   * the read that gave `version` (see {@link ReadOptions.version}) returned,
   * without reading the tree: a caller that kept what it made of that read
   * may use it again. False whenever in doubt.
   */
  unchangedSince?(scope: Scope, opts: ReadOptions, version: string): Promise<boolean>;
  /**
   * Carry out an action. Throws ACTION_NOT_SUPPORTED, ACTION_FAILED,
   * STALE_REF (the element is gone), APP_UNRESPONSIVE.
   */
  act(
    scope: Scope,
    target: ActionTarget,
    action: Action,
    opts?: ProviderActOptions,
  ): Promise<ActionResult>;
  /**
   * Optional: call `onChange` whenever the app's UI may have changed (events
   * from the platform), so observe and wait need not poll. A hint, when
   * given, names the element the event came from and whether only its own
   * state changed (value, text, checked, focused...) or possibly the tree
   * around it. Returns a function that stops watching.
   */
  watch?(scope: Scope, onChange: (hint?: ChangeHint) => void): Promise<() => void>;
  /**
   * Optional: read elements again by native id, each on its own (no
   * children), with bounds; null for one that is gone. Lets observe follow
   * a value or state change without reading the whole tree.
   */
  readNodes?(scope: Scope, nids: readonly string[]): Promise<Array<Element | null>>;
  /**
   * Optional: the pixels of a rectangle of the screen (global pixels), or of
   * the whole screen. Throws INVALID_ARGS when the rectangle is off screen.
   */
  capture?(rect?: Bounds): Promise<ScreenCapture>;
  /**
   * Optional: what to add to the boxes of a window and its elements, as
   * {@link Provider.read} and {@link Provider.listWindows} give them, to
   * place them on the screen {@link Provider.capture} shows; null when the
   * window's place is unknown (Wayland compositors that tell no client).
   * Absent: the boxes are on screen already. The window is asked for only
   * when its place matters (not under X11).
   */
  windowOrigin?(window: () => Promise<WindowInfo>): Promise<Point | null>;
  /**
   * Optional: does now, by `deadline`, the one-time work a first read would
   * (loading libraries, connecting to the buses), so that a long-lived
   * process's first command answers as fast as its next ones. Never throws:
   * what fails here fails again, with its error, in the command.
   */
  warmUp?(deadline: number): Promise<void>;
  /**
   * Optional: start an app (desktop id, app name or command), detached from
   * this process. Throws APP_NOT_FOUND when nothing by that name can start.
   */
  startApp?(spec: string): Promise<StartedApp>;
  /** Optional: ask every window of a process to close, as a close button does; returns how many. */
  closeApp?(pid: number): Promise<number>;
  /** Optional: whether a process still runs. */
  processRunning?(pid: number): boolean;
  /** Optional: send SIGTERM (or SIGKILL with `force`) to a process. */
  endProcess?(pid: number, force: boolean): void;
  /**
   * Optional: move, resize, raise, minimize, maximize, restore or close a
   * window, waiting (within `timeoutMs`) until it shows the change. Throws
   * ACTION_NOT_SUPPORTED for what the window cannot do, ACTION_FAILED when
   * it did not change.
   */
  windowAction?(win: WindowInfo, op: WindowOp, timeoutMs: number): Promise<WindowState>;
  /** Optional: the system clipboard's text ("" when empty). */
  clipboardGet?(): Promise<string>;
  /** Optional: put text on the system clipboard; it stays there after this process exits. */
  clipboardSet?(text: string): Promise<void>;
  /** Release every native resource. Safe to call twice. */
  close(): void;
}
