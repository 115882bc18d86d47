/**
 * What every command shares: the scope and target options, opening a
 * session, and the wrapper that turns any failure into one JSON error on
 * stderr with the right exit code.
 *
 * @module
 */

import type { Command, OptionValues } from "commander";
import { DEFAULT_TIMEOUT_MS, type Desktop, type Target } from "../desktop.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import { parseRoles } from "../model/roles.ts";
import type { ActionResult, Scope } from "../platform/provider.ts";
import type { Change } from "../diff/diff.ts";
import { renderChanges } from "../output/render.ts";
import { type RefStore, SESSION_ENV, validateSession } from "../state/ref_store.ts";

/** Option values {@link addScopeOptions} adds. */
export type ScopeOptionValues = {
  /** App name. */
  app?: string;
  /** Process id. */
  pid?: number;
  /** Window title substring. */
  window?: string;
  /** Window id from `list --windows`. */
  windowId?: number;
  /** Per-operation deadline in ms. */
  timeout: number;
  /** Snapshot file to read instead of the live desktop. */
  from?: string;
  /** Session whose ids to use and record (else `$DESKTOP_SESSION`, else the default). */
  session?: string;
};

/** Option values {@link addTargetOptions} adds. */
export type TargetOptionValues = {
  /** Stable ref. */
  ref?: string;
  /** Numeric id of the last read. */
  id?: number;
  /** Text to match. */
  text?: string;
  /** Role list (`btn,input`, `interactive`). */
  roles?: string;
  /** Exact label match. */
  exact?: boolean;
  /** Screen x. */
  x?: number;
  /** Screen y. */
  y?: number;
};

/**
 * A commander argument parser for an integer option.
 *
 * @param flag the option name, for the message
 * @param min smallest accepted value (default 0: coordinates and counts are not negative)
 * @returns the parser; it throws INVALID_ARGS on anything but an integer >= min
 */
export function intOption(flag: string, min = 0): (value: string) => number {
  return (value: string) => {
    const n = Number(value.trim());
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new DesktopError(
        "INVALID_ARGS",
        `${flag} takes an integer of at least ${min}, got "${value}"`,
        { suggestion: `Pass a whole number, e.g. ${flag} ${Math.max(min, 10)}` },
      );
    }
    return n;
  };
}

/**
 * A commander argument parser that accepts one of `choices`.
 *
 * @param flag the option name, for the message
 * @param choices accepted values
 * @returns the parser; it throws INVALID_ARGS on anything else
 */
export function choiceOption<T extends string>(
  flag: string,
  choices: readonly T[],
): (value: string) => T {
  return (value: string) => {
    if (!(choices as readonly string[]).includes(value)) {
      throw new DesktopError("INVALID_ARGS", `${flag} must be one of ${choices.join(", ")}`, {
        suggestion: `Pass e.g. ${flag} ${choices[0]}`,
      });
    }
    return value as T;
  };
}

/** Parses `--session`. */
function sessionOption(value: string): string {
  return validateSession(value);
}

/**
 * The session the options name: `--session`, else `$DESKTOP_SESSION`, else
 * undefined (the default session).
 *
 * @param opts parsed options
 * @returns the session name, or undefined
 * @throws DesktopError INVALID_ARGS for a bad name in the environment
 */
export function sessionFromOptions(opts: { session?: string }): string | undefined {
  if (opts.session !== undefined) return opts.session;
  let env: string | undefined;
  try {
    env = Deno.env.get(SESSION_ENV);
  } catch {
    return undefined; // no --allow-env: the default session
  }
  return env === undefined || env === "" ? undefined : validateSession(env);
}

/**
 * Adds `--app`, `--pid`, `--window`, `--window-id`, `--timeout`, `--from` and `--session`.
 *
 * @param cmd the command
 * @returns the same command, typed with the new options
 */
export function addScopeOptions<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(cmd: Command<A, O, G>): Command<A, O & ScopeOptionValues, G> {
  return cmd
    .option("--app <name>", "app name (exact, else unique substring; default: focused app)")
    .option("--pid <pid>", "app process id", intOption("--pid"))
    .option("--window <title>", "window title substring")
    .option("--window-id <id>", "window id from `list --windows`", intOption("--window-id"))
    .option(
      "--timeout <ms>",
      "deadline of the whole command in ms",
      intOption("--timeout", 1),
      DEFAULT_TIMEOUT_MS,
    )
    .option(
      "--from <file>",
      "read a saved snapshot instead of the live desktop (read-only)",
    )
    .option(
      "--session <name>",
      `ids of this session's reads (default: $${SESSION_ENV}, else the shared default session)`,
      sessionOption,
    ) as unknown as Command<A, O & ScopeOptionValues, G>;
}

