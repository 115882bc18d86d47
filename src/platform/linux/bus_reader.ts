/**
 * Optional fast reader: the pure-TypeScript D-Bus client in ./dbus/ reads a
 * whole app in bulk. It is loaded on first use and used when it connects;
 * otherwise (missing, failing, or DESKTOP_ATSPI_READER=ffi) the provider
 * falls back to the libatspi walk.
 *
 * @module
 */

import type { AtspiRawNode } from "./raw.ts";
import type { Toolkit } from "./toolkit.ts";
import type { ReadProgress } from "./dbus/read_progress.ts";

/** The part of the D-Bus client the provider uses. */
export interface BulkReader {
  /**
   * Reads one app's tree from its root path (or a subtree from any path);
   * `bulk: false` leaves the app's cache unasked (read object by object);
   * `progress` is updated as the app answers.
   */
  readTree(
    bus: string,
    rootPath: string,
    opts: {
      depth?: number;
      bounds: boolean;
      deadline: number;
      bulk?: boolean;
      progress?: ReadProgress;
    },
  ): Promise<AtspiRawNode>;
  /** The app's toolkit, as its read asked it (fields "" when it does not say). */
  toolkit(bus: string, deadline: number): Promise<Toolkit>;
  /** Closes the connection. */
  close(): void;
}

interface BusModule {
  AtspiBus: { connect(timeoutMs: number): Promise<BulkReader> };
}

/**
 * Connects the bulk reader, or resolves null when it is unavailable or
 * disabled (`DESKTOP_ATSPI_READER=ffi`).
 *
 * @param timeoutMs connect timeout
 * @returns the reader or null
 */
export async function connectBulkReader(timeoutMs: number): Promise<BulkReader | null> {
  if ((Deno.env.get("DESKTOP_ATSPI_READER") ?? "").toLowerCase() === "ffi") return null;
  try {
    // A computed specifier keeps the module optional for type checking and loading.
    const spec = ["./dbus", "atspi_bus.ts"].join("/");
    const mod = (await import(spec)) as Partial<BusModule>;
    if (!mod.AtspiBus) return null;
    return await mod.AtspiBus.connect(timeoutMs);
  } catch {
    return null;
  }
}
