/**
 * `fill`: set many fields of a form from one read, then report what each
 * field became (read back from the app, not assumed). Every target is
 * resolved before anything is set, so a typo in one ref leaves the form
 * untouched.
 *
 * @module
 */

import type { Desktop, Target } from "../desktop.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import type { Scope } from "../platform/provider.ts";

/** One field to fill. */
export interface FillField {
  /** The element. */
  target: Target;
  /** Its new value: text, a number, `true`/`false` for check boxes, an option's label. */
  value: string;
}

/** How long fields may take to show their new values before fill reports them as they are. */
const SETTLE_MS = 3000;

/** What one field became. */
export interface FilledField {
  /** The field as it was named (its ref, `#id` or text). */
  field: string;
  /** True when the value was set and reads back as asked. */
  ok: boolean;
  /** The element (after filling), without children. */
  element?: Element;
  /** How it was set (`accessible` or `input`). */
  via?: string;
  /** Why it failed: the error's code and message. */
  error?: { code: string; message: string; suggestion?: string };
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

function brief(el: Element): Element {
  const { c: _c, nid: _nid, ...rest } = el;
  return rest;
}

/**
 * Fills fields: resolves every target from one read, sets each value, then
 * reads the app once more and reports what each field holds.
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
    try {
      const res = await desktop.provider.act(scope, { element: el }, {
        kind: "set-value",
        value: fields[n].value,
      });
      out.push({ field, ok: true, via: res.via });
    } catch (e) {
      const err = toDesktopError(e);
      out.push({
        field,
        ok: false,
        element: brief(el),
        error: {
          code: err.code,
          message: err.message,
          ...(err.suggestion ? { suggestion: err.suggestion } : {}),
        },
      });
    }
  }
  // Read back: refs do not depend on values, so the same targets find the fields.
  // Apps apply values asynchronously (Chromium's tree trails the page): read
  // until every field set holds its value, or the settle time is up.
  const settleUntil = Date.now() + SETTLE_MS;
  let after = await desktop.resolveMany(scope, targets);
  while (Date.now() < settleUntil) {
    const pending = after.results.some((r, n) =>
      out[n].ok && (r instanceof DesktopError || !holds(r, fields[n].value))
    );
    if (!pending) break;
    await new Promise((r) => setTimeout(r, 100));
    after = await desktop.resolveMany(scope, targets);
  }
  after.results.forEach((r, n) => {
    const entry = out[n];
    if (r instanceof DesktopError) {
      if (entry.ok) {
        entry.ok = false;
        entry.error = { code: r.code, message: `could not read the field back: ${r.message}` };
      }
      return;
    }
    entry.element = brief({ ...r, i: (results[n] as Element).i });
    if (entry.ok && !holds(r, fields[n].value)) {
      entry.ok = false;
      entry.error = {
        code: "ACTION_FAILED",
        message: `the field holds ${JSON.stringify(r.v ?? r.chk ?? "")}, not ${
          JSON.stringify(fields[n].value)
        }`,
        suggestion: "The app changed or refused the value; check the field's format or options",
      };
    }
  });
  return out;
}
