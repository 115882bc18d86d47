/**
 * A private, headless Linux desktop for end-to-end tests: Xvfb on a free
 * display, a private D-Bus session bus, the AT-SPI bus launcher, and one real
 * app with accessibility on. Everything runs in its own process group and
 * temporary directory, so tests never touch the user's session and
 * `stop()` leaves no orphans.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/**
 * Apps the harness knows how to start: the widget factories and Chromium, and
 * the real-app corpus (apps nobody here built for, from Debian's packages).
 */
export type DesktopApp =
  | "gtk3-widget-factory"
  | "gtk4-widget-factory"
  | "chromium"
  | "mousepad"
  | "gnome-calculator"
  | "evince"
  | "thunar"
  | "firefox-esr"
  | "libreoffice-writer"
  | "libreoffice-calc"
  | "featherpad"
  | "keepassxc"
  | "qt6-notes"
  | "zenity"
  | "gnome-system-monitor"
  | "nautilus"
  | "geany"
  | "xfce4-terminal"
  | "eog"
  | "dconf-editor"
  | "pcmanfm-qt"
  | "gnome-clocks"
  | "abiword"
  | "gnome-font-viewer"
  | "gnome-text-editor"
  | "kwrite"
  | "kcalc"
  | "galculator"
  | "meld"
  | "qpdfview"
  | "konsole"
  | "gnome-characters"
  | "lxappearance"
  | "gedit"
  | "java-swing"
  | "gtk3-script"
  | "qt6-script"
  | "gtk3-demo"
  | "gtk4-demo";

/** Options of {@link startDesktop}. */
export interface DesktopOptions {
  /** Which app to run. */
  app: DesktopApp;
  /**
   * What to open: a URL or local file (Chromium, Firefox), a file (mousepad,
   * evince, LibreOffice, featherpad, geany, eog), a folder (thunar, nautilus, pcmanfm-qt), or zenity's arguments
   * joined by NUL characters (after `--forms` unless the first one is
   * `--file-selection`), or the Python GTK 3 or PyQt6 script to run (`gtk3-script`, `qt6-script`).
   */
  url?: string;
  /** Extra environment for the app. */
  extraEnv?: Record<string, string>;
  /** How long to wait for the app to register on the accessibility bus (ms). */
  registerTimeoutMs?: number;
  /**
   * Wait this long after starting the app before the first look at the
   * accessibility bus (ms, default 0). An ATK-bridge app (GTK3, Chromium)
   * builds its object cache when a client first contacts it; a page that has
   * loaded by then is cached whole, one that loads later may stay out of it.
   */
  firstContactDelayMs?: number;
  /**
   * The display server: `x11` (Xvfb, the default) or `mutter` (GNOME's
   * compositor headless on Wayland, no X at all; apps run with their Wayland
   * backends).
   */
  session?: "x11" | "mutter";
}

/** An app running on a test desktop. */
export interface TestApp {
  /** The registered process id. */
  readonly pid: number;
  /** The app's accessible name. */
  readonly appName: string;
  /** The last lines the app printed on stderr. */
  appLog(): string;
  /** Stops the app (SIGSTOP), resumes it (SIGCONT) or kills it. */
  signalApp(signal: "SIGSTOP" | "SIGCONT" | "SIGKILL"): void;
}

/** A running test desktop. */
export interface TestDesktop extends AsyncDisposable {
  /** Environment for subprocesses that talk to this desktop (DISPLAY, D-Bus address...). */
  readonly env: Record<string, string>;
  /** The app's process id. */
  readonly pid: number;
  /** The app's accessible name, as `--app` takes it. */
  readonly appName: string;
  /** The X display, e.g. `:3`. */
  readonly display: string;
  /** The last lines the app printed on stderr (for failure messages). */
  appLog(): string;
  /** Stops the app (SIGSTOP) or resumes it (SIGCONT), for unresponsiveness tests. */
  signalApp(signal: "SIGSTOP" | "SIGCONT" | "SIGKILL"): void;
  /**
   * Starts one more app on this desktop and waits until it registers (apps that
   * allow one instance per session, e.g. GtkApplication ones, cannot run twice).
   */
  startApp(opts: DesktopOptions): Promise<TestApp>;
  /** Kills every process of the desktop and removes its files. Safe to call twice. */
  stop(): Promise<void>;
}

