/**
 * D-Bus server addresses (`unix:path=/run/user/0/bus,guid=...;unix:abstract=...`)
 * and the socket path each one connects to.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";

/** One parsed address entry. */
export interface DBusAddress {
  /** Transport name (`unix`, `tcp`...). */
  transport: string;
  /** Key/value parameters, unescaped. */
  params: Record<string, string>;
}

function unsupported(message: string): DesktopError {
  return new DesktopError("PLATFORM_NOT_SUPPORTED", message, {
    suggestion: "Run inside a desktop session whose D-Bus address is unix:path=... or " +
      "unix:abstract=... (check DBUS_SESSION_BUS_ADDRESS)",
  });
}

function unescape(value: string, whole: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw unsupported(`bad escape in D-Bus address "${whole}"`);
  }
}

/**
 * Parses a D-Bus address string into its entries, in order of preference.
 *
 * @param address the address string
 * @returns one entry per `;`-separated part
 * @throws DesktopError PLATFORM_NOT_SUPPORTED for an empty or malformed address
 * @example
 * ```ts
 * import { parseAddress } from "./address.ts";
 * parseAddress("unix:path=/tmp/bus,guid=00")[0].params.path; // "/tmp/bus"
 * ```
 */
export function parseAddress(address: string): DBusAddress[] {
  const out: DBusAddress[] = [];
  for (const part of address.split(";")) {
    if (part === "") continue;
    const colon = part.indexOf(":");
    if (colon <= 0) throw unsupported(`malformed D-Bus address "${address}" (no transport)`);
    const transport = part.slice(0, colon);
    const params: Record<string, string> = {};
    const rest = part.slice(colon + 1);
    if (rest !== "") {
      for (const kv of rest.split(",")) {
        const eq = kv.indexOf("=");
        if (eq <= 0) throw unsupported(`malformed D-Bus address "${address}" (bad "${kv}")`);
        const key = kv.slice(0, eq);
        if (key in params) throw unsupported(`D-Bus address "${address}" repeats "${key}"`);
        params[key] = unescape(kv.slice(eq + 1), address);
      }
    }
    out.push({ transport, params });
  }
  if (out.length === 0) throw unsupported(`empty D-Bus address "${address}"`);
  return out;
}

/**
 * The unix socket path to connect to for an address entry. Abstract sockets
 * become a path with a leading NUL byte, which Deno passes through to Linux.
 *
 * @param a one parsed entry
 * @returns the path for `Deno.connect({ transport: "unix", path })`
 * @throws DesktopError PLATFORM_NOT_SUPPORTED for transports other than unix path/abstract
 */
export function socketPath(a: DBusAddress): string {
  if (a.transport !== "unix") {
    throw unsupported(`D-Bus transport "${a.transport}" is not supported (only unix sockets)`);
  }
  if (a.params.path !== undefined) return a.params.path;
  if (a.params.abstract !== undefined) return "\0" + a.params.abstract;
  throw unsupported(
    `unix D-Bus address without path= or abstract= (${Object.keys(a.params).join(",")})`,
  );
}

/**
 * The socket paths to try for an address string, skipping entries we cannot
 * connect to.
 *
 * @param address the address string
 * @returns at least one socket path
 * @throws DesktopError PLATFORM_NOT_SUPPORTED when no entry is usable
 */
export function socketPaths(address: string): string[] {
  const entries = parseAddress(address);
  const paths: string[] = [];
  let firstError: DesktopError | undefined;
  for (const e of entries) {
    try {
      paths.push(socketPath(e));
    } catch (err) {
      firstError ??= err as DesktopError;
    }
  }
  if (paths.length === 0) throw firstError!;
  return paths;
}
