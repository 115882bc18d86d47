/**
 * `run`: carry out a list of steps (any operation, plus wait and expect) by
 * refs, stopping at the first step that fails with its number and error code;
 * or, with `dryRun`, resolve every step's target against the UI as it is now
 * without acting.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS, type Desktop, type Target } from "../desktop_types.ts";
import { DesktopError, toDesktopError } from "../errors.ts";
import type { Element } from "../model/element.ts";
import type { Action, MouseButton, ScrollDirection, WindowOp } from "../platform/provider.ts";
import { fillFields } from "../fill/fill.ts";
import { parseInputJson, readInputText } from "../io/bounded_read.ts";
import { saveScreenshot } from "../screenshot/screenshot.ts";
import { parseSteps, secureValueUnchecked, type Step } from "./steps.ts";
import type { RunOptions, RunReport, StepReport } from "./types.ts";
export type { RunOptions, RunReport, StepReport };

function summary(el: Element): StepReport["element"] {
  return {
    ...(el.i ? { i: el.i } : {}),
    ...(el.ref !== undefined ? { ref: el.ref } : {}),
    r: el.r,
    ...(el.t !== undefined ? { t: el.t } : {}),
  };
}

function num(v: unknown, what: string): number {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new DesktopError("INVALID_ARGS", `${what} must be a number`);
  return n;
}

function pair(v: unknown, what: string): [number, number] {
  if (Array.isArray(v) && v.length === 2) return [num(v[0], what), num(v[1], what)];
  if (typeof v === "string") {
    const m = /^\s*(-?\d+)\s*[,x]\s*(-?\d+)\s*$/.exec(v);
    if (m) return [Number(m[1]), Number(m[2])];
  }
  throw new DesktopError("INVALID_ARGS", `${what} takes two numbers, like [100, 200]`);
}

/** The action of an act verb. */
function actionOf(s: Step): Action {
  const a = s.args;
  switch (s.verb) {
    case "click":
      return {
        kind: "click",
        ...(a.button ? { button: String(a.button) as MouseButton } : {}),
        ...(a.count ? { count: num(a.count, "count") } : {}),
      };
    case "type":
      return {
        kind: "type",
        text: String(a.text),
        ...(a.replace === true ? { replace: true } : {}),
      };
    case "key":
      return {
        kind: "key",
        combo: String(a.combo),
        ...(a.repeat ? { repeat: num(a.repeat, "repeat") } : {}),
      };
    case "action":
      return { kind: "action", name: String(a.name) };
    case "set-value":
      return { kind: "set-value", value: String(a.value) };
    case "scroll":
      return {
        kind: "scroll",
        ...(a.direction
          ? {
            direction: String(a.direction) as ScrollDirection,
            amount: num(a.amount ?? 3, "amount"),
          }
          : {}),
      };
    case "focus":
      return { kind: "focus" };
    case "drag": {
      const [x, y] = pair(a.to, "to");
      return { kind: "drag", to: { x, y } };
    }
    default:
      throw new DesktopError("INTERNAL", `${s.verb} is not an action`);
  }
}

const ACT_VERBS = new Set([
  "click",
  "type",
  "key",
  "action",
  "set-value",
  "scroll",
  "focus",
  "drag",
]);

/** The fields of a fill step as targets and values. */
function fillOf(s: Step): Array<{ target: Target; value: string }> {
  return Object.entries(s.args.fields as Record<string, unknown>).map(([ref, value]) => ({
    target: /^#\d+$/.test(ref) ? { id: Number(ref.slice(1)) } : { ref },
    value: String(value),
  }));
}

/** Checks an expect step against a fresh read. */
async function expect(desktop: Desktop, s: Step): Promise<StepReport> {
  const a = s.args;
  if (a.clipboard !== undefined) {
    const text = await desktop.clipboardGet();
    if (text !== String(a.clipboard)) {
      throw new DesktopError("EXPECT_FAILED", `the clipboard holds ${JSON.stringify(text)}`, {
        suggestion: "Check the step that should have copied",
        details: { expected: String(a.clipboard), actual: text },
      });
    }
    return { step: s.index, verb: s.verb, ok: true, detail: "clipboard matches" };
  }
  let el: Element | undefined;
  try {
    el = await desktop.resolve(s.scope, s.target!);
  } catch (e) {
    const err = toDesktopError(e);
    if (a.exists === false && err.code === "ELEMENT_NOT_FOUND") {
      return { step: s.index, verb: s.verb, ok: true, detail: "absent, as expected" };
    }
    throw err;
  }
  const fail = (what: string, expected: unknown, actual: unknown) =>
    new DesktopError("EXPECT_FAILED", `${el!.ref ?? el!.r}: ${what} is ${JSON.stringify(actual)}`, {
      suggestion: "The UI is not in the expected state; read it to see why",
      details: { expected, actual, element: summary(el!) },
    });
  if (a.exists === false) throw fail("presence", "absent", "present");
  if (a.value !== undefined && el.sec) throw secureValueUnchecked(s.index, el.ref ?? el.r);
  if (a.value !== undefined && (el.v ?? "") !== String(a.value)) {
    throw fail("the value", String(a.value), el.v ?? "");
  }
  if (a.label !== undefined && !(el.t ?? "").includes(String(a.label))) {
    throw fail("the label", String(a.label), el.t ?? "");
  }
  if (a.checked !== undefined && (el.chk ?? false) !== a.checked) {
    throw fail("checked", a.checked, el.chk ?? false);
  }
  if (a.focused !== undefined && !!el.f !== a.focused) throw fail("focused", a.focused, !!el.f);
  if (a.enabled !== undefined && (el.e !== false) !== a.enabled) {
    throw fail("enabled", a.enabled, el.e !== false);
  }
  return { step: s.index, verb: s.verb, ok: true, element: summary(el), detail: "as expected" };
}

