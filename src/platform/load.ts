/**
 * Picks and opens a backend: the replay provider for a saved snapshot, else
 * the live backend of the current OS, loaded by dynamic import so that
 * importing the library never loads FFI code.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Provider } from "./provider.ts";

/** Options of {@link openProvider}. */
export interface OpenProviderOptions {
  /** Path of a saved snapshot: open the read-only replay backend on it. */
  from?: string;
  /** Per-operation deadline in milliseconds. */
  timeoutMs: number;
  /** The caller's deadline (ms since the epoch) for opening the backend. */
  deadline?: number;
  /** Operating system to pick the backend for (default `Deno.build.os`). */
  os?: string;
}

/**
 * Opens the provider a command asked for.
 *
 * @param opts `from` for a snapshot file, and the per-operation deadline
 * @returns the opened provider; close it when done
 * @throws DesktopError PLATFORM_NOT_SUPPORTED on an OS without a backend,
 *   SNAPSHOT_INVALID for a bad snapshot file
 *
 * @example
 * ```ts ignore
 * import { openProvider } from "./load.ts";
 * const provider = await openProvider({ from: "tests/fixtures/browser_form.json", timeoutMs: 5000 });
 * console.log((await provider.listApps())[0].name); // "Chromium"
 * provider.close();
 * ```
 */
export async function openProvider(opts: OpenProviderOptions): Promise<Provider> {
  if (opts.from !== undefined) {
    const { openReplayProvider } = await import("./replay/mod.ts");
    // The command's own deadline bounds reading the file, as it bounds opening a live backend.
    return await openReplayProvider(opts.from, {
      timeoutMs: opts.timeoutMs,
      ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
    });
  }
  const os = opts.os ?? Deno.build.os;
  switch (os) {
    case "linux": {
      const { createLinuxProvider } = await import("./linux/mod.ts");
      return await createLinuxProvider({ timeoutMs: opts.timeoutMs, deadline: opts.deadline });
    }
    case "darwin": {
      const { createMacosProvider } = await import("./macos/mod.ts");
      return await createMacosProvider({ timeoutMs: opts.timeoutMs, deadline: opts.deadline });
    }
    default:
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        `no accessibility backend for ${os}`,
        {
          suggestion:
            "Run on Linux (AT-SPI) or macOS (AX), or read a saved snapshot with --from FILE",
        },
      );
  }
}
