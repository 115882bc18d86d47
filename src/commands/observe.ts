/**
 * `desktop observe`: stream an app's UI changes as JSONL, one event per line.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DEFAULT_TIMEOUT_MS, type Desktop } from "../desktop.ts";
import { DesktopError } from "../errors.ts";
import { parseRoles } from "../model/roles.ts";
import type { ObserveEvent } from "../observe/events.ts";
import {
  DEFAULT_INTERVAL_MS,
  observe,
  type ObserveOptions,
  validateObserveOptions,
} from "../observe/observe.ts";
import type { Scope } from "../platform/provider.ts";
import { intOption, openDesktopFromOptions, runCommand, scopeFromOptions } from "./_shared.ts";

/** The option values of `observe` as commander parses them. */
export interface ObserveCommandOptions {
  /** App name. */
  app?: string;
  /** Process id. */
  pid?: number;
  /** Window title substring. */
  window?: string;
  /** Window id. */
  windowId?: number;
  /** Polling interval in ms. */
  interval?: number;
  /** Seconds to observe (0: until interrupted). */
  duration?: number;
  /** Roles list. */
  roles?: string;
  /** Depth limit. */
  depth?: number;
  /** Observe only this ref's subtree. */
  scopeRef?: string;
  /** Ignore bounds changes. */
  ignoreBounds?: boolean;
  /** Ignore focus changes. */
  ignoreFocus?: boolean;
  /** Per-read deadline in ms. */
  timeout?: number;
}

/**
 * Checks the options and turns them into a scope and engine options, before
 * any backend is opened.
 *
 * @param opts parsed options
 * @returns the scope to observe and the engine options
 * @throws DesktopError INVALID_ARGS without --app/--pid/--window/--window-id, or
 *   for a bad interval, duration, depth or role
 */
export function observeRequest(
  opts: ObserveCommandOptions,
): { scope: Scope; options: ObserveOptions } {
  const scope = scopeFromOptions(opts);
  if (Object.keys(scope).length === 0) {
    throw new DesktopError(
      "INVALID_ARGS",
      "observe needs a scope: --app, --pid, --window or --window-id",
      { suggestion: 'Run `desktop list` to see apps, then e.g. `desktop observe --app "gedit"`' },
    );
  }
  const options: ObserveOptions = {
    interval: opts.interval ?? DEFAULT_INTERVAL_MS,
    duration: opts.duration ?? 0,
    ...(opts.roles !== undefined ? { roles: parseRoles(opts.roles) } : {}),
    ...(opts.depth !== undefined ? { depth: opts.depth } : {}),
    ...(opts.scopeRef !== undefined ? { scopeRef: opts.scopeRef } : {}),
    ...(opts.ignoreBounds ? { ignoreBounds: true } : {}),
    ...(opts.ignoreFocus ? { ignoreFocus: true } : {}),
  };
  validateObserveOptions(options);
  return { scope, options };
}

/**
 * Writes each event as one JSON line, flushing line by line so a reader
 * (`jq`, an agent) sees events as they happen.
 *
 * @param events the stream
 * @param write writes one line (with its newline)
 * @returns when the stream ends, or quietly when the reader went away
 */
export async function writeJsonl(
  events: AsyncIterable<ObserveEvent>,
  write: (line: string) => Promise<void>,
): Promise<void> {
  for await (const ev of events) {
    try {
      await write(JSON.stringify(ev) + "\n");
    } catch (err) {
      // `observe ... | head -3`: the reader closed the pipe; stop observing quietly.
      if (err instanceof Deno.errors.BrokenPipe) return;
      throw err;
    }
  }
}

/** Writes a whole string to stdout. */
async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let off = 0; off < bytes.length;) off += await Deno.stdout.write(bytes.subarray(off));
}

/**
 * Aborts `ctrl` on Ctrl+C (and SIGTERM where it exists), so the stream still
 * ends with its `done` event.
 *
 * @returns a function that removes the handlers
 */
