/**
 * Reading and writing snapshot files: `read --save FILE` writes one,
 * `--from FILE` and `diff` read them back. The format itself (and its
 * validation) lives in src/output/snapshot.ts; this module adds the file
 * system and its errors.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { readInputText } from "../../io/bounded_read.ts";
import type { Snapshot } from "../../model/element.ts";
import { renderElements } from "../../output/render.ts";
import { MAX_SNAPSHOT_BYTES, parseSnapshot, SNAPSHOT_SUGGESTION } from "../../output/snapshot.ts";

/** Options of {@link readSnapshotFile}. */
export interface ReadSnapshotOptions {
  /** When reading must be done, in ms since the epoch (default: 10 s after the call). */
  deadline?: number;
}

/**
 * Loads a snapshot file through the bounded reader: a regular file of at
 * most 64 MB ({@link MAX_SNAPSHOT_BYTES}), read before the deadline.
 *
 * @param path file path
 * @param opts the deadline
 * @returns the snapshot (secure values dropped even if the file had one)
 * @throws DesktopError SNAPSHOT_INVALID when the file is missing, unreadable,
 *   not a regular file (a directory, pipe or device), larger than the cap,
 *   not JSON, nested too deep, truncated, of another version, or not a
 *   snapshot; TIMEOUT when it could not be read in time. Messages name the
 *   place of a problem, never the file's text.
 *
 * @example
 * ```ts ignore
 * import { readSnapshotFile } from "./snapshot_file.ts";
 * const snap = await readSnapshotFile("tests/fixtures/browser_form.json");
 * console.log(snap.app.name); // "Chromium"
 * ```
 */
export async function readSnapshotFile(
  path: string,
  opts: ReadSnapshotOptions = {},
): Promise<Snapshot> {
  const text = await readInputText(path, {
    what: "snapshot",
    code: "SNAPSHOT_INVALID",
    suggestion: SNAPSHOT_SUGGESTION,
    maxBytes: MAX_SNAPSHOT_BYTES,
    ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
  });
  try {
    return parseSnapshot(text);
  } catch (err) {
    if (err instanceof DesktopError) {
      throw new DesktopError(err.code, `${path}: ${err.message}`, {
        suggestion: err.suggestion,
        details: err.details,
      });
    }
    throw err;
  }
}

/**
 * Serializes a whole snapshot for `--save`: the JSON document `--from` reads,
 * without native ids and without secure values.
 *
 * @param snapshot the snapshot
 * @returns JSON text ending with a newline
 */
export function snapshotToText(snapshot: Snapshot): string {
  return renderElements(snapshot.root, {
    format: "json",
    pretty: true,
    meta: {
      app: snapshot.app,
      ...(snapshot.window ? { window: snapshot.window } : {}),
      readAt: snapshot.readAt,
    },
  }).replace(/\n?$/, "\n");
}
