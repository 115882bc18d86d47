/**
 * The fast AT-SPI reader: our own D-Bus client on the accessibility bus.
 * A whole app comes from one `Cache.GetItems` call when the app offers it,
 * then extents, actions, text, values, relations and attributes are fetched
 * with many calls in flight at once instead of one round trip after another.
 * Apps without the cache are walked with pipelined per-object calls.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import { INTERNAL_FRAME, isHidden } from "../convert.ts";
import type { AtspiRawNode } from "../raw.ts";
import {
  cachedChildren,
  type CacheItem,
  indexItems,
  type ItemIndex,
  readItems,
} from "./cache_items.ts";
import { type BodyDecoder, DBusConnection, type MethodCall } from "./connection.ts";
import { type AppTraits, DetailFetcher } from "./details.ts";
import { readShowing } from "./showing.ts";
import { dbusErrorName } from "./errors.ts";
import {
  largeTreeTimeout,
  newProgress,
  type ReadProgress,
  stillAnswering,
} from "./read_progress.ts";
import { getProperties, readProperties } from "./props.ts";
import { answersGetAll, knownWholeTextAnswer, type Toolkit } from "../toolkit.ts";
import type { DBusValue, Variant } from "./value.ts";

/** AT-SPI's combo box role. */
const ROLE_COMBO_BOX = 11;

/** Most items of a closed combo box popup asked for by name when the app has no cache. */
const MAX_CHOICES = 64;
/** ATSPI_STATE_SELECTED (23) in the first state word. */
const SELECTED_BIT = 1 << 23;

const REGISTRY = "org.a11y.atspi.Registry";
const ROOT = "/org/a11y/atspi/accessible/root";
const ACCESSIBLE = "org.a11y.atspi.Accessible";
const APPLICATION = "org.a11y.atspi.Application";
const PROPS = "org.freedesktop.DBus.Properties";
/** A rarely emitted event: registering it makes toolkits publish their cache. */
const ACTIVATING_EVENT = "object:property-change:accessible-parent";
/** ATSPI_STATE_MANAGES_DESCENDANTS (31) in the low state word. */
const MANAGES_DESCENDANTS_BIT = 1 << 31;
/** Most calls kept in flight at once (the bus allows 50,000 pending replies). */
export const MAX_IN_FLIGHT = 4096;

/** One app registered on the accessibility bus. */
export interface BusApp {
  /** Unique bus name. */
  bus: string;
  /** Application name. */
  name: string;
  /** Process id (0 when the bus cannot tell). */
  pid: number;
  /** Object path of the app's root accessible. */
  root: string;
}

/** Options of {@link AtspiBus.readTree}. */
export interface ReadTreeOptions {
  /** Levels below the root to read (undefined: all). */
  depth?: number;
  /** Read screen extents. */
  bounds: boolean;
  /** Absolute deadline (ms since epoch). */
  deadline: number;
  /** Use the app's bulk cache when it has one (default true; false walks every object). */
  bulk?: boolean;
  /** Updated as the app answers: how far the read got (see read_progress.ts). */
  progress?: ReadProgress;
}

/** Counters of the last read, for profiling. */
export interface ReadProfile {
  /** Whether GetItems served the tree. */
  bulk: boolean;
  /** Whether calls went straight to the app rather than through the bus. */
  direct: boolean;
  /** Nodes returned. */
  nodes: number;
  /** Objects read one call per field because the app's cache lacked them. */
  uncached: number;
  /** Method calls made. */
  calls: number;
  /** Socket writes made. */
  writes: number;
  /** Bytes received. */
  bytesIn: number;
  /** Milliseconds spent decoding. */
  decodeMs: number;
  /** Milliseconds until the structure was known (details were being fetched meanwhile). */
  structureMs: number;
  /** Milliseconds in total. */
  totalMs: number;
}

/**
 * A call function bound to one app and one deadline. With `decode`, the reply
 * body is read by that function straight from the receive buffer.
 */
