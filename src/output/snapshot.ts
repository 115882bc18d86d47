/**
 * Snapshot files: the JSON a whole `read --format json` writes, read back by
 * the replay backend and by `diff`.
 *
 * Two shapes are accepted, both with `"format": "desktop-snapshot"`,
 * `"version": 1`, `app`, optional `window` and `readAt`:
 * - tree: `"root": {...}` with children under `c`;
 * - flat: `"elements": [...]` in document order, each element with `pi`, the
 *   `i` of its parent (absent on the first element, the root). The tree is
 *   rebuilt from `pi`; `p` (the landmark path) is informative and ignored.
 *
 * Every key is type-checked; unknown keys are ignored (newer writers may add
 * some). A secure element's value is dropped even if a file contains one.
 * Any problem is a SNAPSHOT_INVALID error naming the place (`root.c[3].b`).
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { AppInfo, Bounds, Element, Snapshot, WindowInfo } from "../model/element.ts";
import { isRole, ROLES } from "../model/roles.ts";

/** The `format` value of a snapshot document. */
export const SNAPSHOT_FORMAT = "desktop-snapshot";

/** The snapshot version this code writes and reads. */
export const SNAPSHOT_VERSION = 1;

/** Deepest element nesting accepted (real UIs stay far below). */
const MAX_DEPTH = 2000;

/** The SNAPSHOT_INVALID error. */
function invalid(message: string): DesktopError {
  return new DesktopError("SNAPSHOT_INVALID", `invalid snapshot: ${message}`, {
    suggestion: "Save a new snapshot with: desktop read --app <name> --format json --save <file>",
  });
}

/** Type name for messages. */
function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Whether a value is a plain object. */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Reads an optional string key. */
function optString(o: Record<string, unknown>, k: string, at: string): string | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalid(`${at}.${k} must be a string, got ${typeName(v)}`);
  return v;
}

/** Reads an optional finite number key. */
function optNumber(o: Record<string, unknown>, k: string, at: string): number | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw invalid(`${at}.${k} must be a number, got ${typeName(v)}`);
  }
  return v;
}

/** Reads an optional boolean key. */
function optBool(o: Record<string, unknown>, k: string, at: string): boolean | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw invalid(`${at}.${k} must be true or false, got ${typeName(v)}`);
  return v;
}

/** Reads optional bounds: exactly 4 finite numbers. */
function optBounds(o: Record<string, unknown>, k: string, at: string): Bounds | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (
    !Array.isArray(v) || v.length !== 4 ||
    !v.every((n) => typeof n === "number" && Number.isFinite(n))
  ) {
    throw invalid(`${at}.${k} must be [x, y, w, h] (4 numbers), got ${JSON.stringify(v)}`);
  }
  return [v[0], v[1], v[2], v[3]];
}

/** Reads a non-negative integer. */
function integer(v: unknown, at: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw invalid(`${at} must be a non-negative integer, got ${JSON.stringify(v) ?? typeName(v)}`);
  }
  return v;
}

