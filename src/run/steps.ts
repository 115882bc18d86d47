/**
 * The step language of `run` files: a list of one-verb objects, checked
 * whole before anything runs. Pure: parsing and validation only.
 *
 * ```yaml
 * app: zenity                 # default scope (optional; a bare list works too)
 * steps:
 *   - click: form/submit      # a string is the target's ref
 *   - type: { ref: form/email, text: ada@example.com }
 *   - set-value: { ref: form/age, value: "42" }
 *   - key: ctrl+s
 *   - fill: { fields: { form/name: Ada, form/city: London } }
 *   - wait: { text: Saved, timeout: 5000 }
 *   - expect: { ref: form/email, value: ada@example.com }
 *   - screenshot: { out: after.png, marks: true }
 * ```
 *
 * @module
 */

import type { Target } from "../desktop_types.ts";
import { DesktopError } from "../errors.ts";
import { targetsNamed } from "../identity/resolve.ts";
import type { Role } from "../model/element.ts";
import { parseRoles } from "../model/roles.ts";
import type { Scope } from "../platform/provider.ts";

/** Verbs a step may use. */
export const STEP_VERBS = [
  "click",
  "type",
  "key",
  "action",
  "set-value",
  "scroll",
  "focus",
  "drag",
  "fill",
  "wait",
  "expect",
  "screenshot",
  "launch",
  "quit",
  "window",
  "clipboard-set",
] as const;

/** One verb. */
export type StepVerb = typeof STEP_VERBS[number];

/** A checked step. */
export interface Step {
  /** 1-based position in the file. */
  index: number;
  /** What to do. */
  verb: StepVerb;
  /** The step's scope (the file's default, overridden by the step's own app/pid/window). */
  scope: Scope;
  /** The element, for verbs that take one. */
  target?: Target;
  /** The verb's other arguments, as written. */
  args: Record<string, unknown>;
}

/** Verbs whose target is required. */
const NEEDS_TARGET: ReadonlySet<StepVerb> = new Set<StepVerb>([
  "click",
  "action",
  "set-value",
  "scroll",
  "focus",
  "drag",
  "expect",
]);

/** Verbs whose string shorthand is a ref. */
const STRING_IS_REF: ReadonlySet<StepVerb> = new Set<StepVerb>([
  "click",
  "focus",
  "scroll",
  "expect",
]);

/** What a string shorthand means for the other verbs. */
const STRING_ARG: Partial<Record<StepVerb, string>> = {
  type: "text",
  key: "combo",
  launch: "app",
  "clipboard-set": "text",
  wait: "text",
};

const ALIASES: Record<string, StepVerb> = {
  set_value: "set-value",
  clipboard_set: "clipboard-set",
};

function bad(index: number, message: string, suggestion: string): DesktopError {
  return new DesktopError("INVALID_ARGS", `step ${index}: ${message}`, {
    suggestion,
    details: { step: index },
  });
}

function scopeOf(o: Record<string, unknown>, base: Scope, index: number): Scope {
  const s: Scope = { ...base };
  const str = (k: string) => {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== "string") throw bad(index, `${k} must be a string`, `Write ${k}: "..."`);
    return v;
  };
  const num = (k: string) => {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v)) {
      throw bad(index, `${k} must be an integer`, `Write ${k}: 123`);
    }
    return v;
  };
  const app = str("app"), window = str("window"), pid = num("pid"), windowId = num("window_id");
  if (app !== undefined || pid !== undefined) {
    delete s.app;
    delete s.pid;
    delete s.window;
    delete s.windowId;
  }
  if (app !== undefined) s.app = app;
  if (pid !== undefined) s.pid = pid;
  if (window !== undefined) s.window = window;
  if (windowId !== undefined) s.windowId = windowId;
  return s;
}