function abortOnSignals(ctrl: AbortController): () => void {
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const onSignal = () => ctrl.abort();
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  return () => {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  };
}

/**
 * Parses a non-negative number of seconds (fractions allowed).
 *
 * @param flag option name for the message
 * @returns the commander parser
 */
function secondsOption(flag: string): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
      throw new DesktopError("INVALID_ARGS", `${flag} takes seconds >= 0, got "${value}"`, {
        suggestion: `Pass e.g. ${flag} 10 (0 observes until Ctrl+C)`,
      });
    }
    return n;
  };
}

/**
 * The `observe` command.
 *
 * @returns the commander command
 */
export function observeCommand(): CommandUnknownOpts {
  return new Command("observe")
    .description(
      "Watch an app or window and stream its UI changes as JSONL (one JSON event per line): " +
        "snapshot, then added/removed/changed (matched by ref), error, and a final done. " +
        "Nothing is printed while the UI is stable.",
    )
    .option("--app <name>", "app to observe (exact name, else unique substring)")
    .option("--pid <pid>", "app process id", intOption("--pid"))
    .option("--window <title>", "window title substring")
    .option("--window-id <id>", "window id from `list --windows`", intOption("--window-id"))
    .option(
      "--interval <ms>",
      "ms between reads when the platform cannot notify changes; with notifications, " +
        "the interval of a safety re-read",
      intOption("--interval"),
      DEFAULT_INTERVAL_MS,
    )
    .option(
      "--duration <seconds>",
      "stop after this many seconds (0 = until Ctrl+C)",
      secondsOption("--duration"),
      0,
    )
    .option("--roles <list>", "only report these roles (`btn,input`, `interactive`)")
    .option("--depth <n>", "only observe elements at most this deep", intOption("--depth"))
    .option("--scope-ref <ref>", "only observe the subtree of this ref (a dialog, a web page)")
    .option("--ignore-bounds", "do not report moves and resizes (layout shifts)")
    .option("--ignore-focus", "do not report focus changes")
    .option("--timeout <ms>", "deadline per read in ms", intOption("--timeout"), DEFAULT_TIMEOUT_MS)
    .addHelpText(
      "after",
      `
Output is always JSONL (--format does not apply): one event per line, e.g.
  {"type":"snapshot","ts":1767261600000,"count":42}
  {"type":"added","ts":...,"el":{"i":43,"ref":"form/submit","r":"btn","t":"Submit"},"p":"form","ref":"form/submit"}
  (a new subtree, e.g. a dialog, is one added event with its descendants in el.c)
  {"type":"removed","ts":...,"ref":"dialog/loading","i":15,"r":"txt","t":"Loading..."}
  {"type":"changed","ts":...,"ref":"form/email","i":5,"changes":{"v":["old","new"]}}
  {"type":"error","ts":...,"code":"APP_UNRESPONSIVE","error":"..."}
  {"type":"done","ts":...,"elapsed":"10.0s","events":3}
ts is milliseconds since the epoch. Ctrl+C ends the stream with its done event.
Events are keyed by ref; i is the element's position in the stream's own read,
not an --id target: act on what you see by its ref.

Examples:
  $ desktop observe --app Chromium --duration 10
  $ desktop observe --app Chromium --roles btn,lnk --ignore-bounds | jq 'select(.type=="added")'`,
    )
    .action(runCommand(async (opts: ObserveCommandOptions) => {
      const { scope, options } = observeRequest(opts);
      const ctrl = new AbortController();
      const removeHandlers = abortOnSignals(ctrl);
      let desktop: Desktop | undefined;
      try {
        desktop = await openDesktopFromOptions({ timeout: opts.timeout });
        await writeJsonl(observe(desktop, scope, { ...options, signal: ctrl.signal }), writeStdout);
      } finally {
        removeHandlers();
        desktop?.close();
      }
    }));
}
