/**
 * The `diff` verb: the changes between two snapshots.
 *
 * @module
 */

import { diffTrees } from "../../diff/diff.ts";
import type { Element } from "../../model/element.ts";
import { foldLabels } from "../../model/semantics.ts";
import { assignIds } from "../../model/tree.ts";
import { renderChanges } from "../../output/render.ts";
import { assignRefs } from "../../refs/generate.ts";
import { defineOp, type Op } from "../types.ts";
import { ARR, READ } from "./_shared.ts";

const DIFF_OUT = { type: "object", properties: { changes: ARR } };

/** Arguments of `diff`. */
export interface DiffArgs {
  /** The earlier snapshot file. */
  before: string;
  /** The later snapshot file. */
  after: string;
  /** Ignore moves and resizes. */
  ignore_bounds?: boolean;
  /** Ignore focus changes. */
  ignore_focus?: boolean;
  /** agent or jsonl. */
  format?: "agent" | "jsonl";
}

/** Result of `diff`: one object per change, secrets left out. */
export interface DiffResult {
  /** The changes, matched by ref. */
  changes: Record<string, unknown>[];
  /** The agent rendering. */
  agent: string;
}

/**
 * Loads a snapshot file and numbers it, so a saved file diffs exactly like
 * a live read (files written by any version diff on today's refs).
 *
 * @param path snapshot file path
 * @returns the snapshot's root with ids and refs
 * @throws DesktopError SNAPSHOT_INVALID for a missing or bad file
 */
export async function loadSnapshotTree(path: string): Promise<Element> {
  // Loaded on demand: reading files is a platform concern.
  const { readSnapshotFile } = await import("../../platform/replay/snapshot_file.ts");
  const { root } = await readSnapshotFile(path);
  foldLabels(root);
  assignIds(root);
  assignRefs(root);
  return root;
}

/** The `diff` operation. */
export const diff: Op<DiffArgs, DiffResult> = defineOp<DiffArgs, DiffResult>({
  name: "diff",
  doc: "Compare two snapshot files (read --save): added, removed, changed, by ref.",
  examples: [
    "desktop read --app Chromium --save before.json",
    "desktop click --app Chromium --ref submit",
    "desktop read --app Chromium --save after.json",
    "desktop diff before.json after.json --ignore-bounds",
  ],
  hints: READ,
  params: [
    { name: "before", type: "string", required: true, positional: true, doc: "earlier file" },
    { name: "after", type: "string", required: true, positional: true, doc: "later file" },
    { name: "ignore_bounds", type: "boolean", doc: "ignore moves/resizes" },
    { name: "ignore_focus", type: "boolean", doc: "ignore focus" },
    {
      name: "format",
      type: "enum",
      choices: ["agent", "jsonl"],
      default: "agent",
      doc: "output format",
    },
  ],
  output: DIFF_OUT,
  async run(_ctx, args) {
    const [before, after] = await Promise.all([
      loadSnapshotTree(args.before),
      loadSnapshotTree(args.after),
    ]);
    const changes = diffTrees(before, after, {
      ignoreBounds: args.ignore_bounds,
      ignoreFocus: args.ignore_focus,
    });
    const jsonl = renderChanges(changes, "jsonl");
    return {
      changes: jsonl.split("\n").filter(Boolean).map((l) => JSON.parse(l)),
      agent: renderChanges(changes, "agent").replace(/\n$/, ""),
    };
  },
  render(r, args) {
    return args.format === "jsonl" ? r.changes.map((c) => JSON.stringify(c)).join("\n") : r.agent;
  },
  data: (r) => ({ changes: r.changes }),
});
