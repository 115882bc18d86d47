/**
 * A headless sway session for the e2e tests: sway's headless backend with
 * the pixman renderer (no GPU, no input devices), its own D-Bus session
 * and accessibility bus, apps on their Wayland backends. sway refuses to
 * run as root, so when the tests run as root it runs as an unprivileged
 * user made for them (`desktop-sway`, created once); apps, the bus, the CLI
 * and pyatspi run as the caller and reach sway's sockets by path. Run as
 * another user, everything runs as that user.
 *
 * @module
 */

import { swayRequest, windowsOfTree } from "../../src/platform/linux/wayland/sway_ipc.ts";
import type { TestApp, TestDesktop } from "./desktop.ts";

/** The unprivileged user sway runs as when the tests run as root. */
export const SWAY_USER = "desktop-sway";

/** One app to start in the session. */
export interface SwayApp {
  /** The command and its arguments. */
  cmd: string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /** How long it may take to register on the accessibility bus (ms). */
  registerTimeoutMs?: number;
}

/** A running sway session with its first app. */
export interface SwayDesktop extends TestDesktop {
  /** sway's IPC socket. */
  readonly swaysock: string;
  /** The Wayland socket's path. */
  readonly waylandSocket: string;
  /** Starts one more app in the session and waits until it registers with a window. */
  startSwayApp(app: SwayApp): Promise<TestApp>;
}

/** Whether sway and the session's tools are installed. */
export function hasSway(): boolean {
  for (
    const p of [
      "/usr/bin/sway",
      "/usr/bin/dbus-daemon",
      "/usr/libexec/at-spi-bus-launcher",
      "/usr/bin/python3",
    ]
  ) {
    try {
      if (!Deno.statSync(p).isFile) return false;
    } catch {
      return false;
    }
  }
  // as root, sway runs as a user made for the test: setpriv drops to it, useradd makes it
  return Deno.uid() !== 0 ||
    (exists("/usr/bin/setpriv") && (exists("/usr/sbin/useradd") || exists("/sbin/useradd")));
}

function exists(p: string): boolean {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
}

async function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

/** The test user's uid and gid, creating the user when missing (idempotent, safe when two tests race). */
async function swayUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => {
    const u = await run("id", ["-u", SWAY_USER]);
    const g = await run("id", ["-g", SWAY_USER]);
    return u.code === 0 && g.code === 0
      ? { uid: Number(u.out.trim()), gid: Number(g.out.trim()) }
      : undefined;
  };
  const known = await ids();
  if (known) return known;
  const made = await run("useradd", [
    "--system",
    "--no-create-home",
    "--shell",
    "/usr/sbin/nologin",
    SWAY_USER,
  ]);
  const after = await ids();
  if (!after) throw new Error(`cannot create the user ${SWAY_USER}: ${made.out}`);
  return after;
}

