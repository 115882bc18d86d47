/**
 * Screenshots on macOS: `CGWindowListCreateImage` of a screen rectangle (what
 * is on screen there, every window included), its pixels copied out of the
 * CGImage's data provider. On a Retina display the image has two pixels per
 * point: the capture reports that scale.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { CG_BITMAP, CG_WINDOW_IMAGE } from "../../ffi/macos/core_graphics.ts";
import type { MacosLibraries } from "../../ffi/macos/libraries.ts";
import type { Bounds } from "../../model/element.ts";
import type { RgbaImage } from "../../output/image.ts";
import type { ScreenCapture } from "../provider.ts";

function unsupported(): DesktopError {
  return new DesktopError("PLATFORM_NOT_SUPPORTED", "this macOS has no CGWindowListCreateImage", {
    suggestion: "Screenshots need macOS 14 or earlier's CoreGraphics window capture",
  });
}

/** A CGRect as the bytes Deno passes by value. */
function rectBytes(b: readonly number[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new Float64Array(b).buffer);
}

/** Converts 32-bit CGImage pixels to RGBA, whatever the byte order and alpha position. */
function toRgba(
  src: Uint8Array,
  width: number,
  height: number,
  bytesPerRow: number,
  info: number,
): RgbaImage {
  const little = (info & CG_BITMAP.ByteOrderMask) === CG_BITMAP.ByteOrder32Little;
  const alphaFirst = CG_BITMAP.AlphaFirst.includes(info & CG_BITMAP.AlphaInfoMask);
  // Byte positions of R, G, B within a pixel.
  const [r, g, b] = little
    ? (alphaFirst ? [2, 1, 0] : [3, 2, 1])
    : (alphaFirst ? [1, 2, 3] : [0, 1, 2]);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    let i = y * bytesPerRow;
    let o = y * width * 4;
    for (let x = 0; x < width; x++, i += 4, o += 4) {
      out[o] = src[i + r];
      out[o + 1] = src[i + g];
      out[o + 2] = src[i + b];
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/**
 * Captures a rectangle of the screen (global points), or the main display.
 *
 * @param libs the opened frameworks
 * @param rect global points; absent for the main display
 * @returns the pixels, the region in points and the pixels per point
 * @throws DesktopError PLATFORM_NOT_SUPPORTED without the capture API, PERMISSION_DENIED
 *   when Screen Recording is not granted (no image), INVALID_ARGS for an empty rectangle
 */
export function captureScreen(libs: MacosLibraries, rect?: Bounds): ScreenCapture {
  const g = libs.cg;
  const c = libs.cf;
  if (
    !g.CGWindowListCreateImage || !g.CGImageGetWidth || !g.CGImageGetHeight ||
    !g.CGImageGetBytesPerRow || !g.CGImageGetBitsPerPixel || !g.CGImageGetBitmapInfo ||
    !g.CGImageGetDataProvider || !g.CGDataProviderCopyData || !c.CFDataGetBytePtr ||
    !c.CFDataGetLength || !g.CGMainDisplayID || !g.CGDisplayBounds
  ) throw unsupported();
  let region: Bounds;
  if (rect) {
    region = [rect[0], rect[1], rect[2], rect[3]];
  } else {
    const d = new Float64Array(g.CGDisplayBounds(g.CGMainDisplayID()).buffer);
    region = [d[0], d[1], d[2], d[3]];
  }
  if (!(region[2] > 0 && region[3] > 0)) {
    throw new DesktopError("INVALID_ARGS", `the area ${region} is empty`, {
      suggestion: "Capture a window or an element with a box",
    });
  }
  const image = g.CGWindowListCreateImage(
    rectBytes(region),
    CG_WINDOW_IMAGE.OnScreenOnly,
    CG_WINDOW_IMAGE.NullWindow,
    CG_WINDOW_IMAGE.Default,
  );
  if (image === null) {
    throw new DesktopError("PERMISSION_DENIED", "macOS gave no screen image", {
      suggestion: "Grant Screen Recording to the terminal app that runs desktop " +
        "(System Settings > Privacy & Security > Screen Recording)",
    });
  }
  try {
    const width = Number(g.CGImageGetWidth(image));
    const height = Number(g.CGImageGetHeight(image));
    const bpr = Number(g.CGImageGetBytesPerRow(image));
    if (Number(g.CGImageGetBitsPerPixel(image)) !== 32) {
      throw new DesktopError("ACTION_FAILED", "the screen image is not 32 bits per pixel");
    }
    const info = g.CGImageGetBitmapInfo(image);
    const provider = g.CGImageGetDataProvider(image); // borrowed from the image
    const data = provider && g.CGDataProviderCopyData(provider);
    if (!data) throw new DesktopError("ACTION_FAILED", "the screen image has no pixels");
    try {
      const len = Number(c.CFDataGetLength(data));
      const bytes = c.CFDataGetBytePtr(data);
      if (!bytes || len < bpr * height) {
        throw new DesktopError("ACTION_FAILED", "the screen image's pixels are cut short");
      }
      const src = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(bytes, len));
      const pixels = toRgba(src, width, height, bpr, info);
      return { image: pixels, region, scale: width / region[2] };
    } finally {
      c.CFRelease(data);
    }
  } finally {
    c.CFRelease(image);
  }
}