/** Carries out one step. */
async function runStep(desktop: Desktop, s: Step): Promise<StepReport> {
  const base = { step: s.index, verb: s.verb, ok: true };
  const a = s.args;
  if (ACT_VERBS.has(s.verb)) {
    // A step's report lists no changes: they give no ref a new meaning.
    const res = await desktop.act(s.scope, s.target ?? {}, actionOf(s), { changesShown: false });
    return {
      ...base,
      ...(res.element ? { element: summary(res.element) } : {}),
      detail: `via ${res.via}${res.detail ? ` (${res.detail})` : ""}`,
    };
  }
  switch (s.verb) {
    case "fill": {
      const filled = await fillFields(desktop, s.scope, fillOf(s));
      const bad = filled.find((f) => !f.ok);
      if (bad) {
        throw new DesktopError(
          (bad.error?.code ?? "ACTION_FAILED") as DesktopError["code"],
          `field ${bad.field}: ${bad.error?.message ?? "failed"}`,
          { suggestion: bad.error?.suggestion, details: { fields: filled } },
        );
      }
      return { ...base, detail: `${filled.length} fields set` };
    }
    case "wait": {
      const el = await desktop.wait(s.scope, {
        ...(a.text !== undefined ? { text: String(a.text) } : {}),
        ...(a.gone !== undefined ? { gone: String(a.gone) } : {}),
        ...(a.ref !== undefined ? { ref: String(a.ref) } : {}),
      }, a.timeout !== undefined ? num(a.timeout, "timeout") : DEFAULT_TIMEOUT_MS);
      return { ...base, ...(el ? { element: summary(el) } : {}) };
    }
    case "expect":
      return await expect(desktop, s);
    case "screenshot": {
      const shot = await desktop.screenshot(s.scope, {
        ...(s.target ? { target: s.target } : {}),
        ...(a.scale !== undefined ? { scale: num(a.scale, "scale") } : {}),
        ...(a.marks ? { marks: true } : {}),
      });
      const out = a.out !== undefined
        ? String(a.out)
        : await Deno.makeTempFile({ prefix: "desktop-screenshot-", suffix: ".png" });
      await saveScreenshot(out, shot.png);
      return { ...base, detail: `${out} ${shot.width}x${shot.height}` };
    }
    case "launch": {
      const res = await desktop.launch(String(a.app), {
        ...(a.timeout !== undefined ? { timeoutMs: num(a.timeout, "timeout") } : {}),
      });
      return { ...base, detail: `${res.app.name} pid=${res.app.pid}` };
    }
    case "quit": {
      const res = await desktop.quit(s.scope, a.force ? { force: true } : {});
      return { ...base, detail: `${res.app.name} via ${res.via}` };
    }
    case "window": {
      const ops: WindowOp[] = [];
      for (const k of ["restore", "maximize", "minimize", "raise", "close"] as const) {
        if (a[k]) ops.push({ kind: k });
      }
      if (a.move !== undefined) {
        const [x, y] = pair(a.move, "move");
        ops.push({ kind: "move", x, y });
      }
      if (a.resize !== undefined) {
        const [w, h] = pair(a.resize, "resize");
        ops.push({ kind: "resize", w, h });
      }
      const res = await desktop.window(s.scope, ops);
      return { ...base, detail: res.state.b ? `(${res.state.b.join(",")})` : undefined };
    }
    case "clipboard-set":
      await desktop.clipboardSet(String(a.text));
      return { ...base };
    default:
      throw new DesktopError("INTERNAL", `no runner for ${s.verb}`);
  }
}

