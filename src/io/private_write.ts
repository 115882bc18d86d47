/**
 * Writing the files the tool is asked to write (`read --save`, `screenshot
 * --out`, the last-click note): private to the user (0600, whatever the
 * umask), and replaced whole (a temporary file renamed over the target), so
 * that a file that was readable by others (0644) is never rewritten in place
 * with new contents others can read, and a reader never sees half a file.
 *
 * A path that is a directory, a device or a pipe is refused with
 * INVALID_ARGS before anything is written; a symbolic link is written
 * through (its target is replaced).
 *
 * @module
 */

import { DesktopError } from "../errors.ts";

/** The mode of every file written: read and write for the user only. */
export const PRIVATE_FILE_MODE = 0o600;

function why(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "its directory does not exist";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  return err instanceof Error ? err.message : String(err);
}

function cannot(flag: string, path: string, reason: string, cause?: unknown): DesktopError {
  return new DesktopError("INVALID_ARGS", `cannot write ${flag} ${path}: ${reason}`, {
    suggestion: `Pass a writable file path to ${flag} (not a directory)`,
    ...(cause !== undefined ? { cause } : {}),
  });
}

function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "it is a directory";
  if (info.isFifo) return "it is a named pipe (FIFO)";
  if (info.isCharDevice || info.isBlockDevice) return "it is a device";
  return "it is not a regular file";
}

/** The temporary file beside `target`. */
function tmpBeside(target: string): string {
  const slash = target.lastIndexOf("/");
  const dir = slash === -1 ? "." : target.slice(0, slash) || "/";
  const base = target.slice(slash + 1);
  return `${dir}/.${base}.${crypto.randomUUID()}.tmp`;
}

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

/**
 * The file a write to `path` replaces: `path`, or a symbolic link's target.
 * Used before the work whose result is written, so that a bad path fails
 * first (`screenshot --out DIR` before the capture).
 *
 * @param path the path given
 * @param flag the option that named it, for messages (`--out`)
 * @returns the file to replace
 * @throws DesktopError INVALID_ARGS when the path is a directory, a device or a pipe
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOutputPath } from "./private_write.ts";
 * await assert.rejects(checkOutputPath("/", "--out"), /cannot write --out \/: it is a directory/);
 * ```
 */
export async function checkOutputPath(path: string, flag: string): Promise<string> {
  try {
    const info = await Deno.lstat(path);
    const target = info.isSymlink ? await Deno.realPath(path) : path;
    const real = info.isSymlink ? await Deno.stat(target) : info;
    if (!real.isFile) throw cannot(flag, path, kindOf(real));
    return target;
  } catch (err) {
    if (err instanceof DesktopError) throw err;
    if (!(err instanceof Deno.errors.NotFound)) throw cannot(flag, path, why(err), err);
    return path;
  }
}

/**
 * Writes `data` to `path` as a private file (0600), replacing it whole.
 *
 * @param path the file
 * @param data its new contents
 * @param flag the option that named it, for messages (`--save`)
 * @throws DesktopError INVALID_ARGS when the path is a directory, a device or a
 *   pipe, or cannot be written
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writePrivateFile } from "./private_write.ts";
 * const dir = await Deno.makeTempDir();
 * await writePrivateFile(`${dir}/a.json`, "{}", "--save");
 * if (Deno.build.os !== "windows") assert.equal((await Deno.stat(`${dir}/a.json`)).mode! & 0o777, 0o600);
 * await assert.rejects(writePrivateFile(dir, "{}", "--save"), /it is a directory/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writePrivateFile(
  path: string,
  data: string | Uint8Array,
  flag: string,
): Promise<void> {
  const target = await checkOutputPath(path, flag);
  const tmp = tmpBeside(target);
  try {
    await Deno.writeFile(tmp, bytesOf(data), { mode: PRIVATE_FILE_MODE, createNew: true });
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, PRIVATE_FILE_MODE);
    await Deno.rename(tmp, target);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw cannot(flag, path, why(err), err);
  }
}

/**
 * {@link writePrivateFile} for a synchronous path.
 *
 * @param path the file
 * @param data its new contents
 * @param flag the option or file that is written, for messages
 * @throws DesktopError INVALID_ARGS as {@link writePrivateFile} does
 */
export function writePrivateFileSync(path: string, data: string | Uint8Array, flag: string): void {
  let target = path;
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) target = Deno.realPathSync(path);
    const real = info.isSymlink ? Deno.statSync(target) : info;
    if (!real.isFile) throw cannot(flag, path, kindOf(real));
  } catch (err) {
    if (err instanceof DesktopError) throw err;
    if (!(err instanceof Deno.errors.NotFound)) throw cannot(flag, path, why(err), err);
    target = path;
  }
  const tmp = tmpBeside(target);
  try {
    Deno.writeFileSync(tmp, bytesOf(data), { mode: PRIVATE_FILE_MODE, createNew: true });
    if (Deno.build.os !== "windows") Deno.chmodSync(tmp, PRIVATE_FILE_MODE);
    Deno.renameSync(tmp, target);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch {
      // never created
    }
    throw cannot(flag, path, why(err), err);
  }
}
