/**
 * A private headless GNOME Wayland session for end-to-end tests: mutter
 * with a virtual monitor and no X at all (`--headless --wayland --no-x11`),
 * its own D-Bus session bus and the AT-SPI bus launcher, all in one process
 * group; GTK 3, GTK 4 and Qt apps join it through Wayland
 * (`GDK_BACKEND=wayland`, `QT_QPA_PLATFORM=wayland`). `env` runs the CLI
 * inside it; disposing kills every process and removes its files.
 *
 * @module
 */

import { writeRefsOut } from "../../src/output/agent_parse.ts";
import type { CliResult } from "./cli.ts";
import { REPO_ROOT } from "./desktop.ts";

/** An app running in the session. */
export interface WaylandApp {
  /** Its process id. */
  readonly pid: number;
  /** Its accessible name, as `--app` takes it. */
  readonly appName: string;
}

/** A running headless mutter session. */
export interface MutterDesktop extends AsyncDisposable {
  /** Environment of the session's apps and the witness: WAYLAND_DISPLAY, the bus, no DISPLAY. */
  readonly env: Record<string, string>;
  /**
   * Starts an app in the session and waits until it registers on the
   * accessibility bus under `appName`.
   */
  startApp(cmd: string[], appName: string, extraEnv?: Record<string, string>): Promise<WaylandApp>;
  /** Runs the CLI in the session; its exit code, stdout and stderr. */
  cli(...args: string[]): Promise<CliResult>;
  /**
   * Types text, then presses one key, through the compositor's keyboard
   * (src/platform/linux/input.ts) into whatever holds the focus.
   */
  typeWithCompositor(text: string, key: string): Promise<{ code: number; stderr: string }>;
  /** Kills every process of the session and removes its files. Safe to call twice. */
  stop(): Promise<void>;
}

/** The programs a headless mutter session needs; missing ones are named. */
export function missingMutterTools(): string[] {
  const need = [
    "mutter",
    "pipewire",
    "wireplumber",
    "dbus-run-session",
    "setsid",
    "/usr/libexec/at-spi-bus-launcher",
  ];
  return need.filter((bin) => {
    if (bin.startsWith("/")) {
      try {
        Deno.statSync(bin);
        return false;
      } catch {
        return true;
      }
    }
    return !(Deno.env.get("PATH") ?? "").split(":").some((d) => {
      try {
        return Deno.statSync(`${d}/${bin}`).isFile;
      } catch {
        return false;
      }
    });
  });
}

