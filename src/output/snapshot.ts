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
 * Any problem is a SNAPSHOT_INVALID error naming the place (`root.c[3].b`,
 * or a line and column for text that is not JSON) and the kind of problem;
 * it never quotes the file's text (the file may be one the user did not mean
 * to show). Elements nest at most {@link MAX_SNAPSHOT_DEPTH} deep in either
 * shape; the JSON is checked for its syntax and depth before it is parsed.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { AppInfo, Bounds, Element, Snapshot, WindowInfo } from "../model/element.ts";
import { isRole, ROLES } from "../model/roles.ts";
import { checkJson, describeJsonProblem } from "./json_check.ts";

/** The `format` value of a snapshot document. */
export const SNAPSHOT_FORMAT = "desktop-snapshot";

/** The snapshot version this code writes and reads. */
export const SNAPSHOT_VERSION = 1;

/**
 * Deepest element nesting accepted: real UIs stay far below (a web page is
 * rarely 100 deep), and every step that walks a tree stays well within the
 * stack at this depth.
 */
export const MAX_SNAPSHOT_DEPTH = 1000;

/** JSON nesting of the deepest accepted tree: an object and its `c` list per level. */
const MAX_JSON_DEPTH = 2 * MAX_SNAPSHOT_DEPTH + 8;

/** The largest snapshot file read: 64 MB (a large app's whole tree is a few MB). */
export const MAX_SNAPSHOT_BYTES: number = 64 * 1024 * 1024;

/** What every SNAPSHOT_INVALID error suggests. */
export const SNAPSHOT_SUGGESTION: string =
  "Pass a snapshot written by `desktop read --app <name> --save <file>` (a JSON file of at " +
  `most ${
    MAX_SNAPSHOT_BYTES / 1024 / 1024
  } MB, elements nested at most ${MAX_SNAPSHOT_DEPTH} deep)`;

/** The SNAPSHOT_INVALID error. */
function invalid(message: string): DesktopError {
  return new DesktopError("SNAPSHOT_INVALID", `invalid snapshot: ${message}`, {
    suggestion: SNAPSHOT_SUGGESTION,
  });
}

/** A place for a message: a very deep one keeps its start and its end. */
function place(at: string): string {
  return at.length <= 160 ? at : `${at.slice(0, 48)}...${at.slice(-96)}`;
}

/** Type name for messages. */
function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Type name for messages, with an array's length. */
function shapeOf(v: unknown): string {
  return Array.isArray(v) ? `an array of ${v.length}` : typeName(v);
}

/** Whether a value is a plain object. */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Reads an optional string key. */
function optString(o: Record<string, unknown>, k: string, at: string): string | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== "string") {
    throw invalid(`${place(at)}.${k} must be a string, got ${typeName(v)}`);
  }
  return v;
}

/** Reads an optional finite number key. */
function optNumber(o: Record<string, unknown>, k: string, at: string): number | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw invalid(`${place(at)}.${k} must be a number, got ${typeName(v)}`);
  }
  return v;
}

/** Reads an optional boolean key. */
function optBool(o: Record<string, unknown>, k: string, at: string): boolean | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") {
    throw invalid(`${place(at)}.${k} must be true or false, got ${typeName(v)}`);
  }
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
    throw invalid(`${place(at)}.${k} must be [x, y, w, h] (4 numbers), got ${shapeOf(v)}`);
  }
  return [v[0], v[1], v[2], v[3]];
}

/** Reads a non-negative integer. */
function integer(v: unknown, at: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    const got = typeof v !== "number"
      ? typeName(v)
      : v < 0
      ? "a negative number"
      : "a number with a fraction";
    throw invalid(`${place(at)} must be a non-negative integer, got ${got}`);
  }
  return v;
}