export interface AppCall {
  (
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: DBusValue[],
  ): Promise<DBusValue[]>;
  <T>(
    path: string,
    iface: string,
    member: string,
    signature: string | undefined,
    body: DBusValue[] | undefined,
    decode: BodyDecoder<T>,
  ): Promise<T>;
}

/** The AT-SPI client on the accessibility bus. */
export class AtspiBus {
  readonly #conn: DBusConnection;
  /** Direct connections to apps by bus name (null: the app offers none). */
  readonly #direct = new Map<string, Promise<DBusConnection | null>>();
  readonly #toolkits = new Map<string, Promise<Toolkit>>();
  readonly #directConns: DBusConnection[] = [];
  #activated: Promise<void> | null = null;
  /** Counters of the last {@link readTree}. */
  lastProfile: ReadProfile | null = null;

  private constructor(conn: DBusConnection) {
    this.#conn = conn;
  }

  /**
   * Connects to the accessibility bus: `AT_SPI_BUS_ADDRESS` when set, else
   * the one the session bus (DBUS_SESSION_BUS_ADDRESS) names through
   * `org.a11y.Bus.GetAddress`.
   *
   * @param timeoutMs limit for connecting
   * @returns the client
   * @throws DesktopError PLATFORM_NOT_SUPPORTED without a session bus, TIMEOUT, INTERNAL
   * @example
   * ```ts ignore
   * const bus = await AtspiBus.connect(2000);
   * console.log(await bus.listApps());
   * bus.close();
   * ```
   */
  static async connect(timeoutMs: number): Promise<AtspiBus> {
    const deadline = Date.now() + timeoutMs;
    // Set by the provider once it found the bus (and by users who name it, as libatspi reads it).
    const known = Deno.env.get("AT_SPI_BUS_ADDRESS");
    if (known) return new AtspiBus(await DBusConnection.open(known, timeoutMs));
    const sessionAddr = Deno.env.get("DBUS_SESSION_BUS_ADDRESS");
    if (!sessionAddr) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", "DBUS_SESSION_BUS_ADDRESS is not set", {
        suggestion: "Run inside a desktop session (or under dbus-run-session) with AT-SPI enabled",
      });
    }
    const session = await DBusConnection.open(sessionAddr, timeoutMs);
    let a11yAddr: string;
    try {
      const [addr] = await session.call({
        destination: "org.a11y.Bus",
        path: "/org/a11y/bus",
        interface: "org.a11y.Bus",
        member: "GetAddress",
      }, deadline);
      a11yAddr = addr as string;
    } catch (e) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", "the accessibility bus is not available", {
        suggestion: "Start at-spi-bus-launcher (package at-spi2-core) in the desktop session",
        cause: e,
      });
    } finally {
      session.close();
    }
    const conn = await DBusConnection.open(a11yAddr, Math.max(1, deadline - Date.now()));
    return new AtspiBus(conn);
  }

  /** Wire counters summed over the bus and the direct connections. */
  get stats(): DBusConnection["stats"] {
    const sum = { ...this.#conn.stats };
    for (const c of this.#directConns) {
      sum.calls += c.stats.calls;
      sum.writes += c.stats.writes;
      sum.bytesOut += c.stats.bytesOut;
      sum.bytesIn += c.stats.bytesIn;
      sum.decodeMs += c.stats.decodeMs;
    }
    return sum;
  }

  /**
   * Lists the apps registered with the AT-SPI registry.
   *
   * @param timeoutMs limit for the whole listing
   * @returns bus name, name, pid and root path of each app
   * @throws DesktopError APP_UNRESPONSIVE when the registry does not answer
   */
  async listApps(timeoutMs = 3000): Promise<BusApp[]> {
    const deadline = Date.now() + timeoutMs;
    const [children] = await this.#conn.call({
      destination: REGISTRY,
      path: ROOT,
      interface: ACCESSIBLE,
      member: "GetChildren",
    }, deadline);
    const refs = (children as Array<[string, string]>).filter(([bus]) => bus !== "");
    return await Promise.all(refs.map(async ([bus, root]): Promise<BusApp> => {
      const [name, pid] = await Promise.all([
        this.#conn.call({
          destination: bus,
          path: root,
          interface: PROPS,
          member: "Get",
          signature: "ss",
          body: [ACCESSIBLE, "Name"],
        }, deadline).then(([v]) => String((v as Variant).value), () => ""),
        this.#conn.call({
          destination: "org.freedesktop.DBus",
          path: "/org/freedesktop/DBus",
          interface: "org.freedesktop.DBus",
          member: "GetConnectionUnixProcessID",
          signature: "s",
          body: [bus],
        }, deadline).then(([v]) => v as number, () => 0),
      ]);
      return { bus, name, pid, root };
    }));
  }

  /**
   * Reads an app (or a subtree) with every printed attribute.
   *
   * @param bus the app's unique bus name
   * @param rootPath object path to start from
   * @param opts depth, bounds, deadline
   * @returns the raw tree
   * @throws DesktopError APP_UNRESPONSIVE (no answer in time), APP_NOT_FOUND (app gone),
   *   STALE_REF (root gone), TIMEOUT (deadline passed)
   */
  async readTree(bus: string, rootPath: string, opts: ReadTreeOptions): Promise<AtspiRawNode> {
    const t0 = performance.now();
    const before = { ...this.stats };
    // The app's answers on either connection count, from the first (its direct address).
    const progress = opts.progress ?? newProgress();
    let direct: DBusConnection | null = null;
    progress.answeredAt = () =>
      Math.max(this.#conn.answeredAt.get(bus) ?? 0, direct?.answeredAt.get(bus) ?? 0);
    [, direct] = await Promise.all([
      this.#activate(opts.deadline),
      this.#directTo(bus, opts.deadline),
    ]);
    const conn = direct ?? this.#conn;
    const call = appCall(conn, bus, opts.deadline);
    let idx: ItemIndex | null = null;
    const toolkit = this.toolkit(bus, opts.deadline);
    if (opts.bulk !== false) {
      try {
        const parsed = await conn.callWith(
          {
            destination: bus,
            path: "/org/a11y/atspi/cache",
            interface: "org.a11y.atspi.Cache",
            member: "GetItems",
          },
          opts.deadline,
          readItems,
        );
        if (parsed.length > 0) idx = indexItems(parsed);
      } catch (e) {
        // No cache on this app (or not yet published): walk it instead.
        if (!dbusErrorName(e)?.startsWith("org.freedesktop.DBus.Error.Unknown")) throw e;
      }
    }
    const tk = await toolkit;
    const traits: AppTraits = {
      getAll: answersGetAll(tk.name),
      emptyWholeTextMayLie: !knownWholeTextAnswer(tk),
    };
    // Details are fetched while the tree is still being discovered.
    const fetcher = new DetailFetcher(idx, call, opts.bounds, MAX_IN_FLIGHT, traits);
    let count = 0;
    const walked = { n: 0 };
    let root: AtspiRawNode;
    try {
      root = await buildTree(
        bus,
        rootPath,
        idx,
        countingFetch(call, walked),
        opts,
        traits,
        (n, leaf) => {
          progress.objects = ++count;
          fetcher.add(n, leaf);
        },
      );
    } catch (e) {
      // Never leave fetches running behind a failed read.
      fetcher.abort(e);
      await fetcher.finish().catch(() => {});
      throw cutShort(e, progress, opts.deadline, t0);
    }
    const structureMs = performance.now() - t0;
    try {
      await fetcher.finish();
      checkDeadline(opts.deadline);
    } catch (e) {
      throw cutShort(e, progress, opts.deadline, t0);
    }
    const s = this.stats;
    this.lastProfile = {
      bulk: idx !== null,
      direct: direct !== null,
      nodes: count,
      uncached: walked.n,
      calls: s.calls - before.calls,
      writes: s.writes - before.writes,
      bytesIn: s.bytesIn - before.bytesIn,
      decodeMs: s.decodeMs - before.decodeMs,
      structureMs,
      totalMs: performance.now() - t0,
    };
    return root;
  }

  /** Closes the connections (the registry drops our event registration with them). */
  close(): void {
    for (const c of this.#directConns) c.close();
    this.#conn.close();
  }

  /**
   * The app's toolkit ("" fields when it does not say), asked once per app
   * and kept: it decides which bulk calls the app answers safely, and the
   * provider's toolkit rules take it from here at no extra call.
   *
   * @param bus the app's unique bus name
   * @param deadline when to give up (epoch ms); a missed answer is "" fields
   * @returns the toolkit's name and version
   */
  toolkit(bus: string, deadline: number): Promise<Toolkit> {
    let p = this.#toolkits.get(bus);
    if (!p) {
      // One Get per property: GetAll is what the toolkit decides (Qt crashes on it).
      p = this.#directTo(bus, deadline).then((direct) =>
        getProperties(appCall(direct ?? this.#conn, bus, deadline), ROOT, APPLICATION, [
          "ToolkitName",
          "Version",
        ])
      ).then(
        (m) => ({
          name: String(m.get("ToolkitName") ?? "").trim(),
          version: String(m.get("Version") ?? "").trim(),
        }),
        () => ({ name: "", version: "" }),
      );
      this.#toolkits.set(bus, p);
    }
    return p;
  }

  /**
   * A direct (peer-to-peer) connection to an app, which the ATK bridge and
   * others offer through `GetApplicationBusAddress`: calls then skip the bus
   * daemon, which otherwise relays every call and every reply.
   */
  #directTo(bus: string, deadline: number): Promise<DBusConnection | null> {
    let p = this.#direct.get(bus);
    if (!p) {
      p = (async () => {
        try {
          const [addr] = await this.#conn.call({
            destination: bus,
            path: ROOT,
            interface: "org.a11y.atspi.Application",
            member: "GetApplicationBusAddress",
          }, deadline);
          if (typeof addr !== "string" || addr === "") return null;
          const c = await DBusConnection.open(addr, Math.max(1, deadline - Date.now()), true);
          // The app itself took part in the handshake: it answered.
          c.answeredAt.set(bus, Date.now());
          this.#directConns.push(c);
          return c;
        } catch {
          return null; // no direct connection: the bus works too
        }
      })();
      this.#direct.set(bus, p);
    }
    return p;
  }

  /**
   * Registers one rarely emitted event once per connection. Toolkits using
   * the ATK bridge publish `Cache.GetItems` only while some client listens
   * for events, as screen readers always do.
   */
  #activate(deadline: number): Promise<void> {
    this.#activated ??= this.#conn.call({
      destination: REGISTRY,
      path: "/org/a11y/atspi/registry",
      interface: REGISTRY,
      member: "RegisterEvent",
      signature: "s",
      body: [ACTIVATING_EVENT],
    }, deadline).then(() => {}, () => {});
    return this.#activated;
  }
}

