/**
 * Text renderings of operation results: the one line an action prints, an
 * element summary, apps and windows one per line. Pure.
 *
 * @module
 */

import type { ActResult } from "../desktop.ts";
import type { Change } from "../diff/diff.ts";
import { renderChanges } from "../output/render.ts";
import { trimChanges } from "../diff/noise.ts";
import {
  type AppInfo,
  type Element,
  type ElementBrief,
  shownValue,
  type WindowInfo,
} from "../model/element.ts";
import { withoutChildren } from "../model/tree.ts";
import { elementLine as agentLine } from "../output/agent.ts";
import { stateWords } from "../act/state.ts";
import { type InView, inViewWords } from "../act/in_view.ts";

/** The identifying keys of an element in results: its brief `{i, ref, r, t, b}` plus its value. */
export interface ElementSummary extends ElementBrief {
  /** Value (never for secure fields). */
  v?: string;
  /** A secure field: a value exists but is not shown. */
  sec?: boolean;
}

/**
 * The identifying keys of an element, without secrets.
 *
 * @param el the element
 * @returns its summary
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summary } from "./render.ts";
 * assert.deepEqual(summary({ i: 3, ref: "f/pw", r: "input", t: "Password", v: "x", sec: true }), {
 *   i: 3, ref: "f/pw", r: "input", t: "Password", sec: true,
 * });
 * ```
 */
export function summary(el: Element): ElementSummary {
  // A cell with no label of its own is named by the one text it holds, as a read shows it.
  const t = el.t ??
    (el.r === "cell" && el.c?.length === 1 && el.c[0].r === "txt" ? el.c[0].t : undefined);
  return {
    ...(el.i ? { i: el.i } : {}),
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    r: el.r,
    ...(t !== undefined ? { t } : {}),
    ...(shownValue(el) !== undefined ? { v: String(shownValue(el)) } : {}),
    ...(el.sec ? { sec: true } : {}),
    ...(el.b !== undefined ? { b: el.b } : {}),
  };
}

/**
 * An element as a short line: `[12|form/submit] btn "Submit"`.
 *
 * @param el the element (or its summary)
 * @returns the line
 */
export function elementLine(el: { i?: number; ref?: string; r: string; t?: string }): string {
  const label = el.t ? ` ${JSON.stringify(el.t)}` : "";
  return `[${el.i || "-"}${el.ref ? `|${el.ref}` : ""}] ${el.r}${label}`;
}

/**
 * Elements one per line, as read prints them.
 *
 * @param els the elements
 * @returns the text
 */
export function foundLines(els: Element[]): string {
  return els.map((el) => agentLine(withoutChildren(el))).join("\n");
}

/** What an action reports. */
export interface ActReport {
  /** Always true: failures are errors. */
  ok: true;
  /** The verb. */
  action: string;
  /** The element acted on (absent for a point). */
  element?: ElementSummary;
  /** How it was carried out (accessible, synthesized...). */
  via: string;
  /** More about how. */
  detail?: string;
  /** The element is gone after the action (a closed dialog's button). */
  gone?: true;
  /** Why the effect could not be confirmed. */
  unverified?: string;
  /** The labels the last read showed and the action met, when they differ (a flipped toggle). */
  renamed?: { was: string; now: string };
  /** With no target: the window that held the focus, where the keys went. */
  focusIn?: { r: string; t: string };
  /** After a scroll: what the scrolled element shows now, and showed before. */
  inView?: { now: InView; was: InView | null };
  /** What the action changed (the library's `changes`, keyed by ref). */
  changes?: unknown[];
  /** Other fields the library's result carries (the changes the action caused). */
  [key: string]: unknown;
}

/**
 * An action's report from the library's result.
 *
 * @param verb the operation
 * @param res the library's result
 * @returns the report
 */
export function actReport(verb: string, res: ActResult): ActReport {
  const { element, via, detail, ...rest } = res as ActResult & Record<string, unknown>;
  return {
    ok: true,
    action: verb,
    ...(element ? { element: summary(element) } : {}),
    ...(element && !res.gone && stateWords(element).length
      ? { state: stateWords(element).join(" ") }
      : {}),
    via,
    ...(detail ? { detail } : {}),
    ...rest,
  };
}

/**
 * The one line an action prints: `ok click [12|form/submit] btn "Submit" via accessible`.
 *
 * @param r the report
 * @returns the line
 */
export function actLine(r: ActReport): string {
  const what = r.element
    ? ` ${elementLine(r.element)}${typeof r.state === "string" ? ` ${r.state}` : ""}`
    : "";
  const detail = r.detail ? ` (${r.detail})` : "";
  const gone = r.gone ? " (now gone)" : "";
  const unverified = r.unverified ? `; unverified: ${r.unverified}` : "";
  const renamed = r.renamed
    ? ` (named ${JSON.stringify(r.renamed.now)} when acted on; the last read showed ${
      JSON.stringify(r.renamed.was)
    })`
    : "";
  // Where the keys went matters when a dialog took them; a window is named only when the
  // element that had the focus is not (the element line says where they went).
  const focusIn = r.focusIn && (r.focusIn.r === "dialog" || (!r.element && r.focusIn.t))
    ? ` (the focus was in ${r.focusIn.r} ${JSON.stringify(r.focusIn.t)})`
    : "";
  const inView = r.inView ? `; ${inViewWords(r.inView.now, r.inView.was)}` : "";
  return `ok ${r.action}${what} via ${r.via}${detail}${renamed}${focusIn}${gone}${inView}${unverified}`;
}

/**
 * An action's report with or without the changes it caused.
 *
 * @param r the report
 * @param withChanges keep `changes`
 * @returns the report
 */
