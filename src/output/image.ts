/**
 * Raw images and the few operations screenshots need: crop, downscale,
 * rectangles and text in the built-in 5x7 font. Pure: needs no permission.
 *
 * @module
 */

import { glyph, GLYPH_HEIGHT, GLYPH_WIDTH } from "./font5x7.ts";

/** An image as RGBA bytes, row-major, top-left first. */
export interface RgbaImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** `width * height * 4` bytes: R, G, B, A per pixel. */
  data: Uint8Array;
}

/** An opaque colour: red, green, blue (0-255). */
export type Rgb = readonly [r: number, g: number, b: number];

/**
 * A blank (black, opaque) image.
 *
 * @param width pixels
 * @param height pixels
 * @returns the image
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankImage } from "./image.ts";
 * assert.equal(blankImage(2, 3).data.length, 24);
 * ```
 */
export function blankImage(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { width, height, data };
}

/**
 * The colour of one pixel.
 *
 * @param img the image
 * @param x column
 * @param y row
 * @returns `[r, g, b]`
 */
export function pixelAt(img: RgbaImage, x: number, y: number): Rgb {
  const i = (y * img.width + x) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2]];
}

/**
 * A rectangle of an image, clipped to it.
 *
 * @param img the image
 * @param x left
 * @param y top
 * @param w width
 * @param h height
 * @returns a new image (at least 1x1 when the rectangle overlaps the image)
 * @throws RangeError when the rectangle lies outside the image
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankImage, cropImage } from "./image.ts";
 * const part = cropImage(blankImage(10, 10), 8, 8, 5, 5);
 * assert.deepEqual([part.width, part.height], [2, 2]);
 * ```
 */
export function cropImage(img: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(img.width, Math.round(x + w));
  const y1 = Math.min(img.height, Math.round(y + h));
  if (x1 <= x0 || y1 <= y0) throw new RangeError("the rectangle lies outside the image");
  const out = new Uint8Array((x1 - x0) * (y1 - y0) * 4);
  for (let row = y0; row < y1; row++) {
    const from = (row * img.width + x0) * 4;
    out.set(img.data.subarray(from, from + (x1 - x0) * 4), (row - y0) * (x1 - x0) * 4);
  }
  return { width: x1 - x0, height: y1 - y0, data: out };
}

/**
 * Shrinks an image by a factor, averaging the source pixels under each
 * target pixel (a box filter: text stays legible, unlike dropping pixels).
 *
 * @param img the image
 * @param factor in (0, 1]; 1 returns the image itself
 * @returns the smaller image (at least 1x1)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankImage, scaleImage } from "./image.ts";
 * const half = scaleImage(blankImage(100, 40), 0.5);
 * assert.deepEqual([half.width, half.height], [50, 20]);
 * ```
 */
export function scaleImage(img: RgbaImage, factor: number): RgbaImage {
  if (!(factor > 0 && factor <= 1)) throw new RangeError(`scale must be in (0, 1], got ${factor}`);
  if (factor === 1) return img;
  const w = Math.max(1, Math.round(img.width * factor));
  const h = Math.max(1, Math.round(img.height * factor));
  const out = new Uint8Array(w * h * 4);
  const sx = img.width / w;
  const sy = img.height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.min(img.height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.min(img.width, Math.floor((x + 1) * sx)));
      let r = 0, g = 0, b = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * img.width + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          r += img.data[i];
          g += img.data[i + 1];
          b += img.data[i + 2];
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = 255;
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * Fills a rectangle (clipped to the image).
 *
 * @param img the image, changed in place
 * @param x left
 * @param y top
 * @param w width
 * @param h height
 * @param color the fill
 */
export function fillRect(
  img: RgbaImage,
  x: number,
  y: number,
  w: number,
  h: number,
  color: Rgb,
): void {
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(img.width, Math.round(x + w));
  const y1 = Math.min(img.height, Math.round(y + h));
  for (let yy = y0; yy < y1; yy++) {
    for (let xx = x0; xx < x1; xx++) {
      const i = (yy * img.width + xx) * 4;
      img.data[i] = color[0];
      img.data[i + 1] = color[1];
      img.data[i + 2] = color[2];
      img.data[i + 3] = 255;
    }
  }
}

/**
 * Draws a rectangle's outline (clipped to the image).
 *
 * @param img the image, changed in place
 * @param x left
 * @param y top
 * @param w width
 * @param h height
 * @param color the line colour
 * @param thickness line width in pixels (inside the rectangle)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankImage, pixelAt, strokeRect } from "./image.ts";
 * const img = blankImage(10, 10);
 * strokeRect(img, 2, 2, 5, 5, [255, 0, 0]);
 * assert.deepEqual(pixelAt(img, 2, 4), [255, 0, 0]);
 * assert.deepEqual(pixelAt(img, 4, 4), [0, 0, 0]);
 * ```
 */
export function strokeRect(
  img: RgbaImage,
  x: number,
  y: number,
  w: number,
  h: number,
  color: Rgb,
  thickness = 1,
): void {
  const t = Math.min(thickness, Math.ceil(w / 2), Math.ceil(h / 2));
  fillRect(img, x, y, w, t, color);
  fillRect(img, x, y + h - t, w, t, color);
  fillRect(img, x, y, t, h, color);
  fillRect(img, x + w - t, y, t, h, color);
}

/** Height of a line of text drawn by {@link drawText}, in pixels. */
export const TEXT_HEIGHT: number = GLYPH_HEIGHT;

/**
 * The width {@link drawText} needs for a string.
 *
 * @param text the string
 * @returns pixels (6 per character, minus the last spacing column)
 */
export function textWidth(text: string): number {
  const n = [...text].length;
  return n === 0 ? 0 : n * (GLYPH_WIDTH + 1) - 1;
}

/**
 * Draws text in the 5x7 font (characters outside printable ASCII show as `?`).
 *
 * @param img the image, changed in place
 * @param x left of the first glyph
 * @param y top of the glyphs
 * @param text what to write
 * @param color the ink
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankImage, drawText, pixelAt } from "./image.ts";
 * const img = blankImage(12, 8);
 * drawText(img, 0, 0, "1", [255, 255, 255]);
 * assert.deepEqual(pixelAt(img, 2, 0), [255, 255, 255]); // the top of the 1's stem
 * assert.deepEqual(pixelAt(img, 0, 0), [0, 0, 0]);
 * ```
 */
export function drawText(img: RgbaImage, x: number, y: number, text: string, color: Rgb): void {
  let cx = Math.round(x);
  const top = Math.round(y);
  for (const ch of text) {
    const cols = glyph(ch);
    for (let c = 0; c < GLYPH_WIDTH; c++) {
      for (let r = 0; r < GLYPH_HEIGHT; r++) {
        if (cols[c] & (1 << r)) fillRect(img, cx + c, top + r, 1, 1, color);
      }
    }
    cx += GLYPH_WIDTH + 1;
  }
}
