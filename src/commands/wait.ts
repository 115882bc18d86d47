/**
 * `desktop wait`: block until text appears, text is gone, or a ref exists.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import { parseRoles } from "../model/roles.ts";
import {
  addScopeOptions,
  choiceOption,
  elementLine,
  elementSummary,
  runCommand,
  withDesktop,
} from "./_shared.ts";

/**
 * The `wait` command.
 *
 * @returns the commander command
 */
export function waitCommand(): CommandUnknownOpts {
  return addScopeOptions(
    new Command("wait").description(
      "Wait until an element with some text appears (--for-text), disappears (--gone), " +
        "or a ref exists (--for-ref); TIMEOUT after --timeout ms",
    ),
  )
    .option("--for-text <text>", "wait for an element whose label, value or description has this")
    .option("--gone <text>", "wait until no element has this text")
    .option("--for-ref <ref>", "wait for an element with this ref (exact or unique suffix)")
    .option("--roles <list>", "restrict --for-text/--gone to roles")
    .option(
      "--format <format>",
      "agent (one line) or json",
      choiceOption<"agent" | "json">("--format", ["agent", "json"]),
      "agent" as "agent" | "json",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ desktop wait --app Chromium --for-text "Payment received" --timeout 30000
  $ desktop wait --app Chromium --gone "Loading"
  $ desktop wait --app Chromium --for-ref confirm/ok`,
    )
    .action(runCommand(async (opts) => {
      const given = [opts.forText, opts.gone, opts.forRef].filter((x) => x !== undefined);
      if (given.length !== 1) {
        throw new DesktopError("INVALID_ARGS", "wait takes exactly one condition", {
          suggestion: "Pass one of --for-text, --gone, --for-ref",
        });
      }
      await withDesktop(opts, async (desktop, scope) => {
        const el = await desktop.wait(scope, {
          ...(opts.forText !== undefined ? { text: opts.forText } : {}),
          ...(opts.gone !== undefined ? { gone: opts.gone } : {}),
          ...(opts.forRef !== undefined ? { ref: opts.forRef } : {}),
          ...(opts.roles !== undefined ? { roles: parseRoles(opts.roles) } : {}),
        }, opts.timeout);
        if (opts.format === "json") {
          console.log(JSON.stringify({ ok: true, ...(el ? { element: elementSummary(el) } : {}) }));
        } else {
          console.log(el ? `ok wait ${elementLine(el)}` : `ok wait gone "${opts.gone}"`);
        }
      });
    }));
}
