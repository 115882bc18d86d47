/**
 * The `fill` verb: several fields at once.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { type FilledField, type FillField, readFieldsFile } from "../../fill/fill.ts";
import { SCOPE_PARAMS, type ScopeArgs, toScope } from "../params.ts";
import { elementLine } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, CLI_ONLY } from "./_shared.ts";

/** Arguments of `fill`. */
export interface FillArgs extends ScopeArgs {
  /** `REF=VALUE` (or `#ID=VALUE`), one per field. */
  field?: string[];
  /** CLI: a file (or `-`) of `REF=VALUE` lines, kept off the command line. */
  fields_file?: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `fill`. */
export interface FillResult {
  /** Every field was set. */
  ok: boolean;
  /** What each field holds now. */
  fields: FilledField[];
}

/**
 * Parses one `REF=VALUE` (`#12=VALUE` names an element by id).
 *
 * @param value the text
 * @returns the field
 * @throws DesktopError INVALID_ARGS without `=`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseField } from "./fill.ts";
 * assert.deepEqual(parseField("form/email=a=b"), { target: { ref: "form/email" }, value: "a=b" });
 * assert.deepEqual(parseField("#12=x"), { target: { id: 12 }, value: "x" });
 * ```
 */
export function parseField(value: string): FillField {
  const eq = value.indexOf("=");
  if (eq <= 0) {
    throw new DesktopError("INVALID_ARGS", `field takes REF=VALUE, got "${value}"`, {
      suggestion: "Pass e.g. form/email=ada@example.com (or #12=value for an id)",
    });
  }
  const name = value.slice(0, eq).trim();
  const target = /^#\d+$/.test(name) ? { id: Number(name.slice(1)) } : { ref: name };
  return { target, value: value.slice(eq + 1) };
}

/**
 * The lines fill prints: one per field with what it holds now.
 *
 * @param fields the report
 * @returns the text
 */
export function fillLines(fields: FilledField[]): string {
  const done = fields.filter((f) => f.ok).length;
  const lines = [
    `${done === fields.length ? "ok" : "failed"} fill ${done}/${fields.length} fields`,
  ];
  for (const f of fields) {
    const el = f.element;
    const now = !el
      ? ""
      : el.sec
      ? " (secret set)"
      : el.chk !== undefined
      ? ` ${el.chk === true ? "checked" : el.chk === false ? "unchecked" : "mixed"}`
      : ` = ${JSON.stringify(el.v ?? "")}`;
    const what = el ? elementLine(el) : f.field;
    lines.push(
      `  ${f.ok ? "ok" : "FAILED"} ${what}${now}${
        f.error ? `: ${f.error.code} ${f.error.message}` : ""
      }`,
    );
  }
  return lines.join("\n");
}

/** The `fill` operation. */
export const fill: Op<FillArgs, FillResult> = defineOp<FillArgs, FillResult>({
  name: "fill",
  doc: "Set many fields from one read (field: REF=VALUE each; all resolved first); reports " +
    "what each holds after.",
  examples: [
    "desktop fill --app Chromium --field form/email=ada@example.com --field form/subscribe=true",
  ],
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  params: [
    ...SCOPE_PARAMS,
    ...CLI_ONLY,
    { name: "field", type: "list", doc: "REF=VALUE (#12=VALUE for an id)" },
    {
      name: "fields_file",
      type: "string",
      face: "cli",
      doc: "more fields from this file (- for stdin), REF=VALUE per line, off the command line",
    },
    ACT_FORMAT,
  ],
  output: { type: "object", properties: { ok: { type: "boolean" }, fields: { type: "array" } } },
  async run(ctx, args) {
    const fromFile = args.fields_file !== undefined ? await readFieldsFile(args.fields_file) : [];
    const fields = [...(args.field ?? []), ...fromFile].map(parseField);
    const res = await (await ctx.desktop()).fill(toScope(args), fields);
    return { ok: res.every((f) => f.ok), fields: res };
  },
  render: (r, args) => args.format === "json" ? JSON.stringify(r) : fillLines(r.fields),
  failure(r) {
    const bad = r.fields.filter((f) => !f.ok);
    if (!bad.length) return undefined;
    return new DesktopError(
      (bad[0].error?.code ?? "ACTION_FAILED") as DesktopError["code"],
      `${bad.length} of ${r.fields.length} fields failed (first: ${bad[0].field})`,
      { suggestion: bad[0].error?.suggestion ?? "See the report" },
    );
  },
});
