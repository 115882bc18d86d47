/**
 * The session's interface and its request and result types ({@link Desktop}),
 * apart from the code that implements it (src/desktop.ts): the features built
 * on a session (fill, run, screenshot, apps, wait) name these types without
 * importing the session they are part of.
 *
 * @module
 */

import type { AppInfo, Element, Role, Snapshot, WindowInfo } from "./model/element.ts";
import type { FilterOptions, FilterResult } from "./model/filter.ts";
import type { Action, ActionResult, Provider, Scope, WindowOp } from "./platform/provider.ts";
import type { TextQuery } from "./refs/resolve.ts";
import type { Target } from "./identity/resolve.ts";
import type { RefStore } from "./state/ref_store.ts";
import type { Change } from "./diff/diff.ts";
import type { InView } from "./act/in_view.ts";
import type { DesktopError } from "./errors.ts";
import type { Launched, Quit, WindowResult } from "./apps/types.ts";
import type { FilledField, FillField } from "./fill/types.ts";
import type { RunOptions, RunReport } from "./run/types.ts";
import type { Screenshot, ScreenshotRequest } from "./screenshot/types.ts";

export type { Target };

/** A read request: provider options plus the pure filters. */
export interface ReadRequest extends FilterOptions {
  /**
   * Read bounds (default true). False is faster but, where a backend tells
   * hidden pages by their boxes (GTK 4 on Linux), keeps their content in the
   * tree; to only leave boxes out of the output, render with `bounds: false`.
   */
  bounds?: boolean;
}

/** A read: the full snapshot (ids and refs assigned) and the filtered view of it. */
export interface ReadResult {
  /** The full tree as read, with ids and refs. */
  snapshot: Snapshot;
  /** What the filters kept. */
  view: FilterResult;
}

/** What an action did, for the CLI to print. */
export interface ActResult extends ActionResult {
  /**
   * The element acted on, as it is after the action (as before it when the
   * effect was not checked, or when it is gone: see `gone`); absent for
   * point targets.
   */
  element?: Element;
  /** What the action changed, ref-keyed (absent when the effect was not checked). */
  changes?: Change[];
  /** Set when the effect could not be confirmed, saying why (e.g. nothing changed). */
  unverified?: string;
  /** True when the element is gone after the action (a dialog's button that closed it). */
  gone?: true;
  /**
   * When the element was found under another label than the last read
   * showed: a toggle whose label flipped since (`Pause updates`, now `Start
   * updates`), found by its native node. `was` is the last read's label,
   * `now` the one it had when the action was done.
   */
  renamed?: { was: string; now: string };
  /**
   * For keys or text sent with no target: the window that held the keyboard
   * focus, so the agent sees where they went (a dialog that opened by itself
   * takes them).
   */
  focusIn?: { r: "window" | "dialog"; t: string };
  /**
   * After a scroll in a direction: the first and last labelled elements the
   * scrolled element shows now, and showed before (its boxes are left out of
   * `changes`).
   */
  inView?: { now: InView; was: InView | null };
}

/** Options of {@link Desktop.act}. */
export interface ActOptions {
  /**
   * Longest wait for the action's effect to show (ms, default 1500). The app
   * is read again until its changes hold still or this time is over.
   */
  settleMs?: number;
  /** Check the effect at all (default true); false returns as soon as the action is sent. */
  verify?: boolean;
  /** List moves and resizes among the changes (default false: a scroll's boxes are noise). */
  bounds?: boolean;
  /**
   * Whoever acts next sees the changes (default true). Only changes shown give
   * the refs they print a meaning until the next read (see
   * `StoredRead.printed` in src/identity/stored.ts): the CLI without `--diff` shows none.
   */
  changesShown?: boolean;
}

/** Conditions `wait` can wait for. */
export interface WaitCondition {
  /** An element with this text appears. */
  text?: string;
  /** This text is gone. */
  gone?: string;
  /** An element with this ref exists. */
  ref?: string;
  /** Restrict to roles. */
  roles?: ReadonlySet<Role>;
}

