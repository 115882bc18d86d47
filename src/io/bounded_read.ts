/**
 * The one reader of every file the tool is given: snapshots (`--from`,
 * `diff`), run files, ref store files, text files (`type --text-file`), and
 * standard input (`-`).
 *
 * Every read is bounded:
 * - only a regular file is opened: a directory, a named pipe (FIFO), a
 *   device (`/dev/zero`, `/dev/urandom`) or a socket is refused before any
 *   byte is read, so nothing blocks on a pipe without a writer or grows
 *   without end on a device;
 * - a size cap ({@link MAX_INPUT_BYTES}, 64 MB, unless the caller sets a
 *   lower one): a larger file is refused from its size, and a file that
 *   grows while read is cut off at the cap;
 * - a deadline: reading stops with TIMEOUT when it has not finished in time;
 * - JSON is checked for its syntax and nesting depth before it is parsed.
 *
 * An error names the file, the kind of problem and its place (line, column,
 * byte offset); it never quotes what the file holds.
 *
 * @module
 */

import { DesktopError, type ErrorCode } from "../errors.ts";
import { checkJson, describeJsonProblem } from "../output/json_check.ts";

/** The largest input accepted unless a caller sets a lower cap: 64 MB. */
export const MAX_INPUT_BYTES: number = 64 * 1024 * 1024;

/** How long a read may take when the caller gives no deadline. */
export const DEFAULT_READ_TIMEOUT_MS = 10_000;

/** The deepest JSON nesting accepted unless a caller sets another. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** What is read, and how errors about it are reported. */
export interface InputKind {
  /** What the file is, in messages: "snapshot", "run file", "text file". */
  what: string;
  /** The code of every error about this input (not found, too large, not JSON...). */
  code: ErrorCode;
  /** What to do instead: every error's suggestion. */
  suggestion: string;
  /** Largest size accepted, in bytes (default {@link MAX_INPUT_BYTES}). */
  maxBytes?: number;
  /** When reading must be done, in ms since the epoch (default: 10 s after the call). */
  deadline?: number;
  /** `-` reads standard input instead of a file named `-`. */
  stdin?: boolean;
  /** JSON only: deepest nesting of arrays and objects (default {@link DEFAULT_MAX_JSON_DEPTH}). */
  maxDepth?: number;
}

const CHUNK = 64 * 1024;

/**
 * A size in words: `64 MB`, `512 KB`, `100 bytes`.
 *
 * @param bytes the size
 * @returns the text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sizeText } from "./bounded_read.ts";
 * assert.equal(sizeText(64 * 1024 * 1024), "64 MB");
 * ```
 */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

function capOf(kind: InputKind): number {
  return kind.maxBytes ?? MAX_INPUT_BYTES;
}

function fail(kind: InputKind, message: string, extra = "", cause?: unknown): DesktopError {
  return new DesktopError(kind.code, message, {
    suggestion: kind.suggestion + extra,
    ...(cause !== undefined ? { cause } : {}),
  });
}

function tooLarge(kind: InputKind, name: string): DesktopError {
  const cap = sizeText(capOf(kind));
  return fail(
    kind,
    `the ${kind.what} ${name} is larger than ${cap}, the most desktop reads`,
    kind.suggestion.includes(cap) ? "" : ` (at most ${cap})`,
  );
}

function timedOut(kind: InputKind, name: string, ms: number): DesktopError {
  return new DesktopError("TIMEOUT", `reading the ${kind.what} ${name} took over ${ms} ms`, {
    suggestion: `${kind.suggestion}; a regular file on a local disk reads in time`,
  });
}

/** Why a file could not be opened, without the OS's wording of the path. */
function whyNot(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "no such file";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (err instanceof Deno.errors.NotCapable) return "desktop was not allowed to read files";
  return err instanceof Error ? err.message : String(err);
}

/** What a file that is not a regular file is. */
function typeOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

function notRegular(kind: InputKind, name: string, info: Deno.FileInfo): DesktopError {
  return fail(
    kind,
    `the ${kind.what} ${name} is ${
      typeOf(info)
    }, not a regular file; desktop reads only regular files`,
    "",
  );
}

/** The deadline of a read: the caller's, else the default from now. */
function deadlineOf(kind: InputKind): number {
  return kind.deadline ?? Date.now() + DEFAULT_READ_TIMEOUT_MS;
}