/** Validates one element's own keys (not its children). */
function ownElement(o: unknown, at: string): Element {
  if (!isObject(o)) throw invalid(`${at} must be an element object, got ${typeName(o)}`);
  if (o.r === undefined) throw invalid(`${at}.r (role) is missing`);
  if (typeof o.r !== "string" || !isRole(o.r)) {
    throw invalid(`${at}.r ${JSON.stringify(o.r)} is not a role (${ROLES.join(", ")})`);
  }
  if (o.i === undefined) throw invalid(`${at}.i (id) is missing`);
  const el: Element = { i: integer(o.i, `${at}.i`), r: o.r };
  const set = <K extends keyof Element>(k: K, v: Element[K] | undefined) => {
    if (v !== undefined) el[k] = v;
  };
  set("ref", optString(o, "ref", at));
  set("t", optString(o, "t", at));
  set("d", optString(o, "d", at));
  set("ph", optString(o, "ph", at));
  set("nid", optString(o, "nid", at));
  set("b", optBounds(o, "b", at));
  if (optBool(o, "f", at)) el.f = true;
  if (optBool(o, "e", at) === false) el.e = false;
  if (optBool(o, "s", at)) el.s = true;
  if (optBool(o, "req", at)) el.req = true;
  if (optBool(o, "ro", at)) el.ro = true;
  if (optBool(o, "sec", at)) el.sec = true;
  set("exp", optBool(o, "exp", at));
  if (o.chk !== undefined) {
    if (typeof o.chk !== "boolean" && o.chk !== "mixed") {
      throw invalid(`${at}.chk must be true, false or "mixed", got ${JSON.stringify(o.chk)}`);
    }
    el.chk = o.chk;
  }
  set("min", optNumber(o, "min", at));
  set("max", optNumber(o, "max", at));
  set("lv", optNumber(o, "lv", at));
  const v = optString(o, "v", at);
  if (v !== undefined && !el.sec) el.v = v;
  if (o.a !== undefined) {
    if (!Array.isArray(o.a) || !o.a.every((x) => typeof x === "string")) {
      throw invalid(`${at}.a must be a list of action names`);
    }
    el.a = [...o.a];
  }
  return el;
}

/** Validates a tree element and its children (iteratively). */
function treeElement(o: unknown, at: string): Element {
  const root = ownElement(o, at);
  const stack: Array<{ raw: unknown; el: Element; at: string; depth: number }> = [
    { raw: o, el: root, at, depth: 0 },
  ];
  while (stack.length) {
    const { raw, el, at: here, depth } = stack.pop()!;
    const c = (raw as Record<string, unknown>).c;
    if (c === undefined) continue;
    if (!Array.isArray(c)) {
      throw invalid(`${here}.c must be a list of elements, got ${typeName(c)}`);
    }
    if (depth >= MAX_DEPTH) throw invalid(`${here} is nested deeper than ${MAX_DEPTH} levels`);
    if (c.length === 0) continue;
    el.c = c.map((kid, k) => {
      const where = `${here}.c[${k}]`;
      const kidEl = ownElement(kid, where);
      stack.push({ raw: kid, el: kidEl, at: where, depth: depth + 1 });
      return kidEl;
    });
  }
  return root;
}

/** Rebuilds a tree from the flat form (parents by `pi`). */
function flatElements(list: unknown): Element {
  if (!Array.isArray(list)) throw invalid(`elements must be a list, got ${typeName(list)}`);
  if (list.length === 0) throw invalid("elements is empty (no root element)");
  const byId = new Map<number, Element>();
  let root: Element | undefined;
  list.forEach((raw, k) => {
    const at = `elements[${k}]`;
    const el = ownElement(raw, at);
    if (byId.has(el.i)) throw invalid(`${at}.i ${el.i} is used twice`);
    const pi = (raw as Record<string, unknown>).pi;
    if (pi === undefined) {
      if (k !== 0) {
        throw invalid(`${at} has no parent (pi); only the first element may be the root`);
      }
      root = el;
    } else {
      if (k === 0) throw invalid(`elements[0] is the root and must not have a parent (pi)`);
      const parent = byId.get(integer(pi, `${at}.pi`));
      if (!parent) throw invalid(`${at}.pi ${pi} does not name an earlier element`);
      (parent.c ??= []).push(el);
    }
    byId.set(el.i, el);
  });
  return root!;
}

/** Validates the `app` key (an AppInfo, or just a name). */
function appInfo(v: unknown): AppInfo {
  if (v === undefined) throw invalid("app is missing");
  if (typeof v === "string") return { name: v, pid: 0 };
  if (!isObject(v)) throw invalid(`app must be an object, got ${typeName(v)}`);
  if (typeof v.name !== "string") throw invalid("app.name must be a string");
  const app: AppInfo = { name: v.name, pid: v.pid === undefined ? 0 : integer(v.pid, "app.pid") };
  const started = optNumber(v, "started", "app");
  if (started !== undefined) app.started = started;
  const id = optString(v, "id", "app");
  if (id !== undefined) app.id = id;
  const focused = optBool(v, "focused", "app");
  if (focused !== undefined) app.focused = focused;
  const windows = optNumber(v, "windows", "app");
  if (windows !== undefined) app.windows = windows;
  return app;
}

