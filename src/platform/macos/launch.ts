/**
 * Starting and ending apps on macOS. An app name, bundle id or `.app` path
 * goes to LaunchServices through `open`, which returns once the app is asked
 * to start; the app's process is not `open`'s child, so the launch finds it
 * by name. Anything else is a command, run as a detached process. Quitting
 * presses the app menu's Quit item through AX, as a user does: closing its
 * windows leaves most Mac apps running.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { StartedApp } from "../provider.ts";
import type { CFRef } from "../../ffi/macos/cf.ts";
import type { AxSession } from "./session.ts";

/** A bundle id: reverse-DNS, three parts at least (`com.apple.TextEdit`). */
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+){2,}$/;

/**
 * The `open` program: `/usr/bin/open`, or `$DESKTOP_MAC_OPEN` (the tests on
 * Linux name a stand-in, as `DESKTOP_AX_SHIM` names the frameworks').
 */
function openProgram(): string {
  try {
    return Deno.env.get("DESKTOP_MAC_OPEN") || "/usr/bin/open";
  } catch {
    return "/usr/bin/open"; // no --allow-env: the system's
  }
}

/** What a launch runs, and the app name to look for when `open` starts it. */
export interface LaunchPlan {
  /** The argument vector. */
  argv: string[];
  /** The app's name, when LaunchServices starts it (the process is then found by name). */
  name?: string;
  /** Whether `open` runs it (it exits once the app is asked to start). */
  viaOpen: boolean;
}

/**
 * How to start an app from what the user named.
 *
 * @param spec an app name (`TextEdit`), a bundle id (`com.apple.TextEdit`), an
 *   `.app` path, or a command with arguments
 * @param opener the `open` program (a test passes its own)
 * @returns the plan
 * @example
 * ```ts
 * import { launchPlan } from "./launch.ts";
 * console.log(launchPlan("com.apple.TextEdit").argv); // ["/usr/bin/open", "-b", "com.apple.TextEdit"]
 * console.log(launchPlan("Google Chrome").name); // "Google Chrome"
 * console.log(launchPlan("/usr/bin/say hello").viaOpen); // false
 * ```
 */
export function launchPlan(spec: string, opener = openProgram()): LaunchPlan {
  const s = spec.trim();
  if (s.endsWith(".app")) {
    const name = s.split("/").pop()!.slice(0, -".app".length);
    return { argv: [opener, "-a", s], name, viaOpen: true };
  }
  if (BUNDLE_ID.test(s)) {
    return { argv: [opener, "-b", s], name: s.split(".").pop()!, viaOpen: true };
  }
  // A path or anything with options is a command; a bare name (spaces allowed) is an app.
  if (s.startsWith("/") || s.startsWith("./") || /\s-/.test(s)) {
    return { argv: s.split(/\s+/), viaOpen: false };
  }
  return { argv: [opener, "-a", s], name: s, viaOpen: true };
}

/**
 * Starts an app. Through `open`, waits for it to hand over (a few seconds
 * at most): an app LaunchServices does not know is APP_NOT_FOUND here.
 *
 * @param spec what to start (see {@link launchPlan})
 * @param opener the `open` program
 * @returns the started process
 * @throws DesktopError APP_NOT_FOUND for an unknown app or command
 */
export async function startMacApp(spec: string, opener?: string): Promise<StartedApp> {
  const plan = launchPlan(spec, opener);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(plan.argv[0], {
      args: plan.argv.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (e) {
    throw new DesktopError("APP_NOT_FOUND", `cannot start ${plan.argv[0]}`, {
      suggestion: "Name an app (TextEdit), a bundle id (com.apple.TextEdit) or an .app path",
      cause: e,
    });
  }
  let code: number | null = null;
  const done = child.status.then((s) => (code = s.code));
  const why = new Response(child.stderr).text();
  if (plan.viaOpen) {
    await done;
    if (code !== 0) {
      throw new DesktopError("APP_NOT_FOUND", `no app "${spec}" to open`, {
        suggestion: "Check its name in /Applications, or pass its bundle id (com.apple.TextEdit)",
        details: { reason: (await why).trim().slice(0, 300) },
      });
    }
  } else {
    child.unref();
  }
  return {
    pid: child.pid,
    command: plan.argv,
    ...(plan.name ? { name: plan.name } : {}),
    owns: (pid) => pid === child.pid,
    exitCode: () => code,
  };
}

/**
 * Whether a process runs (a zombie does not).
 *
 * @param pid the process
 * @returns true while it runs
 */
export function macProcessRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    const out = new Deno.Command("ps", {
      args: ["-o", "stat=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const stat = new TextDecoder().decode(out.stdout).trim();
    return stat !== "" && !stat.startsWith("Z");
  } catch {
    return false;
  }
}

/**
 * Sends SIGTERM (or SIGKILL) to a process; one already gone is not an error.
 *
 * @param pid the process
 * @param force SIGKILL instead of SIGTERM
 */
export function macEndProcess(pid: number, force: boolean): void {
  // kill(2) reads 0 and negative pids as process groups (-1: every process): never an app.
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new DesktopError("INVALID_ARGS", `${pid} is not a process id`, {
      suggestion: "Pass the app's pid from list",
    });
  }
  try {
    Deno.kill(pid, force ? "SIGKILL" : "SIGTERM");
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/** A title that quits an app ("Quit TextEdit"), in the app menu. */
const QUIT_TITLE = /^quit\b/i;

/**
 * Asks an app to quit as a user does: presses the Quit item of its app menu
 * ("Quit TextEdit") through AX. Apps a user quits this way may still ask to
 * save their documents.
 *
 * @param s the AX session
 * @param pid the app
 * @returns 1 when a Quit item was pressed, 0 when the app has none
 */
export function pressQuit(s: AxSession, pid: number): number {
  using app = s.appElement(pid);
  const bar = s.copy(app.ptr, "AXMenuBar");
  if (bar.err !== 0 || !bar.value) return 0;
  using menubar = bar.value;
  return pressQuitBelow(s, menubar.ptr, 0);
}

/** Depth-first through menu bar (0), its items (1), their menus (2) and menu items (3). */
function pressQuitBelow(s: AxSession, el: CFRef, depth: number): number {
  if (s.read(el, "AXRole").value === "AXMenuItem") {
    const title = s.read(el, "AXTitle").value;
    if (typeof title === "string" && QUIT_TITLE.test(title)) {
      return s.perform(el, "AXPress") === 0 ? 1 : 0;
    }
  }
  if (depth >= 3) return 0;
  const c = s.copy(el, "AXChildren");
  if (c.err !== 0 || !c.value) return 0;
  // The array keeps its elements alive while the walk is below it.
  using kids = c.value;
  for (const k of s.cf.arrayItems(kids.ptr)) {
    if (k !== null && pressQuitBelow(s, k, depth + 1)) return 1;
  }
  return 0;
}
