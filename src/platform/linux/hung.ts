/**
 * What can be known of an app that does not answer accessibility requests
 * without asking it: whether its process is stopped (then it cannot answer,
 * and waiting for it is pointless), the names it may go by (its process, the
 * script an interpreter runs, its windows' `WM_CLASS`), and whether one of its
 * windows holds the keyboard focus. A stopped Python app is `python3` to
 * /proc, but `fault_apps.py` on the accessibility bus and in `WM_CLASS`.
 *
 * @module
 */

import { X11 } from "./x11.ts";

/**
 * Whether a process is stopped (SIGSTOP, a terminal's Ctrl+Z, a debugger):
 * state `T` or `t` in /proc/PID/stat.
 *
 * @param pid the process
 * @returns true while it is stopped; false when it runs, or is gone or unknown
 */
export function processStopped(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
    return state === "T" || state === "t";
  } catch {
    return false;
  }
}

/** Interpreters whose app is named after the script they run (argv[1]). */
const INTERPRETER = /^(python[\d.]*|perl|ruby[\d.]*|node|gjs|lua[\d.]*|sh|bash)$/;

/**
 * Names a process may go by, from its command line: argv[0]'s base name
 * (Chromium rewrites its argv into one string: cut at the first space), and
 * for an interpreter the base name of the script it runs.
 *
 * @param argv the process's arguments (`/proc/PID/cmdline` split at NUL)
 * @returns the names, most telling first, none empty
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandNames } from "./hung.ts";
 * assert.deepEqual(commandNames(["/usr/bin/python3", "-u", "/opt/app/notes.py"]), ["notes.py", "python3"]);
 * assert.deepEqual(commandNames(["/usr/bin/gedit", "a.txt"]), ["gedit"]);
 * ```
 */
export function commandNames(argv: readonly string[]): string[] {
  const base = (s: string) => s.slice(s.lastIndexOf("/") + 1);
  const exe = base((argv[0] ?? "").split(" ")[0]);
  const names: string[] = [];
  if (INTERPRETER.test(exe)) {
    const script = argv.slice(1).find((a) => a !== "" && !a.startsWith("-"));
    if (script) names.push(base(script));
  }
  if (exe) names.push(exe);
  return names.filter((n, i) => n !== "" && names.indexOf(n) === i);
}

/** The process's command-line names ({@link commandNames}), else its /proc comm. */
function processNames(pid: number): string[] {
  try {
    const argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0");
    const names = commandNames(argv);
    if (names.length) return names;
    const comm = Deno.readTextFileSync(`/proc/${pid}/comm`).trim();
    return comm ? [comm] : [];
  } catch {
    return [];
  }
}

/**
 * The X11 `WM_CLASS` names (instance, class) of a process's top-level
 * windows. GTK sets the instance to the program name, which is also its
 * accessible app name; a stopped app's windows keep their properties.
 */
function windowClassNames(x: X11, pid: number): string[] {
  const managed = x.longs(x.root, "_NET_CLIENT_LIST");
  const out: string[] = [];
  for (const win of managed.length ? managed : x.children(x.root)) {
    const pids = x.longs(win, "_NET_WM_PID");
    if (pids.length === 0 || Number(pids[0]) !== pid) continue;
    const prop = x.property(win, "WM_CLASS");
    if (!prop || prop.format !== 8) continue;
    const text = new TextDecoder().decode(prop.bytes);
    for (const part of text.split("\0")) if (part && !out.includes(part)) out.push(part);
  }
  return out;
}

/**
 * The process whose window has the keyboard focus (`_NET_WM_PID` of the
 * focus window or its nearest ancestor that has one), 0 when none does.
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

/** What is known of apps that did not answer, read once per command. */
export interface SilentFacts {
  /** Names each silent app may go by, by pid, most telling first. */
  names: Map<number, string[]>;
  /** The process whose window has the keyboard focus (0: unknown or none). */
  focusPid: number;
}

/**
 * Reads the names of silent apps and the focus owner: /proc for the command
 * lines, the X display (when there is one) for `WM_CLASS` and the focus.
 *
 * @param pids the processes of the apps that did not answer
 * @returns their names and the focus owner
 */
export function silentFacts(pids: readonly number[]): SilentFacts {
  const names = new Map<number, string[]>();
  let focusPid = 0;
  let x: X11 | null = null;
  try {
    x = X11.open();
  } catch {
    // No X display (Wayland, or none): the process names only.
  }
  try {
    for (const pid of pids) {
      const own = x ? windowClassNames(x, pid) : [];
      const all = [...own, ...processNames(pid)];
      names.set(pid, all.filter((n, i) => all.findIndex((m) => m === n) === i));
    }
    if (x) focusPid = focusOwner(x);
  } finally {
    x?.[Symbol.dispose]();
  }
  return { names, focusPid };
}