/** Options of {@link Desktop}. */
export interface DesktopOptions {
  /**
   * Deadline of each call (read, act, wait...) in ms, from its start to its
   * answer: an action's resolving read, the action and the check of its
   * effect all fit in it.
   */
  timeoutMs?: number;
  /**
   * A deadline for the whole session (ms since the epoch), e.g. a CLI
   * command's, set when the command starts: every call also ends by it.
   */
  deadline?: number;
  /**
   * The deadline of the caller waiting now (ms since the epoch), asked at
   * each call's start: a long-lived process whose callers each wait a
   * bounded time (the background process) answers each by then, where its
   * own `timeoutMs` would answer after the caller gave up. Undefined: none.
   */
  callerDeadline?: () => number | undefined;
  /** Persist each read's ids and refs to the ref store (CLI: yes). */
  persistRefs?: boolean;
  /**
   * The session whose ids a persisted store keeps (`--session`); undefined:
   * the default session. Ids belong to the session that read them.
   */
  session?: string;
  /**
   * A read that repeats the last one (same scope and options) of a tree
   * that did not change returns the same result objects, without ids,
   * refs and filters worked out again: for long-lived processes that print
   * each result and drop it (the background process, the MCP worker). The
   * results are then shared between reads: do not change them.
   */
  reuseUnchangedReads?: boolean;
}

/** A session over one provider. */
export interface Desktop {
  /** The provider underneath. */
  readonly provider: Provider;
  /** Running apps. */
  listApps(): Promise<AppInfo[]>;
  /** Windows, optionally of one app. */
  listWindows(scope?: Scope): Promise<WindowInfo[]>;
  /**
   * Read, assign ids and refs, filter, and record what the filters kept as
   * the session's last read of the app: later `--id N` and refs mean what
   * this read printed. The only method that records.
   */
  read(scope: Scope, req?: ReadRequest): Promise<ReadResult>;
  /**
   * Every element matching a text/roles query, in document order, numbered
   * with the ids of the last read (0: not in it). Records nothing.
   */
  find(scope: Scope, query: TextQuery): Promise<Element[]>;
  /** Resolve a target to one element of a fresh read (errors: see refs.md). */
  resolve(scope: Scope, target: Target): Promise<Element>;
  /**
   * Resolve several targets against one fresh read (fill, run --dry-run):
   * each result is the element, or the DesktopError its target got.
   */
  resolveMany(
    scope: Scope,
    targets: readonly Target[],
  ): Promise<{ snapshot: Snapshot; results: Array<Element | DesktopError> }>;
  /**
   * Resolve the target, carry out the action, then (unless `verify: false`)
   * read the app again until it settles and report what changed. Typing or
   * setting a value that changed nothing fails with ACTION_FAILED; any other
   * action that changed nothing comes back with `unverified` set.
   */
  act(scope: Scope, target: Target, action: Action, opts?: ActOptions): Promise<ActResult>;
  /** Wait until a condition holds; TIMEOUT otherwise. */
  wait(scope: Scope, cond: WaitCondition, timeoutMs: number): Promise<Element | null>;
  /**
   * A PNG of the screen, the scoped app's window, or one element (`req.target`),
   * optionally scaled down and marked with the ids and refs of interactive elements.
   */
  screenshot(scope: Scope, req?: ScreenshotRequest): Promise<Screenshot>;
  /**
   * Start an app (name, desktop file / bundle id, or command) and wait until it
   * shows a window on the accessibility bus (default deadline 30 s); TIMEOUT otherwise.
   */
  launch(spec: string, opts?: { timeoutMs?: number }): Promise<Launched>;
  /** Quit an app through its windows' close requests, or end its process with `force`. */
  quit(scope: Scope, opts?: { force?: boolean; timeoutMs?: number }): Promise<Quit>;
  /** Move, resize, raise, minimize, maximize, restore or close the scoped window. */
  window(scope: Scope, ops: readonly WindowOp[]): Promise<WindowResult>;
  /** The system clipboard's text ("" when empty). */
  clipboardGet(): Promise<string>;
  /** Put text on the system clipboard (it stays after the process exits). */
  clipboardSet(text: string): Promise<void>;
  /**
   * Set many fields from one read, then report what each became (read back
   * from the app). Nothing is set when a field's target does not resolve.
   */
  fill(scope: Scope, fields: readonly FillField[]): Promise<FilledField[]>;
  /**
   * Run a list of steps (a parsed run file), stopping at the first failing
   * step; `dryRun` resolves every target without acting.
   */
  run(doc: unknown, opts?: RunOptions): Promise<RunReport>;
  /** Release the provider. */
  close(): void;
}

// Implementation: createDesktop and its helpers.

/** Options of {@link createDesktop}: the session options plus an explicit store. */
export interface CreateDesktopOptions extends DesktopOptions {
  /**
   * Where reads are remembered for `--id` and refs. Default: the file store
   * in the state directory (of `session`) when `persistRefs`, else an
   * in-memory store. Replay reads use a file store of their own: they never
   * touch the live store.
   */
  store?: RefStore;
}

/** Default deadline of one call (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;
