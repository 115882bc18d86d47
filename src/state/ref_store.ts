/**
 * The ref store: what the last `read` of each app printed, kept between CLI
 * processes so that `--id N` means "element N of the last read" (guide:
 * refs.md section 3).
 *
 * One file per app process (`refs/pid-<pid>.json`) in the user's state
 * directory; a named session (`--session NAME`, or {@link SESSION_ENV}) keeps
 * its own files (`sessions/NAME/refs/pid-<pid>.json`), so agents in different
 * sessions never change each other's ids. The directory is 0700 and files are 0600 (window titles and
 * labels can be private); each file is replaced atomically (temporary file +
 * rename) so a reader never sees half a file. At most {@link DEFAULT_LIMITS}
 * apps are kept (least recently read dropped first), and a file holds at most
 * 2 MB: elements beyond that are dropped from the end of document order and
 * the read is marked `truncated`, so an id past the cut gets STALE_REF.
 *
 * Store files are read through the bounded reader (src/io/bounded_read.ts):
 * a regular file no larger than the cap, else it is not used. A file looser
 * than 0600 (a copy made 0666) is tightened to 0600 when it is read.
 *
 * A corrupt, unreadable or foreign store file of the app process is "no last
 * read", with a warning on stderr: never a reason to answer with another
 * run's read (which callers would report as "the app restarted"). A store
 * that cannot be written only warns. The one failure is a store directory
 * owned by another user: its files could name elements the user never read,
 * so the store refuses it (PERMISSION_DENIED naming the directory and its
 * owner) instead of adopting it with a chmod.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import { readInputSync, readInputText } from "../io/bounded_read.ts";
import type { StoredApp, StoredElement, StoredRead } from "../identity/stored.ts";
export type { StoredApp, StoredElement, StoredRead };

/** Where reads are remembered. */
export interface RefStore {
  /** Remembers a read, replacing the previous read of the same app process. */
  save(read: StoredRead): Promise<void>;
  /**
   * Optional: remembers again a read this store saved last (the same
   * object): when its file is still the one this store wrote, only the
   * file's time is renewed (it stays the most recently read app); else it is
   * saved whole.
   */
  saveAgain?(read: StoredRead): Promise<void>;
  /**
   * The last stored read of the process `pid`; else, when `name` is given, the
   * latest read of another process with that app name (an earlier run of the
   * app, so that callers can say "restarted"); else null.
   */
  load(pid: number, name?: string): Promise<StoredRead | null>;
}

/** Size limits of the file store. */
export interface RefStoreLimits {
  /** Apps kept; the least recently read are dropped beyond this. */
  maxApps: number;
  /** Bytes per app file; elements past this are dropped. */
  maxFileBytes: number;
}

/** The default limits: 16 apps, 2 MB per app. */
export const DEFAULT_LIMITS: RefStoreLimits = { maxApps: 16, maxFileBytes: 2 * 1024 * 1024 };

/** The environment variable that names the session (`--session` overrides it). */
export const SESSION_ENV = "DESKTOP_SESSION";

/**
 * Checks a session name: 1 to 64 letters, digits, `.`, `_` or `-`, not
 * starting with a dot (it becomes a directory name).
 *
 * @param name the name given
 * @returns the name
 * @throws DesktopError INVALID_ARGS otherwise
 * @example
 * ```ts
 * import { validateSession } from "./ref_store.ts";
 * if (validateSession("agent-1") !== "agent-1") throw new Error();
 * ```
 */
export function validateSession(name: string): string {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new DesktopError("INVALID_ARGS", `bad session name "${name.slice(0, 80)}"`, {
      suggestion:
        "Name a session with 1-64 letters, digits, '.', '_' or '-', e.g. --session agent-1",
    });
  }
  return name;
}

/**
 * The state directory: `$DESKTOP_STATE_DIR`, else `$XDG_STATE_HOME/desktop`,
 * else `~/.local/state/desktop` (macOS: `~/Library/Application Support/desktop`).
 *
 * @param env environment lookup (defaults to `Deno.env.get`)
 * @param os operating system (defaults to `Deno.build.os`)
 * @returns the directory path, or null when no home directory is known
 *
 * @example
 * ```ts
 * import { stateDir } from "./ref_store.ts";
 * const env: Record<string, string> = { HOME: "/home/ada" };
 * console.log(stateDir((k) => env[k], "linux")); // "/home/ada/.local/state/desktop"
 * ```
 */
