/**
 * The types of launch, quit and window results, apart from the code so that
 * the session's interface names them without importing the feature.
 *
 * @module
 */

import type { AppInfo, WindowInfo } from "../model/element.ts";
import type { WindowState } from "../platform/provider.ts";

/** What a launch found. */
export interface Launched {
  /** The app as the accessibility bus lists it. */
  app: AppInfo;
  /** Its windows. */
  windows: WindowInfo[];
  /** The command that was started. */
  command: string[];
}

/** What a quit did. */
export interface Quit {
  /** The app that quit. */
  app: AppInfo;
  /** `windows` when its windows were asked to close, `signal` when its process was ended. */
  via: "windows" | "signal";
}

/** The result of window operations. */
export interface WindowResult {
  /** The window acted on. */
  window: WindowInfo;
  /** Its state after the last operation. */
  state: WindowState;
}