function tailOf(path: string, n = 20): string {
  try {
    return Deno.readTextFileSync(path).split("\n").slice(-n).join("\n");
  } catch {
    return "";
  }
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms: number,
  log = "",
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) {
      throw new Error(`${what} did not happen within ${ms} ms\n${log ? tailOf(log) : ""}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the session keeps of the caller's environment (the CLI finds Deno's cache through HOME or DENO_DIR). */
function callerEnv(): Record<string, string> {
  const out: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };
  for (
    const k of ["PATH", "HOME", "LANG", "LC_ALL", "USER", "TERM", "DENO_DIR", "DENO_INSTALL_ROOT"]
  ) {
    const v = Deno.env.get(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A started process, killed on stop. */
class Proc {
  readonly child: Deno.ChildProcess;
  readonly log: string;
  constructor(cmd: string, args: string[], env: Record<string, string>, log: string) {
    this.log = log;
    const file = Deno.openSync(log, { write: true, create: true, append: true });
    this.child = new Deno.Command(cmd, {
      args,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const sink = async (s: ReadableStream<Uint8Array>) => {
      for await (const chunk of s) file.writeSync(chunk);
    };
    Promise.all([sink(this.child.stdout), sink(this.child.stderr)]).finally(() => file.close())
      .catch(() => {});
  }
  get pid(): number {
    return this.child.pid;
  }
  async stop(): Promise<void> {
    try {
      this.child.kill("SIGTERM");
    } catch { /* gone */ }
    const t = setTimeout(() => {
      try {
        this.child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 3000);
    await this.child.status;
    clearTimeout(t);
  }
}

/** Whether pyatspi sees an app with this pid that has a window (frame). */
async function registered(env: Record<string, string>, pid: number): Promise<string | undefined> {
  const script = `
import sys, pyatspi
for a in pyatspi.Registry.getDesktop(0):
    if a is not None and a.get_process_id() == int(sys.argv[1]) and a.childCount > 0 and a[0].childCount > 0:
        print(a.name); break
`;
  const r = await new Deno.Command("timeout", {
    args: ["10", "/usr/bin/python3", "-c", script, String(pid)],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  const name = new TextDecoder().decode(r.stdout).trim();
  return r.code === 0 && name ? name : undefined;
}

/**
 * Starts headless sway, a D-Bus session with the accessibility bus, and an
 * app; resolves once the app is on the accessibility bus with a window and
 * sway shows that window.
 *
 * @param app the app to start
 * @returns the session (dispose it to stop everything and remove its files)
 */
export async function startSway(app: SwayApp): Promise<SwayDesktop> {
  const procs: Proc[] = [];
  const dir = await Deno.makeTempDir({ prefix: "desktop-sway-" });
  await Deno.chmod(dir, 0o755);
  const runtime = `${dir}/run`;
  const swayRuntime = `${dir}/sway-run`;
  await Deno.mkdir(runtime, { mode: 0o700 });
  await Deno.mkdir(swayRuntime, { mode: 0o700 });
  await Deno.mkdir(`${dir}/home`, { mode: 0o700 });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const p of procs.reverse()) await p.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    const config = `${dir}/sway.conf`;
    await Deno.writeTextFile(
      config,
      "xwayland disable\noutput HEADLESS-1 resolution 1280x800 position 0 0\n",
    );
    await Deno.chmod(config, 0o644);
    const swayEnv: Record<string, string> = {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: swayRuntime,
      XDG_RUNTIME_DIR: swayRuntime,
      WLR_BACKENDS: "headless",
      WLR_LIBINPUT_NO_DEVICES: "1",
      WLR_RENDERER: "pixman",
      LANG: "C.UTF-8",
    };
    let cmd = "sway";
    let args = ["-c", config];
    if (Deno.uid() === 0) {
      const { uid, gid } = await swayUser();
      await Deno.chown(swayRuntime, uid, gid);
      cmd = "setpriv";
      args = [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "sway", ...args];
    }
    const swayLog = `${dir}/sway.log`;
    procs.push(new Proc(cmd, args, swayEnv, swayLog));
    const waylandSocket = `${swayRuntime}/wayland-1`;
    const swaysock = await waitFor(
      "sway's sockets",
      () => {
        if (!exists(waylandSocket)) return undefined;
        const ipc = [...Deno.readDirSync(swayRuntime)].find((e) => e.name.startsWith("sway-ipc."));
        return ipc ? `${swayRuntime}/${ipc.name}` : undefined;
      },
      20_000,
      swayLog,
    );

    const env: Record<string, string> = {
      ...callerEnv(),
      XDG_RUNTIME_DIR: runtime,
      WAYLAND_DISPLAY: waylandSocket,
      SWAYSOCK: swaysock,
      XDG_SESSION_TYPE: "wayland",
      XDG_CURRENT_DESKTOP: "sway",
      GDK_BACKEND: "wayland",
      QT_QPA_PLATFORM: "wayland",
      QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
      GTK_A11Y: "atspi",
    };
    const busLog = `${dir}/bus.log`;
    const bus = new Proc(
      "dbus-daemon",
      ["--session", "--nofork", `--address=unix:path=${runtime}/bus`],
      env,
      busLog,
    );
    procs.push(bus);
    await waitFor("the session bus", () => exists(`${runtime}/bus`) || undefined, 10_000, busLog);
    env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${runtime}/bus`;
    procs.push(
      new Proc(
        "/usr/libexec/at-spi-bus-launcher",
        ["--launch-immediately"],
        env,
        `${dir}/atspi.log`,
      ),
    );

    const launch = async (a: SwayApp, log: string): Promise<{ proc: Proc; name: string }> => {
      const appEnv = {
        ...env,
        HOME: `${dir}/home`,
        XDG_CONFIG_HOME: `${dir}/home/.config`,
        ...(a.env ?? {}),
      };
      const proc = new Proc(a.cmd[0], a.cmd.slice(1), appEnv, log);
      procs.push(proc);
      const name = await waitFor(
        "the app's registration",
        () => registered(env, proc.pid),
        a.registerTimeoutMs ?? 30_000,
        log,
      );
      await waitFor(
        "the app's window in sway",
        async () => {
          const tree = windowsOfTree(await swayRequest(4, 5_000, swaysock));
          return tree.some((w) => w.pid === proc.pid) || undefined;
        },
        10_000,
        swayLog,
      );
      return { proc, name };
    };
    const first = await launch(app, `${dir}/app.log`);
    let more = 0;
    const signal = (p: Proc) => (s: "SIGSTOP" | "SIGCONT" | "SIGKILL") => Deno.kill(p.pid, s);
    const desktop: SwayDesktop = {
      env,
      pid: first.proc.pid,
      appName: first.name,
      display: "",
      swaysock,
      waylandSocket,
      appLog: () => tailOf(first.proc.log),
      signalApp: signal(first.proc),
      startApp(): Promise<TestApp> {
        return Promise.reject(new Error("a sway session starts more apps with startSwayApp"));
      },
      async startSwayApp(a: SwayApp): Promise<TestApp> {
        const { proc, name } = await launch(a, `${dir}/app${++more}.log`);
        return {
          pid: proc.pid,
          appName: name,
          appLog: () => tailOf(proc.log),
          signalApp: signal(proc),
        };
      },
      stop,
      [Symbol.asyncDispose]: stop,
    };
    return desktop;
  } catch (e) {
    await stop();
    throw e;
  }
}