/** A dry run: every target resolved against one read per scope, nothing acted on. */
async function dryRun(desktop: Desktop, steps: Step[]): Promise<RunReport> {
  const reports: StepReport[] = steps.map((s) => ({
    step: s.index,
    verb: s.verb,
    ok: true,
    detail: "not checked: no target",
  }));
  const byScope = new Map<string, Array<{ s: Step; target: Target; at: number }>>();
  steps.forEach((s, at) => {
    const targets = s.verb === "fill"
      ? fillOf(s).map((f) => f.target)
      : s.target && !s.target.point && s.verb !== "wait"
      ? [s.target]
      : [];
    for (const target of targets) {
      const key = JSON.stringify(s.scope);
      byScope.set(key, [...(byScope.get(key) ?? []), { s, target, at }]);
    }
  });
  for (const [key, items] of byScope) {
    let results: Array<Element | DesktopError>;
    try {
      results = (await desktop.resolveMany(JSON.parse(key), items.map((x) => x.target))).results;
    } catch (e) {
      results = items.map(() => toDesktopError(e));
    }
    items.forEach(({ s, at }, n) => {
      const r = results[n];
      const rep = reports[at];
      if (r instanceof DesktopError) {
        // An expect that the element is absent is satisfied by its absence.
        if (s.verb === "expect" && s.args.exists === false && r.code === "ELEMENT_NOT_FOUND") {
          rep.detail = "absent now";
          return;
        }
        rep.ok = false;
        delete rep.detail;
        rep.error = {
          code: r.code,
          message: r.message,
          ...(r.suggestion ? { suggestion: r.suggestion } : {}),
        };
      } else if (rep.ok) {
        if (s.verb === "fill") rep.detail = "fields resolve";
        else {
          rep.element = summary(r);
          delete rep.detail;
        }
      }
    });
  }
  return { ok: reports.every((r) => r.ok), dryRun: true, steps: reports };
}

/**
 * Runs steps in order, stopping at the first failure (reported with its
 * step number and error code); with `dryRun`, resolves every target instead.
 *
 * @param desktop the session
 * @param doc the parsed run file (a list of steps, or `{app?, steps}`)
 * @param opts dry run, default scope
 * @returns the report; `ok` false when a step failed
 * @throws DesktopError INVALID_ARGS for a malformed file (before any step runs)
 */
export async function runSteps(
  desktop: Desktop,
  doc: unknown,
  opts: RunOptions = {},
): Promise<RunReport> {
  const steps = parseSteps(doc, opts.scope ?? {});
  if (opts.dryRun) return await dryRun(desktop, steps);
  const reports: StepReport[] = [];
  for (const s of steps) {
    try {
      reports.push(await runStep(desktop, s));
    } catch (e) {
      const err = toDesktopError(e);
      reports.push({
        step: s.index,
        verb: s.verb,
        ok: false,
        error: {
          code: err.code,
          message: err.message,
          ...(err.suggestion ? { suggestion: err.suggestion } : {}),
        },
      });
      return { ok: false, dryRun: false, steps: reports };
    }
  }
  return { ok: true, dryRun: false, steps: reports };
}

/** The largest run file read: 4 MB (a run file is steps written by hand or by an agent). */
export const MAX_RUN_FILE_BYTES: number = 4 * 1024 * 1024;

/** The deepest nesting of lists and mappings in a run file. */
const MAX_RUN_FILE_DEPTH = 64;

/** Whether a parsed document nests deeper than `max` (walked without recursion). */
function nestsDeeper(doc: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[doc, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Reads a run file through the bounded reader (a regular file of at most
 * {@link MAX_RUN_FILE_BYTES}, read before the deadline): JSON (`.json`, or
 * text starting with `[` or `{`), else YAML. Errors name the place of a
 * syntax error (line, column), never the file's text.
 *
 * @param path the file
 * @param deadline when reading must be done, in ms since the epoch (default 10 s)
 * @returns the parsed document
 * @throws DesktopError INVALID_ARGS when it cannot be read, is not a regular
 *   file, is too large, nests too deeply or cannot be parsed; TIMEOUT past the deadline
 */
export async function loadRunFile(path: string, deadline?: number): Promise<unknown> {
  const kind = {
    what: "run file",
    code: "INVALID_ARGS" as const,
    suggestion: "Pass a readable run file (JSON or YAML, at most " +
      `${MAX_RUN_FILE_BYTES / 1024 / 1024} MB): a list of steps like \`- click: form/submit\``,
    maxBytes: MAX_RUN_FILE_BYTES,
    maxDepth: MAX_RUN_FILE_DEPTH,
    ...(deadline !== undefined ? { deadline } : {}),
  };
  const text = await readInputText(path, kind);
  if (path.endsWith(".json") || /^\s*[[{]/.test(text)) return parseInputJson(text, path, kind);
  const { parse, YAMLError } = await import("yaml");
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    // The library's message shows the lines around the error: give only the place.
    const pos = e instanceof YAMLError ? e.linePos?.[0] : undefined;
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : "";
    const why = e instanceof YAMLError ? ` (${e.code})` : "";
    throw new DesktopError("INVALID_ARGS", `the run file ${path} is not valid YAML${where}${why}`, {
      suggestion: kind.suggestion,
    });
  }
  if (nestsDeeper(doc, MAX_RUN_FILE_DEPTH)) {
    throw new DesktopError(
      "INVALID_ARGS",
      `the run file ${path} nests deeper than ${MAX_RUN_FILE_DEPTH} levels`,
      { suggestion: kind.suggestion },
    );
  }
  return doc;
}
