/**
 * The one way in: {@link connect} opens a session for the library, the CLI
 * and the MCP server alike. Importing this module loads no backend; the
 * backend (AT-SPI, AX or a snapshot file) is loaded when a session opens.
 *
 * @module
 */

import type { CreateDesktopOptions, Desktop } from "./desktop.ts";
import type { OpMethods } from "./ops/mod.ts";
import { createDesktop, DEFAULT_TIMEOUT_MS } from "./desktop.ts";

/**
 * A session from {@link connect}: the {@link Desktop} methods, and `ops`, every
 * verb of the CLI and the MCP server as a typed method with the same
 * parameter names (`desktop.ops.setValue({ app, ref, value })`).
 */
export interface DesktopSession extends Desktop {
  /** The operations: the same verbs, parameters and results as the MCP tools. */
  readonly ops: OpMethods;
}

/** Options of {@link connect}. */
export interface ConnectOptions extends CreateDesktopOptions {
  /** Read a saved snapshot file instead of the live desktop (read-only). */
  from?: string;
}

/**
 * Opens a session on the live desktop of this OS, or on a snapshot file.
 *
 * @param opts `from` for a snapshot file, `timeoutMs` per operation (default
 *   10000), `persistRefs` to share ids with the CLI through the ref store
 * @returns the session; call `close()` when done
 * @throws DesktopError PLATFORM_NOT_SUPPORTED, PERMISSION_DENIED, SNAPSHOT_INVALID
 *
 * @example
 * ```ts ignore
 * import { connect } from "@x/desktop";
 * const desktop = await connect({ from: "tests/fixtures/browser_form.json" });
 * const email = await desktop.resolve({}, { ref: "form/email" });
 * console.log(email.t); // "Email"
 * const { elements } = await desktop.ops.find({ text: "Delete", roles: "btn", all: true });
 * console.log(elements.length); // 12
 * desktop.close();
 * ```
 */
export async function connect(opts: ConnectOptions = {}): Promise<DesktopSession> {
  // Loaded here, not at the top: importing mod.ts must not load FFI code.
  const { openProvider } = await import("./platform/load.ts");
  const { opMethods } = await import("./ops/mod.ts");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const provider = await openProvider({ from: opts.from, timeoutMs, deadline: opts.deadline });
  const desktop = createDesktop(provider, { ...opts, timeoutMs });
  return Object.assign(desktop, { ops: opMethods(desktop) });
}
