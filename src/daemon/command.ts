/**
 * `desktop daemon start|status|stop|serve`: the background process that
 * keeps each app's tree between CLI reads, made visible and controllable.
 * Reads use it when it runs (`DESKTOP_DAEMON=1` starts it on demand);
 * `--no-daemon` or `DESKTOP_NO_DAEMON=1` keeps a read in its own process.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import { runCommand } from "../commands/_shared.ts";
import { writeAllSync } from "../io/write_all.ts";
import type { CliMain } from "./server.ts";

const print = (v: unknown) => void writeAllSync(Deno.stdout, JSON.stringify(v) + "\n");

/**
 * Runs `desktop daemon <action>` (handled before the verbs: it is no
 * operation of the CLI and MCP faces). Prints one JSON line; errors are
 * printed as every command's are.
 *
 * @param action start | status | stop | serve
 * @param main runs one command line in this process (cli.ts's `main`), for `serve`
 * @returns when done (for `serve`: when the background process ends)
 */
export const daemonAction = (action: string | undefined, main: CliMain): Promise<void> =>
  runCommand(async () => {
    const client = await import("./client.ts");
    if (action === "status") {
      const s = await client.daemonStatus();
      print(s ? { running: true, ...s } : { running: false });
    } else if (action === "start") {
      const s = await client.startDaemon();
      if (!s) {
        throw new DesktopError("TIMEOUT", "the background process did not start in time", {
          suggestion: "Run `desktop daemon serve` in a terminal to see why",
        });
      }
      print({ running: true, ...s });
    } else if (action === "stop") {
      print({ stopped: await client.stopDaemon() });
    } else if (action === "serve") {
      const { serveDaemon } = await import("./server.ts");
      await serveDaemon(main);
    } else {
      throw new DesktopError("INVALID_ARGS", `unknown daemon action "${action ?? ""}"`, {
        suggestion: "Use one of: desktop daemon start | status | stop",
        details: { reason: "daemonAction" },
      });
    }
  })();
