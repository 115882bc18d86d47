/**
 * Reading and writing snapshot files: `read --save FILE` writes one,
 * `--from FILE` reads one back.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { Element, Snapshot } from "../../model/element.ts";

/** The `format` tag of a snapshot file. */
export const SNAPSHOT_FORMAT = "desktop-snapshot";
/** The snapshot file version this build reads and writes. */
export const SNAPSHOT_VERSION = 1;

/**
 * Loads a snapshot file.
 *
 * @param path file path
 * @returns the snapshot
 * @throws DesktopError SNAPSHOT_INVALID when the file is missing, unreadable,
 *   not JSON, truncated, of another version, or not a snapshot
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
  return parseSnapshotText(text, path);
}

/**
 * Parses snapshot text.
 *
 * @param text file contents
 * @param source name used in messages
 * @returns the snapshot
 * @throws DesktopError SNAPSHOT_INVALID
 *
 * @example
 * ```ts
 * import { parseSnapshotText } from "./snapshot_file.ts";
 * const snap = parseSnapshotText(
 *   '{"format":"desktop-snapshot","version":1,"app":{"name":"Calc","pid":1},' +
 *     '"readAt":"2026-01-01T00:00:00Z","root":{"i":1,"r":"app","t":"Calc"}}',
 * );
 * console.log(snap.root.t); // "Calc"
 * ```
 */
export function parseSnapshotText(text: string, source = "snapshot"): Snapshot {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw invalid(`${source} is not valid JSON (truncated or corrupt?): ${why}`);
  }
  if (!isRecord(data)) throw invalid(`${source} is not a snapshot object`);
  if (data.format !== SNAPSHOT_FORMAT) {
    throw invalid(`${source} is not a desktop snapshot (format is ${JSON.stringify(data.format)})`);
  }
  if (data.version !== SNAPSHOT_VERSION) {
    throw invalid(
      `${source} has snapshot version ${
        JSON.stringify(data.version)
      }; this build reads version ${SNAPSHOT_VERSION}`,
    );
  }
  const app = data.app;
  if (!isRecord(app) || typeof app.name !== "string" || typeof app.pid !== "number") {
    throw invalid(`${source} has no valid "app" (name and pid)`);
  }
  if (typeof data.readAt !== "string") throw invalid(`${source} has no "readAt" timestamp`);
  checkElement(data.root, `${source}: root`);
  scrubSecure(data.root as Element);
  return {
    app: app as unknown as Snapshot["app"],
    ...(isRecord(data.window) ? { window: data.window as unknown as Snapshot["window"] } : {}),
    readAt: data.readAt,
    root: data.root as Element,
  };
}

/**
 * Serializes a snapshot for `--save`: the full tree, with secure values removed
 * even if a backend left one in.
 *
 * @param snapshot the snapshot
 * @returns JSON text ending with a newline
 */
export function snapshotToText(snapshot: Snapshot): string {
  const scrub = (el: Element): Element => {
    const { c, v, ...rest } = el;
    return {
      ...rest,
      ...(v !== undefined && !el.sec ? { v } : {}),
      ...(c ? { c: c.map(scrub) } : {}),
    };
  };
  return JSON.stringify(
    {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      app: snapshot.app,
      ...(snapshot.window ? { window: snapshot.window } : {}),
      readAt: snapshot.readAt,
      root: scrub(snapshot.root),
    },
    null,
    1,
  ) + "\n";
}

/** Drops values of secure fields in place: a hand-edited or foreign file may carry one. */
function scrubSecure(el: Element): void {
  if (el.sec) delete el.v;
  el.c?.forEach(scrubSecure);
}

function checkElement(x: unknown, where: string): void {
  if (!isRecord(x) || typeof x.r !== "string") {
    throw invalid(`${where} is not an element (needs a role "r")`);
  }
  if (x.c !== undefined) {
    if (!Array.isArray(x.c)) throw invalid(`${where}: "c" is not a list`);
    x.c.forEach((child, k) => checkElement(child, `${where}.c[${k}]`));
  }
}

function invalid(message: string): DesktopError {
  return new DesktopError("SNAPSHOT_INVALID", message, {
    suggestion: "Save a fresh snapshot with `desktop read --save FILE` and pass that file",
  });
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