/** Validates the optional `window` key. */
function windowInfo(v: unknown, app: AppInfo): WindowInfo | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return { id: 0, title: v, app: app.name, pid: app.pid };
  if (!isObject(v)) throw invalid(`window must be an object, got ${typeName(v)}`);
  const title = optString(v, "title", "window");
  if (title === undefined) throw invalid("window.title is missing");
  const win: WindowInfo = {
    id: v.id === undefined ? 0 : integer(v.id, "window.id"),
    title,
    app: optString(v, "app", "window") ?? app.name,
    pid: v.pid === undefined ? app.pid : integer(v.pid, "window.pid"),
  };
  const b = optBounds(v, "b", "window");
  if (b) win.b = b;
  const focused = optBool(v, "focused", "window");
  if (focused !== undefined) win.focused = focused;
  return win;
}

/**
 * Parses and validates a snapshot document (the JSON of a whole read).
 * Throws SNAPSHOT_INVALID with a clear message for empty, corrupt or
 * truncated JSON, a wrong `format`, an unsupported `version`, a missing root,
 * or any element key of the wrong type.
 *
 * @param text the file's text
 * @returns the snapshot: app, window, readAt ("" when the file has none), root
 * @example
 * ```ts
 * import { parseSnapshot } from "./snapshot.ts";
 * const snap = parseSnapshot(JSON.stringify({
 *   format: "desktop-snapshot", version: 1, app: { name: "Demo", pid: 7 },
 *   root: { i: 1, r: "app", t: "Demo", c: [{ i: 2, r: "btn", t: "OK" }] },
 * }));
 * console.log(snap.app.name, snap.root.c?.[0].t); // Demo OK
 * ```
 */
export function parseSnapshot(text: string): Snapshot {
  if (text.trim() === "") throw invalid("the file is empty");
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const truncated = /end of (JSON )?input|unterminated/i.test(why);
    throw invalid(
      truncated ? `the JSON ends too early (the file looks truncated): ${why}` : `not JSON: ${why}`,
    );
  }
  if (!isObject(doc)) throw invalid(`expected a JSON object, got ${typeName(doc)}`);
  if (doc.format !== SNAPSHOT_FORMAT) {
    throw invalid(
      doc.format === undefined
        ? `no "format" key (expected "${SNAPSHOT_FORMAT}")`
        : `format is ${JSON.stringify(doc.format)}, expected "${SNAPSHOT_FORMAT}"`,
    );
  }
  if (doc.version !== SNAPSHOT_VERSION) {
    const newer = typeof doc.version === "number" && doc.version > SNAPSHOT_VERSION;
    throw invalid(
      newer
        ? `version ${doc.version} is newer than this desktop reads (${SNAPSHOT_VERSION}); upgrade desktop`
        : `version is ${JSON.stringify(doc.version)}, expected ${SNAPSHOT_VERSION}`,
    );
  }
  const app = appInfo(doc.app);
  const window = windowInfo(doc.window, app);
  const readAt = optString(doc, "readAt", "snapshot") ?? "";
  let root: Element;
  if (doc.root !== undefined && doc.elements !== undefined) {
    throw invalid("has both root and elements; expected one of them");
  } else if (doc.root !== undefined) {
    root = treeElement(doc.root, "root");
  } else if (doc.elements !== undefined) {
    root = flatElements(doc.elements);
  } else {
    throw invalid("no root element (expected a root or an elements key)");
  }
  return { app, ...(window ? { window } : {}), readAt, root };
}
