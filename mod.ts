/**
 * `desktop`: eyes and hands on native application UIs through the operating
 * system's accessibility tree, for AI agents and programs.
 *
 * Importing this module needs no permission: the element model, refs, diff,
 * formatters and errors are pure. {@link connect} loads a backend on demand
 * (AT-SPI on Linux, AX on macOS, or a saved snapshot).
 *
 * @example
 * ```ts ignore
 * import { connect } from "@x/desktop";
 *
 * const desktop = await connect();
 * const { view } = await desktop.read({ app: "Calculator" }, { roles: new Set(["btn"]) });
 * console.log(view.kept);
 * await desktop.act({ app: "Calculator" }, { ref: "7" }, { kind: "click" });
 * desktop.close();
 * ```
 *
 * @module
 */

import type { CreateDesktopOptions, Desktop } from "./src/desktop.ts";
import type { OpMethods } from "./src/ops/mod.ts";
import { createDesktop, DEFAULT_TIMEOUT_MS } from "./src/desktop.ts";

export * from "./src/model/mod.ts";
export * from "./src/refs/mod.ts";
export * from "./src/diff/mod.ts";
export * from "./src/output/mod.ts";
export * from "./src/errors.ts";
export type {
  Action,
  ActionResult,
  ActionTarget,
  MouseButton,
  Provider,
  ProviderOptions,
  ReadOptions,
  Scope,
  ScrollDirection,
} from "./src/platform/provider.ts";
export type {
  ActResult,
  CreateDesktopOptions,
  Desktop,
  DesktopOptions,
  ReadRequest,
  ReadResult,
  Target,
  WaitCondition,
} from "./src/desktop.ts";
export { createDesktop, DEFAULT_TIMEOUT_MS } from "./src/desktop.ts";
export type { Screenshot, ScreenshotRequest } from "./src/screenshot/screenshot.ts";
export type { Mark } from "./src/output/marks.ts";
export type { RefStore, StoredApp, StoredElement, StoredRead } from "./src/state/ref_store.ts";
export type { CallOptions, OpMethods } from "./src/ops/mod.ts";
export type {
  ActionArgs,
  ClickArgs,
  DiffArgs,
  DiffResult,
  DragArgs,
  FindArgs,
  FindResult,
  FocusArgs,
  KeyArgs,
  ListArgs,
  ListResult,
  ObserveArgs,
  ObserveResult,
  ReadArgs,
  ReadOpResult,
  ScrollArgs,
  SetValueArgs,
  TypeArgs,
  WaitArgs,
  WaitResult,
} from "./src/ops/table.ts";
export type {
  LaunchArgs,
  LaunchResult,
  QuitArgs,
  QuitResult,
  ScreenshotArgs,
  ScreenshotResult,
  WindowArgs,
  WindowOpResult,
} from "./src/ops/system.ts";
export type { ActReport, ElementSummary } from "./src/ops/render.ts";

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
  const { openProvider } = await import("./src/platform/load.ts");
  const { opMethods } = await import("./src/ops/mod.ts");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const provider = await openProvider({ from: opts.from, timeoutMs, deadline: opts.deadline });
  const desktop = createDesktop(provider, { ...opts, timeoutMs });
  return Object.assign(desktop, { ops: opMethods(desktop) });
}

// `deno run -A jsr:@x/desktop <command>` runs the CLI (loaded only then).
if (import.meta.main) {
  const { main } = await import("./cli.ts");
  await main(Deno.args);
}
