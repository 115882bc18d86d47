/**
 * `desktop read`: the element tree of an app or window, with ids and refs.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { Role } from "../model/element.ts";
import { parseRoles } from "../model/roles.ts";
import { windowBoundsOf } from "../model/tree.ts";
import { fitBudget, o200kCounter } from "../output/budget.ts";
import { type Format, renderElements } from "../output/render.ts";
import { toYaml } from "../output/yaml.ts";
import { snapshotToText } from "../platform/replay/snapshot_file.ts";
import { addScopeOptions, choiceOption, intOption, runCommand, withDesktop } from "./_shared.ts";

/** Formats `read` prints. */
export const READ_FORMATS: readonly Format[] = ["agent", "yaml", "json"];

/**
 * Builds the roles filter from `--roles` and `--interactive`.
 *
 * @param roles the `--roles` list
 * @param interactive whether `--interactive` was given
 * @returns the role set, or undefined for no role filter
 */
export function rolesFilter(roles?: string, interactive?: boolean): Set<Role> | undefined {
  if (roles === undefined && !interactive) return undefined;
  const list = [roles, interactive ? "interactive" : undefined].filter(Boolean).join(",");
  return parseRoles(list);
}

/** Writes `--save`; a path that cannot be written is the caller's argument error. */
async function saveSnapshot(path: string, text: string): Promise<void> {
  try {
    await Deno.writeTextFile(path, text);
  } catch (err) {
    throw new DesktopError(
      "INVALID_ARGS",
      `cannot write --save ${path}: ${err instanceof Error ? err.message : String(err)}`,
      { suggestion: "Pass a writable file path to --save" },
    );
  }
}

/**
 * The `read` command.
 *
 * @returns the commander command
 */
export function readCommand(): CommandUnknownOpts {
  const cmd = addScopeOptions(
    new Command("read")
      .description(
        "Print the accessibility tree of an app or window: one element per line with its id and ref",
      ),
  )
    .option("--flat", "a flat list with landmark paths instead of a tree")
    .option(
      "--roles <list>",
      "keep these roles (`btn,input,lnk`, `interactive`) and their ancestors",
    )
    .option("--interactive", "keep only elements an agent can act on (= --roles interactive)")
    .option("--text <text>", "keep elements whose label, value or description contains this")
    .option("--depth <n>", "maximum depth below the root", intOption("--depth"))
    .option("--focused", "keep only the focused element and its ancestors")
    .option("--scope-ref <ref>", "keep only the subtree of this ref")
    .option("--max-elements <n>", "stop after this many elements", intOption("--max-elements", 1))
    .option("--prune", "drop unlabeled containers, lifting their children")
    .option(
      "--no-bounds",
      "leave screen bounds out of the output (fewer tokens; --save keeps them)",
    )
    .option(
      "--format <format>",
      "agent (compact lines), yaml or json (json loads back with --from)",
      choiceOption<Format>("--format", READ_FORMATS),
      "agent" as Format,
    )
    .option("--save <file>", "also write the full snapshot (JSON) to this file for --from and diff")
    .option(
      "--budget <n>",
      "agent format: at most about N o200k tokens; the largest repeated regions collapse into " +
        "summary lines that say how to see them",
      intOption("--budget", 1),
    )
    .option(
      "--full-refs",
      "agent format: print full refs (default: each ref's shortest unique suffix, which --ref takes)",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ desktop read --app Chromium --interactive
  $ desktop read --app Chromium --scope-ref form --format yaml
  $ desktop read --app Chromium --save before.json
  $ desktop read --app Chromium --no-bounds --prune        # leanest tree for a prompt
  $ desktop read --from before.json --flat --roles btn`,
    )
    .action(runCommand(async (opts) => {
      await withDesktop(opts, async (desktop, scope) => {
        const { snapshot, view } = await desktop.read(scope, {
          roles: rolesFilter(opts.roles, opts.interactive),
          text: opts.text,
          depth: opts.depth,
          focused: opts.focused,
          scopeRef: opts.scopeRef,
          maxElements: opts.maxElements,
          prune: opts.prune,
        });
        if (opts.save !== undefined) await saveSnapshot(opts.save, snapshotToText(snapshot));
        const meta = {
          app: snapshot.app,
          ...(snapshot.window ? { window: snapshot.window } : {}),
          readAt: snapshot.readAt,
          total: view.total,
          kept: view.kept,
          ...(view.truncated ? { truncated: view.truncated } : {}),
        };
        if (!view.root) {
          // Not an error: say so in the requested format.
          console.log(
            opts.format === "agent"
              ? `(no element matched the filters; ${view.total} elements read)`
              : opts.format === "json"
              ? JSON.stringify({ ...meta, root: null })
              : toYaml({ ...meta, root: null }).replace(/\n$/, ""),
          );
          return;
        }
        // Read with bounds either way, so that ids and hidden-subtree pruning match.
        const text = renderElements(view.root, {
          format: opts.format,
          flat: opts.flat,
          meta,
          bounds: opts.bounds,
          viewport: windowBoundsOf(snapshot.root, view.root.i),
          refsFrom: snapshot.root,
          shortRefs: !opts.fullRefs,
        });
        const fitted = opts.budget !== undefined && opts.format === "agent"
          ? fitBudget(text, opts.budget, await o200kCounter())
          : text;
        console.log(fitted.replace(/\n$/, ""));
        if (view.truncated && opts.format === "agent") {
          // yaml/json carry `truncated`; agent text says it in words.
          console.log(
            `... ${view.truncated} more elements not shown (raise --max-elements, or narrow with --scope-ref/--roles)`,
          );
        }
      });
    }));
  return cmd;
}