/** Calls on one app's objects, over `conn`, each failing at `deadline`. */
function appCall(conn: DBusConnection, bus: string, deadline: number): AppCall {
  return ((
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: DBusValue[],
    decode?: BodyDecoder<unknown>,
  ) => {
    const m: MethodCall = { destination: bus, path, interface: iface, member, signature, body };
    return decode ? conn.callWith(m, deadline, decode) : conn.call(m, deadline);
  }) as AppCall;
}

/**
 * A read's error as the caller should see it: the deadline (an unanswered
 * call, or the walk's own check) cutting a read of an app that was still
 * answering means a large tree, not a hung app (TIMEOUT with how far the
 * read got).
 */
function cutShort(e: unknown, progress: ReadProgress, deadline: number, t0: number): unknown {
  if (!(e instanceof DesktopError)) return e;
  if (e.code !== "APP_UNRESPONSIVE" && e.code !== "TIMEOUT") return e;
  if (!stillAnswering(progress, deadline)) return e;
  const ms = deadline - (performance.timeOrigin + t0);
  return largeTreeTimeout(progress, ms, false);
}

function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) {
    throw new DesktopError("TIMEOUT", "reading the accessibility tree ran past the deadline", {
      suggestion: "Narrow the read (--window, --depth) or raise --timeout",
    });
  }
}