export function stateDir(
  env: (key: string) => string | undefined = (k) => Deno.env.get(k),
  os: string = Deno.build.os,
): string | null {
  const explicit = env("DESKTOP_STATE_DIR");
  if (explicit) return explicit;
  const home = env("HOME");
  if (os === "darwin") return home ? `${home}/Library/Application Support/desktop` : null;
  const xdg = env("XDG_STATE_HOME");
  if (xdg) return `${xdg}/desktop`;
  return home ? `${home}/.local/state/desktop` : null;
}

/**
 * A store in process memory: what the library uses when it does not persist.
 *
 * @returns an empty store
 *
 * @example
 * ```ts
 * import { createMemoryRefStore } from "./ref_store.ts";
 * const store = createMemoryRefStore();
 * await store.save({ app: { name: "Calc", pid: 7 }, readAt: "", elements: [] });
 * console.log((await store.load(7))?.app.name); // "Calc"
 * ```
 */
export function createMemoryRefStore(): RefStore {
  const reads = new Map<number, StoredRead>();
  return {
    save(read) {
      reads.set(read.app.pid, structuredClone(read));
      return Promise.resolve();
    },
    load(pid, name) {
      const read = reads.get(pid) ??
        (name === undefined ? undefined : latest([...reads.values()], name));
      return Promise.resolve(read ? structuredClone(read) : null);
    },
  };
}