async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | null>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > until) throw new Error(`headless mutter: ${what} did not happen in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      Deno.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Starts mutter headless with a 1280x1024 virtual monitor in its own bus
 * session, with PipeWire and WirePlumber as GNOME runs them.
 *
 * @param opts `media`: which of PipeWire and its session manager run (`none`, `pipewire` alone,
 *   or `all`, the default), for what a session without them answers
 * @returns the session (dispose it)
 */
export async function startMutter(
  opts: { media?: "all" | "pipewire" | "none" } = {},
): Promise<MutterDesktop> {
  const media = opts.media ?? "all";
  const dir = await Deno.makeTempDir({ prefix: "desktop-mutter-" });
  const runtime = `${dir}/runtime`;
  await Deno.mkdir(runtime, { mode: 0o700 });
  await Deno.chmod(runtime, 0o700);
  const display = "wayland-test";
  const busFile = `${dir}/bus`;
  const script = [
    `printf %s "$DBUS_SESSION_BUS_ADDRESS" > ${busFile}.tmp && mv ${busFile}.tmp ${busFile}`,
    "/usr/libexec/at-spi-bus-launcher --launch-immediately &",
    // PipeWire and its session manager carry ScreenCast frames (screenshots), as in GNOME.
    media === "none" ? "" : `pipewire > ${dir}/pipewire.log 2>&1 &`,
    media === "all" ? `wireplumber > ${dir}/wireplumber.log 2>&1 &` : "",
    `mutter --headless --wayland --no-x11 --virtual-monitor 1280x1024 --wayland-display=${display} &`,
    "wait",
  ].join("\n");
  const baseEnv: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: dir,
    XDG_RUNTIME_DIR: runtime,
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_CACHE_HOME: `${dir}/cache`,
    GSETTINGS_BACKEND: "memory",
    NO_AT_BRIDGE: "0",
  };
  const session = new Deno.Command("setsid", {
    args: ["dbus-run-session", "--", "sh", "-c", script],
    clearEnv: true,
    env: baseEnv,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const groups = [session.pid];
  const children: Deno.ChildProcess[] = [session];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const g of groups.reverse()) killGroup(g);
    for (const c of children) await c.status.catch(() => undefined);
    await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  };
  try {
    const bus = await waitFor("the session bus", 15_000, async () => {
      try {
        return (await Deno.readTextFile(busFile)) || null;
      } catch {
        return null;
      }
    });
    await waitFor("the Wayland socket", 20_000, async () => {
      try {
        await Deno.stat(`${runtime}/${display}`);
        return true;
      } catch {
        return null;
      }
    });
    const env: Record<string, string> = {
      ...baseEnv,
      DBUS_SESSION_BUS_ADDRESS: bus,
      WAYLAND_DISPLAY: display,
      DESKTOP_STATE_DIR: `${dir}/state`,
    };
    // The CLI keeps the caller's own environment (Deno's cache, its PATH) but no X display.
    const cliEnv = { ...Deno.env.toObject(), ...env };
    delete cliEnv.DISPLAY;
    delete cliEnv.XAUTHORITY;
    for (const k of ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]) {
      const own = Deno.env.get(k);
      if (own) cliEnv[k] = own;
      else delete cliEnv[k];
    }
    const cli = async (...args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, ...args],
        clearEnv: true,
        env: cliEnv,
        stdin: "null",
      }).output();
      const dec = new TextDecoder();
      const printed = dec.decode(out.stdout);
      // As runCli: refs written out, so tests find lines by ref.
      return {
        code: out.code,
        stdout: writeRefsOut(printed),
        printed,
        stderr: dec.decode(out.stderr),
      };
    };
    const startApp = async (
      cmd: string[],
      appName: string,
      extraEnv: Record<string, string> = {},
    ): Promise<WaylandApp> => {
      const app = new Deno.Command("setsid", {
        args: cmd,
        clearEnv: true,
        env: {
          ...env,
          GDK_BACKEND: "wayland",
          QT_QPA_PLATFORM: "wayland",
          QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
          ...extraEnv,
        },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const logFile = `${dir}/app-${app.pid}.log`;
      app.stderr.pipeTo((await Deno.create(logFile)).writable).catch(() => undefined);
      groups.push(app.pid);
      children.push(app);
      let listed = "";
      try {
        await waitFor(`${appName} registering`, 30_000, async () => {
          const r = await cli("list");
          listed = r.stdout + r.stderr;
          return r.stdout.includes(`"${appName}"`) ? true : null;
        });
      } catch (e) {
        const log = await Deno.readTextFile(logFile).catch(() => "");
        throw new Error(`${(e as Error).message}; list said: ${listed}; the app said: ${log}`);
      }
      return { pid: app.pid, appName };
    };
    const typeWithCompositor = async (text: string, key: string) => {
      const input = `${REPO_ROOT}src/platform/linux/input.ts`;
      const keys = `${REPO_ROOT}src/platform/linux/keys.ts`;
      const code = `import { pressCombo, typeString } from ${JSON.stringify(input)};
import { parseCombo } from ${JSON.stringify(keys)};
const n = null as never;
typeString(n, ${JSON.stringify(text)});
pressCombo(n, parseCombo(${JSON.stringify(key)}));`;
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["eval", "--ext=ts", code],
        clearEnv: true,
        env: cliEnv,
        stdin: "null",
      }).output();
      return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
    };
    return { env, startApp, cli, typeWithCompositor, stop, [Symbol.asyncDispose]: stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