const LAUNCHER = "/usr/libexec/at-spi-bus-launcher";
const TOOLS = ["Xvfb", "dbus-daemon", "setsid"];
const APP_BINARIES: Record<DesktopApp, string> = {
  "gtk3-widget-factory": "gtk3-widget-factory",
  "gtk4-widget-factory": "gtk4-widget-factory",
  chromium: "chromium",
  mousepad: "mousepad",
  "gnome-calculator": "gnome-calculator",
  evince: "evince",
  thunar: "thunar",
  "firefox-esr": "firefox-esr",
  "libreoffice-writer": "soffice",
  "libreoffice-calc": "soffice",
  featherpad: "featherpad",
  keepassxc: "keepassxc",
  "qt6-notes": "python3",
  zenity: "zenity",
  "gnome-system-monitor": "gnome-system-monitor",
  nautilus: "nautilus",
  geany: "geany",
  "xfce4-terminal": "xfce4-terminal",
  eog: "eog",
  "dconf-editor": "dconf-editor",
  "pcmanfm-qt": "pcmanfm-qt",
  "gnome-clocks": "gnome-clocks",
  abiword: "abiword",
  "gnome-font-viewer": "gnome-font-viewer",
  "gnome-text-editor": "gnome-text-editor",
  kwrite: "kwrite",
  kcalc: "kcalc",
  galculator: "galculator",
  meld: "meld",
  qpdfview: "qpdfview",
  konsole: "konsole",
  "gnome-characters": "gnome-characters",
  lxappearance: "lxappearance",
  gedit: "gedit",
  "java-swing": "java",
  "gtk3-script": "python3",
  "qt6-script": "python3",
  "gtk3-demo": "gtk3-demo",
  "gtk4-demo": "gtk4-demo",
};

/** The repository root (for running cli.ts and the probe). */
export const REPO_ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