/**
 * A store in files under `dir` (see the module doc for modes, atomicity and caps).
 *
 * @param dir the state directory (see {@link stateDir})
 * @param limits size caps
 * @param warn where warnings go (defaults to stderr)
 * @param session a session name ({@link validateSession}); undefined: the default session
 * @returns the store
 *
 * @example
 * ```ts
 * import { createFileRefStore } from "./ref_store.ts";
 * const dir = await Deno.makeTempDir();
 * const store = createFileRefStore(dir);
 * await store.save({ app: { name: "Calc", pid: 7 }, readAt: "", elements: [] });
 * console.log((await store.load(7))?.app.pid); // 7
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function createFileRefStore(
  dir: string,
  limits: RefStoreLimits = DEFAULT_LIMITS,
  warn: (message: string) => void = (m) => console.error(`desktop: warning: ${m}`),
  session?: string,
): RefStore {
  const sessionDir = session === undefined ? dir : `${dir}/sessions/${validateSession(session)}`;
  const refsDir = `${sessionDir}/refs`;
  const fileOf = (pid: number) => `${refsDir}/pid-${pid}.json`;
  const dirs = [dir, ...(session !== undefined ? [`${dir}/sessions`, sessionDir] : []), refsDir];
  /** The last read this store wrote, and its file as written (one: bounds the memory). */
  let written: { read: StoredRead; file: string; ino: number | null; mtime: number } | null = null;

  /** The read stored for `pid`; "missing" when there is no file, "unusable" when it cannot be used. */
  async function loadPid(pid: number): Promise<StoredRead | "missing" | "unusable"> {
    const file = fileOf(pid);
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(file);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return "missing";
      warn(`ignoring the ref store file ${file}: ${messageOf(err)}`);
      return "unusable";
    }
    if (!info.isFile) {
      warn(`ignoring the ref store file ${file}: it is not a regular file`);
      return "unusable";
    }
    const me = currentUid();
    if (me !== null && info.uid !== null && info.uid !== me) {
      warn(`ignoring the ref store file ${file}: it belongs to ${ownerText(info.uid)}`);
      return "unusable";
    }
    // A copy made with a looser mode (0666) is made private again.
    if (info.mode !== null && (info.mode & 0o077) !== 0) {
      await chmodIfPosix(file, 0o600).catch(() => {});
    }
    let text: string;
    try {
      text = await readInputText(file, {
        what: "ref store file",
        code: "INVALID_ARGS",
        suggestion: "Run read again",
        // Written at most maxFileBytes long; a little slack for a hand-edited file.
        maxBytes: limits.maxFileBytes + 64 * 1024,
      });
    } catch (err) {
      warn(`ignoring the ref store file ${file}: ${messageOf(err)}`);
      return "unusable";
    }
    const read = decode(text);
    if (!read || read.app.pid !== pid) {
      warn(`ignoring the corrupt ref store file ${file}; run read again`);
      return "unusable";
    }
    return read;
  }

  const store: RefStore = {
    async save(read) {
      // Outside the try: a foreign directory is refused, not warned about.
      for (const d of dirs) await refuseForeignDir(d);
      try {
        await ensurePrivateDir(dir);
        if (session !== undefined) {
          await ensurePrivateDir(`${dir}/sessions`);
          await ensurePrivateDir(sessionDir);
        }
        await ensurePrivateDir(refsDir);
        const text = encodeCapped(read, limits.maxFileBytes);
        const target = fileOf(read.app.pid);
        const tmp = `${target}.${crypto.randomUUID()}.tmp`;
        try {
          await Deno.writeTextFile(tmp, text, { mode: 0o600, createNew: true });
          await chmodIfPosix(tmp, 0o600);
          await Deno.rename(tmp, target);
        } catch (err) {
          await Deno.remove(tmp).catch(() => {});
          throw err;
        }
        const info = await Deno.lstat(target);
        written = { read, file: target, ino: info.ino, mtime: info.mtime?.getTime() ?? -1 };
        await evictBeyond(refsDir, limits.maxApps, target);
      } catch (err) {
        warn(`could not save the ref store in ${dir}: ${messageOf(err)}`);
      }
    },
    async saveAgain(read) {
      const last = written;
      if (last?.read === read && last.file === fileOf(read.app.pid)) {
        const info = await Deno.lstat(last.file).catch(() => null);
        if (info?.isFile && info.ino === last.ino && info.mtime?.getTime() === last.mtime) {
          // Still the file this store wrote: it stays the most recently read app.
          const now = new Date();
          const renewed = await Deno.utime(last.file, now, now).then(() => Deno.lstat(last.file))
            .catch(() => null);
          if (renewed) {
            last.mtime = renewed.mtime?.getTime() ?? -1;
            return;
          }
        }
      }
      await store.save(read);
    },
    async load(pid, name) {
      for (const d of dirs) await refuseForeignDir(d);
      const own = await loadPid(pid);
      if (typeof own === "object") return own;
      // A file of this process that cannot be used is "no last read": another
      // run's read would be taken for this process's and called a restart.
      if (own === "unusable" || name === undefined) return null;
      const others: StoredRead[] = [];
      for (const other of await listPids(refsDir)) {
        if (other === pid) continue;
        const read = await loadPid(other);
        if (typeof read === "object") others.push(read);
      }
      return latest(others, name) ?? null;
    },
  };
  return store;
}

/** The most recent read of an app called `name`. */
function latest(reads: StoredRead[], name: string): StoredRead | undefined {
  return reads.filter((r) => r.app.name === name)
    .sort((a, b) => b.readAt.localeCompare(a.readAt))[0];
}

/** Pids that have a store file. */
async function listPids(refsDir: string): Promise<number[]> {
  const pids: number[] = [];
  try {
    for await (const entry of Deno.readDir(refsDir)) {
      const m = entry.name.match(/^pid-(\d+)\.json$/);
      if (entry.isFile && m) pids.push(Number(m[1]));
    }
  } catch {
    // No store yet.
  }
  return pids;
}

