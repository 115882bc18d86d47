/**
 * `fill`: set many fields of a form from one read, then report what each
 * field became (read back from the app, not assumed). Every target is
 * resolved before anything is set, so a typo in one ref leaves the form
 * untouched.
 *
 * @module
 */

import type { Desktop, Target } from "../desktop_types.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import type { Scope } from "../platform/provider.ts";
import { readTextArgument } from "../io/bounded_read.ts";
import type { FilledField, FillField } from "./types.ts";
export type { FilledField, FillField };

/** How long fields may take to show their new values before fill reports them as they are. */
const SETTLE_MS = 8000;

/**
 * Reads `fill --fields-file PATH` (or `-`, standard input): one `REF=VALUE`
 * per line, as `--field` takes them, so values (passwords) stay off the
 * command line where other users can see them. Blank lines are skipped; a
 * value runs to the end of its line.
 *
 * @param path the file, or `-`
 * @param deadline when reading must be done, in ms since the epoch (default 10 s)
 * @returns the lines, each `REF=VALUE`
 * @throws DesktopError INVALID_ARGS for a file that cannot be read (see
 *   readTextArgument) or a line without `REF=`, named by its number, never
 *   by its text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFieldsFile } from "./fill.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "form/email=ada@example.com\n\nform/password=s3=cret\n");
 * assert.deepEqual(await readFieldsFile(file), ["form/email=ada@example.com", "form/password=s3=cret"]);
 * await Deno.remove(file);
 * ```
 */
export async function readFieldsFile(path: string, deadline?: number): Promise<string[]> {
  const text = await readTextArgument(path, "--fields-file", deadline);
  const lines: string[] = [];
  text.split(/\r?\n/).forEach((line, k) => {
    if (line.trim() === "") return;
    if (line.indexOf("=") <= 0) {
      throw new DesktopError("INVALID_ARGS", `line ${k + 1} of --fields-file is not REF=VALUE`, {
        suggestion: "Write one field per line: form/email=ada@example.com (or #12=value)",
      });
    }
    lines.push(line);
  });
  return lines;
}

/** How a target is named in reports. */
export function fieldName(t: Target): string {
  if (t.ref !== undefined) return t.ref;
  if (t.id !== undefined) return `#${t.id}`;
  return t.text ?? "";
}

/**
 * Whether an element reads back as holding `value`.
 *
 * @param el the element after filling
 * @param value what was asked
 * @returns true when it matches (always for secret fields, whose value is never read)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holds } from "./fill.ts";
 * assert.equal(holds({ i: 1, r: "chk", chk: true }, "true"), true);
 * assert.equal(holds({ i: 1, r: "spin", v: "7.0" }, "7"), true);
 * assert.equal(holds({ i: 1, r: "input", v: "ab" }, "abc"), false);
 * ```
 */
export function holds(el: Element, value: string): boolean {
  if (el.sec) return true;
  if (el.chk !== undefined && /^(true|false)$/i.test(value)) {
    return el.chk === (value.toLowerCase() === "true");
  }
  const v = el.v ?? "";
  if (v === value) return true;
  const a = Number(v), b = Number(value);
  return v.trim() !== "" && value.trim() !== "" && Number.isFinite(a) && a === b;
}

function errorOf(err: DesktopError, prefix = ""): NonNullable<FilledField["error"]> {
  return {
    code: err.code,
    message: prefix + err.message,
    ...(err.suggestion ? { suggestion: err.suggestion } : {}),
  };
}

function brief(el: Element): Element {
  const { c: _c, nid: _nid, ...rest } = el;
  return rest;
}

/**
 * Fills fields: resolves every target from one read, then sets each value
 * and reads the field back until it holds it (before the next field takes
 * the focus), and reports what each field holds.
 *
 * @param desktop the session
 * @param scope the app
 * @param fields the fields, in order
 * @returns one entry per field; `ok` false for one that failed or reads back otherwise
 * @throws DesktopError INVALID_ARGS without fields; the resolution error of the first
 *   field that does not resolve (nothing is set then), with `details.field`
 */
export async function fillFields(
  desktop: Desktop,
  scope: Scope,
  fields: readonly FillField[],
): Promise<FilledField[]> {
  if (fields.length === 0) {
    throw new DesktopError("INVALID_ARGS", "no field to fill", {
      suggestion: "Pass --field REF=VALUE once per field",
    });
  }
  const targets = fields.map((f) => f.target);
  const { results } = await desktop.resolveMany(scope, targets);
  results.forEach((r, n) => {
    if (r instanceof DesktopError) {
      throw new DesktopError(r.code, `field ${fieldName(targets[n])}: ${r.message}`, {
        suggestion: `${r.suggestion ?? "Read the app again"}; nothing was filled`,
        candidates: r.candidates,
        details: { ...r.details, field: fieldName(targets[n]), index: n },
        cause: r,
      });
    }
  });
  const out: FilledField[] = [];
  for (const [n, el] of (results as Element[]).entries()) {
    const field = fieldName(targets[n]);
    const value = fields[n].value;
    let via: string;
    try {
      via = (await desktop.provider.act(scope, { element: el }, { kind: "set-value", value })).via;
    } catch (e) {
      const err = toDesktopError(e);
      out.push({ field, ok: false, element: brief(el), error: errorOf(err) });
      continue;
    }
    // Apps apply values asynchronously (typed text arrives after the call returns):
    // read the field back until it holds the value, or the settle time is up, before
    // the next field takes the focus.
    const until = Date.now() + SETTLE_MS;
    let now: Element | DesktopError;
    for (;;) {
      now = (await desktop.resolveMany(scope, [targets[n]])).results[0];
      if (!(now instanceof DesktopError) && holds(now, value)) break;
      if (Date.now() >= until) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (now instanceof DesktopError) {
      out.push({
        field,
        ok: false,
        via,
        element: brief(el),
        error: errorOf(now, "could not read the field back: "),
      });
    } else if (!holds(now, value)) {
      out.push({
        field,
        ok: false,
        via,
        element: brief({ ...now, i: el.i }),
        error: {
          code: "ACTION_FAILED",
          message: `the field holds ${JSON.stringify(now.v ?? now.chk ?? "")}, not ${
            JSON.stringify(value)
          }`,
          suggestion: "The app changed or refused the value; check the field's format or options",
        },
      });
    } else {
      out.push({ field, ok: true, via, element: brief({ ...now, i: el.i }) });
    }
  }
  return out;
}