function onPath(bin: string): boolean {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    try {
      if (Deno.statSync(`${dir}/${bin}`).isFile) return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/** Which of the tools the harness needs are missing (empty on a ready machine). */
export function missingDesktopTools(app?: DesktopApp): string[] {
  const missing = TOOLS.filter((t) => !onPath(t));
  try {
    Deno.statSync(LAUNCHER);
  } catch {
    missing.push(LAUNCHER);
  }
  if (app && !onPath(APP_BINARIES[app])) missing.push(APP_BINARIES[app]);
  return missing;
}

let warned = false;

/**
 * Whether e2e tests should run here: true on Linux (where `scripts/run`
 * installs the tools, and a missing tool must fail loudly in
 * {@link startDesktop}), false elsewhere, with a one-time message.
 */
export function hasDesktopTools(): boolean {
  if (Deno.build.os === "linux") return true;
  if (!warned) {
    warned = true;
    console.error(`e2e: the Linux test desktop needs Linux (this is ${Deno.build.os}); ignoring`);
  }
  return false;
}

/** A child process in its own process group (started through setsid). */
class Group {
  readonly child: Deno.ChildProcess;
  readonly name: string;
  #done = false;

  constructor(
    name: string,
    cmd: string,
    args: string[],
    env: Record<string, string>,
    stdout: boolean,
    log?: string,
  ) {
    this.name = name;
    // The app's own messages go to the log file for failure reports, straight
    // from the shell: a pipe drained by this process would stall the app
    // whenever this process blocks in a synchronous FFI call (a libatspi walk)
    // while the app writes a burst of warnings.
    const argv = log ? ["sh", "-c", 'exec "$@" 2>>"$0"', log, cmd, ...args] : [cmd, ...args];
    this.child = new Deno.Command("setsid", {
      args: argv,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: stdout ? "piped" : "null",
      stderr: "null",
    }).spawn();
    this.child.status.then(() => (this.#done = true));
  }

  get pid(): number {
    return this.child.pid;
  }

  get exited(): boolean {
    return this.#done;
  }

  signal(sig: Deno.Signal): void {
    try {
      Deno.kill(-this.child.pid, sig); // the whole group
    } catch {
      try {
        this.child.kill(sig);
      } catch {
        // already gone
      }
    }
  }

  async stop(): Promise<void> {
    if (!this.#done) {
      this.signal("SIGCONT");
      this.signal("SIGTERM");
      const t = setTimeout(() => this.signal("SIGKILL"), 2000);
      await this.child.status;
      clearTimeout(t);
    }
    // Grandchildren that outlived the leader (renderers, registryd) still hold the group id.
    try {
      Deno.kill(-this.child.pid, "SIGKILL");
    } catch {
      // the group is empty
    }
  }
}

/**
 * Kills the desktop's process groups (listed in `dir/groups`) and removes
 * `dir` if this process dies without calling stop (killed, crashed, Ctrl+C),
 * so no Xvfb or browser outlives its test. Exits quietly once stop removed `dir`.
 */
const WATCHDOG = `
parent=$1; dir=$2
while kill -0 "$parent" 2>/dev/null && [ -d "$dir" ]; do sleep 1; done
[ -d "$dir" ] || exit 0
for g in $(cat "$dir/groups" 2>/dev/null); do kill -9 "-$g" 2>/dev/null; done
rm -rf "$dir"
`;

function startWatchdog(dir: string): void {
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", WATCHDOG, "watchdog", String(Deno.pid), dir],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  child.unref(); // never keeps the test process alive
}

/** The last 40 lines of a log file ("" when missing). */
function tail(path: string): string {
  try {
    return Deno.readTextFileSync(path).split("\n").slice(-40).join("\n");
  } catch {
    return "";
  }
}

/** Reads the first line a child prints on stdout, within `ms`. */
async function firstLine(g: Group, ms: number): Promise<string> {
  const reader = g.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  const deadline = Date.now() + ms;
  try {
    while (!buf.includes("\n")) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const next = await Promise.race([
        reader.read(),
        new Promise<{ done: true; value: undefined }>((r) => {
          timer = setTimeout(() => r({ done: true, value: undefined }), left);
        }),
      ]);
      clearTimeout(timer);
      if (next.done) break;
      buf += next.value;
    }
  } finally {
    reader.releaseLock();
  }
  // Keep draining so the child never blocks on a full pipe.
  g.child.stdout.pipeTo(new WritableStream()).catch(() => {});
  const line = buf.split("\n")[0].trim();
  if (!line) throw new Error(`${g.name} printed nothing within ${ms} ms`);
  return line;
}

/** Whether process `pid` belongs to process group `group` (Linux /proc). */
function inGroup(pid: number, group: number): boolean {
  if (pid === group) return true;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[2]) === group;
  } catch {
    return false;
  }
}

/** Whether a path exists. */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function baseEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "LC_ALL", "USER", "TERM", "DENO_DIR", "DENO_INSTALL_ROOT"];
  const env: Record<string, string> = {};
  for (const k of keep) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return env;
}

/**
 * Whether a process runs (exists and is not a zombie), from /proc.
 *
 * @param pid the process id
 * @returns false once it has exited
 */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * The environment of a Qt app on the test desktop: its accessibility on
 * whatever the session says, and a home and settings of its own.
 */
