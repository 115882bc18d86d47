import assert from "node:assert/strict";
import { crc32, encodePng, pngSize } from "../../src/output/png.ts";
import {
  blankImage,
  cropImage,
  drawText,
  pixelAt,
  type RgbaImage,
  scaleImage,
  textWidth,
} from "../../src/output/image.ts";
import { glyph } from "../../src/output/font5x7.ts";
import { drawMarks, markLabel, marksOf } from "../../src/output/marks.ts";
import type { Element } from "../../src/model/element.ts";
import { rng } from "../harness/rng.ts";

/** Decodes an 8-bit RGB PNG of our encoder (every filter type), as a reader would. */
async function decodePng(png: Uint8Array): Promise<RgbaImage> {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0, height = 0;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const len = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + len);
    assert.equal(view.getUint32(at + 8 + len), crc32(png.subarray(at + 4, at + 8 + len)), type);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      assert.deepEqual([...body.subarray(8)], [8, 2, 0, 0, 0]);
    }
    if (type === "IDAT") idat.push(body);
    at += 12 + len;
  }
  const inflated = new Uint8Array(
    await new Response(
      new Blob(idat as Uint8Array<ArrayBuffer>[]).stream().pipeThrough(
        new DecompressionStream("deflate"),
      ),
    ).arrayBuffer(),
  );
  const stride = width * 3;
  assert.equal(inflated.length, height * (stride + 1));
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = inflated[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const raw = inflated[y * (stride + 1) + 1 + i];
      const a = i >= 3 ? rows[y * stride + i - 3] : 0;
      const b = y > 0 ? rows[(y - 1) * stride + i] : 0;
      const c = i >= 3 && y > 0 ? rows[(y - 1) * stride + i - 3] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      rows[y * stride + i] = (raw + pred) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    data.set(rows.subarray(p * 3, p * 3 + 3), p * 4);
    data[p * 4 + 3] = 255;
  }
  return { width, height, data };
}

Deno.test("png: random images round-trip through a decoder (every row filter)", async () => {
  const next = rng(1234);
  for (let n = 0; n < 12; n++) {
    const width = 1 + Math.floor(next() * 40);
    const height = 1 + Math.floor(next() * 30);
    const img = blankImage(width, height);
    // Half noise, half flat areas and gradients, so different filters win on different rows.
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const kind = y % 3;
        img.data[i] = kind === 0 ? Math.floor(next() * 256) : (x * 7) & 0xff;
        img.data[i + 1] = kind === 1 ? 200 : (y * 5) & 0xff;
        img.data[i + 2] = kind === 2 ? (x + y) & 0xff : Math.floor(next() * 256);
      }
    }
    const png = await encodePng(img);
    assert.deepEqual(pngSize(png), { width, height });
    assert.deepEqual(await decodePng(png), img, `case ${n} (${width}x${height})`);
  }
});

Deno.test("png: a flat screen-sized image compresses to a few kilobytes", async () => {
  const img = blankImage(1280, 1024);
  img.data.fill(240);
  const png = await encodePng(img);
  assert.ok(png.length < 8000, `${png.length} bytes`);
});

Deno.test("png: an empty image is refused", async () => {
  await assert.rejects(
    () => encodePng({ width: 0, height: 1, data: new Uint8Array() }),
    RangeError,
  );
});

Deno.test("image: crop clips to the image, scale averages", () => {
  const img = blankImage(4, 2);
  // Left half white, right half black.
  for (const [x, y] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
    img.data.fill(255, (y * 4 + x) * 4, (y * 4 + x) * 4 + 3);
  }
  const half = scaleImage(img, 0.5);
  assert.deepEqual([half.width, half.height], [2, 1]);
  assert.deepEqual(pixelAt(half, 0, 0), [255, 255, 255]);
  assert.deepEqual(pixelAt(half, 1, 0), [0, 0, 0]);
  const quarter = scaleImage(blankImage(8, 8), 0.25);
  assert.deepEqual([quarter.width, quarter.height], [2, 2]);
  assert.deepEqual([cropImage(img, -5, -5, 7, 6).width, cropImage(img, -5, -5, 7, 6).height], [
    2,
    1,
  ]);
  assert.throws(() => cropImage(img, 10, 10, 2, 2), RangeError);
  assert.throws(() => scaleImage(img, 1.5), RangeError);
});

Deno.test("font: every printable character has its own glyph, digits are readable", () => {
  const seen = new Map<string, string>();
  for (let c = 0x21; c <= 0x7e; c++) {
    const ch = String.fromCharCode(c);
    const key = glyph(ch).join(",");
    assert.ok(!seen.has(key), `${ch} draws like ${seen.get(key)}`);
    assert.ok(glyph(ch).some((col) => col !== 0), `${ch} is blank`);
    seen.set(key, ch);
  }
  // The "1": a stem in the middle column, serifs at the bottom.
  const img = blankImage(6, 7);
  drawText(img, 0, 0, "1", [255, 255, 255]);
  const rows = Array.from(
    { length: 7 },
    (_, y) => Array.from({ length: 5 }, (_, x) => (pixelAt(img, x, y)[0] ? "#" : ".")).join(""),
  );
  assert.deepEqual(rows, [
    "..#..",
    ".##..",
    "..#..",
    "..#..",
    "..#..",
    "..#..",
    ".###.",
  ]);
  assert.equal(textWidth("12 ok"), 29);
});

Deno.test("marks: interactive elements in the region, labelled with id and ref", () => {
  const root: Element = {
    i: 1,
    r: "window",
    b: [0, 0, 400, 300],
    c: [
      { i: 2, ref: "form/email", r: "input", t: "Email", b: [20, 40, 200, 20] },
      { i: 3, r: "txt", t: "Hello", b: [20, 70, 100, 20] },
      { i: 4, ref: "form/submit", r: "btn", t: "Submit", b: [20, 100, 80, 24] },
      { i: 5, ref: "off", r: "btn", b: [900, 900, 10, 10] },
      { i: 6, ref: "hidden", r: "btn" },
    ],
  };
  const marks = marksOf(root, [0, 0, 400, 300]);
  assert.deepEqual(marks.map((m) => m.i), [2, 4]);
  assert.equal(markLabel(marks[0]), "2 form/email");
  assert.equal(
    markLabel({
      i: 9,
      ref: "a-very-long-landmark/with-a-long-field-name",
      r: "btn",
      b: [0, 0, 1, 1],
    }),
    "9 ~mark/with-a-long-field-name",
  );

  // Drawn on a half-size image of the region that starts at x=0, y=0.
  const img = blankImage(200, 150);
  drawMarks(img, marks, { x: 0, y: 0, scale: 0.5 });
  // The email box's left edge at x=10 (20 * 0.5), halfway down it.
  assert.deepEqual(pixelAt(img, 10, 25), [230, 25, 75]);
  // The submit box gets the next colour.
  assert.deepEqual(pixelAt(img, 10, 56), [0, 130, 200]);
  // Its label sits above the box (y 50 - 11 .. 50): white ink on the colour.
  const label = [];
  for (let y = 39; y < 50; y++) {
    for (let x = 10; x < 60; x++) label.push(pixelAt(img, x, y).join(","));
  }
  assert.ok(label.includes("255,255,255"));
  assert.ok(label.includes("0,130,200"));
});
