/**
 * Starting and ending app processes on Linux: a launch names a desktop file
 * id, an app's menu name, or a command; the process is detached so it
 * outlives the command that started it, with accessibility switched on for
 * the toolkits that need telling.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { StartedApp } from "../provider.ts";
import { type DesktopEntry, execArgv, parseDesktopEntry, splitCommand } from "./desktop_entry.ts";
import { readInputSync } from "../../io/bounded_read.ts";

/** A desktop entry is a small text file: at most 256 KB, a regular file. */
const DESKTOP_ENTRY = {
  what: "desktop entry",
  code: "APP_NOT_FOUND",
  suggestion: "Start the app by its command instead",
  maxBytes: 256 * 1024,
} as const;

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * GTK modules with the accessibility bridge added: GTK 2 apps (GIMP, Pidgin)
 * join the accessibility bus only when `gail` and `atk-bridge` are loaded;
 * GTK 3 has both built in and skips the names. Modules already asked for stay.
 *
 * @param current the inherited GTK_MODULES, if any
 * @returns the list to launch with
 * @example
 * ```ts
 * import { withA11yModules } from "./launch.ts";
 * console.log(withA11yModules("canberra-gtk-module")); // canberra-gtk-module:gail:atk-bridge
 * ```
 */
export function withA11yModules(current: string | undefined): string {
  const mods = (current ?? "").split(/[:,]/).filter((m) => m !== "");
  for (const m of ["gail", "atk-bridge"]) if (!mods.includes(m)) mods.push(m);
  return mods.join(":");
}

/** Environment that turns accessibility on in Chromium/Electron, Qt, GTK 2 and older GNOME apps. */
function a11yEnv(): Record<string, string> {
  return {
    ACCESSIBILITY_ENABLED: "1",
    GNOME_ACCESSIBILITY: "1",
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
    QT_ACCESSIBILITY: "1",
    GTK_MODULES: withA11yModules(env("GTK_MODULES")),
  };
}

/** Directories holding desktop files, most specific first (XDG base directories). */
function applicationDirs(): string[] {
  const home = env("HOME");
  const dataHome = env("XDG_DATA_HOME") ?? (home ? `${home}/.local/share` : undefined);
  const dataDirs = (env("XDG_DATA_DIRS") || "/usr/local/share:/usr/share").split(":");
  return [dataHome, ...dataDirs].filter((d): d is string => !!d).map((d) => `${d}/applications`);
}

/** Every readable desktop entry, the first of each id winning. */
function desktopEntries(): DesktopEntry[] {
  const seen = new Map<string, DesktopEntry>();
  for (const dir of applicationDirs()) {
    let names: string[] = [];
    try {
      names = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".desktop")).map((e) =>
        e.name
      );
    } catch {
      continue;
    }
    for (const name of names) {
      if (seen.has(name)) continue;
      try {
        // A regular file of bounded size only: a FIFO named *.desktop would block the read.
        const bytes = readInputSync(`${dir}/${name}`, DESKTOP_ENTRY);
        const entry = parseDesktopEntry(name, new TextDecoder().decode(bytes));
        if (entry) seen.set(name, entry);
      } catch {
        // unreadable: skip
      }
    }
  }
  return [...seen.values()];
}

