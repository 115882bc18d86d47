/**
 * `desktop screenshot`: the screen, a window or an element as a PNG file,
 * optionally scaled and marked with the ids and refs of interactive elements.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import { type Screenshot, takeScreenshot } from "../screenshot/screenshot.ts";
import {
  addActFormatOption,
  addScopeOptions,
  addTargetOptions,
  elementLine,
  elementSummary,
  runCommand,
  targetFromOptions,
  withDesktop,
} from "./_shared.ts";

/**
 * A commander parser for `--scale`: a number in (0, 1].
 *
 * @param value the option's text
 * @returns the factor
 */
function scaleOption(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || !(n > 0 && n <= 1)) {
    throw new DesktopError(
      "INVALID_ARGS",
      `--scale takes a number above 0 and at most 1, got "${value}"`,
      {
        suggestion: "Pass e.g. --scale 0.5 for half the size",
      },
    );
  }
  return n;
}

/**
 * The lines the command prints: the file, what it shows, and one line per mark.
 *
 * @param path where the PNG was written
 * @param shot the screenshot
 * @returns the agent text
 */
export function screenshotLines(path: string, shot: Screenshot): string {
  const [x, y, w, h] = shot.region;
  const what = shot.window
    ? `window ${JSON.stringify(shot.window.title)}`
    : shot.element
    ? `element ${elementLine(shot.element)}`
    : "screen";
  const scale = shot.scale === 1
    ? ""
    : `, ${Math.round(shot.scale * 1000) / 1000} px per screen px`;
  const lines = [
    `${path} ${shot.width}x${shot.height} png: ${what} at ${x},${y} ${w}x${h}${scale}`,
  ];
  if (shot.marks.length) {
    lines.push("marks (each label is the id and ref: act with --id N or --ref R):");
    for (const m of shot.marks) {
      lines.push(`  [${m.i}|${m.ref ?? ""}] ${m.r}${m.t ? ` ${JSON.stringify(m.t)}` : ""}`);
    }
  }
  return lines.join("\n");
}

/**
 * The `screenshot` command.
 *
 * @returns the commander command
 */
export function screenshotCommand(): CommandUnknownOpts {
  return addActFormatOption(addTargetOptions(addScopeOptions(
    new Command("screenshot").description(
      "Capture the screen, an app's window (--app/--window) or one element (--ref/--id/--text) " +
        "as PNG; --marks labels each interactive element with its id and ref",
    ),
  )))
    .option("--out <file>", "write the PNG here (default: a new temporary file, printed)")
    .option("--scale <factor>", "shrink by this factor, e.g. 0.5", scaleOption)
    .option("--marks", "outline interactive elements and label them with id and ref")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop screenshot --app Chromium --marks --scale 0.5
  $ desktop screenshot --app Chromium --ref form/email --out email.png
  $ desktop screenshot --out screen.png`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      if (target.point) {
        throw new DesktopError("INVALID_ARGS", "screenshot takes an element, not a point", {
          suggestion: "Pass --ref, --id or --text, or nothing for the window or screen",
        });
      }
      await withDesktop(opts, async (desktop, scope) => {
        const shot = await takeScreenshot(desktop, scope, {
          target,
          ...(opts.scale !== undefined ? { scale: opts.scale } : {}),
          ...(opts.marks ? { marks: true } : {}),
        });
        const path = opts.out ??
          await Deno.makeTempFile({ prefix: "desktop-screenshot-", suffix: ".png" });
        await Deno.writeFile(path, shot.png);
        if (opts.format === "json") {
          const { png: _png, element, ...rest } = shot;
          console.log(JSON.stringify({
            ok: true,
            path,
            ...rest,
            ...(element ? { element: elementSummary(element) } : {}),
          }));
        } else {
          console.log(screenshotLines(path, shot));
        }
      });
    }));
}
