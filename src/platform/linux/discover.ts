/**
 * Finding the accessibility bus and the apps on it with our own D-Bus
 * client, so that every app is asked at once, each under its own deadline: a
 * stopped or hung app costs one per-app timeout in parallel with the others,
 * never a sum of timeouts (libatspi's calls are synchronous, one app after
 * another).
 *
 * The bus is found through the session bus only. Nothing here falls back to
 * X11: without a session bus address the command fails, because libdbus's
 * X11 autolaunch would start a second session bus and bus launcher that take
 * over the display's `AT_SPI_BUS` property and socket, and every client on
 * that display would then see no apps.
 *
 * @module
 */

import { ATSPI_STATE } from "../../ffi/atspi.ts";
import { hasState } from "./convert.ts";
import { DBusConnection } from "./dbus/connection.ts";
import { dbusErrorName } from "./dbus/errors.ts";
import { getProperties } from "./dbus/props.ts";
import type { DBusValue } from "./dbus/value.ts";
import { DesktopError } from "../../errors.ts";
import { noBusError } from "./errors.ts";
import { processStopped } from "./hung.ts";

const REGISTRY = "org.a11y.atspi.Registry";
const ROOT = "/org/a11y/atspi/accessible/root";
const ACCESSIBLE = "org.a11y.atspi.Accessible";
const COMPONENT = "org.a11y.atspi.Component";
const COORD_TYPE_SCREEN = 0;
/** What {@link AppDirectory}'s pid lookup gives for a bus name that no one owns. */
const GONE = -1;
const NO_OWNER = "org.freedesktop.DBus.Error.NameHasNoOwner";
const UNKNOWN_SERVICE = "org.freedesktop.DBus.Error.ServiceUnknown";
/** How long an app that did not answer before is waited for again (ms). */
const SILENT_RECHECK_MS = 250;

/**
 * The session bus address: `DBUS_SESSION_BUS_ADDRESS`, else the standard
 * per-user socket `$XDG_RUNTIME_DIR/bus` when it exists (libdbus's own
 * default), else PERMISSION_DENIED. Never X11 autolaunch.
 *
 * @param env reads an environment variable
 * @param exists whether a path exists
 * @returns the address
 * @throws DesktopError PERMISSION_DENIED when there is no session bus to reach
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionBusAddress } from "./discover.ts";
 * const env = (k: string) => ({ DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1/bus" })[k];
 * assert.equal(sessionBusAddress(env, () => true), "unix:path=/run/user/1/bus");
 * // A socket that is not there is refused, never worked around.
 * assert.throws(() => sessionBusAddress(env, () => false), { code: "PERMISSION_DENIED" });
 * ```
 */
export function sessionBusAddress(
  env: (key: string) => string | undefined,
  exists: (path: string) => boolean,
): string {
  const addr = env("DBUS_SESSION_BUS_ADDRESS");
  if (addr) {
    const m = /unix:path=([^,;]+)/.exec(addr);
    if (m && !exists(m[1])) throw noBusError(`the session bus socket ${m[1]} does not exist`);
    return addr;
  }
  const runtime = env("XDG_RUNTIME_DIR");
  if (runtime && exists(`${runtime}/bus`)) return `unix:path=${runtime}/bus`;
  throw noBusError(
    "DBUS_SESSION_BUS_ADDRESS is not set" +
      (runtime ? ` and ${runtime}/bus does not exist` : " (nor XDG_RUNTIME_DIR)") +
      "; desktop never starts a session bus of its own, because an autolaunched one takes " +
      "over the display's accessibility bus and hides every app from every client",
  );
}

/**
 * Asks the session bus for the accessibility bus address
 * (`org.a11y.Bus.GetAddress`, served by at-spi-bus-launcher).
 *
 * @param sessionAddr the session bus address
 * @param deadline absolute deadline (ms since epoch)
 * @returns the accessibility bus address
 * @throws DesktopError PERMISSION_DENIED when the session bus or the launcher is unreachable,
 *   TIMEOUT when the session bus is there but does not answer by the deadline
 */