/** Wraps the app call so that per-object field fetches (GetRole) are counted. */
function countingFetch(call: AppCall, walked: { n: number }): AppCall {
  return ((...args: Parameters<AppCall>) => {
    if (args[2] === "GetRole") walked.n++;
    return (call as (...a: unknown[]) => Promise<unknown>)(...args);
  }) as AppCall;
}

/** The basic fields of a node, as the walk fetches them when there is no cache row. */
async function fetchItem(call: AppCall, path: string, traits: AppTraits): Promise<CacheItem> {
  const [[role], [states], [ifaces], p] = await Promise.all([
    call(path, ACCESSIBLE, "GetRole"),
    call(path, ACCESSIBLE, "GetState"),
    call(path, ACCESSIBLE, "GetInterfaces"),
    readProperties(call, path, ACCESSIBLE, ["ChildCount", "Name", "Description"], traits.getAll),
  ]);
  const st = states as number[];
  return {
    path,
    parent: "",
    index: -1,
    childCount: Number(p.get("ChildCount") ?? 0),
    interfaces: ifaces as string[],
    name: String(p.get("Name") ?? ""),
    role: role as number,
    description: String(p.get("Description") ?? ""),
    states: [st[0] ?? 0, st[1] ?? 0],
  };
}

function toNode(bus: string, it: CacheItem): AtspiRawNode {
  return {
    bus,
    path: it.path,
    role: it.role,
    name: it.name,
    description: it.description,
    states: it.states,
    interfaces: it.interfaces,
    children: [],
  };
}