/**
 * Adds the element target options `--ref`, `--id`, `--text`, `--roles`,
 * `--exact`, `--x`, `--y`.
 *
 * @param cmd the command
 * @param textFlag the flag for text targeting (`type` uses `--target`, since
 *   its `--text` is the text to type)
 * @returns the same command, typed with the new options
 */
export function addTargetOptions<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(cmd: Command<A, O, G>, textFlag = "--text"): Command<A, O & TargetOptionValues, G> {
  return cmd
    .option("--ref <ref>", "element ref from read (exact, or a unique suffix: `submit`)")
    .option("--id <n>", "element id printed by the last read of this app", intOption("--id"))
    .option(`${textFlag} <text>`, "element whose label, value or description contains this")
    .option("--roles <list>", `restrict ${textFlag} to roles (\`btn,input\`, \`interactive\`)`)
    .option("--exact", `${textFlag} must equal the label (case-insensitive)`)
    .option("--x <px>", "screen x (with --y) instead of an element", intOption("--x", -1e9))
    .option("--y <px>", "screen y (with --x)", intOption("--y", -1e9)) as unknown as Command<
      A,
      O & TargetOptionValues,
      G
    >;
}

/**
 * The scope the options name.
 *
 * @param opts parsed options
 * @returns the scope (empty: the focused app)
 */
export function scopeFromOptions(opts: Partial<ScopeOptionValues>): Scope {
  return {
    ...(opts.app !== undefined ? { app: opts.app } : {}),
    ...(opts.pid !== undefined ? { pid: opts.pid } : {}),
    ...(opts.window !== undefined ? { window: opts.window } : {}),
    ...(opts.windowId !== undefined ? { windowId: opts.windowId } : {}),
  };
}

/**
 * The target the options name, checking that at most one of `--ref`, `--id`,
 * `--text`, `--x/--y` was given.
 *
 * @param opts parsed options (`text` may come from another flag, see {@link addTargetOptions})
 * @returns the target; empty when none was given
 * @throws DesktopError INVALID_ARGS on conflicting or half-given targets
 */
export function targetFromOptions(opts: TargetOptionValues): Target {
  const given = [
    opts.ref !== undefined && "--ref",
    opts.id !== undefined && "--id",
    opts.text !== undefined && "--text",
    (opts.x !== undefined || opts.y !== undefined) && "--x/--y",
  ].filter((x): x is string => typeof x === "string");
  if (given.length > 1) {
    throw new DesktopError("INVALID_ARGS", `${given.join(" and ")} cannot be used together`, {
      suggestion: "Target the element one way: --ref, --id, --text or --x/--y",
    });
  }
  if ((opts.x === undefined) !== (opts.y === undefined)) {
    throw new DesktopError("INVALID_ARGS", "--x and --y go together", {
      suggestion: "Pass both --x and --y",
    });
  }
  if (opts.text !== undefined && opts.text === "") {
    throw new DesktopError("INVALID_ARGS", "the target text is empty", {
      suggestion: "Pass a non-empty --text",
    });
  }
  return {
    ...(opts.ref !== undefined ? { ref: opts.ref } : {}),
    ...(opts.id !== undefined ? { id: opts.id } : {}),
    ...(opts.text !== undefined ? { text: opts.text } : {}),
    ...(opts.roles !== undefined ? { roles: parseRoles(opts.roles) } : {}),
    ...(opts.exact ? { exact: true } : {}),
    ...(opts.x !== undefined && opts.y !== undefined ? { point: { x: opts.x, y: opts.y } } : {}),
  };
}

/**
 * Whether a target names anything.
 *
 * @param t the target
 * @returns true when one of ref, id, text, point is set
 */
export function hasTarget(t: Target): boolean {
  return t.ref !== undefined || t.id !== undefined || t.text !== undefined ||
    t.point !== undefined;
}

/**
 * Opens a session for the options: the replay backend with `--from`, else the
 * live backend; ids and refs of reads are persisted for later commands, in
 * the session's store ({@link sessionFromOptions}).
 *
 * @param opts parsed scope options
 * @param store a store to use instead of the session's file store
 * @returns the session; close it when done
 */
export async function openDesktopFromOptions(
  opts: Partial<ScopeOptionValues>,
  store?: RefStore,
  deadline?: number,
): Promise<Desktop> {
  // Dynamic: the library entry stays free of platform code until a command runs.
  const { connect } = await import("../../mod.ts");
  const session = sessionFromOptions(opts);
  return await connect({
    from: opts.from,
    timeoutMs: opts.timeout ?? DEFAULT_TIMEOUT_MS,
    ...(deadline !== undefined ? { deadline } : {}),
    persistRefs: true,
    ...(session !== undefined ? { session } : {}),
    ...(store ? { store } : {}),
  });
}