export function withChanges(r: ActReport, withChanges: boolean): ActReport {
  if (withChanges) return r;
  const { changes: _c, ...rest } = r;
  return rest as ActReport;
}

/**
 * The text of an action: its line, then (with `changes`) one line per change
 * (`+` added, `-` removed, `~` changed), as `diff` prints them.
 *
 * @param r the report
 * @param showChanges add the changes
 * @returns the text
 */
export function actText(r: ActReport, showChanges: boolean): string {
  const line = actLine(r);
  const changes = r.changes as Change[] | undefined;
  if (!changes) return line;
  // Boxes are already out unless asked for (the action's own diff): only what says nothing goes.
  const shown = trimChanges(changes, { bounds: true });
  if (!showChanges) return line + windowsComeAndGone(shown);
  // The line says it whether or not the changes follow: the next keys go elsewhere now.
  return `${line}${windowsComeAndGone(shown, { listed: true })}\n${renderChanges(shown, "agent")}`
    .trimEnd();
}

/** Roles whose coming or going changes where the next keys and clicks go. */
const WINDOW_ROLES: ReadonlySet<string> = new Set(["window", "dialog"]);

/**
 * What an action's line says without its changes: a window or dialog that
 * opened or closed (the next keys go to it, or no longer do).
 *
 * @param changes the action's changes
 * @param opts `listed`: the changes are printed below the line (no pointer to `--diff`)
 * @returns `; opened dialog "Save As" [save-as]` and the like, or ""
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { windowsComeAndGone } from "./render.ts";
 * assert.equal(
 *   windowsComeAndGone([{ type: "added", ref: "save-as", el: { i: 0, r: "dialog", t: "Save As" } }]),
 *   '; opened dialog "Save As" [save-as] (--diff shows what it holds)',
 * );
 * assert.equal(windowsComeAndGone([{ type: "removed", ref: "find", i: 4, r: "dialog", t: "Find" }]), '; closed dialog "Find"');
 * assert.equal(windowsComeAndGone([{ type: "changed", ref: "a", i: 1, changes: { t: ["x", "y"] } }]), "");
 * // A dialog in a new backdrop opened; a dialog inside a new window is part of that window.
 * assert.equal(
 *   windowsComeAndGone([
 *     { type: "added", ref: "group", el: { i: 0, r: "group" } },
 *     { type: "added", ref: "ask", el: { i: 0, r: "dialog", t: "Ask" }, up: "group" },
 *   ], { listed: true }),
 *   '; opened dialog "Ask" [ask]',
 * );
 * assert.equal(
 *   windowsComeAndGone([{ type: "added", ref: "a", el: { i: 0, r: "dialog", t: "A" } }], { listed: true }),
 *   '; opened dialog "A" [a]',
 * );
 * ```
 */
export function windowsComeAndGone(
  changes: readonly Change[],
  opts: { listed?: boolean } = {},
): string {
  const said: string[] = [];
  let opened = false;
  // A dialog inside a new wrapper (a web app's backdrop) opened too; one inside another
  // window or dialog that came or went with it is part of that one.
  type Came = Exclude<Change, { type: "changed" }>;
  const roleOf = new Map<string, Came>();
  for (const ch of changes) if (ch.type !== "changed") roleOf.set(`${ch.type} ${ch.ref}`, ch);
  const insideAnother = (ch: Came): boolean => {
    for (let up = ch.up; up !== undefined;) {
      const outer = roleOf.get(`${ch.type} ${up}`);
      if (!outer) return false;
      if (WINDOW_ROLES.has(outer.type === "added" ? outer.el.r : outer.r)) return true;
      up = outer.up;
    }
    return false;
  };
  for (const ch of changes) {
    if (ch.type === "changed" || insideAnother(ch)) continue;
    if (ch.type === "added" && WINDOW_ROLES.has(ch.el.r)) {
      opened = true;
      said.push(`opened ${ch.el.r}${ch.el.t ? ` ${JSON.stringify(ch.el.t)}` : ""} [${ch.ref}]`);
    } else if (ch.type === "removed" && WINDOW_ROLES.has(ch.r)) {
      said.push(`closed ${ch.r}${ch.t ? ` ${JSON.stringify(ch.t)}` : ""}`);
    }
  }
  if (said.length === 0) return "";
  return `; ${said.join("; ")}${opened && !opts.listed ? " (--diff shows what it holds)" : ""}`;
}

/**
 * One line per app: `"Chromium" pid=4242 windows=1 focused` (`unresponsive` when it did
 * not answer in time; `not on the accessibility bus (GTK 2): ...` for a process that shows
 * windows nobody can read, with what turns its accessibility on).
 *
 * @param apps the apps
 * @returns the text
 */
export function formatApps(apps: AppInfo[]): string {
  return apps.map((a) =>
    [
      JSON.stringify(a.name),
      `pid=${a.pid}`,
      a.windows !== undefined ? `windows=${a.windows}` : "",
      a.id ? `id=${a.id}` : "",
      a.focused ? "focused" : "",
      a.unresponsive ? "unresponsive" : "",
      a.offBus ? `not on the accessibility bus (${a.offBus.toolkit}): ${a.offBus.remedy}` : "",
    ].filter(Boolean).join(" ")
  ).join("\n");
}

/**
 * One line per window: `[3] "Checkout" app="Chromium" pid=4242 (0,0,1280,800) focused`.
 *
 * @param windows the windows
 * @returns the text
 */
export function formatWindows(windows: WindowInfo[]): string {
  return windows.map((w) =>
    [
      `[${w.id}]`,
      JSON.stringify(w.title),
      `app=${JSON.stringify(w.app)}`,
      `pid=${w.pid}`,
      w.b ? `(${w.b.join(",")})` : "",
      w.focused ? "focused" : "",
    ].filter(Boolean).join(" ")
  ).join("\n");
}