/** The path of an executable (as given when it holds a slash), or null. */
function which(cmd: string): string | null {
  const candidates = cmd.includes("/")
    ? [cmd]
    : (env("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(":").map((d) => `${d}/${cmd}`);
  for (const path of candidates) {
    try {
      const st = Deno.statSync(path);
      if (st.isFile && ((st.mode ?? 0o111) & 0o111)) return path;
    } catch {
      // not here
    }
  }
  return null;
}

/** What a launch spec resolves to. */
export interface LaunchTarget {
  /** The argument vector. */
  argv: string[];
  /** The app's name from its desktop entry, when it came from one. */
  name?: string;
  /** The desktop file id, when it came from one. */
  desktopId?: string;
}

/**
 * Resolves what to start: a desktop file id (`org.gnome.Calculator` or with
 * `.desktop`), else an app's menu name (case-insensitive), else a command.
 *
 * @param spec what the user typed
 * @returns the argument vector and where it came from
 * @throws DesktopError APP_NOT_FOUND when nothing matches (with near names as candidates)
 */
export function resolveLaunch(spec: string): LaunchTarget {
  const text = spec.trim();
  if (!text) {
    throw new DesktopError("INVALID_ARGS", "launch needs an app name, desktop id or command", {
      suggestion: "Pass e.g. `desktop launch mousepad` or `desktop launch org.gnome.Calculator`",
    });
  }
  const entries = desktopEntries();
  const id = text.endsWith(".desktop") ? text : `${text}.desktop`;
  const byId = entries.find((e) => e.id === id);
  const byName = entries.filter((e) => e.name.toLowerCase() === text.toLowerCase());
  const entry = byId ?? (byName.length === 1 ? byName[0] : byName.find((e) => !e.hidden));
  if (entry) {
    const argv = execArgv(entry.exec);
    if (argv.length && which(argv[0])) return { argv, name: entry.name, desktopId: entry.id };
  }
  const argv = splitCommand(text);
  if (argv.length && which(argv[0])) return { argv };
  const near = entries.filter((e) =>
    !e.hidden &&
    (e.name.toLowerCase().includes(text.toLowerCase()) ||
      e.id.toLowerCase().includes(text.toLowerCase()))
  ).slice(0, 10);
  throw new DesktopError("APP_NOT_FOUND", `no app or command "${text}" to launch`, {
    suggestion: near.length
      ? "Launch one of the candidates by name or desktop id"
      : "Pass an installed app's name, its desktop file id, or a command on PATH",
    candidates: near.map((e) => ({ name: `${e.name} (${e.id})`, pid: 0 })),
  });
}

/** The parent pid of a process, from /proc (0 when unknown). */
function parentOf(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) || 0;
  } catch {
    return 0;
  }
}

/**
 * Starts an app, detached from this process (its own session; no stdio), so
 * it keeps running after the command exits.
 *
 * @param spec desktop id, app name or command
 * @returns the started process
 * @throws DesktopError APP_NOT_FOUND, ACTION_FAILED when it cannot be started
 */
export function startApp(spec: string): StartedApp {
  const target = resolveLaunch(spec);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(target.argv[0], {
      args: target.argv.slice(1),
      env: a11yEnv(),
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
  } catch (e) {
    throw new DesktopError(
      "ACTION_FAILED",
      `cannot start ${target.argv[0]}: ${(e as Error).message}`,
      {
        suggestion: "Check that the program runs from a terminal",
        cause: e,
      },
    );
  }
  let exit: number | null = null;
  child.status.then((s) => (exit = s.code)).catch(() => {});
  child.unref();
  const pid = child.pid;
  return {
    pid,
    command: target.argv,
    ...(target.name ? { name: target.name } : {}),
    owns(other: number): boolean {
      // The process itself or one it started (launcher scripts, forking apps).
      for (let p = other, hops = 0; p > 1 && hops < 16; p = parentOf(p), hops++) {
        if (p === pid) return true;
      }
      return false;
    },
    exitCode: () => exit,
  };
}

/**
 * Whether a process is alive (a zombie counts as gone).
 *
 * @param pid the process
 * @returns true while it runs
 */
export function processRunning(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * Sends a signal to a process; a process already gone is not an error.
 *
 * @param pid the process
 * @param signal SIGTERM, SIGKILL, or SIGCONT (a stopped process acts on a SIGTERM once continued)
 */
export function signalProcess(pid: number, signal: "SIGTERM" | "SIGKILL" | "SIGCONT"): void {
  // kill(2) reads 0 and negative pids as process groups (-1: every process): never an app.
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new DesktopError("INVALID_ARGS", `${pid} is not a process id`, {
      suggestion: "Pass the app's pid from list",
    });
  }
  try {
    Deno.kill(pid, signal);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    if (e instanceof Deno.errors.PermissionDenied) {
      throw new DesktopError("PERMISSION_DENIED", `not allowed to end process ${pid}`, {
        suggestion: "Run as the user who owns the app",
        cause: e,
      });
    }
    throw e;
  }
}