/**
 * Builds the tree below `rootPath`, from the cache where it can tell and with
 * pipelined calls where it cannot. Every node kept is passed to `found`.
 */
async function buildTree(
  bus: string,
  rootPath: string,
  idx: ItemIndex | null,
  call: AppCall,
  opts: ReadTreeOptions,
  traits: AppTraits,
  found: (node: AtspiRawNode, leaf: boolean) => void,
): Promise<AtspiRawNode> {
  /**
   * A combo box's closed popup: its items' names and which one is SELECTED,
   * as the cache has them, else asked of the app (Qt 6 publishes no cache; a
   * page loaded after the first contact is not in Chromium's), for at most
   * {@link MAX_CHOICES} items.
   */
  const noteChoices = async (node: AtspiRawNode, popup: AtspiRawNode): Promise<void> => {
    if (node.role !== ROLE_COMBO_BOX) return;
    let items: Array<{ name: string; states: number[] }> = idx?.childrenOf.get(popup.path) ?? [];
    if (items.length === 0) {
      const [refs] = await call(popup.path, ACCESSIBLE, "GetChildren").catch(() => [[]]);
      const own = (refs as Array<[string, string]>).filter(([b]) => b === bus).slice(
        0,
        MAX_CHOICES,
      );
      items = await Promise.all(own.map(async ([, p]) => {
        const [props, states] = await Promise.all([
          getProperties(call, p, ACCESSIBLE, ["Name"]).catch(() => null),
          call(p, ACCESSIBLE, "GetState").then(([st]) => st as number[], () => [0, 0]),
        ]);
        return { name: String(props?.get("Name") ?? ""), states };
      }));
    }
    const chosen = items.find((k) => ((k.states[0] ?? 0) & SELECTED_BIT) !== 0)?.name.trim();
    if (chosen && node.chosen === undefined) node.chosen = chosen;
    const names = items.map((k) => k.name.trim()).filter(Boolean);
    if (names.length) node.choices = [...(node.choices ?? []), ...names];
  };
  const leafItem = (k: CacheItem) =>
    k.childCount === 0 && (k.states[0] & MANAGES_DESCENDANTS_BIT) === 0;
  const rootItem = idx?.byPath.get(rootPath) ?? await fetchItem(call, rootPath, traits);
  const root = toNode(bus, rootItem);
  found(root, leafItem(rootItem));
  /**
   * Reads the objects at `paths` (in order) as children of `node`, each
   * expanded as soon as it is known; hidden ones and other apps' are left out.
   */
  const adopt = async (node: AtspiRawNode, paths: readonly string[], level: number) => {
    const slots: Array<AtspiRawNode | null> = paths.map(() => null);
    await Promise.all(paths.map(async (p, i) => {
      const k = idx?.byPath.get(p) ?? await fetchItem(call, p, traits).catch(skipGone);
      if (!k) return;
      const child = toNode(bus, k);
      if (isHidden(child, node.role)) return await noteChoices(node, child);
      slots[i] = child;
      found(child, leafItem(k));
      await expand(k, child, level + 1);
    }));
    for (const c of slots) if (c) node.children.push(c);
  };
  const expand = async (item: CacheItem, node: AtspiRawNode, level: number): Promise<void> => {
    if (opts.depth !== undefined && level >= opts.depth) return;
    // Objects that manage their descendants (a spreadsheet, a tree view)
    // create children on demand and may report none, or billions: read only
    // what is showing, never all their children.
    if ((item.states[0] & MANAGES_DESCENDANTS_BIT) !== 0) {
      checkDeadline(opts.deadline);
      const showing = await readShowing(call, bus, item.path, item.interfaces).catch(
        goneBelowRoot(level, { headers: [], children: [], rows: [] }),
      );
      await adopt(node, showing.headers, level);
      await adopt(node, showing.children, level);
      await Promise.all(showing.rows.map(async (r) => {
        const row = tableRow(bus);
        await adopt(row, r.cells, level + 1);
        // A list view's item is its row: Qt's icon and list views give each
        // item a table row whose other columns are hidden, and the item alone
        // shows (pcmanfm-qt). Wrapping it would make a row with no key.
        if (row.children.length === 1 && row.children[0].role === LIST_ITEM_ROLE) {
          return { node: row.children[0], made: false };
        }
        liftRowStates(row);
        return { node: row, made: true };
      })).then((rows) => {
        for (const { node: row, made } of rows) {
          if (row.children.length === 0 && made) continue;
          node.children.push(row);
          if (made) found(row, false);
        }
      });
      return;
    }
    // GTK 4 lists its application with a child count of 0 in the cache: the
    // root is always asked. A browser's frame with no document yet is marked: its document is
    // on its way (Firefox builds it when first asked for).
    if (item.childCount === 0 && item.role === INTERNAL_FRAME) node.pending = true;
    if (item.childCount === 0 && level > 0) return;
    checkDeadline(opts.deadline);
    const cached = idx ? cachedChildren(idx, item) : null;
    if (cached) {
      const pending: Promise<void>[] = [];
      for (const k of cached) {
        const child = toNode(bus, k);
        if (isHidden(child, node.role)) {
          pending.push(noteChoices(node, child));
          continue;
        }
        node.children.push(child);
        found(child, leafItem(k));
        pending.push(expand(k, child, level + 1));
      }
      await Promise.all(pending);
      return;
    }
    // The cache cannot tell the order (GTK3 menus report childCount -1 and
    // index -1): GetChildren does, and the cache still gives each child's fields.
    const [refs] = await call(item.path, ACCESSIBLE, "GetChildren").catch(
      goneBelowRoot<DBusValue[]>(level, [[]]),
    );
    const own = (refs as Array<[string, string]>).filter(([b]) => b === bus).map(([, p]) => p);
    await adopt(node, own, level);
  };
  await expand(rootItem, root, 0);
  return root;
}