/** Runs `p`, failing with TIMEOUT at `deadline`. */
async function beforeDeadline<T>(
  p: Promise<T>,
  deadline: number,
  onLate: () => DesktopError,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onLate()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Appends chunks into one array, failing past `cap`. */
class Collector {
  #chunks: Uint8Array[] = [];
  #size = 0;
  constructor(readonly cap: number) {}
  /** Adds bytes; false when the cap is passed. */
  add(bytes: Uint8Array): boolean {
    this.#size += bytes.length;
    if (this.#size > this.cap) return false;
    this.#chunks.push(bytes);
    return true;
  }
  bytes(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0];
    const out = new Uint8Array(this.#size);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.#chunks = [out];
    return out;
  }
}

async function readStdin(kind: InputKind): Promise<Uint8Array> {
  const deadline = deadlineOf(kind);
  const started = Date.now();
  const out = new Collector(capOf(kind));
  const reader = Deno.stdin.readable.getReader();
  try {
    for (;;) {
      const { done, value } = await beforeDeadline(
        reader.read(),
        deadline,
        () => timedOut(kind, "on standard input", deadline - started),
      );
      if (done) return out.bytes();
      if (!out.add(value)) throw tooLarge(kind, "on standard input");
    }
  } finally {
    // Cancelling also ends a read still pending, so the process can exit.
    await reader.cancel().catch(() => {});
  }
}

/**
 * Reads a whole input as bytes: a regular file no larger than the cap, read
 * before the deadline (or standard input for `-` when `kind.stdin`).
 *
 * @param path the file
 * @param kind what it is and its limits
 * @returns the bytes
 * @throws DesktopError `kind.code` when the file is missing, unreadable, not a
 *   regular file or too large; TIMEOUT past the deadline
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInput } from "./bounded_read.ts";
 * const kind = { what: "text file", code: "INVALID_ARGS" as const, suggestion: "Pass a file" };
 * await assert.rejects(readInput("/dev/zero", kind), /a character device, not a regular file/);
 * ```
 */
export async function readInput(path: string, kind: InputKind): Promise<Uint8Array> {
  if (kind.stdin && path === "-") return await readStdin(kind);
  const deadline = deadlineOf(kind);
  const started = Date.now();
  const late = () => timedOut(kind, path, deadline - started);
  let info: Deno.FileInfo;
  try {
    info = await beforeDeadline(Deno.stat(path), deadline, late);
  } catch (err) {
    if (err instanceof DesktopError) throw err;
    throw fail(kind, `cannot read the ${kind.what} ${path}: ${whyNot(err)}`, "", err);
  }
  // Before opening: opening a pipe with no writer would block until one comes.
  if (!info.isFile) throw notRegular(kind, path, info);
  const cap = capOf(kind);
  if (info.size > cap) throw tooLarge(kind, path);
  let file: Deno.FsFile;
  try {
    file = await beforeDeadline(Deno.open(path, { read: true }), deadline, late);
  } catch (err) {
    if (err instanceof DesktopError) throw err;
    throw fail(kind, `cannot read the ${kind.what} ${path}: ${whyNot(err)}`, "", err);
  }
  try {
    // The file opened may not be the one checked (replaced in between).
    const opened = await file.stat();
    if (!opened.isFile) throw notRegular(kind, path, opened);
    const out = new Collector(cap);
    for (;;) {
      if (Date.now() > deadline) throw late();
      const buf = new Uint8Array(CHUNK);
      const n = await beforeDeadline(file.read(buf), deadline, late);
      if (n === null) return out.bytes();
      if (!out.add(buf.subarray(0, n))) throw tooLarge(kind, path);
    }
  } catch (err) {
    if (err instanceof DesktopError) throw err;
    throw fail(kind, `cannot read the ${kind.what} ${path}: ${whyNot(err)}`, "", err);
  } finally {
    file.close();
  }
}

/**
 * {@link readInput} without waiting: for small files read inside a synchronous
 * path (no deadline; the regular-file check and the cap still hold; no `-`).
 *
 * @param path the file
 * @param kind what it is and its limits
 * @returns the bytes
 * @throws DesktopError `kind.code` as {@link readInput} does
 */
export function readInputSync(path: string, kind: InputKind): Uint8Array {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    throw fail(kind, `cannot read the ${kind.what} ${path}: ${whyNot(err)}`, "", err);
  }
  if (!info.isFile) throw notRegular(kind, path, info);
  const cap = capOf(kind);
  if (info.size > cap) throw tooLarge(kind, path);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (err) {
    throw fail(kind, `cannot read the ${kind.what} ${path}: ${whyNot(err)}`, "", err);
  }
  try {
    if (!file.statSync().isFile) throw notRegular(kind, path, file.statSync());
    const out = new Collector(cap);
    for (;;) {
      const buf = new Uint8Array(CHUNK);
      const n = file.readSync(buf);
      if (n === null) return out.bytes();
      if (!out.add(buf.subarray(0, n))) throw tooLarge(kind, path);
    }
  } catch (err) {
    if (err instanceof DesktopError) throw err;
    throw fail(kind, `cannot read the ${kind.what} ${path}: ${whyNot(err)}`, "", err);
  } finally {
    file.close();
  }
}

/**
 * The offset of the first byte that is not part of valid UTF-8, or -1.
 *
 * @param bytes the bytes
 * @returns the offset, or -1 when all of it is UTF-8
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstBadUtf8 } from "./bounded_read.ts";
 * assert.equal(firstBadUtf8(new TextEncoder().encode("héllo")), -1);
 * assert.equal(firstBadUtf8(new Uint8Array([0x61, 0xff])), 1);
 * ```
 */
export function firstBadUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = 0; i < n;) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number, lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) return i;
    const second = bytes[i + 1];
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k];
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes UTF-8 text (a leading byte order mark is dropped).
 *
 * @param bytes the bytes
 * @param name the input's name, for messages
 * @param kind what it is
 * @returns the text
 * @throws DesktopError `kind.code` naming the offset of the first byte that is not UTF-8
 */
