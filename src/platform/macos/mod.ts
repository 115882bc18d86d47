/**
 * The macOS backend (AX API through Deno.dlopen). Loaded only when a live
 * macOS provider is asked for. With `DESKTOP_AX_SHIM` set it loads the Linux
 * test shim instead of the system frameworks.
 *
 * @module
 */

import { DesktopError, toDesktopError } from "../../errors.ts";
import { AX_ERROR } from "../../ffi/macos/ax_error.ts";
import { libraryPaths, openMacosLibraries, SHIM_ENV } from "../../ffi/macos/libraries.ts";
import type { Provider, ProviderOptions } from "../provider.ts";
import { permissionDenied, safeEnv } from "./permission.ts";
import { MacosProvider } from "./provider.ts";
import { AxSession } from "./session.ts";

export { MacosProvider } from "./provider.ts";

/**
 * Opens the AX provider: loads the frameworks, checks the Accessibility
 * permission (and probes it: a stale grant says yes but refuses calls).
 *
 * @param opts per-operation deadline
 * @returns the provider; close it when done
 * @throws DesktopError PERMISSION_DENIED naming the app to allow,
 *   PLATFORM_NOT_SUPPORTED when the frameworks cannot be loaded
 */
export function createMacosProvider(opts: ProviderOptions): Promise<Provider> {
  try {
    if (!(opts.timeoutMs > 0)) {
      throw new DesktopError("INVALID_ARGS", `timeout must be positive, not ${opts.timeoutMs}`);
    }
    const shim = safeEnv(SHIM_ENV);
    if (Deno.build.os !== "darwin" && !shim) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", "the AX backend runs only on macOS", {
        suggestion: `Run on macOS, or set ${SHIM_ENV} to the test shim library`,
      });
    }
    let libs;
    try {
      libs = openMacosLibraries(libraryPaths(shim));
    } catch (err) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        `cannot load the macOS accessibility frameworks: ${(err as Error).message}`,
        { suggestion: "Run with --allow-ffi on macOS 10.13 or later", cause: err },
      );
    }
    const session = new AxSession(libs, opts.timeoutMs);
    try {
      checkTrust(session);
    } catch (err) {
      session.close();
      throw err;
    }
    return Promise.resolve(new MacosProvider(session));
  } catch (err) {
    return Promise.reject(toDesktopError(err));
  }
}

function checkTrust(s: AxSession): void {
  const { ax } = s.libs;
  if (!ax.AXIsProcessTrusted()) {
    // Ask macOS to show its prompt; it also adds the app to the list in System Settings.
    using prompt = s.cf.dictionary([[s.libs.statics.trustedCheckOptionPrompt, s.cf.boolean(true)]]);
    ax.AXIsProcessTrustedWithOptions(prompt.ptr);
    throw permissionDenied(s.holder, "AXIsProcessTrusted is false");
  }
  // A grant can go stale (the binary was re-signed): trusted, yet every call is refused.
  const { err, value } = s.copy(s.systemWide, "AXFocusedApplication");
  value?.[Symbol.dispose]();
  if (err === AX_ERROR.APIDisabled) throw permissionDenied(s.holder, "probe read refused (-25211)");
}