/** Serializes a read, dropping trailing elements until it fits `maxBytes`. */
function encodeCapped(read: StoredRead, maxBytes: number): string {
  let text = JSON.stringify(read);
  if (fitsBytes(text, maxBytes)) return text;
  if (read.printed) {
    // What actions printed goes first: the read's own elements are what its ids mean.
    const { printed: _p, ...rest } = read;
    read = rest;
    text = JSON.stringify(read);
    if (fitsBytes(text, maxBytes)) return text;
  }
  let keep = read.elements.length;
  // Shrink proportionally, then step down: a few passes at most.
  while (keep > 0) {
    keep = Math.min(keep - 1, Math.floor(keep * maxBytes / byteLength(text)));
    text = JSON.stringify({ ...read, elements: read.elements.slice(0, keep), truncated: true });
    if (fitsBytes(text, maxBytes)) return text;
  }
  return JSON.stringify({ ...read, elements: [], truncated: true });
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Whether a text's UTF-8 form fits `maxBytes`. A UTF-16 code unit takes at
 * most 3 bytes in UTF-8 (a surrogate pair, two units, takes 4), so a text
 * short enough needs no encoding: a read is encoded on every save, and most
 * are far below the cap.
 */
function fitsBytes(text: string, maxBytes: number): boolean {
  return text.length * 3 <= maxBytes || byteLength(text) <= maxBytes;
}

/** Parses a store file, returning null for anything that is not a stored read. */
function decode(text: string): StoredRead | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(data) || !isRecord(data.app) || !Array.isArray(data.elements)) return null;
  const app = data.app;
  if (typeof app.name !== "string" || typeof app.pid !== "number") return null;
  if (app.started !== undefined && typeof app.started !== "number") return null;
  if (data.printed !== undefined && !Array.isArray(data.printed)) return null;
  for (const el of [...data.elements, ...(data.printed ?? [])]) {
    if (!isRecord(el) || typeof el.i !== "number" || typeof el.r !== "string") return null;
    if (typeof el.path !== "string") return null;
  }
  return data as unknown as StoredRead;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The user's uid, or null where there is none (Windows) or it may not be asked. */
function currentUid(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

/** A user in words: `"ada" (uid 1000)`, or `uid 1000` when /etc/passwd does not name it. */
function ownerText(uid: number): string {
  try {
    const passwd = new TextDecoder().decode(
      readInputSync("/etc/passwd", {
        what: "user list",
        code: "INTERNAL",
        suggestion: "",
        maxBytes: 4 * 1024 * 1024,
      }),
    );
    for (const line of passwd.split("\n")) {
      const [name, , id] = line.split(":");
      if (id !== undefined && Number(id) === uid && name) return `user "${name}" (uid ${uid})`;
    }
  } catch {
    // No user list: the number alone.
  }
  return `uid ${uid}`;
}

/**
 * Refuses a store directory that exists and belongs to another user: its
 * files would be taken for the user's own reads, and tightening it with
 * chmod would take it over.
 *
 * @throws DesktopError PERMISSION_DENIED naming the directory and its owner
 */
async function refuseForeignDir(path: string): Promise<void> {
  const me = currentUid();
  if (me === null) return;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return; // Not there yet: it is created as the user's own.
  }
  if (info.uid === null || info.uid === me) return;
  throw new DesktopError(
    "PERMISSION_DENIED",
    `the ref store directory ${path} belongs to ${ownerText(info.uid)}, not to you (uid ${me})`,
    {
      suggestion: "Point DESKTOP_STATE_DIR at a directory of your own (or unset it to use " +
        "~/.local/state/desktop); desktop does not use or take over another user's store",
      details: { directory: path, owner: info.uid },
    },
  );
}

/** Creates `path` as 0700, or tightens an existing directory to 0700. */
async function ensurePrivateDir(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: 0o700 });
  await chmodIfPosix(path, 0o700);
}

async function chmodIfPosix(path: string, mode: number): Promise<void> {
  if (Deno.build.os === "windows") return;
  await Deno.chmod(path, mode);
}

/** Keeps the `maxApps` most recently written files; `keep` is never removed. */
async function evictBeyond(refsDir: string, maxApps: number, keep: string): Promise<void> {
  const files: Array<{ path: string; mtime: number }> = [];
  for await (const entry of Deno.readDir(refsDir)) {
    if (!entry.isFile || !/^pid-\d+\.json$/.test(entry.name)) continue;
    const path = `${refsDir}/${entry.name}`;
    const info = await Deno.stat(path).catch(() => null);
    if (info) files.push({ path, mtime: info.mtime?.getTime() ?? 0 });
  }
  if (files.length <= maxApps) return;
  files.sort((a, b) => b.mtime - a.mtime || (a.path === keep ? -1 : b.path === keep ? 1 : 0));
  const keepSet = new Set([
    keep,
    ...files.filter((f) => f.path !== keep).slice(0, maxApps - 1)
      .map((f) => f.path),
  ]);
  for (const f of files) {
    if (!keepSet.has(f.path)) await Deno.remove(f.path).catch(() => {});
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