export async function a11yBusAddress(sessionAddr: string, deadline: number): Promise<string> {
  let session: DBusConnection;
  try {
    session = await DBusConnection.open(sessionAddr, Math.max(1, deadline - Date.now()));
  } catch (e) {
    throw unreachable(e, `cannot connect to the session bus ${sessionAddr}`);
  }
  try {
    const [addr] = await session.call({
      destination: "org.a11y.Bus",
      path: "/org/a11y/bus",
      interface: "org.a11y.Bus",
      member: "GetAddress",
    }, deadline);
    if (typeof addr !== "string" || addr === "") throw new Error("empty address");
    return addr;
  } catch (e) {
    if (lateAnswer(e)) throw busTooLate("the session bus (asked for the accessibility bus)");
    throw noBusError(`the session bus has no accessibility bus launcher (${errText(e)})`);
  } finally {
    session.close();
  }
}

/**
 * A deadline that passed while a bus was answering slowly: it is there, so
 * the desktop is busy, not missing (PERMISSION_DENIED would send the agent
 * to set up a session it already has).
 */
function lateAnswer(e: unknown): boolean {
  return e instanceof DesktopError && (e.code === "TIMEOUT" || e.code === "APP_UNRESPONSIVE");
}

function busTooLate(what: string): DesktopError {
  return new DesktopError("TIMEOUT", `${what} did not answer in time`, {
    suggestion: "The desktop is busy: retry, or raise --timeout",
  });
}

