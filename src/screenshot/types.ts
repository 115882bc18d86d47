/**
 * The types of a screenshot request and result, apart from the code so that
 * the session's interface names them without importing the feature.
 *
 * @module
 */

import type { Bounds, Element, WindowInfo } from "../model/element.ts";
import type { Target } from "../identity/resolve.ts";
import type { Mark } from "../output/marks.ts";

/** What to capture and how. */
export interface ScreenshotRequest {
  /** One element (by ref, id or text) instead of the window or screen. */
  target?: Target;
  /** Shrink by this factor, in (0, 1] (default 1). */
  scale?: number;
  /** Draw each interactive element's box with its id and ref. */
  marks?: boolean;
}

/** A screenshot. */
export interface Screenshot {
  /** The PNG file's bytes. */
  png: Uint8Array;
  /** Image width in pixels. */
  width: number;
  /** Image height in pixels. */
  height: number;
  /** The part of the screen shown, in global screen pixels. */
  region: Bounds;
  /** Image pixels per screen pixel (below 1 after `scale`). */
  scale: number;
  /** What was captured. */
  of: "screen" | "window" | "element";
  /** The window, when one was captured. */
  window?: WindowInfo;
  /** The element, when one was captured. */
  element?: Element;
  /** The marks drawn (empty without `marks`). */
  marks: Mark[];
}