function qtAppEnv(dir: string): Record<string, string> {
  return { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1", HOME: dir, XDG_CONFIG_HOME: `${dir}/xdg-config` };
}

function appCommand(
  opts: DesktopOptions,
  dir: string,
): { cmd: string; args: string[]; env: Record<string, string> } {
  switch (opts.app) {
    case "gtk3-widget-factory":
      return { cmd: "gtk3-widget-factory", args: [], env: {} };
    case "gtk4-widget-factory":
      // GTK 4 queues its AT-SPI registration (the Embed call) with g_idle_add,
      // at idle priority (200), below the frame clock's redraws (120). Under
      // Xvfb the default GL renderer draws through Mesa's software rasterizer
      // (llvmpipe) and the factory's spinners keep asking for frames, so a
      // redraw is always pending and the idle never runs: the app never
      // registers (seen: main thread always inside gsk_renderer_render ->
      // gdk_draw_context_end_frame -> swrast_dri). Cairo frames are cheap, the
      // loop goes idle between them, and it registers within a second.
      return { cmd: "gtk4-widget-factory", args: [], env: { GSK_RENDERER: "cairo" } };
    case "chromium": {
      const url = opts.url ?? "about:blank";
      const page = /^[a-z]+:/i.test(url) ? url : `file://${url}`;
      return {
        cmd: "chromium",
        args: [
          "--force-renderer-accessibility",
          "--no-sandbox",
          "--test-type", // no infobar about --no-sandbox
          "--disable-gpu",
          "--no-first-run",
          "--no-default-browser-check",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--disable-features=Translate,MediaRouter",
          "--password-store=basic",
          "--window-position=0,0",
          "--window-size=1200,900",
          `--user-data-dir=${dir}/chromium-profile`,
          page,
        ],
        env: { ACCESSIBILITY_ENABLED: "1" },
      };
    }
    case "mousepad":
      // Settings in memory: a session left by a killed run must not bring up
      // mousepad's "restore the previous session?" question in the next one.
      return {
        cmd: opts.app,
        args: opts.url ? [opts.url] : [],
        env: { GSETTINGS_BACKEND: "memory" },
      };
    case "keepassxc":
      // Its single-instance lock and socket live in the temp dir: one per desktop.
      return { cmd: "keepassxc", args: [], env: { TMPDIR: dir } };
    case "evince":
    case "featherpad":
      return { cmd: opts.app, args: opts.url ? [opts.url] : [], env: {} };
    case "gnome-calculator":
      // GTK 4: cairo frames let the registration idle run under Xvfb (see above).
      return { cmd: "gnome-calculator", args: [], env: { GSK_RENDERER: "cairo" } };
    case "thunar":
      return { cmd: "thunar", args: [opts.url ?? dir], env: {} };
    case "nautilus":
      // GTK 4: a folder in a grid view, a path bar; cairo frames as for the calculator.
      return {
        cmd: "nautilus",
        args: ["--new-window", opts.url ?? dir],
        env: { GSK_RENDERER: "cairo", GSETTINGS_BACKEND: "memory" },
      };
    case "geany":
      // GTK 3: its own configuration directory, and no socket shared with another instance.
      return {
        cmd: "geany",
        args: [
          "--config",
          `${dir}/geany-config`,
          "--new-instance",
          ...(opts.url ? [opts.url] : []),
        ],
        env: {},
      };
    case "xfce4-terminal":
      // GTK 3 and VTE: a plain shell with a short prompt, in its own process.
      return {
        cmd: "xfce4-terminal",
        args: [
          "--disable-server",
          `--default-working-directory=${dir}`,
          "--command=bash --norc --noprofile",
        ],
        env: { PS1: "$ ", XDG_CONFIG_HOME: `${dir}/xdg-config` },
      };
    case "eog":
      // GTK 3: an image with its properties in the side pane (shown by default settings).
      return {
        cmd: "eog",
        args: opts.url ? [opts.url] : [],
        env: { GSETTINGS_BACKEND: "memory" },
      };
    case "pcmanfm-qt":
      // Qt 5: a file manager whose icon view is a table of hidden columns; its own config dir.
      return {
        cmd: "pcmanfm-qt",
        args: opts.url ? [opts.url] : [],
        env: { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1", XDG_CONFIG_HOME: `${dir}/xdg-config` },
      };
    case "gnome-clocks":
      // GTK 4 and libadwaita: cairo frames (see above), settings in memory.
      return {
        cmd: "gnome-clocks",
        args: [],
        env: { GSK_RENDERER: "cairo", GSETTINGS_BACKEND: "memory" },
      };
    case "gnome-characters":
      // GTK 4 and libadwaita through GJS: cairo frames, settings in memory.
      return {
        cmd: "gnome-characters",
        args: [],
        env: { GSK_RENDERER: "cairo", GSETTINGS_BACKEND: "memory", HOME: dir },
      };
    case "lxappearance":
      // GTK 2: its accessibility bridge loads only when GTK_MODULES names it.
      return { cmd: "lxappearance", args: [], env: { GTK_MODULES: "gail:atk-bridge", HOME: dir } };
    case "abiword":
      // GTK 3: a word processor whose toolbars hold combos inside tooltip boxes.
      return { cmd: "abiword", args: opts.url ? [opts.url] : [], env: { HOME: dir } };
    case "gnome-font-viewer":
      // GTK 4: the installed fonts as a grid view; cairo frames (see above).
      return { cmd: "gnome-font-viewer", args: [], env: { GSK_RENDERER: "cairo" } };
    case "gnome-text-editor":
      // GTK 4: an editor of its own (no other instance takes the window), settings in memory.
      return {
        cmd: "gnome-text-editor",
        args: ["--standalone", ...(opts.url ? [opts.url] : [])],
        env: { GSK_RENDERER: "cairo", GSETTINGS_BACKEND: "memory", HOME: dir },
      };
    case "kwrite":
      // KDE Frameworks 5 (Qt 5): a home and settings of its own.
      return {
        cmd: "kwrite",
        args: opts.url ? [opts.url] : [],
        env: qtAppEnv(dir),
      };
    case "kcalc":
      // KDE Frameworks 5 (Qt 5): a home and settings of its own.
      return {
        cmd: "kcalc",
        args: [],
        env: qtAppEnv(dir),
      };
    case "meld":
      // GTK 3 (Python): settings in memory, a home of its own.
      return {
        cmd: "meld",
        args: [],
        env: { GSETTINGS_BACKEND: "memory", HOME: dir, XDG_CONFIG_HOME: `${dir}/xdg-config` },
      };
    case "qpdfview":
      // Qt 5: a document viewer, a home and settings of its own.
      return {
        cmd: "qpdfview",
        args: opts.url ? [opts.url] : [],
        env: qtAppEnv(dir),
      };
    case "konsole":
      // KDE Frameworks 5 (Qt 5): a terminal with a home and settings of its own.
      return {
        cmd: "konsole",
        args: ["--separate", "--workdir", dir],
        env: { ...qtAppEnv(dir), SHELL: "/bin/sh", PS1: "$ " },
      };
    case "gtk3-demo":
      // GTK 3's own demos; `url` names the one to run alone (`editable_cells`).
      return {
        cmd: "gtk3-demo",
        args: opts.url ? ["--run", opts.url] : [],
        env: { GSETTINGS_BACKEND: "memory", HOME: dir },
      };
    case "gtk4-demo":
      // GTK 4's own demos; `url` names the one to run alone (`dropdown`).
      return {
        cmd: "gtk4-demo",
        args: opts.url ? ["--run", opts.url] : [],
        env: { GSETTINGS_BACKEND: "memory", HOME: dir, GSK_RENDERER: "cairo" },
      };
    case "galculator":
      // GTK 3: settings in a home of its own.
      return {
        cmd: "galculator",
        args: [],
        env: { HOME: dir, XDG_CONFIG_HOME: `${dir}/xdg-config` },
      };
    case "gedit":
      // GTK 3: an editor of its own, settings in memory.
      return {
        cmd: "gedit",
        args: ["--standalone", ...(opts.url ? [opts.url] : [])],
        env: { GSETTINGS_BACKEND: "memory", HOME: dir },
      };
    case "java-swing":
      // Java Swing through the ATK wrapper (tests/fixtures/java), in source-file mode.
      return {
        cmd: "java",
        args: [
          "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
          "-cp",
          "/usr/share/java/java-atk-wrapper.jar",
          "-Djava.library.path=/usr/lib/x86_64-linux-gnu/jni",
          `${REPO_ROOT}tests/fixtures/java/ShippingForm.java`,
        ],
        env: {},
      };
    case "dconf-editor":
      // GTK 3: the installed schemas as folders of list rows; settings in memory.
      return { cmd: "dconf-editor", args: [], env: { GSETTINGS_BACKEND: "memory" } };
    case "gnome-system-monitor":
      // GTK 3 (gtkmm): a process table whose name column packs an icon and a text renderer.
      return { cmd: "gnome-system-monitor", args: [], env: { GSETTINGS_BACKEND: "memory" } };
    case "firefox-esr": {
      const url = opts.url ?? "about:blank";
      const page = /^[a-z]+:/i.test(url) ? url : `file://${url}`;
      return {
        cmd: "firefox-esr",
        args: ["--no-remote", "--profile", `${dir}/firefox-profile`, page],
        env: { MOZ_ENABLE_WAYLAND: "0", GNOME_ACCESSIBILITY: "1" },
      };
    }
    case "libreoffice-writer":
    case "libreoffice-calc":
      return {
        cmd: "soffice",
        args: [
          `-env:UserInstallation=file://${dir}/lo-profile`,
          "--norestore",
          "--nologo",
          // Without a file, --nodefault would leave no window at all.
          ...(opts.url ? ["--nodefault", opts.url] : [
            opts.app === "libreoffice-calc" ? "--calc" : "--writer",
          ]),
        ],
        env: { SAL_USE_VCLPLUGIN: "gtk3" },
      };
    case "qt6-notes":
      // A PyQt6 app (tests/fixtures/qt6): Qt 6.4 registers only when a screen
      // reader is on (org.a11y.Status) or with this variable.
      return {
        cmd: "/usr/bin/python3",
        args: [`${REPO_ROOT}tests/fixtures/qt6/notes.py`],
        env: { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1" },
      };
    case "gtk3-script":
      return { cmd: "/usr/bin/python3", args: [opts.url ?? ""], env: {} };
    case "qt6-script":
      // A PyQt6 script given as `url`, registered on the bus as qt6-notes is.
      return {
        cmd: "/usr/bin/python3",
        args: [opts.url ?? ""],
        env: { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1" },
      };
    case "zenity": {
      // A dialog type first (`--file-selection`, `--question`...) picks that dialog; else a form.
      const args = (opts.url ?? "").split("\0").filter(Boolean);
      const dialog = /^--(file-selection|question|info|warning|error|entry)$/.test(args[0] ?? "");
      return { cmd: "zenity", args: dialog ? args : ["--forms", ...args], env: {} };
    }
  }
}

interface ProbeApp {
  name: string;
  pid: number;
  windows?: number;
}

/** Lists apps on the desktop's bus from a subprocess (the test process has its own bus). */
async function probeApps(env: Record<string, string>): Promise<ProbeApp[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}tests/harness/list_apps.ts`],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  if (out.code !== 0) return [];
  try {
    return JSON.parse(new TextDecoder().decode(out.stdout)) as ProbeApp[];
  } catch {
    return [];
  }
}

/**
 * Starts a private desktop running one app, and waits until the app is
 * registered on the accessibility bus with at least one window.
 *
 * @param opts which app (and page) to run
 * @returns the running desktop; dispose it (or call stop) to tear it down
 */
export async function startDesktop(opts: DesktopOptions): Promise<TestDesktop> {
  const missing = missingDesktopTools(opts.app);
  if (missing.length) {
    throw new Error(`the test desktop needs: ${missing.join(", ")} (scripts/run installs them)`);
  }
  const dir = await Deno.makeTempDir({ prefix: "desktop-e2e-" });
  const runtime = `${dir}/run`;
  await Deno.mkdir(runtime, { mode: 0o700 });
  const groups: Group[] = [];
  // Process groups the watchdog must kill if this process dies without stop().
  const track = (g: Group) => {
    groups.push(g);
    Deno.writeTextFileSync(`${dir}/groups`, groups.map((x) => x.pid).join("\n"));
    return g;
  };
  startWatchdog(dir);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const g of [...groups].reverse()) await g.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    const env = baseEnv();
    env.XDG_RUNTIME_DIR = runtime; // the a11y bus socket lands here, not in a shared ~/.cache
    // -noreset: an X server resets when its last client disconnects, which
    // deletes root window properties. at-spi-bus-launcher publishes the
    // accessibility bus address as the root property AT_SPI_BUS and
    // disconnects; Qt's bridge connects through that property (without it Qt 5
    // does not register), so the server must keep it, as a desktop with a
    // window manager does.
    const wayland = opts.session === "mutter";
    let display = "";
    if (!wayland) {
      const xvfb = new Group(
        "Xvfb",
        "Xvfb",
        [
          "-noreset",
          "-displayfd",
          "1",
          "-screen",
          "0",
          "1280x1024x24",
          "-nolisten",
          "tcp",
        ],
        env,
        true,
      );
      track(xvfb);
      display = `:${await firstLine(xvfb, 10000)}`;
      env.DISPLAY = display;
    }

    const dbus = new Group(
      "dbus-daemon",
      "dbus-daemon",
      [
        "--session",
        "--nofork",
        "--print-address=1",
        `--address=unix:path=${runtime}/bus`,
      ],
      env,
      true,
    );
    track(dbus);
    env.DBUS_SESSION_BUS_ADDRESS = await firstLine(dbus, 10000);

    track(new Group("at-spi-bus-launcher", LAUNCHER, ["--launch-immediately"], env, false));
    if (wayland) {
      // GNOME's compositor, headless, Wayland only: no X server anywhere in this session.
      const name = "wayland-test";
      track(
        new Group(
          "mutter",
          "mutter",
          [
            "--headless",
            "--wayland",
            "--no-x11",
            "--virtual-monitor",
            "1280x1024",
            `--wayland-display=${name}`,
          ],
          env,
          false,
          `${dir}/mutter.log`,
        ),
      );
      const until = Date.now() + 20000;
      while (!(await exists(`${runtime}/${name}`))) {
        if (Date.now() > until) {
          throw new Error(`mutter did not start: ${tail(`${dir}/mutter.log`)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      env.WAYLAND_DISPLAY = name;
      env.GDK_BACKEND = "wayland";
      env.QT_QPA_PLATFORM = "wayland";
      env.XDG_SESSION_TYPE = "wayland";
      env.XDG_CURRENT_DESKTOP = "GNOME";
    }

    await Deno.mkdir(`${dir}/firefox-profile`, { recursive: true });
    let launched = 0;
    /** Starts an app and waits until it registers with a window. */
    const launchApp = async (o: DesktopOptions) => {
      const app = appCommand(o, dir);
      const appEnv = { ...env, ...app.env, ...(o.extraEnv ?? {}) };
      delete appEnv.NO_AT_BRIDGE;
      if (appEnv.GTK_A11Y === "none") delete appEnv.GTK_A11Y;
      const log = launched++ === 0 ? `${dir}/app.log` : `${dir}/app${launched}.log`;
      const launch = () => {
        return track(new Group(o.app, app.cmd, app.args, appEnv, false, log));
      };
      let appGroup = launch();
      let restarts = 0;
      if (o.firstContactDelayMs) await new Promise((r) => setTimeout(r, o.firstContactDelayMs));

      const deadline = Date.now() + (o.registerTimeoutMs ?? 30000);
      let seen: ProbeApp[] = [];
      let found: ProbeApp | undefined;
      while (Date.now() < deadline) {
        if (appGroup.exited) {
          // A browser occasionally dies while starting on a loaded machine: one retry.
          if (restarts++ >= 1) {
            throw new Error(`${o.app} exited before registering; its log:\n${tail(log)}`);
          }
          appGroup = launch();
        }
        seen = await probeApps(env);
        // The registered process may be a child of the one started (soffice ->
        // soffice.bin, firefox-esr's launcher): it is in the started process group.
        found = seen.find((a) => inGroup(a.pid, appGroup.pid) && (a.windows ?? 0) > 0);
        if (found) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      if (!found) {
        throw new Error(
          `${o.app} (pid ${appGroup.pid}) did not register on the accessibility bus within ` +
            `${o.registerTimeoutMs ?? 30000} ms; registered: ${JSON.stringify(seen)}; ` +
            `its log:\n${tail(log)}`,
        );
      }
      const running = appGroup;
      return {
        pid: found.pid,
        appName: found.name,
        appLog: () => tail(log),
        signalApp: (sig: "SIGSTOP" | "SIGCONT" | "SIGKILL") => running.signal(sig),
      };
    };
    const main = await launchApp(opts);
    return {
      env,
      pid: main.pid,
      appName: main.appName,
      display,
      appLog: main.appLog,
      signalApp: main.signalApp,
      startApp: launchApp,
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Sends one request to the provider driver (tests/harness/driver.ts) running
 * against the desktop.
 *
 * @param desktop the test desktop
 * @param req the request (see driver.ts)
 * @returns the parsed answer: `{ ok: true, value }` or `{ ok: false, error }`
 */
export async function drive<T = unknown>(
  desktop: TestDesktop,
  req: Record<string, unknown>,
): Promise<{ ok: true; value: T } | { ok: false; error: { code: string; [k: string]: unknown } }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${REPO_ROOT}tests/harness/driver.ts`, JSON.stringify(req)],
    env: desktop.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text.split("\n").pop() ?? "");
  } catch {
    throw new Error(
      `driver printed no JSON (exit ${out.code}): ${text}\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  if (out.code !== 0 || "error" in parsed) {
    return { ok: false, error: parsed.error as { code: string } };
  }
  return { ok: true, value: parsed as T };
}