/** AT-SPI's list item role. */
const LIST_ITEM_ROLE = 32;

/** ENABLED, SENSITIVE, SHOWING and VISIBLE: the states of a row made to group a table's cells. */
const ROW_STATES: [number, number] = [(1 << 8) | (1 << 24) | (1 << 25) | (1 << 30), 0];

/**
 * A row grouping cells that a table lists as its direct children (GTK3 tree
 * views, spreadsheets): no object of the app stands behind it (empty path).
 */
function tableRow(bus: string): AtspiRawNode {
  return {
    bus,
    path: "",
    role: 90, // table row
    name: "",
    description: "",
    states: [...ROW_STATES],
    interfaces: [],
    children: [],
  };
}

/** EXPANDABLE (9) and EXPANDED (10) in the low state word. */
const EXPANDER_BITS = (1 << 9) | (1 << 10);
/** FOCUSED (12) in the low state word. */
const FOCUSED_BIT = 1 << 12;

/**
 * A tree view's node is expandable and expanded, selected and focused (the
 * keyboard's cursor row), not its cells: GTK marks every cell of the row (and
 * the icon and text inside a packed cell), so the row made to group them
 * takes those states, and the cells say no more. A row is selected when all
 * its cells are, focused when it is selected or several cells are (a
 * spreadsheet selects or focuses one cell of a row: that cell keeps its
 * selection and its focus).
 *
 * @param row a row made to group cells, its cells as its children
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { liftRowStates } from "./atspi_bus.ts";
 * const [SELECTED, FOCUSED] = [1 << 23, 1 << 12];
 * const cell = (states: number) => ({
 *   bus: ":1.5", path: "", role: 29, name: "", description: "", states: [states, 0] as [number, number],
 *   interfaces: [], children: [],
 * });
 * const row = (...cells: ReturnType<typeof cell>[]) => ({ ...cell(0), role: 90, children: cells });
 * // GTK's cursor row: every cell selected, one focused; the row takes both.
 * const gtk = row(cell(SELECTED | FOCUSED), cell(SELECTED));
 * liftRowStates(gtk);
 * assert.equal(gtk.states[0] & (SELECTED | FOCUSED), SELECTED | FOCUSED);
 * assert.equal(gtk.children[0].states[0] & FOCUSED, 0);
 * // A spreadsheet's cursor: one cell focused, none selected; the cell keeps it.
 * const calc = row(cell(FOCUSED), cell(0));
 * liftRowStates(calc);
 * assert.equal(calc.states[0] & FOCUSED, 0);
 * assert.equal(calc.children[0].states[0] & FOCUSED, FOCUSED);
 * ```
 */