/** Validates one element's own keys (not its children). */
function ownElement(o: unknown, at: string): Element {
  if (!isObject(o)) throw invalid(`${place(at)} must be an element object, got ${typeName(o)}`);
  if (o.r === undefined) throw invalid(`${place(at)}.r (role) is missing`);
  if (typeof o.r !== "string" || !isRole(o.r)) {
    const got = typeof o.r === "string" ? "a string that is not one" : typeName(o.r);
    throw invalid(`${place(at)}.r is not a role (${ROLES.join(", ")}): got ${got}`);
  }
  if (o.i === undefined) throw invalid(`${place(at)}.i (id) is missing`);
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
  if (optBool(o, "inv", at)) el.inv = true;
  if (optBool(o, "ro", at)) el.ro = true;
  if (optBool(o, "sec", at)) el.sec = true;
  set("exp", optBool(o, "exp", at));
  if (o.chk !== undefined) {
    if (typeof o.chk !== "boolean" && o.chk !== "mixed") {
      throw invalid(`${place(at)}.chk must be true, false or "mixed", got ${typeName(o.chk)}`);
    }
    el.chk = o.chk;
  }
  set("min", optNumber(o, "min", at));
  set("max", optNumber(o, "max", at));
  set("lv", optNumber(o, "lv", at));
  const v = optString(o, "v", at);
  if (v !== undefined && !el.sec) el.v = v;
  const vt = optString(o, "vt", at);
  if (vt !== undefined && !el.sec) el.vt = vt;
  if (o.sort === "ascending" || o.sort === "descending" || o.sort === "other") el.sort = o.sort;
  if (o.sel !== undefined && !el.sec) {
    const sel = o.sel;
    if (
      !Array.isArray(sel) || sel.length !== 2 ||
      !sel.every((n) => Number.isInteger(n) && n >= 0) || sel[0] > sel[1]
    ) {
      throw invalid(`${place(at)}.sel must be [start, end], two offsets, start first`);
    }
    el.sel = [sel[0], sel[1]];
  }
  if (o.a !== undefined) {
    if (!Array.isArray(o.a) || !o.a.every((x) => typeof x === "string")) {
      throw invalid(`${place(at)}.a must be a list of action names`);
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
      throw invalid(`${place(here)}.c must be a list of elements, got ${typeName(c)}`);
    }
    if (c.length > 0 && depth + 1 >= MAX_SNAPSHOT_DEPTH) {
      throw invalid(
        `${place(here)} holds elements nested deeper than ${MAX_SNAPSHOT_DEPTH} levels`,
      );
    }
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
  const depthOf = new Map<Element, number>();
  let root: Element | undefined;
  list.forEach((raw, k) => {
    const at = `elements[${k}]`;
    const el = ownElement(raw, at);
    if (byId.has(el.i)) throw invalid(`${at}.i is used twice (an earlier element has the same id)`);
    const pi = (raw as Record<string, unknown>).pi;
    if (pi === undefined) {
      if (k !== 0) {
        throw invalid(`${at} has no parent (pi); only the first element may be the root`);
      }
      root = el;
      depthOf.set(el, 0);
    } else {
      if (k === 0) throw invalid(`elements[0] is the root and must not have a parent (pi)`);
      const parent = byId.get(integer(pi, `${at}.pi`));
      if (!parent) throw invalid(`${at}.pi does not name an earlier element`);
      const depth = depthOf.get(parent)! + 1;
      if (depth >= MAX_SNAPSHOT_DEPTH) {
        throw invalid(`${at} is nested deeper than ${MAX_SNAPSHOT_DEPTH} levels`);
      }
      depthOf.set(el, depth);
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
 * import assert from "node:assert/strict";
 * import { parseSnapshot } from "./snapshot.ts";
 * const snap = parseSnapshot(JSON.stringify({
 *   format: "desktop-snapshot", version: 1, app: { name: "Demo", pid: 7 },
 *   root: { i: 1, r: "app", t: "Demo", c: [{ i: 2, r: "btn", t: "OK" }] },
 * }));
 * assert.equal(snap.app.name, "Demo");
 * assert.equal(snap.root.c?.[0].t, "OK");
 * ```
 */
export function parseSnapshot(text: string): Snapshot {
  if (text.trim() === "") throw invalid("the file is empty");
  const problem = checkJson(text, MAX_JSON_DEPTH);
  if (problem) throw invalid(describeJsonProblem(problem));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw invalid("not JSON");
  }
  if (!isObject(doc)) throw invalid(`expected a JSON object, got ${typeName(doc)}`);
  if (doc.format !== SNAPSHOT_FORMAT) {
    throw invalid(
      doc.format === undefined
        ? `no "format" key (expected "${SNAPSHOT_FORMAT}")`
        : typeof doc.format === "string"
        ? `format is not "${SNAPSHOT_FORMAT}" (the file is JSON, but not a desktop snapshot)`
        : `format must be "${SNAPSHOT_FORMAT}", got ${typeName(doc.format)}`,
    );
  }
  if (doc.version !== SNAPSHOT_VERSION) {
    const newer = typeof doc.version === "number" && doc.version > SNAPSHOT_VERSION;
    throw invalid(
      newer
        ? `version ${doc.version} is newer than this desktop reads (${SNAPSHOT_VERSION}); upgrade desktop`
        : `version is ${
          typeof doc.version === "number" ? doc.version : typeName(doc.version)
        }, expected ${SNAPSHOT_VERSION}`,
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
