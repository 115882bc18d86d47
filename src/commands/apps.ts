/**
 * `desktop launch`, `desktop quit` and `desktop window`: apps and windows as
 * wholes.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { WindowOp } from "../platform/provider.ts";
import { formatWindows } from "./list.ts";
import {
  addActFormatOption,
  addScopeOptions,
  intOption,
  runCommand,
  withDesktop,
} from "./_shared.ts";

/** Default deadline of a launch: apps take seconds to start. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * A commander parser for `X,Y` / `W,H` pairs.
 *
 * @param flag the option, for messages
 * @param min smallest value of each number
 * @returns the parser
 */
function pairOption(flag: string, min: number): (value: string) => [number, number] {
  return (value: string) => {
    const m = /^\s*(-?\d+)\s*[,x]\s*(-?\d+)\s*$/.exec(value);
    const pair = m ? [Number(m[1]), Number(m[2])] as [number, number] : null;
    if (!pair || pair[0] < min || pair[1] < min) {
      throw new DesktopError(
        "INVALID_ARGS",
        `${flag} takes two integers like 100,200, got "${value}"`,
        {
          suggestion: `Pass e.g. ${flag} ${Math.max(min, 100)},${Math.max(min, 100)}`,
        },
      );
    }
    return pair;
  };
}

/**
 * The `launch` command.
 *
 * @returns the commander command
 */
export function launchCommand(): CommandUnknownOpts {
  return addActFormatOption(
    new Command("launch")
      .description(
        "Start an app (name, desktop file id or command) and wait until it shows a window on " +
          "the accessibility bus; prints its pid and windows",
      )
      .argument("<app>", "app name, desktop file id, or a command line (quoted)")
      .option(
        "--timeout <ms>",
        "how long to wait for the app's window",
        intOption("--timeout", 1),
        LAUNCH_TIMEOUT_MS,
      ),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ desktop launch mousepad
  $ desktop launch org.gnome.Calculator
  $ desktop launch "zenity --info --text Hello"`,
    )
    .action(runCommand(async (spec: string, opts) => {
      await withDesktop({ timeout: opts.timeout }, async (desktop) => {
        const res = await desktop.launch(spec, { timeoutMs: opts.timeout });
        if (opts.format === "json") {
          console.log(JSON.stringify({ ok: true, ...res }));
          return;
        }
        console.log(`ok launch ${JSON.stringify(res.app.name)} pid=${res.app.pid}`);
        console.log(formatWindows(res.windows));
      });
    }));
}

/**
 * The `quit` command.
 *
 * @returns the commander command
 */
export function quitCommand(): CommandUnknownOpts {
  return addActFormatOption(addScopeOptions(
    new Command("quit").description(
      "Quit an app: ask its windows to close as their close button does (it may ask to save), " +
        "or end its process with --force",
    ),
  ))
    .option("--force", "end the process (SIGTERM, then SIGKILL) instead of asking")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop quit --app mousepad
  $ desktop quit --pid 4242 --force`,
    )
    .action(runCommand(async (opts) => {
      if (opts.app === undefined && opts.pid === undefined) {
        throw new DesktopError("INVALID_ARGS", "quit needs --app or --pid", {
          suggestion: "Name the app to quit: --app NAME or --pid N",
        });
      }
      await withDesktop(opts, async (desktop, scope) => {
        const res = await desktop.quit(scope, {
          ...(opts.force ? { force: true } : {}),
          timeoutMs: opts.timeout,
        });
        console.log(
          opts.format === "json"
            ? JSON.stringify({ ok: true, app: res.app.name, pid: res.app.pid, via: res.via })
            : `ok quit ${JSON.stringify(res.app.name)} pid=${res.app.pid} via ${res.via}`,
        );
      });
    }));
}

/**
 * The `window` command.
 *
 * @returns the commander command
 */
export function windowCommand(): CommandUnknownOpts {
  return addActFormatOption(addScopeOptions(
    new Command("window").description(
      "Move, resize, raise, minimize, maximize, restore or close an app's window",
    ),
  ))
    .option("--move <x,y>", "move the window's top-left corner here", pairOption("--move", -100000))
    .option("--resize <w,h>", "resize to this width and height", pairOption("--resize", 1))
    .option("--raise", "bring to the front and focus")
    .option("--minimize", "minimize (iconify)")
    .option("--maximize", "maximize")
    .option("--restore", "undo minimize or maximize")
    .option("--close", "ask the window to close, as its close button does")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop window --app mousepad --move 0,0 --resize 800,600
  $ desktop window --app mousepad --window "Untitled" --maximize
  $ desktop window --app mousepad --restore --raise`,
    )
    .action(runCommand(async (opts) => {
      if (
        opts.app === undefined && opts.pid === undefined && opts.window === undefined &&
        opts.windowId === undefined
      ) {
        throw new DesktopError(
          "INVALID_ARGS",
          "window needs --app, --pid, --window or --window-id",
          {
            suggestion: "Name the window: e.g. --app mousepad",
          },
        );
      }
      const ops: WindowOp[] = [];
      if (opts.restore) ops.push({ kind: "restore" });
      if (opts.maximize) ops.push({ kind: "maximize" });
      if (opts.move) ops.push({ kind: "move", x: opts.move[0], y: opts.move[1] });
      if (opts.resize) ops.push({ kind: "resize", w: opts.resize[0], h: opts.resize[1] });
      if (opts.minimize) ops.push({ kind: "minimize" });
      if (opts.raise) ops.push({ kind: "raise" });
      if (opts.close) ops.push({ kind: "close" });
      await withDesktop(opts, async (desktop, scope) => {
        const res = await desktop.window(scope, ops);
        if (opts.format === "json") {
          console.log(JSON.stringify({ ok: true, window: res.window, state: res.state }));
          return;
        }
        const s = res.state;
        const flags = [
          s.b ? `(${s.b.join(",")})` : "",
          s.minimized ? "minimized" : "",
          s.maximized ? "maximized" : "",
          s.exists === false ? "closed" : "",
        ].filter(Boolean).join(" ");
        console.log(
          `ok window [${res.window.id}] ${JSON.stringify(res.window.title)} ${
            ops.map((o) => o.kind).join(",")
          }` +
            (flags ? ` -> ${flags}` : ""),
        );
      });
    }));
}
