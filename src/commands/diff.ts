/**
 * `desktop diff A.json B.json`: what changed between two saved snapshots,
 * matched by ref.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { diffTrees } from "../diff/diff.ts";
import type { Snapshot } from "../model/element.ts";
import { assignIds } from "../model/tree.ts";
import { foldLabels } from "../model/semantics.ts";
import { renderChanges } from "../output/render.ts";
import { readSnapshotFile } from "../platform/replay/snapshot_file.ts";
import { assignRefs } from "../refs/generate.ts";
import { choiceOption, runCommand } from "./_shared.ts";

type DiffFormat = "agent" | "jsonl";

async function load(path: string): Promise<Snapshot> {
  const snap = await readSnapshotFile(path);
  // Recomputed so that files written by any version diff on today's refs.
  foldLabels(snap.root);
  assignIds(snap.root);
  assignRefs(snap.root);
  return snap;
}

/**
 * The `diff` command.
 *
 * @returns the commander command
 */
export function diffCommand(): CommandUnknownOpts {
  return new Command("diff")
    .description("Compare two saved snapshots (read --save / read --format json), keyed by ref")
    .argument("<before>", "the earlier snapshot file")
    .argument("<after>", "the later snapshot file")
    .option(
      "--format <format>",
      "agent (one line per change) or jsonl (one JSON object per change)",
      choiceOption<DiffFormat>("--format", ["agent", "jsonl"]),
      "agent" as DiffFormat,
    )
    .option("--ignore-bounds", "ignore position and size changes")
    .option("--ignore-focus", "ignore focus changes")
    .addHelpText(
      "after",
      `
Examples:
  $ desktop read --app Chromium --save before.json
  $ desktop click --app Chromium --ref submit
  $ desktop read --app Chromium --save after.json
  $ desktop diff before.json after.json --ignore-bounds`,
    )
    .action(runCommand(async (beforePath, afterPath, opts) => {
      const [before, after] = await Promise.all([load(beforePath), load(afterPath)]);
      const changes = diffTrees(before.root, after.root, {
        ignoreBounds: opts.ignoreBounds,
        ignoreFocus: opts.ignoreFocus,
      });
      const text = renderChanges(changes, opts.format).replace(/\n$/, "");
      if (text) console.log(text);
    }));
}