function targetOf(o: Record<string, unknown>, index: number): Target | undefined {
  const t: Target = {};
  if (o.ref !== undefined) t.ref = String(o.ref);
  if (o.id !== undefined) {
    if (typeof o.id !== "number") throw bad(index, "id must be a number", "Write id: 12");
    t.id = o.id;
  }
  if (o.target !== undefined) t.text = String(o.target);
  if (o.roles !== undefined) t.roles = parseRoles(String(o.roles)) as ReadonlySet<Role>;
  if (o.exact === true) t.exact = true;
  if (o.x !== undefined || o.y !== undefined) {
    if (typeof o.x !== "number" || typeof o.y !== "number") {
      throw bad(index, "x and y go together, as numbers", "Write x: 100, y: 200");
    }
    t.point = { x: o.x, y: o.y };
  }
  const named = targetsNamed(t);
  if (named > 1) {
    throw bad(index, "give one of ref, id, target (text) or x/y", "Name the element one way");
  }
  return named ? t : undefined;
}

/**
 * Checks a parsed run file and turns it into steps.
 *
 * @param doc the parsed JSON or YAML: a list of steps, or `{app?, pid?, window?, steps}`
 * @param base the scope given outside the file (CLI `--app`), the file's own comes first
 * @returns the steps
 * @throws DesktopError INVALID_ARGS naming the first bad step
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSteps } from "./steps.ts";
 * const steps = parseSteps({ app: "zenity", steps: [{ click: "form/ok" }, { key: "Return" }] });
 * assert.deepEqual(steps.map((s) => [s.verb, s.target?.ref, s.scope.app]), [
 *   ["click", "form/ok", "zenity"],
 *   ["key", undefined, "zenity"],
 * ]);
 * ```
 */
export function parseSteps(doc: unknown, base: Scope = {}): Step[] {
  let list: unknown = doc;
  let scope = base;
  if (doc && typeof doc === "object" && !Array.isArray(doc)) {
    const o = doc as Record<string, unknown>;
    scope = scopeOf(o, base, 0);
    list = o.steps;
  }
  if (!Array.isArray(list)) {
    throw new DesktopError("INVALID_ARGS", "a run file is a list of steps (or {steps: [...]})", {
      suggestion: 'Write e.g. `- click: form/submit` lines (YAML) or [{"click": "form/submit"}]',
    });
  }
  if (list.length === 0) {
    throw new DesktopError("INVALID_ARGS", "the run file has no steps", {
      suggestion: "Add at least one step",
    });
  }
  return list.map((raw, n) => {
    const index = n + 1;
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
      throw bad(index, "a step is an object with one verb", "Write e.g. `- click: form/submit`");
    }
    const o = raw as Record<string, unknown>;
    const verbs = Object.keys(o).filter((k) =>
      (STEP_VERBS as readonly string[]).includes(k) || k in ALIASES
    );
    if (verbs.length !== 1) {
      throw bad(
        index,
        verbs.length ? `several verbs (${verbs.join(", ")})` : `no verb in ${JSON.stringify(o)}`,
        `Use one of ${STEP_VERBS.join(", ")}`,
      );
    }
    const verb = ALIASES[verbs[0]] ?? verbs[0] as StepVerb;
    const value = o[verbs[0]];
    let args: Record<string, unknown>;
    if (typeof value === "string" || typeof value === "number") {
      if (STRING_IS_REF.has(verb)) args = { ref: String(value) };
      else if (STRING_ARG[verb]) args = { [STRING_ARG[verb]!]: String(value) };
      else throw bad(index, `${verb} takes an object`, `Write ${verb}: { ... }`);
    } else if (value === null || value === true) {
      args = {};
    } else if (typeof value === "object" && !Array.isArray(value)) {
      args = { ...(value as Record<string, unknown>) };
    } else {
      throw bad(index, `${verb} takes an object`, `Write ${verb}: { ... }`);
    }
    // Scope keys may sit beside the verb or inside its arguments.
    const stepScope = scopeOf(args, scopeOf(o, scope, index), index);
    const target = targetOf(args, index);
    if (NEEDS_TARGET.has(verb) && !target && !(verb === "expect" && args.clipboard !== undefined)) {
      throw bad(index, `${verb} needs a target`, "Add ref: ... (or id, target, x/y)");
    }
    const need = (k: string, what: string) => {
      if (args[k] === undefined) throw bad(index, `${verb} needs ${k}`, `Add ${k}: ${what}`);
    };
    if (verb === "type" || verb === "clipboard-set") need("text", '"..."');
    if (verb === "key") need("combo", "ctrl+s");
    if (verb === "action") need("name", "press");
    if (verb === "set-value") need("value", '"..."');
    if (verb === "launch") need("app", "mousepad");
    if (verb === "drag") need("to", "[x, y]");
    if (verb === "fill") {
      const f = args.fields;
      if (!f || typeof f !== "object" || Array.isArray(f) || !Object.keys(f).length) {
        throw bad(
          index,
          "fill needs fields: { ref: value, ... }",
          "Add fields: { form/name: Ada }",
        );
      }
    }
    if (verb === "wait") {
      const given = ["text", "gone", "ref"].filter((k) => args[k] !== undefined);
      if (given.length !== 1) {
        throw bad(index, "wait takes one of text, gone, ref", 'Write wait: { text: "Saved" }');
      }
    }
    return { index, verb, scope: stepScope, ...(target ? { target } : {}), args };
  });
}

