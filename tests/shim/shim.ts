/**
 * Test helpers for the AX/CF/CG shim: builds it on demand, points the macOS
 * backend at it, loads app trees, and reads the shim's accounting.
 *
 * @module
 */

const here = new URL(".", import.meta.url).pathname;

/** Path of the built shim library. */
export const SHIM_LIBRARY: string = `${here}build/libaxshim.so`;

/** Path of a tree under tests/shim/trees. */
export function treePath(name: string): string {
  return `${here}trees/${name}.json`;
}

const SOURCES = ["cf.c", "json.c", "tree.c", "ax.c", "cg.c", "shim.h"];

function mtime(path: string): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/** Builds the shim with tests/shim/build.sh when it is missing or older than its sources. */
export function ensureShimBuilt(): string {
  const built = mtime(SHIM_LIBRARY);
  const newest = Math.max(
    ...SOURCES.map((s) => mtime(`${here}src/${s}`)),
    mtime(`${here}build.sh`),
  );
  if (built > 0 && built >= newest) return SHIM_LIBRARY;
  const out = new Deno.Command("bash", { args: [`${here}build.sh`], stderr: "piped" }).outputSync();
  if (!out.success) {
    throw new Error(`building the AX shim failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return SHIM_LIBRARY;
}

const CONTROL = {
  shim_reset: { parameters: ["buffer"], result: "i32" },
  shim_set_trusted: { parameters: ["i32"], result: "void" },
  shim_set_hang: { parameters: ["i32", "i32"], result: "i32" },
  shim_remove_app: { parameters: ["i32"], result: "i32" },
  shim_add_app: { parameters: ["buffer"], result: "i32" },
  shim_stats: { parameters: ["buffer", "i32"], result: "void" },
  shim_event_log: { parameters: ["buffer", "i64"], result: "i64" },
  shim_get_attr: { parameters: ["i32", "buffer", "buffer", "buffer", "i32"], result: "i32" },
  shim_set_attr: { parameters: ["i32", "buffer", "buffer", "buffer"], result: "i32" },
  shim_apply: { parameters: ["i32", "buffer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** The shim's CF accounting (see shim_stats in src/cf.c). */
export interface ShimStats {
  /** References callers still hold. */
  leaks: number;
  /** Releases of freed objects or past the retain count. */
  doubleFrees: number;
  /** Live objects. */
  live: number;
  /** Uses of freed objects. */
  badUses: number;
  /** Reads of a secure text field's value. */
  secureReads: number;
  /** Objects created since the last reset. */
  created: number;
}

function cstr(s: string): Uint8Array<ArrayBuffer> {
  const b = new TextEncoder().encode(s);
  const out = new Uint8Array(b.length + 1);
  out.set(b);
  return out;
}

/** Control handle over the shim (shares the backend's state: same library, same process). */
export class Shim {
  readonly #lib: Deno.DynamicLibrary<typeof CONTROL>;

  constructor() {
    const path = ensureShimBuilt();
    Deno.env.set("DESKTOP_AX_SHIM", path);
    this.#lib = Deno.dlopen(path, CONTROL);
  }

  /** Loads a tree (name under tests/shim/trees) and forgets all earlier objects and stats. */
  reset(tree: string): void {
    const rc = this.#lib.symbols.shim_reset(cstr(treePath(tree)));
    if (rc !== 0) throw new Error(`shim could not load tree ${tree}`);
  }

  /** 1 trusted, 0 not trusted, 2 says trusted but refuses calls. */
  setTrusted(mode: 0 | 1 | 2): void {
    this.#lib.symbols.shim_set_trusted(mode);
  }

  /** Makes an app slow (ms > 0), hung (-25204) or normal (0). */
  setHang(pid: number, ms: number): void {
    if (this.#lib.symbols.shim_set_hang(pid, ms) !== 0) throw new Error(`no app ${pid}`);
  }

  /** Adds an app (an entry of a tree's `apps`), as if it had just been launched. */
  addApp(app: Record<string, unknown>): void {
    if (this.#lib.symbols.shim_add_app(cstr(JSON.stringify(app))) !== 0) {
      throw new Error(`shim could not add ${JSON.stringify(app).slice(0, 80)}`);
    }
  }

  /** The app quits. */
  removeApp(pid: number): void {
    if (this.#lib.symbols.shim_remove_app(pid) !== 0) throw new Error(`no app ${pid}`);
  }

  /** Accounting counters. */
  stats(): ShimStats {
    const buf = new BigInt64Array(6);
    this.#lib.symbols.shim_stats(new Uint8Array(buf.buffer), 6);
    const [leaks, doubleFrees, live, badUses, secureReads, created] = Array.from(buf, Number);
    return { leaks, doubleFrees, live, badUses, secureReads, created };
  }

  /** The event log: clicks, keys, actions, attribute sets, one per line. */
  log(): string[] {
    const len = Number(this.#lib.symbols.shim_event_log(null, 0n));
    const buf = new Uint8Array(len + 1);
    this.#lib.symbols.shim_event_log(buf, BigInt(buf.length));
    return new TextDecoder().decode(buf.subarray(0, len)).split("\n").filter(Boolean);
  }

  /** An attribute of the element with shim key `key` ("" = the app), as text; undefined if absent. */
  attr(pid: number, key: string, attr: string): string | undefined {
    const buf = new Uint8Array(4096);
    const rc = this.#lib.symbols.shim_get_attr(pid, cstr(key), cstr(attr), buf, buf.length);
    if (rc === -1) throw new Error(`no element ${key} in ${pid}`);
    if (rc === 0) return undefined;
    return new TextDecoder().decode(buf.subarray(0, buf.indexOf(0)));
  }

  /** Sets an attribute as the app itself would (sends the notification). */
  setAttr(pid: number, key: string, attr: string, value: unknown): void {
    const rc = this.#lib.symbols.shim_set_attr(
      pid,
      cstr(key),
      cstr(attr),
      cstr(JSON.stringify(value)),
    );
    if (rc !== 0) throw new Error(`shim_set_attr ${key}.${attr} failed (${rc})`);
  }

  /** Runs scripted effects (`[{"remove": "row-2"}]`...) as if the app changed itself. */
  apply(pid: number, effects: unknown[]): void {
    const rc = this.#lib.symbols.shim_apply(pid, cstr(JSON.stringify(effects)));
    if (rc !== 0) throw new Error(`shim_apply failed (${rc})`);
  }

  /** Closes the control handle. */
  close(): void {
    this.#lib.close();
  }
}
