/**
 * Reading and writing snapshot files: `read --save FILE` writes one,
 * `--from FILE` and `diff` read them back. The format itself (and its
 * validation) lives in src/output/snapshot.ts; this module adds the file
 * system and its errors.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Snapshot } from "../../model/element.ts";
import { renderElements } from "../../output/render.ts";
import { parseSnapshot } from "../../output/snapshot.ts";

/**
 * Loads a snapshot file.
 *
 * @param path file path
 * @returns the snapshot (secure values dropped even if the file had one)
 * @throws DesktopError SNAPSHOT_INVALID when the file is missing, unreadable,
 *   not JSON, truncated, of another version, or not a snapshot
 *
 * @example
 * ```ts ignore
 * import { readSnapshotFile } from "./snapshot_file.ts";
 * const snap = await readSnapshotFile("tests/fixtures/browser_form.json");
 * console.log(snap.app.name); // "Chromium"
 * ```
 */
export async function readSnapshotFile(path: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound
      ? "no such file"
      : err instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : err instanceof Error
      ? err.message
      : String(err);
    throw new DesktopError("SNAPSHOT_INVALID", `cannot read snapshot ${path}: ${why}`, {
      suggestion: "Pass a file written by `desktop read --save FILE` or `read --format json`",
    });
  }
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