/**
 * The refusal of an expect step that checks the value of a secure (password)
 * field: its value is never read, so no value can be checked against it, and
 * passing would claim a check that was not made.
 *
 * @param index the step's number
 * @param field the field's ref (or role)
 * @returns the ACTION_NOT_SUPPORTED error
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { secureValueUnchecked } from "./steps.ts";
 * assert.equal(secureValueUnchecked(3, "form/password").code, "ACTION_NOT_SUPPORTED");
 * ```
 */
export function secureValueUnchecked(index: number, field: string): DesktopError {
  return new DesktopError(
    "ACTION_NOT_SUPPORTED",
    `step ${index}: ${field} is a secure field; its value is never read, so it cannot be checked`,
    {
      suggestion: "Check what the value leads to instead (the next screen, an error message), " +
        "or expect only that the field exists",
      details: { step: index },
    },
  );
}

/**
 * A copy of a run document with the `out` of each screenshot step replaced,
 * in order: the MCP server uses it to keep what steps write inside its
 * output folder. Steps are found as {@link parseSteps} finds them; anything
 * else is left as it is (parseSteps reports it).
 *
 * @param doc the parsed run document (a list of steps, or `{steps: [...]}`)
 * @param fn the new path, given the step's own (undefined when it names none)
 * @returns the new document (`doc` itself when it holds no screenshot step)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mapScreenshotOutputs } from "./steps.ts";
 * const doc = [{ click: "ok" }, { screenshot: { out: "a.png" } }, { screenshot: null }];
 * const seen: Array<string | undefined> = [];
 * const out = mapScreenshotOutputs(doc, (o) => (seen.push(o), `/out/${seen.length}.png`));
 * assert.deepEqual(seen, ["a.png", undefined]);
 * assert.deepEqual(out, [
 *   { click: "ok" },
 *   { screenshot: { out: "/out/1.png" } },
 *   { screenshot: { out: "/out/2.png" } },
 * ]);
 * ```
 */
export function mapScreenshotOutputs(
  doc: unknown,
  fn: (out: string | undefined) => string,
): unknown {
  const wrapped = doc && typeof doc === "object" && !Array.isArray(doc);
  const list = wrapped ? (doc as Record<string, unknown>).steps : doc;
  if (!Array.isArray(list)) return doc;
  let changed = false;
  const steps = list.map((raw) => {
    if (!raw || typeof raw !== "object" || Array.isArray(raw) || !("screenshot" in raw)) {
      return raw;
    }
    const value = (raw as Record<string, unknown>).screenshot;
    if (value !== null && value !== true && (typeof value !== "object" || Array.isArray(value))) {
      return raw;
    }
    const args = value === null || value === true ? {} : value as Record<string, unknown>;
    const own = args.out === undefined ? undefined : String(args.out);
    changed = true;
    return { ...raw, screenshot: { ...args, out: fn(own) } };
  });
  if (!changed) return doc;
  return wrapped ? { ...(doc as Record<string, unknown>), steps } : steps;
}
