/**
 * Where MCP tools may write files: one folder, chosen when the server starts
 * (`desktop mcp --output-dir DIR`; by default a folder of its own under the
 * user's state directory, or the temp directory). A path a client passes
 * (`screenshot`'s `out`, a `run` step's) is taken relative to that folder;
 * one that leaves it (`..`, an absolute path elsewhere, a symlink out) is
 * INVALID_ARGS, and so is an existing file this server did not write: a
 * client can add files there and replace its own, never clobber anything.
 *
 * @module
 */

import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { DesktopError } from "../errors.ts";
import type { AnyOp, Args } from "../ops/mod.ts";
import { loadRunFile } from "../run/run.ts";
import { mapScreenshotOutputs } from "../run/steps.ts";
import { stateDir } from "../state/ref_store.ts";

/**
 * The default output folder of a server: `<state dir>/mcp-output/<name>`,
 * else `<temp dir>/desktop-mcp-output/<name>`, where the name is unique to
 * the server (its start time and process id).
 *
 * @param env reads an environment variable
 * @param now the start time
 * @param pid the server's process id
 * @returns the folder's path (not created)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultOutputDir } from "./output_dir.ts";
 * const env: Record<string, string> = { DESKTOP_STATE_DIR: "/s" };
 * const dir = defaultOutputDir((k) => env[k], new Date("2026-01-02T03:04:05Z"), 42);
 * assert.equal(dir, "/s/mcp-output/2026-01-02T03-04-05-42");
 * ```
 */
export function defaultOutputDir(
  env: (key: string) => string | undefined = (k) => Deno.env.get(k),
  now: Date = new Date(),
  pid: number = Deno.pid,
): string {
  const name = `${now.toISOString().slice(0, 19).replaceAll(":", "-")}-${pid}`;
  const state = stateDir(env);
  if (state) return `${state}/mcp-output/${name}`;
  const tmp = env("TMPDIR") ?? env("TMP") ?? env("TEMP") ?? "/tmp";
  return `${tmp}/desktop-mcp-output/${name}`;
}

function refused(path: string, why: string, root: string): DesktopError {
  return new DesktopError("INVALID_ARGS", `cannot write ${JSON.stringify(path)}: ${why}`, {
    suggestion: `Pass a new file name; files are written under the server's output folder ` +
      `${root} (desktop mcp --output-dir DIR chooses it)`,
    details: { outputDir: root },
  });
}

/** The output folder of one MCP server, and the files it wrote there. */
export class OutputDir {
  /** The folder as configured (made absolute). */
  readonly root: string;
  #real?: string;
  #written = new Set<string>();
  #count = 0;

  /**
   * @param root the folder; relative to the working directory when relative
   */
  constructor(root: string) {
    this.root = normalize(isAbsolute(root) ? root : join(Deno.cwd(), root));
  }

  /** The folder's real path, creating it on first use. */
  async #realRoot(): Promise<string> {
    if (this.#real) return this.#real;
    try {
      await Deno.mkdir(this.root, { recursive: true, mode: 0o700 });
      this.#real = await Deno.realPath(this.root);
    } catch (e) {
      throw new DesktopError(
        "PERMISSION_DENIED",
        `cannot create the output folder ${this.root}: ${(e as Error).message}`,
        { suggestion: "Start the server with --output-dir naming a writable folder" },
      );
    }
    return this.#real;
  }

