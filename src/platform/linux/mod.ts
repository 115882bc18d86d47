/**
 * The Linux backend (AT-SPI). Loaded only when a live Linux provider is asked for.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Provider, ProviderOptions } from "../provider.ts";

/** Opens the AT-SPI provider. */
export function createLinuxProvider(_opts: ProviderOptions): Promise<Provider> {
  return Promise.reject(
    new DesktopError("PLATFORM_NOT_SUPPORTED", "the Linux backend is not available yet"),
  );
}
