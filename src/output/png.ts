/**
 * A small PNG encoder: 8-bit RGB, one IDAT, zlib from the platform's
 * `CompressionStream("deflate")`. Pure: needs no permission.
 *
 * Each row gets the filter (None, Sub, Up, Average, Paeth) whose output has
 * the smallest sum of absolute values, the usual heuristic that lets flat UI
 * areas compress to almost nothing.
 *
 * @module
 */

import type { RgbaImage } from "./image.ts";

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

let crcTable: Uint32Array | null = null;

/**
 * CRC-32 (ISO 3309, the one PNG chunks and zip use).
 *
 * @param bytes the data
 * @returns the checksum as an unsigned 32-bit number
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { crc32 } from "./png.ts";
 * assert.equal(crc32(new TextEncoder().encode("IEND")), 0xae426082);
 * ```
 */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The filtered scanlines (filter byte + RGB bytes per row). */
function filtered(img: RgbaImage): Uint8Array {
  const { width, height, data } = img;
  const stride = width * 3;
  const out = new Uint8Array(height * (stride + 1));
  let prev = new Uint8Array(stride);
  let cur = new Uint8Array(stride);
  const candidates = Array.from({ length: 5 }, () => new Uint8Array(stride));
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    for (let x = 0; x < width; x++) {
      cur[x * 3] = data[row + x * 4];
      cur[x * 3 + 1] = data[row + x * 4 + 1];
      cur[x * 3 + 2] = data[row + x * 4 + 2];
    }
    let best = 0;
    let bestSum = Infinity;
    for (let f = 0; f < 5; f++) {
      const c = candidates[f];
      let sum = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= 3 ? cur[i - 3] : 0;
        const b = prev[i];
        const d = i >= 3 ? prev[i - 3] : 0;
        const pred = f === 0
          ? 0
          : f === 1
          ? a
          : f === 2
          ? b
          : f === 3
          ? (a + b) >> 1
          : paeth(a, b, d);
        const v = (cur[i] - pred) & 0xff;
        c[i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= bestSum) break;
      }
      if (sum < bestSum) {
        bestSum = sum;
        best = f;
      }
    }
    out[y * (stride + 1)] = best;
    out.set(candidates[best], y * (stride + 1) + 1);
    [prev, cur] = [cur, prev];
  }
  return out;
}

async function zlib(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Encodes an image as PNG (8-bit RGB; alpha is dropped: screenshots are opaque).
 *
 * @param img the pixels, RGBA row-major
 * @returns the PNG file's bytes
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodePng } from "./png.ts";
 * const png = await encodePng({ width: 2, height: 1, data: new Uint8Array(8).fill(255) });
 * assert.deepEqual([...png.subarray(1, 4)], [80, 78, 71]); // "PNG"
 * ```
 */
export async function encodePng(img: RgbaImage): Promise<Uint8Array> {
  if (img.width < 1 || img.height < 1 || img.data.length < img.width * img.height * 4) {
    throw new RangeError(`bad image size ${img.width}x${img.height}`);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, img.width);
  view.setUint32(4, img.height);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const idat = await zlib(filtered(img));
  const parts = [
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The width and height a PNG's header declares.
 *
 * @param png the file's bytes
 * @returns the size, or null when the bytes are not a PNG
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodePng, pngSize } from "./png.ts";
 * const png = await encodePng({ width: 3, height: 2, data: new Uint8Array(24) });
 * assert.deepEqual(pngSize(png), { width: 3, height: 2 });
 * ```
 */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  if (png.length < 24 || !SIGNATURE.every((b, i) => png[i] === b)) return null;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
