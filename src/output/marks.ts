/**
 * Marks on a screenshot: each element's box outlined, with a label holding
 * its id and ref, so what an agent sees in the image maps to what it can
 * target (`--id 12` or `--ref form/email`). Pure: needs no permission.
 *
 * @module
 */

import type { Bounds, Element, ElementBrief } from "../model/element.ts";
import { INTERACTIVE_ROLES } from "../model/roles.ts";
import { fillRect, type Rgb, type RgbaImage, strokeRect, TEXT_HEIGHT, textWidth } from "./image.ts";
import { drawText } from "./image.ts";

/** One element to mark. */
export interface Mark extends ElementBrief {
  /** Id of the read the mark came from (what `--id` takes). */
  i: number;
  /** Box in global screen pixels. */
  b: Bounds;
}

/** Where the image sits on the screen. */
export interface ImagePlacement {
  /** Global x of the image's left edge. */
  x: number;
  /** Global y of the image's top edge. */
  y: number;
  /** Image pixels per screen pixel (below 1 after `--scale`, 2 on a Retina capture). */
  scale: number;
}

/** Longest ref drawn whole; longer ones keep their end (the most specific part). */
const MAX_REF_CHARS = 28;

/** Box colours, cycled so that neighbouring marks differ. */
const COLORS: readonly Rgb[] = [
  [230, 25, 75],
  [0, 130, 200],
  [60, 160, 60],
  [145, 30, 180],
  [245, 130, 48],
  [0, 128, 128],
];

/**
 * The text drawn beside a mark: the id, then the ref (its end when long).
 *
 * @param m the mark
 * @returns e.g. `12 form/email`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markLabel } from "./marks.ts";
 * assert.equal(markLabel({ i: 12, ref: "form/email", r: "input", b: [0, 0, 9, 9] }), "12 form/email");
 * ```
 */
export function markLabel(m: Mark): string {
  if (!m.ref) return String(m.i);
  const ref = m.ref.length > MAX_REF_CHARS ? `~${m.ref.slice(-(MAX_REF_CHARS - 1))}` : m.ref;
  return `${m.i} ${ref}`;
}

/**
 * The marks of a tree: interactive elements with a box that overlaps the
 * region, in document order.
 *
 * @param root a tree with ids and refs (from a read)
 * @param region the captured part of the screen, in global pixels
 * @returns one mark per element
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { marksOf } from "./marks.ts";
 * const root = { i: 1, r: "window" as const, b: [0, 0, 100, 100] as [number, number, number, number], c: [
 *   { i: 2, ref: "ok", r: "btn" as const, t: "OK", b: [10, 10, 20, 10] as [number, number, number, number] },
 *   { i: 3, ref: "far", r: "btn" as const, b: [500, 500, 20, 10] as [number, number, number, number] },
 * ] };
 * assert.deepEqual(marksOf(root, [0, 0, 100, 100]).map((m) => m.ref), ["ok"]);
 * ```
 */
export function marksOf(root: Element, region: Bounds): Mark[] {
  const out: Mark[] = [];
  const visit = (el: Element) => {
    const b = el.b;
    if (
      INTERACTIVE_ROLES.has(el.r) && b && b[2] > 0 && b[3] > 0 && el.i > 0 && overlaps(b, region)
    ) {
      out.push({
        i: el.i,
        r: el.r,
        b,
        ...(el.ref !== undefined ? { ref: el.ref } : {}),
        ...(el.t !== undefined ? { t: el.t } : {}),
      });
    }
    for (const c of el.c ?? []) visit(c);
  };
  visit(root);
  return out;
}

function overlaps(a: Bounds, b: Bounds): boolean {
  return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/**
 * Draws the marks onto an image: an outline around each box and, above its
 * top-left corner (inside when there is no room above), a filled label with
 * the id and ref in white.
 *
 * @param img the screenshot, changed in place
 * @param marks what to draw, in global pixels
 * @param at where the image sits on the screen and its scale
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankImage, pixelAt } from "./image.ts";
 * import { drawMarks } from "./marks.ts";
 * const img = blankImage(200, 100);
 * drawMarks(img, [{ i: 7, ref: "ok", r: "btn", b: [110, 50, 40, 20] }], { x: 100, y: 0, scale: 1 });
 * assert.deepEqual(pixelAt(img, 10, 60), [230, 25, 75]); // the box's left edge
 * ```
 */
export function drawMarks(img: RgbaImage, marks: readonly Mark[], at: ImagePlacement): void {
  const boxes = marks.map((m) => ({
    m,
    x: (m.b[0] - at.x) * at.scale,
    y: (m.b[1] - at.y) * at.scale,
    w: m.b[2] * at.scale,
    h: m.b[3] * at.scale,
  }));
  boxes.forEach(({ x, y, w, h }, n) => strokeRect(img, x, y, w, h, COLORS[n % COLORS.length], 2));
  // Labels after every box, so that no box line crosses a label.
  boxes.forEach(({ m, x, y }, n) => {
    const text = markLabel(m);
    const lw = textWidth(text) + 4;
    const lh = TEXT_HEIGHT + 4;
    const lx = Math.max(0, Math.min(x, img.width - lw));
    const ly = y - lh >= 0 ? y - lh : Math.max(0, y);
    fillRect(img, lx, ly, lw, lh, COLORS[n % COLORS.length]);
    drawText(img, lx + 2, ly + 2, text, [255, 255, 255]);
  });
}