/** Why a bus could not be reached: too late (TIMEOUT) or not there (PERMISSION_DENIED). */
function unreachable(e: unknown, what: string): DesktopError {
  return lateAnswer(e) ? busTooLate(what.replace(/^cannot connect to /, "")) : noBusError(
    `${what}: ${errText(e)}`,
  );
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** An app registered on the accessibility bus, as discovery saw it. */
export interface BusApp {
  /** Unique bus name. */
  bus: string;
  /** Object path of the app's root accessible. */
  path: string;
  /** Process id (0 when the bus cannot tell). */
  pid: number;
  /** Accessible name ("" when the app did not answer). */
  name: string;
  /** Top-level windows the app reports (0 when it did not answer). */
  windowCount: number;
  /** One of its windows is ACTIVE. */
  focused: boolean;
  /** False when the app did not answer within its deadline. */
  responsive: boolean;
  /** Set when it was given only a short look, having stayed silent before. */
  brief?: true;
  /** Set when its process is stopped: it was not asked, as it cannot answer. */
  stopped?: true;
}

/** A top-level window as discovery saw it. */
export interface BusWindow {
  /** Object path. */
  path: string;
  /** Title (accessible name). */
  title: string;
  /** ACTIVE state. */
  focused: boolean;
  /** Screen extents, when asked for and reported. */
  b?: [number, number, number, number];
}

/** The AT-SPI registry and apps, through one connection to the accessibility bus. */
export class AppDirectory {
  readonly #conn: DBusConnection;
  /** Apps that did not answer the last time: asked again only briefly. */
  readonly #silent = new Set<string>();
  /** The registry's list of apps at the last listing of every app (see {@link sameAsListed}). */
  #listedChildren: string | null = null;

  private constructor(conn: DBusConnection) {
    this.#conn = conn;
  }

  /**
   * Connects to the accessibility bus at `address`.
   *
   * @param address the accessibility bus address
   * @param deadline absolute deadline
   * @returns the directory; close it when done
   * @throws DesktopError PERMISSION_DENIED when the bus cannot be reached, TIMEOUT when it
   *   is there but does not answer by the deadline
   */
  static async open(address: string, deadline: number): Promise<AppDirectory> {
    try {
      return new AppDirectory(
        await DBusConnection.open(address, Math.max(1, deadline - Date.now())),
      );
    } catch (e) {
      throw unreachable(e, `cannot connect to the accessibility bus ${address}`);
    }
  }

  /**
   * Every registered app, all asked at once. An app that does not answer by
   * `min(deadline, now + perAppMs)` comes back with `responsive: false`; one
   * whose process is stopped is not asked at all (it cannot answer), and
   * comes back at once with `stopped: true`.
   *
   * @param deadline the operation's deadline
   * @param perAppMs how long one app may take
   * @param pid only the apps of this process (the others are not asked anything)
   * @returns apps in registry order
   * @throws DesktopError APP_UNRESPONSIVE when the registry itself does not answer
   */
  async apps(deadline: number, perAppMs: number, pid?: number): Promise<BusApp[]> {
    const all = await this.#registered(deadline);
    if (pid === undefined) this.#listedChildren = JSON.stringify(all);
    // The bus daemon knows each app's process: asking it costs the apps nothing. An app
    // whose bus name has no owner quit and is not yet unregistered: it is not listed.
    const pids = await Promise.all(all.map(([bus]) => this.#pid(bus, deadline)));
    const refs = all.filter((_, i) => pids[i] !== GONE && (pid === undefined || pids[i] === pid));
    const pidOf = new Map(all.map(([bus], i) => [bus, pids[i]]));
    const now = Date.now();
    const appDeadline = Math.min(deadline, now + perAppMs);
    // An app that stayed silent earlier in this session (a stopped one) would
    // cost every operation its full per-app time: it gets a short look instead.
    const recheck = Math.min(appDeadline, now + Math.min(perAppMs, SILENT_RECHECK_MS));
    const apps = await Promise.all(refs.map(async ([bus, path]) => {
      const p = pidOf.get(bus) ?? 0;
      if (processStopped(p)) return this.#stoppedApp(bus, path, p);
      if (!this.#silent.has(bus)) return await this.#app(bus, path, appDeadline, p);
      const app = await this.#app(bus, path, recheck, p);
      if (app && !app.responsive) app.brief = true;
      return app;
    }));
    const listed = apps.filter((a): a is BusApp => a !== null);
    for (const a of listed) {
      if (a.responsive) this.#silent.delete(a.bus);
      else this.#silent.add(a.bus);
    }
    return listed;
  }

  /**
   * Whether the registry still lists the apps it listed at the last listing
   * of every app, and `app` (one of them) still answers with its name and
   * window count: one round trip, where a listing asks every app. False on
   * any doubt (no listing yet, an error, no answer by the deadline).
   *
   * @param app an app of the last listing of every app
   * @param deadline absolute deadline (short: a late answer is a doubt)
   * @returns true when nothing of the listing that concerns `app` changed
   */
  async sameAsListed(app: BusApp, deadline: number): Promise<boolean> {
    const listed = this.#listedChildren;
    if (listed === null) return false;
    try {
      const [all, props, [kids]] = await Promise.all([
        this.#registered(deadline),
        getProperties(this.#call(app.bus, deadline), app.path, ACCESSIBLE, ["Name"]),
        this.#call(app.bus, deadline)(app.path, ACCESSIBLE, "GetChildren"),
      ]);
      const wins = (kids as Array<[string, string]>).filter(([b]) => b === app.bus);
      return JSON.stringify(all) === listed && String(props.get("Name") ?? "") === app.name &&
        wins.length === app.windowCount;
    } catch {
      return false;
    }
  }

  /** The registry's apps: bus name and root path of each (a placeholder without a bus left out). */
  async #registered(deadline: number): Promise<Array<[string, string]>> {
    const [children] = await this.#conn.call({
      destination: REGISTRY,
      path: ROOT,
      interface: ACCESSIBLE,
      member: "GetChildren",
    }, deadline);
    return (children as Array<[string, string]>).filter(([bus]) => bus !== "");
  }

  /** An app whose process is stopped, as listed without asking it. */
  #stoppedApp(bus: string, path: string, pid: number): BusApp {
    return {
      bus,
      path,
      pid,
      name: "",
      windowCount: 0,
      focused: false,
      responsive: false,
      stopped: true,
    };
  }

  /** The process of a bus name, from the bus daemon (0 when it cannot tell, GONE when no one owns it). */
  #pid(bus: string, deadline: number): Promise<number> {
    return this.#conn.call({
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus",
      member: "GetConnectionUnixProcessID",
      signature: "s",
      body: [bus],
    }, deadline).then(
      ([v]) => Number(v),
      (e) => dbusErrorName(e) === NO_OWNER ? GONE : 0,
    );
  }

  /**
   * Asks one app again, e.g. the one an operation targets after it stayed
   * silent in a listing that gave it little time.
   *
   * @param app the app as listed
   * @param deadline absolute deadline for this app
   * @returns the app as it answers now
   */
  async again(app: BusApp, deadline: number): Promise<BusApp> {
    if (processStopped(app.pid)) return this.#stoppedApp(app.bus, app.path, app.pid);
    const fresh = await this.#app(app.bus, app.path, deadline, app.pid);
    if (fresh === null) return { ...app, responsive: false };
    if (fresh.responsive) this.#silent.delete(app.bus);
    return fresh;
  }

  /** An app as it answers; null when it quit (its bus name has no owner any more). */
  async #app(bus: string, path: string, deadline: number, pid: number): Promise<BusApp | null> {
    const app: BusApp = {
      bus,
      path,
      pid,
      name: "",
      windowCount: 0,
      focused: false,
      responsive: true,
    };
    try {
      const [props, [kids]] = await Promise.all([
        getProperties(this.#call(bus, deadline), path, ACCESSIBLE, ["Name"]),
        this.#call(bus, deadline)(path, ACCESSIBLE, "GetChildren"),
      ]);
      app.name = String(props.get("Name") ?? "");
      const wins = (kids as Array<[string, string]>).filter(([b]) => b === bus);
      app.windowCount = wins.length;
      const states = await Promise.all(wins.map(([, p]) => this.#states(bus, p, deadline)));
      app.focused = states.some((s) => hasState(s, ATSPI_STATE.ACTIVE));
    } catch (e) {
      const name = dbusErrorName(e);
      if (name === NO_OWNER || name === UNKNOWN_SERVICE) return null;
      app.responsive = false;
    }
    return app;
  }

  /**
   * The top-level windows of an app, their calls in flight at once.
   *
   * @param app the app
   * @param deadline absolute deadline
   * @param bounds also read each window's screen extents
   * @returns windows in the app's order
   * @throws DesktopError APP_UNRESPONSIVE, APP_NOT_FOUND when the app does not answer or is gone
   */
  async windows(app: BusApp, deadline: number, bounds: boolean): Promise<BusWindow[]> {
    const call = this.#call(app.bus, deadline);
    const [kids] = await call(app.path, ACCESSIBLE, "GetChildren");
    const wins = (kids as Array<[string, string]>).filter(([b]) => b === app.bus);
    return await Promise.all(wins.map(async ([, path]): Promise<BusWindow> => {
      const [props, states, ext] = await Promise.all([
        getProperties(call, path, ACCESSIBLE, ["Name"]),
        this.#states(app.bus, path, deadline),
        bounds
          ? call(path, COMPONENT, "GetExtents", "u", [COORD_TYPE_SCREEN]).then(
            ([r]) => r as number[],
            () => undefined,
          )
          : Promise.resolve(undefined),
      ]);
      const w: BusWindow = {
        path,
        title: String(props.get("Name") ?? ""),
        focused: hasState(states, ATSPI_STATE.ACTIVE),
      };
      if (ext && ext[2] > 0 && ext[3] > 0) w.b = [ext[0], ext[1], ext[2], ext[3]];
      return w;
    }));
  }

  async #states(bus: string, path: string, deadline: number): Promise<[number, number]> {
    const [s] = await this.#call(bus, deadline)(path, ACCESSIBLE, "GetState");
    const words = s as number[];
    return [words[0] ?? 0, words[1] ?? 0];
  }

  #call(bus: string, deadline: number) {
    return (
      path: string,
      iface: string,
      member: string,
      signature?: string,
      body?: DBusValue[],
    ) =>
      this.#conn.call(
        { destination: bus, path, interface: iface, member, signature, body },
        deadline,
      );
  }

  /** Closes the connection. */
  close(): void {
    this.#conn.close();
  }
}