export function liftRowStates(row: AtspiRawNode): void {
  const cells = row.children;
  const has = (n: AtspiRawNode, bit: number) => (n.states[0] & bit) !== 0;
  const expander = cells.find((c) => has(c, EXPANDER_BITS));
  const selected = cells.length > 0 && cells.every((c) => has(c, SELECTED_BIT));
  const focusedIn = (n: AtspiRawNode): boolean => has(n, FOCUSED_BIT) || n.children.some(focusedIn);
  const oneCellSelected = !selected && cells.some((c) => has(c, SELECTED_BIT));
  // A tree view's cursor row is selected and marks its cells (or one of them) focused; a
  // spreadsheet's cursor is one cell of a row it does not select.
  const focusedCells = cells.filter(focusedIn).length;
  const focused = !oneCellSelected && focusedCells > 0 &&
    (selected || focusedCells > 1 || cells.length === 1);
  const lifted = (expander ? expander.states[0] & EXPANDER_BITS : 0) |
    (selected ? SELECTED_BIT : 0) | (focused ? FOCUSED_BIT : 0);
  if (!lifted) return;
  row.states[0] = (row.states[0] | lifted) >>> 0;
  const clear = (n: AtspiRawNode) => {
    n.states = [(n.states[0] & ~lifted) >>> 0, n.states[1]];
    n.children.forEach(clear);
  };
  cells.forEach(clear);
}

/**
 * An error handler for asking an object at `level` for its children: an
 * object below the read's root that went away while we read (a process row of
 * a system monitor) has none, and the read goes on; the root itself gone, or
 * any other error, stands.
 */
function goneBelowRoot<T>(level: number, none: T): (e: unknown) => T {
  return (e) => {
    if (level === 0) throw e;
    skipGone(e);
    return none;
  };
}

/** A child that disappeared while we read is skipped; other errors stand. */
function skipGone(e: unknown): null {
  if (e instanceof DesktopError && (e.code === "STALE_REF" || e.code === "ACTION_NOT_SUPPORTED")) {
    return null;
  }
  throw e;
}
