/**
 * The macOS backend (AX API). Loaded only when a live macOS provider is asked for.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Provider, ProviderOptions } from "../provider.ts";

/** Opens the AX provider. */
export function createMacosProvider(_opts: ProviderOptions): Promise<Provider> {
  return Promise.reject(
    new DesktopError("PLATFORM_NOT_SUPPORTED", "the macOS backend is not available yet"),
  );
}
