/**
 * The Linux backend (AT-SPI). Loaded only when a live Linux provider is asked for.
 *
 * Errors: no reachable accessibility bus is PERMISSION_DENIED (the suggestion
 * says how to start one); a missing libatspi is PLATFORM_NOT_SUPPORTED.
 * Window ids are hashes of the window's bus name and object path (see
 * scope.ts `windowId`), stable while the app runs.
 *
 * @module
 */

import { toDesktopError } from "../../errors.ts";
import type { Provider, ProviderOptions } from "../provider.ts";
import { LinuxProvider } from "./provider.ts";

/**
 * Opens the AT-SPI provider.
 *
 * @param opts per-operation deadline
 * @returns the provider
 */
export async function createLinuxProvider(opts: ProviderOptions): Promise<Provider> {
  try {
    return await LinuxProvider.open(opts);
  } catch (e) {
    throw toDesktopError(e);
  }
}
