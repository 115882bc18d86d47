/**
 * The verbs beyond reading and acting on elements: screenshot, launch, quit,
 * window, clipboard, fill and run (each in its own file under `verbs/`).
 *
 * @module
 */

import type { Op } from "./types.ts";
import type { RunReport } from "../run/run.ts";
import type {
  ClipboardGetArgs,
  ClipboardGetResult,
  ClipboardSetArgs,
  ClipboardSetResult,
} from "./verbs/clipboard.ts";
import type { FillArgs, FillResult } from "./verbs/fill.ts";
import type { LaunchArgs, LaunchResult } from "./verbs/launch.ts";
import type { QuitArgs, QuitResult } from "./verbs/quit.ts";
import type { RunArgs } from "./verbs/run.ts";
import type { ScreenshotArgs, ScreenshotResult } from "./verbs/screenshot.ts";
import type { WindowArgs, WindowOpResult } from "./verbs/window.ts";
import { screenshot } from "./verbs/screenshot.ts";
import { launch } from "./verbs/launch.ts";
import { quit } from "./verbs/quit.ts";
import { windowOp } from "./verbs/window.ts";
import { clipboardGet, clipboardSet } from "./verbs/clipboard.ts";
import { fill } from "./verbs/fill.ts";
import { runOp } from "./verbs/run.ts";

export { type ScreenshotArgs, screenshotLines, type ScreenshotResult } from "./verbs/screenshot.ts";
export { type LaunchArgs, type LaunchResult } from "./verbs/launch.ts";
export { type QuitArgs, type QuitResult } from "./verbs/quit.ts";
export { parsePair, type WindowArgs, type WindowOpResult } from "./verbs/window.ts";
export {
  type ClipboardGetArgs,
  type ClipboardGetResult,
  type ClipboardSetArgs,
  type ClipboardSetResult,
} from "./verbs/clipboard.ts";
export { type FillArgs, fillLines, type FillResult, parseField } from "./verbs/fill.ts";
export { type RunArgs, runLines } from "./verbs/run.ts";

/** The operations of this module, for the table. */
export const SYSTEM_OPS: {
  screenshot: Op<ScreenshotArgs, ScreenshotResult>;
  launch: Op<LaunchArgs, LaunchResult>;
  quit: Op<QuitArgs, QuitResult>;
  window: Op<WindowArgs, WindowOpResult>;
  clipboard_get: Op<ClipboardGetArgs, ClipboardGetResult>;
  clipboard_set: Op<ClipboardSetArgs, ClipboardSetResult>;
  fill: Op<FillArgs, FillResult>;
  run: Op<RunArgs, RunReport>;
} = {
  screenshot,
  launch,
  quit,
  window: windowOp,
  clipboard_get: clipboardGet,
  clipboard_set: clipboardSet,
  fill,
  run: runOp,
};
