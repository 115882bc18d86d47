/**
 * A small YAML writer for the documents `read --format yaml` prints: objects,
 * arrays, strings, numbers, booleans and null, nested (element trees). Arrays
 * of scalars (bounds `b`, actions `a`) are written in flow style on one line;
 * strings are plain where YAML reads them back as the same string, else
 * double-quoted with JSON escapes (valid YAML). No line folding. Written here
 * so that the CLI does not load a general YAML library on every start.
 *
 * @module
 */

/** A value the writer accepts: what JSON can carry. */
export type YamlValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | YamlValue[]
  | { [key: string]: YamlValue };

/** Words YAML 1.1 or 1.2 read as something other than a string. */
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
/** Strings that stay plain: a letter first, then letters, digits and a few marks. */
const PLAIN = /^[\p{L}_][\p{L}\p{N}_ ./()+\-]*$/u;

function scalar(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : JSON.stringify(String(v));
  if (typeof v === "boolean") return String(v);
  const plain = PLAIN.test(v) && !v.endsWith(" ") && !RESERVED.test(v);
  return plain ? v : JSON.stringify(v);
}

function isScalar(v: YamlValue): v is string | number | boolean | null | undefined {
  return v === null || typeof v !== "object";
}

function isMap(v: YamlValue): v is { [key: string]: YamlValue } {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A key as written: plain when safe, else quoted. */
function key(k: string): string {
  return scalar(k);
}

/** Lines of a value that sits in block position at `indent`. */
function block(v: YamlValue, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isMap(item) && Object.keys(item).length > 0) {
        // `- first: x` then the other keys under it, two spaces in.
        const lines: string[] = [];
        block(item, indent + "  ", lines);
        out.push(indent + "- " + lines[0].slice(indent.length + 2), ...lines.slice(1));
      } else {
        out.push(indent + "- " + inline(item, indent + "  "));
      }
    }
    return;
  }
  if (isMap(v)) {
    for (const [k, val] of Object.entries(v)) {
      if (val === undefined) continue;
      if (isMap(val) && Object.keys(val).length > 0) {
        out.push(`${indent}${key(k)}:`);
        block(val, indent + "  ", out);
      } else if (Array.isArray(val) && val.length > 0 && !val.every(isScalar)) {
        out.push(`${indent}${key(k)}:`);
        block(val, indent, out);
      } else {
        out.push(`${indent}${key(k)}: ${inline(val, indent + "  ")}`);
      }
    }
    return;
  }
  out.push(indent + scalar(v));
}

/** A value on the rest of a line: scalars, flow arrays of scalars, empty collections. */
function inline(v: YamlValue, indent: string): string {
  if (isScalar(v)) return scalar(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    if (v.every(isScalar)) return `[${v.map((x) => scalar(x)).join(", ")}]`;
  } else if (Object.keys(v).length === 0) return "{}";
  const lines: string[] = [];
  block(v, indent, lines);
  return "\n" + lines.join("\n");
}

/**
 * Writes a document as YAML.
 *
 * @param data the document (usually an object) made of JSON values; `undefined`
 *   members are left out, as JSON.stringify does
 * @returns the YAML text, ending with a newline
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toYaml } from "./yaml.ts";
 * assert.equal(
 *   toYaml({ root: { i: 1, ref: "form/email", b: [1, 2, 3, 4] } }),
 *   "root:\n  i: 1\n  ref: form/email\n  b: [1, 2, 3, 4]\n",
 * );
 * ```
 */
export function toYaml(data: unknown): string {
  const doc = data as YamlValue;
  const out: string[] = [];
  if (isScalar(doc) || (Array.isArray(doc) && doc.every(isScalar))) {
    out.push(inline(doc, ""));
  } else block(doc, "", out);
  return out.join("\n") + "\n";
}
