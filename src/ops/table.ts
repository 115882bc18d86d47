/**
 * The table of operations: every verb of the CLI, the MCP server and the
 * library. Each verb lives in its own file under `verbs/` (its parameters,
 * hints, handler and rendering); what they share is in `verbs/_shared.ts`.
 *
 * @module
 */

import { SYSTEM_OPS } from "./system.ts";
import type { Op } from "./types.ts";
import type { RunReport } from "../run/run.ts";
import type { ActReport } from "./render.ts";
import type { ActionArgs } from "./verbs/action.ts";
import type { ClickArgs } from "./verbs/click.ts";
import type {
  ClipboardGetArgs,
  ClipboardGetResult,
  ClipboardSetArgs,
  ClipboardSetResult,
} from "./verbs/clipboard.ts";
import type { DiffArgs, DiffResult } from "./verbs/diff.ts";
import type { DragArgs } from "./verbs/drag.ts";
import type { FillArgs, FillResult } from "./verbs/fill.ts";
import type { FindArgs, FindResult } from "./verbs/find.ts";
import type { FocusArgs } from "./verbs/focus.ts";
import type { KeyArgs } from "./verbs/key.ts";
import type { LaunchArgs, LaunchResult } from "./verbs/launch.ts";
import type { ListArgs, ListResult } from "./verbs/list.ts";
import type { ObserveArgs, ObserveResult } from "./verbs/observe.ts";
import type { QuitArgs, QuitResult } from "./verbs/quit.ts";
import type { ReadArgs, ReadOpResult } from "./verbs/read.ts";
import type { RunArgs } from "./verbs/run.ts";
import type { ScreenshotArgs, ScreenshotResult } from "./verbs/screenshot.ts";
import type { ScrollArgs } from "./verbs/scroll.ts";
import type { SetValueArgs } from "./verbs/set_value.ts";
import type { TypeArgs } from "./verbs/type.ts";
import type { WaitArgs, WaitResult } from "./verbs/wait.ts";
import type { WindowArgs, WindowOpResult } from "./verbs/window.ts";
import { list } from "./verbs/list.ts";
import { read } from "./verbs/read.ts";
import { find } from "./verbs/find.ts";
import { click } from "./verbs/click.ts";
import { typeOp } from "./verbs/type.ts";
import { key } from "./verbs/key.ts";
import { action } from "./verbs/action.ts";
import { setValue } from "./verbs/set_value.ts";
import { scroll } from "./verbs/scroll.ts";
import { drag } from "./verbs/drag.ts";
import { focus } from "./verbs/focus.ts";
import { wait } from "./verbs/wait.ts";
import { observeOp } from "./verbs/observe.ts";
import { diff } from "./verbs/diff.ts";

export { filterApps, type ListArgs, type ListResult } from "./verbs/list.ts";
export { type ReadArgs, type ReadOpResult } from "./verbs/read.ts";
export { type FindArgs, type FindResult } from "./verbs/find.ts";
export { type ClickArgs } from "./verbs/click.ts";
export { type TypeArgs } from "./verbs/type.ts";
export { type KeyArgs } from "./verbs/key.ts";
export { type ActionArgs } from "./verbs/action.ts";
export { type SetValueArgs } from "./verbs/set_value.ts";
export { type ScrollArgs } from "./verbs/scroll.ts";
export { centreOf, type DragArgs } from "./verbs/drag.ts";
export { type FocusArgs } from "./verbs/focus.ts";
export { type WaitArgs, type WaitResult } from "./verbs/wait.ts";
export { type ObserveArgs, type ObserveResult } from "./verbs/observe.ts";
export { type DiffArgs, type DiffResult, loadSnapshotTree } from "./verbs/diff.ts";
export type { ActArgs } from "./verbs/_shared.ts";

/** The table's type: each operation with its argument and result types. */
export interface Ops {
  /** `list` */
  list: Op<ListArgs, ListResult>;
  /** `read` */
  read: Op<ReadArgs, ReadOpResult>;
  /** `find` */
  find: Op<FindArgs, FindResult>;
  /** `click` */
  click: Op<ClickArgs, ActReport>;
  /** `type` */
  type: Op<TypeArgs, ActReport>;
  /** `key` */
  key: Op<KeyArgs, ActReport>;
  /** `action` */
  action: Op<ActionArgs, ActReport>;
  /** `set_value` */
  set_value: Op<SetValueArgs, ActReport>;
  /** `scroll` */
  scroll: Op<ScrollArgs, ActReport>;
  /** `drag` */
  drag: Op<DragArgs, ActReport>;
  /** `focus` */
  focus: Op<FocusArgs, ActReport>;
  /** `wait` */
  wait: Op<WaitArgs, WaitResult>;
  /** `observe` (MCP: `observe_changes`) */
  observe: Op<ObserveArgs, ObserveResult>;
  /** `diff` */
  diff: Op<DiffArgs, DiffResult>;
  /** `screenshot` */
  screenshot: Op<ScreenshotArgs, ScreenshotResult>;
  /** `launch` */
  launch: Op<LaunchArgs, LaunchResult>;
  /** `quit` */
  quit: Op<QuitArgs, QuitResult>;
  /** `window` */
  window: Op<WindowArgs, WindowOpResult>;
  /** `clipboard_get` (CLI: `clipboard get`) */
  clipboard_get: Op<ClipboardGetArgs, ClipboardGetResult>;
  /** `clipboard_set` (CLI: `clipboard set`) */
  clipboard_set: Op<ClipboardSetArgs, ClipboardSetResult>;
  /** `fill` */
  fill: Op<FillArgs, FillResult>;
  /** `run` */
  run: Op<RunArgs, RunReport>;
}

/**
 * Every operation, in the order the CLI help lists them.
 */
export const OPS: Ops = {
  list,
  read,
  find,
  click,
  type: typeOp,
  key,
  action,
  set_value: setValue,
  scroll,
  drag,
  focus,
  wait,
  observe: observeOp,
  diff,
  ...SYSTEM_OPS,
};
