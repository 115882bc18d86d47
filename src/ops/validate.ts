/**
 * Checks an operation's arguments against its parameter table, the same way
 * for every face: unknown names, wrong types, out-of-range numbers, values
 * outside an enum and missing required parameters are INVALID_ARGS, and
 * defaults are filled in. A face converts its own syntax first (the CLI's
 * strings to numbers), then calls {@link validateArgs}.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Args, Face, Op, ParamSpec } from "./types.ts";

/**
 * How a parameter is spelt on a face: `--scope-ref` on the CLI, `scope_ref` in MCP.
 *
 * @param name the parameter's snake_case name
 * @param face the face
 * @returns the spelling
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spelling } from "./validate.ts";
 * assert.equal(spelling("scope_ref", "cli"), "--scope-ref");
 * assert.equal(spelling("scope_ref", "mcp"), "scope_ref");
 * ```
 */
export function spelling(name: string, face: Face): string {
  // The library's arguments are spelt as in MCP.
  return face === "cli" ? `--${name.replaceAll("_", "-")}` : name;
}

/**
 * The parameters an operation has on a face.
 *
 * @param op the operation
 * @param face the face
 * @returns its parameters there
 */
export function paramsOn(op: Op<never, unknown>, face: Face): ParamSpec[] {
  return op.params.filter((p) => p.face === undefined || p.face === face);
}

/**
 * A parameter's default on a face.
 *
 * @param p the parameter
 * @param face the face
 * @returns the default, or undefined
 */
export function defaultOn(p: ParamSpec, face: Face): string | number | boolean | undefined {
  return (face === "lib" ? undefined : p.faceDefault?.[face]) ?? p.default;
}

/**
 * Converts a CLI string to a parameter's type.
 *
 * @param p the parameter
 * @param raw the string given
 * @returns the typed value
 * @throws DesktopError INVALID_ARGS when it is not of the type
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCliValue } from "./validate.ts";
 * assert.equal(parseCliValue({ name: "depth", type: "int", doc: "" }, "3"), 3);
 * assert.throws(() => parseCliValue({ name: "depth", type: "int", doc: "" }, "x"));
 * ```
 */
export function parseCliValue(p: ParamSpec, raw: string): unknown {
  const s = raw.trim();
  if (p.type === "int") {
    const n = Number(s);
    if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(n)) throw typeError(p, raw, "cli");
    return n;
  }
  if (p.type === "number") {
    const n = Number(s);
    if (s === "" || !Number.isFinite(n)) throw typeError(p, raw, "cli");
    return n;
  }
  if (p.type === "json") {
    try {
      return JSON.parse(raw);
    } catch {
      throw typeError(p, raw, "cli");
    }
  }
  return raw;
}

function typeError(p: ParamSpec, value: unknown, face: Face): DesktopError {
  const want = p.type === "int"
    ? "an integer"
    : p.type === "number"
    ? "a number"
    : p.type === "boolean"
    ? "true or false"
    : p.type === "enum"
    ? `one of ${p.choices!.join(", ")}`
    : p.type === "list"
    ? "a list of strings"
    : p.type === "json"
    ? "JSON"
    : "a string";
  const flag = spelling(p.name, face);
  const shown = typeof value === "string" ? `"${value}"` : JSON.stringify(value);
  return new DesktopError("INVALID_ARGS", `${flag} takes ${want}, got ${shown}`, {
    suggestion: p.type === "enum"
      ? `Pass e.g. ${flag} ${p.choices![0]}`
      : `Pass ${want} as ${flag}: ${p.doc}`,
  });
}

function checkOne(p: ParamSpec, value: unknown, face: Face): unknown {
  const ok = p.type === "json"
    ? true
    : p.type === "list"
    ? Array.isArray(value) && value.every((v) => typeof v === "string")
    : p.type === "string"
    ? typeof value === "string"
    : p.type === "boolean"
    ? typeof value === "boolean"
    : p.type === "enum"
    ? typeof value === "string" && p.choices!.includes(value)
    : typeof value === "number" && Number.isFinite(value) &&
      (p.type === "number" || Number.isSafeInteger(value));
  if (!ok) throw typeError(p, value, face);
  if (typeof value === "number") {
    const flag = spelling(p.name, face);
    if (p.min !== undefined && value < p.min) {
      throw new DesktopError("INVALID_ARGS", `${flag} must be at least ${p.min}, got ${value}`, {
        suggestion: `Pass ${flag} ${p.min} or more`,
      });
    }
    if (p.max !== undefined && value > p.max) {
      throw new DesktopError("INVALID_ARGS", `${flag} must be at most ${p.max}, got ${value}`, {
        suggestion: `Pass ${flag} ${p.max} or less`,
      });
    }
  }
  return value;
}

/**
 * Checks arguments against an operation's parameters and fills in defaults.
 *
 * @param op the operation
 * @param raw the arguments as given (already typed; see {@link parseCliValue})
 * @param face which face they came from (for the spelling in messages, and face defaults)
 * @returns the arguments, with defaults
 * @throws DesktopError INVALID_ARGS for an unknown parameter, a wrong type or range,
 *   or a missing required one
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateArgs } from "./validate.ts";
 * const op = {
 *   name: "x", doc: "",
 *   hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
 *   params: [{ name: "depth", type: "int" as const, doc: "", min: 0, default: 2 }],
 *   run: () => Promise.resolve(null), render: () => "",
 * };
 * assert.deepEqual(validateArgs(op, {}, "mcp"), { depth: 2 });
 * assert.throws(() => validateArgs(op, { depth: -1 }, "mcp"), /at least 0/);
 * assert.throws(() => validateArgs(op, { deep: 1 }, "mcp"), /no parameter deep/);
 * ```
 */
export function validateArgs(op: Op<never, unknown>, raw: Args, face: Face): Args {
  const params = paramsOn(op, face);
  const byName = new Map(params.map((p) => [p.name, p]));
  for (const key of Object.keys(raw)) {
    if (raw[key] === undefined) continue;
    if (!byName.has(key)) {
      throw new DesktopError(
        "INVALID_ARGS",
        `${op.name} has no parameter ${spelling(key, face)}`,
        {
          suggestion: `Parameters of ${op.name}: ${params.map((p) => p.name).join(", ")}`,
          details: { reason: "unknown parameter" },
        },
      );
    }
  }
  const out: Args = {};
  for (const p of params) {
    const given = raw[p.name];
    if (given === undefined || given === null) {
      if (p.required) {
        const command = face === "cli" ? op.name.replaceAll("_", "-") : op.name;
        // On the CLI a positional value is an argument, e.g. `set-value --ref x 42`.
        const how = face === "cli" && p.positional
          ? `${p.name} as the command's argument${
            p.positional === "or-flag" ? ` (or ${spelling(p.name, face)})` : ""
          }`
          : spelling(p.name, face);
        throw new DesktopError("INVALID_ARGS", `${command} needs ${how}`, {
          suggestion: `Pass ${how}: ${p.doc}`,
        });
      }
      const d = defaultOn(p, face);
      if (d !== undefined) out[p.name] = d;
      continue;
    }
    out[p.name] = checkOne(p, given, face);
  }
  return out;
}
