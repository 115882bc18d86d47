/**
 * Apps that run but never joined the accessibility bus, and why: an app the
 * user asks for by name or pid, not on the bus, is looked up among the
 * processes so the error can say it runs and what would turn its
 * accessibility on (GTK 2 needs its bridge named in GTK_MODULES, Qt reads
 * QT_LINUX_ACCESSIBILITY_ALWAYS_ON, Java needs the ATK wrapper, Chromium and
 * Electron a flag), instead of saying no such app runs.
 *
 * @module
 */

import { nameMatches } from "../../model/scope.ts";

/** A process that runs a GUI toolkit but is not on the accessibility bus. */
export interface UnregisteredApp {
  pid: number;
  /** The process name (`/proc/PID/comm`). */
  name: string;
  /** The toolkit its mapped libraries name, when one is known. */
  toolkit: string;
  /** What turns accessibility on for that toolkit, or why nothing can. */
  remedy: string;
  /** False for a toolkit with no accessibility support at all (Tk, the X Toolkit). */
  canJoin: boolean;
}

/** Library names that tell the toolkit, the first match winning, with what enables it. */
const TOOLKITS: ReadonlyArray<{ lib: RegExp; toolkit: string; remedy: string; canJoin?: false }> = [
  {
    lib: /libgtk-x11-2\.0\.so/,
    toolkit: "GTK 2",
    remedy: "GTK 2 loads its accessibility bridge only with GTK_MODULES=gail:atk-bridge",
  },
  {
    lib: /libQt[56]Gui\.so/,
    toolkit: "Qt",
    remedy: "Qt joins the bus when one is running at its start, or with " +
      "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
  },
  {
    lib: /libawt_xawt\.so/,
    toolkit: "Java",
    remedy: "Java needs the ATK wrapper: -Djavax.accessibility.assistive_technologies=" +
      "org.GNOME.Accessibility.AtkWrapper (Debian: libatk-wrapper-java)",
  },
  {
    lib: /libgtk-(?:3\.so|4\.so)/,
    toolkit: "GTK",
    remedy: "GTK apps join the bus unless NO_AT_BRIDGE=1 was set, or they started on " +
      "another session bus (DBUS_SESSION_BUS_ADDRESS)",
  },
  {
    lib: /libtk8\.\d\.so/,
    toolkit: "Tk",
    remedy: "Tk has no accessibility support: its windows have no tree to read; use " +
      "screenshot, and click or type at points",
    canJoin: false,
  },
  {
    lib: /libXaw[37]?\.so|libXm\.so/,
    toolkit: "X Toolkit",
    remedy: "X Toolkit apps (Athena, Motif: xterm, xclock) have no accessibility support: " +
      "use screenshot, and click or type at points",
    canJoin: false,
  },
];

/** Electron and Chromium processes, known by their executable's name. */
const CHROMIUM_NAMES = /^(chrom(e|ium)|electron|code|brave|msedge)/i;

/**
 * The toolkit a process's memory map shows, with what enables its
 * accessibility; undefined for a process that maps no GUI toolkit.
 *
 * @param maps the text of `/proc/PID/maps`
 * @param name the process name: Chromium and Electron are known by it
 * @returns the toolkit and remedy, or undefined
 * @example
 * ```ts
 * import { toolkitOfMaps } from "./unregistered.ts";
 * const maps = "7f00-7f10 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0.2400.33";
 * console.log(toolkitOfMaps(maps, "hexchat")?.toolkit); // GTK 2
 * console.log(toolkitOfMaps("", "bash")); // undefined
 * ```
 */
export function toolkitOfMaps(
  maps: string,
  name: string,
): Omit<UnregisteredApp, "pid" | "name"> | undefined {
  // Chromium maps GTK 3 for its dialogs, but its accessibility is its own.
  if (CHROMIUM_NAMES.test(name) && maps) {
    return {
      toolkit: "Chromium",
      canJoin: true,
      remedy: "Chromium and Electron join only with ACCESSIBILITY_ENABLED=1 (or an assistive " +
        "technology already running) and read pages with --force-renderer-accessibility",
    };
  }
  for (const t of TOOLKITS) {
    if (t.lib.test(maps)) {
      return { toolkit: t.toolkit, remedy: t.remedy, canJoin: t.canJoin ?? true };
    }
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A running GUI process the scope names that is not on the bus: by pid, or by
 * a name its process name holds (case-insensitive). Processes of other users
 * (maps unreadable) and processes with no GUI toolkit are not considered.
 *
 * @param scope the app name or pid asked for
 * @param registered pids of the apps on the bus
 * @returns the process, or undefined when none runs (or /proc is unreadable)
 */
export function findUnregistered(
  scope: { app?: string; pid?: number },
  registered: ReadonlySet<number>,
): UnregisteredApp | undefined {
  const query = scope.app;
  let pids: number[];
  if (scope.pid !== undefined) pids = [scope.pid];
  else if (query) {
    try {
      pids = [...Deno.readDirSync("/proc")].map((e) => Number(e.name)).filter((n) =>
        Number.isInteger(n) && n > 0
      );
    } catch {
      return undefined;
    }
  } else return undefined;
  for (const pid of pids) {
    if (registered.has(pid) || pid === Deno.pid) continue;
    const name = readText(`/proc/${pid}/comm`)?.trim();
    if (!name || (query && !nameMatches(name, query))) continue;
    const maps = readText(`/proc/${pid}/maps`);
    if (maps === undefined) continue;
    const kit = toolkitOfMaps(maps, name);
    if (kit) return { pid, name, ...kit };
  }
  return undefined;
}

/**
 * The processes that show a window on the display but are not on the
 * accessibility bus and run a GUI toolkit: what `list` adds after the apps.
 *
 * @param withWindows pids that show a window (see windows.ts `pidsWithWindows`)
 * @param registered pids of the apps on the bus
 * @returns one entry per such process, by pid
 */
export function unregisteredWithWindows(
  withWindows: readonly number[],
  registered: ReadonlySet<number>,
): UnregisteredApp[] {
  return withWindows.flatMap((pid) => findUnregistered({ pid }, registered) ?? []);
}
