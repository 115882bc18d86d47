/**
 * The `screenshot` verb: an app, window or element as PNG.
 *
 * @module
 */

import { checkOutputPath } from "../../io/private_write.ts";
import type { WindowInfo } from "../../model/element.ts";
import { encodeBase64 } from "../../output/base64.ts";
import type { Mark } from "../../output/marks.ts";
import { saveScreenshot } from "../../screenshot/screenshot.ts";
import {
  SCOPE_PARAMS,
  type ScopeArgs,
  type TargetArgs,
  targetParams,
  toScope,
  toTarget,
} from "../params.ts";
import { elementLine, type ElementSummary, summary } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, CLI_ONLY, READ } from "./_shared.ts";

/** Arguments of `screenshot`. */
export interface ScreenshotArgs extends ScopeArgs, TargetArgs {
  /** Write the PNG here. */
  out?: string;
  /** Shrink by this factor. */
  scale?: number;
  /** Outline interactive elements with id and ref. */
  marks?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `screenshot`. */
export interface ScreenshotResult {
  /** Always true. */
  ok: true;
  /** Where the PNG was written (the CLI always writes one). */
  path?: string;
  /** Image width. */
  width: number;
  /** Image height. */
  height: number;
  /** The screen region shown. */
  region: [number, number, number, number];
  /** Image pixels per screen pixel. */
  scale: number;
  /** What was captured. */
  of: "screen" | "window" | "element";
  /** The window captured. */
  window?: WindowInfo;
  /** The element captured. */
  element?: ElementSummary;
  /** The marks drawn (id, ref, role, label, box). */
  marks: Mark[];
  /** The PNG, base64. */
  png: string;
}

/**
 * The lines the CLI prints: the file, what it shows, and one line per mark.
 *
 * @param r the result
 * @returns the text
 */
export function screenshotLines(r: ScreenshotResult): string {
  const [x, y, w, h] = r.region;
  const what = r.window
    ? `window ${JSON.stringify(r.window.title)}`
    : r.element
    ? `element ${elementLine(r.element)}`
    : "screen";
  const scale = r.scale === 1 ? "" : `, ${Math.round(r.scale * 1000) / 1000} px per screen px`;
  const lines = [
    `${r.path ?? "(not saved)"} ${r.width}x${r.height} png: ${what} at ${x},${y} ${w}x${h}${scale}`,
  ];
  if (r.marks.length) {
    lines.push("marks (each label is the id and ref: act with --id N or --ref R):");
    for (const m of r.marks) {
      lines.push(`  [${m.i}|${m.ref ?? ""}] ${m.r}${m.t ? ` ${JSON.stringify(m.t)}` : ""}`);
    }
  }
  return lines.join("\n");
}

/** The `screenshot` operation. */
export const screenshot: Op<ScreenshotArgs, ScreenshotResult> = defineOp<
  ScreenshotArgs,
  ScreenshotResult
>({
  name: "screenshot",
  doc: "PNG of a window, an element or the screen; marks labels elements with id and ref.",
  examples: [
    "desktop screenshot --app Chromium --marks --scale 0.5",
    "desktop screenshot --app Chromium --ref form/email --out email.png",
    "desktop screenshot --out screen.png",
  ],
  hints: READ,
  params: [
    ...SCOPE_PARAMS,
    ...CLI_ONLY,
    ...targetParams().filter((p) => p.name !== "x" && p.name !== "y"),
    { name: "out", type: "string", doc: "also write the PNG here" },
    { name: "scale", type: "number", min: 0.01, max: 1, doc: "shrink factor, e.g. 0.5" },
    { name: "marks", type: "boolean", doc: "label interactive elements" },
    ACT_FORMAT,
  ],
  output: {
    type: "object",
    properties: {
      width: { type: "integer" },
      height: { type: "integer" },
      marks: { type: "array" },
    },
  },
  async run(ctx, args) {
    const target = toTarget(args);
    const named = target.ref !== undefined || target.id !== undefined ||
      target.text !== undefined;
    if (args.out !== undefined) await checkOutputPath(args.out, "--out");
    const desktop = await ctx.desktop();
    const shot = await desktop.screenshot(toScope(args), {
      ...(named ? { target } : {}),
      ...(args.scale !== undefined ? { scale: args.scale } : {}),
      ...(args.marks ? { marks: true } : {}),
    });
    // The CLI cannot print an image: it always writes a file and prints its path.
    const path = args.out ??
      (ctx.face === "cli"
        ? await Deno.makeTempFile({ prefix: "desktop-screenshot-", suffix: ".png" })
        : undefined);
    if (path !== undefined) await saveScreenshot(path, shot.png);
    return {
      ok: true,
      ...(path !== undefined ? { path } : {}),
      width: shot.width,
      height: shot.height,
      region: shot.region,
      scale: shot.scale,
      of: shot.of,
      ...(shot.window ? { window: shot.window } : {}),
      ...(shot.element ? { element: summary(shot.element) } : {}),
      marks: shot.marks,
      png: encodeBase64(shot.png),
    };
  },
  render(r, args) {
    const { png: _png, ...rest } = r;
    return args.format === "json" ? JSON.stringify(rest) : screenshotLines(r);
  },
  data: ({ png: _png, ...rest }) => rest,
  images: (r) => [{ data: r.png, mimeType: "image/png" }],
});
