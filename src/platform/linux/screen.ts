/**
 * Screenshots on X11: `XGetImage` of the root window, which shows what is on
 * screen (windows on top included), clipped to the screen.
 *
 * @module
 */

import type { Bounds } from "../../model/element.ts";
import type { ScreenCapture } from "../provider.ts";
import { X11 } from "./x11.ts";

/**
 * Captures a rectangle of the screen, or the whole screen.
 *
 * @param rect global pixels; absent for the whole screen
 * @returns the pixels, the region they cover and scale 1
 * @throws DesktopError PLATFORM_NOT_SUPPORTED without an X display, INVALID_ARGS off screen
 */
export function captureScreen(rect?: Bounds): ScreenCapture {
  using x = X11.open();
  const { image, region } = x.capture(rect);
  return { image, region, scale: 1 };
}