/**
 * Runs a command session: opens it, calls `fn`, always closes it. `--timeout`
 * is the whole command's deadline, counted from the process's start (start-up,
 * discovery, reads, the action and its check all fit in it), unless
 * `perCall` makes it each call's own (a run file's steps).
 *
 * @param opts parsed scope options
 * @param fn the work
 * @param perCall true: `--timeout` bounds each call, not the whole command
 * @returns what `fn` returns
 */
export async function withDesktop<T>(
  opts: Partial<ScopeOptionValues>,
  fn: (desktop: Desktop, scope: Scope) => Promise<T>,
  perCall = false,
): Promise<T> {
  const deadline = perCall
    ? undefined
    : performance.timeOrigin + (opts.timeout ?? DEFAULT_TIMEOUT_MS);
  const desktop = await openDesktopFromOptions(opts, undefined, deadline);
  try {
    return await fn(desktop, scopeFromOptions(opts));
  } finally {
    desktop.close();
  }
}

/**
 * Prints an error as one JSON object on stderr and sets the exit code
 * (2 for INVALID_ARGS, else 1). Never prints a stack trace.
 *
 * @param err whatever was thrown
 */
export function printError(err: unknown): void {
  const e = toDesktopError(err);
  console.error(JSON.stringify(e.toJSON()));
  Deno.exitCode = e.exitCode;
}

/**
 * Wraps a command action so that any failure is printed by {@link printError}.
 *
 * @param fn the action
 * @returns an action for commander
 */
export function runCommand<A extends unknown[]>(
  fn: (...args: A) => Promise<void> | void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      printError(err);
    }
  };
}

/** Output formats of action commands. */
export type ActFormat = "agent" | "json";

/**
 * The one line an action prints: `ok click [12|form/submit] btn "Submit" via accessible`,
 * or the same as JSON.
 *
 * @param verb the command name
 * @param result what the action did
 * @param format `agent` or `json`
 * @returns the line
 */
export function formatActResult(
  verb: string,
  result: ActionResult & {
    element?: Element;
    changes?: Change[];
    unverified?: string;
    gone?: true;
  },
  format: ActFormat = "agent",
  diff = false,
): string {
  const el = result.element;
  if (format === "json") {
    return JSON.stringify({
      ok: true,
      action: verb,
      ...(el ? { element: elementSummary(el) } : {}),
      via: result.via,
      ...(result.detail ? { detail: result.detail } : {}),
      ...(result.gone ? { gone: true } : {}),
      ...(result.unverified ? { unverified: result.unverified } : {}),
      ...(diff && result.changes ? { changes: result.changes } : {}),
    });
  }
  const what = el ? ` ${elementLine(el)}` : "";
  const detail = result.detail ? ` (${result.detail})` : "";
  const gone = result.gone ? " (now gone)" : "";
  const unverified = result.unverified ? `; unverified: ${result.unverified}` : "";
  const line = `ok ${verb}${what} via ${result.via}${detail}${gone}${unverified}`;
  if (!diff || !result.changes) return line;
  return `${line}\n${renderChanges(result.changes, "agent")}`.trimEnd();
}

/**
 * An element as a short agent line: `[12|form/submit] btn "Submit"`.
 *
 * @param el the element
 * @returns the line
 */
export function elementLine(el: Element): string {
  const label = el.t ? ` ${JSON.stringify(el.t)}` : "";
  return `[${el.i || "-"}${el.ref ? `|${el.ref}` : ""}] ${el.r}${label}`;
}

/**
 * The identifying keys of an element (for JSON results).
 *
 * @param el the element
 * @returns `{i, ref, r, t, b}`; no `i` for an element the last read did not show
 */
export function elementSummary(
  el: Element,
): Partial<Pick<Element, "i">> & Pick<Element, "ref" | "r" | "t" | "b"> {
  return {
    ...(el.i ? { i: el.i } : {}),
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    r: el.r,
    ...(el.t !== undefined ? { t: el.t } : {}),
    ...(el.b !== undefined ? { b: el.b } : {}),
  };
}

/**
 * Adds `--format agent|json` for action commands.
 *
 * @param cmd the command
 * @returns the same command, typed with the new option
 */
export function addActFormatOption<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(cmd: Command<A, O, G>): Command<A, O & { format: ActFormat; diff?: boolean }, G> {
  return cmd.option(
    "--format <format>",
    "output: agent (one line) or json",
    choiceOption<ActFormat>("--format", ["agent", "json"]),
    "agent" as ActFormat,
  ).option(
    "--diff",
    "also print what the action changed (+ added, - removed, ~ changed), once the app settled",
  ) as unknown as Command<A, O & { format: ActFormat; diff?: boolean }, G>;
}