  /**
   * Resolves a client's path to a file in the folder that may be written:
   * inside it (no `..` out, no symlink on the way), and either new or one
   * this server wrote. Missing folders on the way are created.
   *
   * @param requested the path the client gave (relative to the folder, or absolute inside it)
   * @returns the absolute path to write
   * @throws DesktopError INVALID_ARGS when the path leaves the folder or names a file not its own
   */
  async place(requested: string): Promise<string> {
    const real = await this.#realRoot();
    if (requested.trim() === "" || requested.includes("\0")) {
      throw refused(requested, "not a file name", this.root);
    }
    const inside = (base: string, p: string) => {
      const rel = relative(base, p);
      return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
        ? rel
        : undefined;
    };
    const abs = normalize(isAbsolute(requested) ? requested : join(real, requested));
    const rel = inside(real, abs) ?? inside(this.root, abs);
    if (rel === undefined) throw refused(requested, "outside the output folder", this.root);
    const parts = rel.split(sep);
    let at = real;
    for (const part of parts.slice(0, -1)) {
      at = join(at, part);
      const info = await lstat(at);
      if (!info) {
        await Deno.mkdir(at, { mode: 0o700 }).catch((e) => {
          if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
        });
      } else if (info.isSymlink) {
        throw refused(requested, `${at} is a symbolic link`, this.root);
      } else if (!info.isDirectory) {
        throw refused(requested, `${at} is not a folder`, this.root);
      }
    }
    const path = join(at, parts.at(-1)!);
    const info = await lstat(path);
    if (info && !(info.isFile && this.#written.has(path))) {
      throw refused(
        requested,
        info.isSymlink
          ? "it is a symbolic link"
          : "the file exists and this server did not write it",
        this.root,
      );
    }
    return path;
  }

  /**
   * A new file name in the folder (`screenshot-3.png`).
   *
   * @param prefix the name's start
   * @param suffix the name's end (extension)
   * @returns the absolute path of a file that does not exist yet
   */
  async fresh(prefix: string, suffix: string): Promise<string> {
    const real = await this.#realRoot();
    for (;;) {
      const path = join(real, `${prefix}-${++this.#count}${suffix}`);
      if (!await lstat(path)) return path;
    }
  }

  /**
   * Writes a file placed by {@link place} or {@link fresh}: a new file is
   * created exclusively (never through a link), private to the user (0600),
   * and a file of this server's is replaced.
   *
   * @param path the absolute path
   * @param bytes the contents
   * @throws DesktopError INVALID_ARGS when another process created the file meanwhile
   */
  async write(path: string, bytes: Uint8Array): Promise<void> {
    if (this.#written.has(path)) await Deno.remove(path).catch(() => {});
    try {
      await Deno.writeFile(path, bytes, { createNew: true, mode: 0o600 });
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists) {
        throw refused(path, "the file appeared meanwhile", this.root);
      }
      throw new DesktopError("ACTION_FAILED", `cannot write ${path}: ${(e as Error).message}`, {
        suggestion: "Check the output folder's permissions and free space",
      });
    }
    this.#written.add(path);
  }

  /**
   * Records a file written by someone else on this server's behalf (a worker
   * process writing a `run` step's screenshot to a path from {@link place}).
   *
   * @param path the absolute path
   */
  async claim(path: string): Promise<void> {
    const info = await lstat(path);
    if (info?.isFile) this.#written.add(path);
  }
}

/** The MCP tools that write files (their annotations say so: not read-only). */
export const WRITING_TOOLS: ReadonlySet<string> = new Set(["screenshot", "run"]);

/** A call's writes, planned before it runs. */
export interface WritePlan {
  /** The arguments to run the operation with (paths inside the folder, or none). */
  args: Args;
  /**
   * Writes or records the call's files once it ended (result undefined when
   * it failed); may add `path` to the result.
   */
  finish(result: unknown): Promise<void>;
}

/**
 * Plans the files a tool call writes, so that they land in the output
 * folder only: `screenshot`'s `out` is checked with {@link OutputDir.place}
 * and written here (not by the worker) from the result's PNG; each `run`
 * screenshot step gets a checked path, or a new one when it names none (a
 * run file is read here to find them).
 *
 * @param op the operation
 * @param args its validated arguments
 * @param dir the output folder
 * @returns the arguments to run with, and what to do with the result
 * @throws DesktopError INVALID_ARGS for a path the folder refuses
 */
export async function planWrites(op: AnyOp, args: Args, dir: OutputDir): Promise<WritePlan> {
  if (op.name === "screenshot" && args.out !== undefined) {
    const { out, ...rest } = args;
    const path = await dir.place(String(out));
    return {
      args: rest,
      async finish(result) {
        if (result === undefined) return;
        const r = result as { png: string; path?: string };
        await dir.write(path, Uint8Array.from(atob(r.png), (c) => c.charCodeAt(0)));
        r.path = path;
      },
    };
  }
  if (op.name === "run") {
    const doc = args.steps ??
      (args.file !== undefined ? await loadRunFile(String(args.file)) : undefined);
    if (doc === undefined) return { args, finish: () => Promise.resolve() };
    const wanted: Array<string | undefined> = [];
    mapScreenshotOutputs(doc, (out) => (wanted.push(out), ""));
    const paths: string[] = [];
    for (const out of wanted) {
      paths.push(out === undefined ? await dir.fresh("screenshot", ".png") : await dir.place(out));
    }
    let k = 0;
    const { file: _file, ...rest } = args;
    return {
      args: { ...rest, steps: mapScreenshotOutputs(doc, () => paths[k++]) },
      async finish() {
        // Also after a failed run: the screenshots of the steps before it were written.
        for (const p of paths) await dir.claim(p);
      },
    };
  }
  return { args, finish: () => Promise.resolve() };
}

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}