export function decodeInput(bytes: Uint8Array, name: string, kind: InputKind): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const at = firstBadUtf8(bytes);
    let line = 1;
    for (let k = 0; k < at; k++) if (bytes[k] === 0x0a) line++;
    throw fail(
      kind,
      `the ${kind.what} ${name} is not UTF-8 text: a bad byte sequence at line ${line} (byte offset ${at})`,
    );
  }
}

/**
 * Reads a whole input as UTF-8 text ({@link readInput}, then {@link decodeInput}).
 *
 * @param path the file (`-`: standard input when `kind.stdin`)
 * @param kind what it is and its limits
 * @returns the text
 * @throws DesktopError `kind.code` or TIMEOUT as {@link readInput} does; `kind.code`
 *   for text that is not UTF-8
 */
export async function readInputText(path: string, kind: InputKind): Promise<string> {
  const bytes = await readInput(path, kind);
  return decodeInput(bytes, path === "-" && kind.stdin ? "on standard input" : path, kind);
}

/**
 * Parses JSON text after checking its syntax and depth, so that a deep or
 * broken document fails with its place, never with its content.
 *
 * @param text the text
 * @param name the input's name, for messages
 * @param kind what it is (its `maxDepth`)
 * @returns the parsed value
 * @throws DesktopError `kind.code` for text that is not JSON or nests too deeply
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseInputJson } from "./bounded_read.ts";
 * const kind = { what: "run file", code: "INVALID_ARGS" as const, suggestion: "Fix it" };
 * assert.deepEqual(parseInputJson("[1]", "steps.json", kind), [1]);
 * assert.throws(() => parseInputJson("root:x", "f", kind), /line 1, column 1/);
 * ```
 */
export function parseInputJson(text: string, name: string, kind: InputKind): unknown {
  const problem = checkJson(text, kind.maxDepth ?? DEFAULT_MAX_JSON_DEPTH);
  if (problem) throw fail(kind, `the ${kind.what} ${name}: ${describeJsonProblem(problem)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw fail(kind, `the ${kind.what} ${name} is not JSON`);
  }
}

/**
 * Reads a JSON input: {@link readInputText}, then {@link parseInputJson}.
 *
 * @param path the file
 * @param kind what it is and its limits
 * @returns the parsed value
 * @throws DesktopError as those two do
 */
export async function readInputJson(path: string, kind: InputKind): Promise<unknown> {
  return parseInputJson(await readInputText(path, kind), path, kind);
}

/** The largest text file `type --text-file` and `fill --fields-file` read: 1 MB. */
export const MAX_TEXT_FILE_BYTES: number = 1024 * 1024;

/**
 * Reads text given as a file rather than on the command line, where other
 * users can see it (`/proc/<pid>/cmdline`): `type --text-file PATH`, or `-`
 * for standard input. One trailing newline (`echo secret > file`) is
 * dropped; anything else is kept as it is.
 *
 * @param path the file, or `-`
 * @param flag the option, for messages (`--text-file`)
 * @param deadline when reading must be done, in ms since the epoch (default 10 s)
 * @returns the text
 * @throws DesktopError INVALID_ARGS when the file cannot be read, is not a
 *   regular file, is over {@link MAX_TEXT_FILE_BYTES} or is not UTF-8;
 *   TIMEOUT when standard input does not end in time
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readTextArgument } from "./bounded_read.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "s3cret\n");
 * assert.equal(await readTextArgument(file, "--text-file"), "s3cret");
 * await Deno.remove(file);
 * ```
 */
export async function readTextArgument(
  path: string,
  flag: string,
  deadline?: number,
): Promise<string> {
  const text = await readInputText(path, {
    what: `${flag} file`,
    code: "INVALID_ARGS",
    suggestion: `Pass ${flag} a readable text file of at most ${
      sizeText(MAX_TEXT_FILE_BYTES)
    }, or - to read standard input`,
    maxBytes: MAX_TEXT_FILE_BYTES,
    stdin: true,
    ...(deadline !== undefined ? { deadline } : {}),
  });
  return text.replace(/\r?\n$/, "");
}
