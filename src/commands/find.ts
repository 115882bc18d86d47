/**
 * `desktop find`: resolve a target to one element without acting on it, or
 * list every element matching a text query with `--all`.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import { withoutChildren } from "../model/tree.ts";
import { elementLine as agentLine } from "../output/agent.ts";
import {
  addScopeOptions,
  addTargetOptions,
  choiceOption,
  elementSummary,
  hasTarget,
  runCommand,
  targetFromOptions,
  withDesktop,
} from "./_shared.ts";

type FindFormat = "agent" | "json";

/**
 * Prints elements one per line (agent) or as a JSON array.
 *
 * @param els the elements
 * @param format agent or json
 * @returns the text
 */
export function formatFound(els: Element[], format: FindFormat): string {
  if (format === "json") return JSON.stringify(els.map(foundSummary));
  return els.map((el) => agentLine(withoutChildren(el))).join("\n");
}

function foundSummary(el: Element) {
  return {
    ...elementSummary(el),
    ...(el.v !== undefined && !el.sec ? { v: el.v } : {}),
    ...(el.sec ? { sec: true } : {}),
  };
}

/**
 * The `find` command.
 *
 * @returns the commander command
 */
export function findCommand(): CommandUnknownOpts {
  return addTargetOptions(addScopeOptions(
    new Command("find").description(
      "Resolve a target (--ref, --id, --text, --x/--y) to exactly one element, as an action would; " +
        "--all lists every --text/--roles match instead",
    ),
  ))
    .option("--all", "list every element matching --text/--roles instead of requiring one")
    .option(
      "--format <format>",
      "agent (one line per element) or json",
      choiceOption<FindFormat>("--format", ["agent", "json"]),
      "agent" as FindFormat,
    )
    .addHelpText(
      "after",
      `
Examples:
  $ desktop find --app Chromium --ref submit
  $ desktop find --app Chromium --text Email --roles input
  $ desktop find --app Chromium --text delete --all
  $ desktop find --from snap.json --text "Full Name" --exact`,
    )
    .action(runCommand(async (opts) => {
      const target = targetFromOptions(opts);
      await withDesktop(opts, async (desktop, scope) => {
        if (opts.all) {
          if (target.ref !== undefined || target.id !== undefined || target.point) {
            throw new DesktopError("INVALID_ARGS", "--all lists --text/--roles matches only", {
              suggestion: "Use --all with --text and/or --roles",
            });
          }
          // Not a read: the ids printed are the last read's, and it stays the last read.
          const hits = await desktop.find(scope, {
            text: target.text,
            exact: target.exact,
            roles: target.roles,
          });
          if (hits.length === 0) {
            throw new DesktopError("ELEMENT_NOT_FOUND", "no element matches", {
              suggestion: "Loosen --text or --roles, or run read to see the tree",
            });
          }
          console.log(formatFound(hits, opts.format));
          return;
        }
        if (!hasTarget(target)) {
          throw new DesktopError("INVALID_ARGS", "find needs a target", {
            suggestion: "Pass --ref, --id, --text or --x/--y (or --all with --roles)",
          });
        }
        console.log(formatFound([await desktop.resolve(scope, target)], opts.format));
      });
    }));
}
