/**
 * `desktop`: eyes and hands on native application UIs through the operating
 * system's accessibility tree, for AI agents and programs.
 *
 * Importing this module needs no permission: the element model, refs, diff,
 * formatters and errors are pure. {@link connect} loads a backend on demand
 * (AT-SPI on Linux, AX on macOS, or a saved snapshot).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connect } from "./mod.ts";
 *
 * // A saved read stands in for the live desktop here; connect() alone opens this OS's desktop.
 * const from = new URL("./tests/fixtures/browser_form.json", import.meta.url).pathname;
 * const desktop = await connect({ from });
 * const email = await desktop.resolve({}, { ref: "form/email" });
 * assert.equal(email.t, "Email");
 * const { elements } = await desktop.ops.find({ text: "Delete", roles: "btn", all: true });
 * assert.ok(elements.length > 1);
 * desktop.close();
 * ```
 *
 * @module
 */

export { connect } from "./src/connect.ts";
export type { ConnectOptions, DesktopSession } from "./src/connect.ts";
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
  ClipboardGetArgs,
  ClipboardGetResult,
  ClipboardSetArgs,
  ClipboardSetResult,
  FillArgs,
  FillResult,
  LaunchArgs,
  LaunchResult,
  QuitArgs,
  QuitResult,
  RunArgs,
  ScreenshotArgs,
  ScreenshotResult,
  WindowArgs,
  WindowOpResult,
} from "./src/ops/system.ts";
export type { ActReport, ElementSummary } from "./src/ops/render.ts";
// The types the exports above name, so that every public signature is documented.
export type { ScopeArgs, TargetArgs } from "./src/ops/params.ts";
export type { Camel } from "./src/ops/mod.ts";
export type { Args, Face, Op, OpContext, OpHints, ParamSpec, ParamType } from "./src/ops/types.ts";
export { type ActArgs, OPS, type Ops } from "./src/ops/table.ts";
export type { Launched, Quit, WindowResult } from "./src/apps/apps.ts";
export type {
  ChangeHint,
  ProviderActOptions,
  ScreenCapture,
  StartedApp,
  WindowOp,
  WindowState,
} from "./src/platform/provider.ts";
export type { RunOptions, RunReport, StepReport } from "./src/run/run.ts";
export type { FilledField, FillField } from "./src/fill/fill.ts";
export type {
  AddedEvent,
  ChangedEvent,
  DoneEvent,
  ErrorEvent,
  ObserveEvent,
  RemovedEvent,
  SnapshotEvent,
} from "./src/observe/events.ts";
export type { RefShortener } from "./src/output/short_refs.ts";
export type { RgbaImage } from "./src/output/image.ts";
export type { ActOptions } from "./src/desktop.ts";
export type { InView } from "./src/act/in_view.ts";
