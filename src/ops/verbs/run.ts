/**
 * The `run` verb: steps from a file.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { loadRunFile, type RunReport } from "../../run/run.ts";
import { SCOPE_PARAMS, type ScopeArgs, toScope } from "../params.ts";
import { elementLine } from "../render.ts";
import { defineOp, type Op } from "../types.ts";
import { ACT_FORMAT, CLI_ONLY } from "./_shared.ts";

/** Arguments of `run`. */
export interface RunArgs extends ScopeArgs {
  /** A JSON or YAML file of steps. */
  file?: string;
  /** The steps themselves. */
  steps?: unknown;
  /** Resolve every target, act on nothing. */
  dry_run?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/**
 * The lines run prints: one per step.
 *
 * @param report the run's report
 * @returns the text
 */
export function runLines(report: RunReport): string {
  const lines = report.steps.map((s) => {
    const el = s.element ? ` ${elementLine({ i: s.element.i ?? 0, ...s.element } as never)}` : "";
    const tail = s.error ? `: ${s.error.code} ${s.error.message}` : s.detail ? ` ${s.detail}` : "";
    return `${s.ok ? "ok" : "FAILED"} ${s.step} ${s.verb}${el}${tail}`;
  });
  const verdict = report.ok
    ? `${
      report.dryRun ? "dry run: every target resolves" : "ok: every step done"
    } (${report.steps.length} steps)`
    : `${
      report.dryRun ? "dry run: some targets do not resolve" : "stopped at the first failing step"
    }`;
  return [...lines, verdict].join("\n");
}

/** The `runOp` operation. */
export const runOp: Op<RunArgs, RunReport> = defineOp<RunArgs, RunReport>({
  name: "run",
  doc: "Run steps by refs (a file, or steps: [{click: REF}, {fill: {fields: {...}}}, {wait: " +
    '{text: "Saved"}}, {expect: {...}}]); stops at the first failing step. dry_run resolves only.',
  examples: ["desktop run checkout.yaml --dry-run", "desktop run checkout.yaml --app Chromium"],
  notes: `A steps file (YAML):
  app: zenity
  steps:
    - fill: { fields: { forms-dialog/name: Ada, forms-dialog/city: London } }
    - click: forms-dialog/ok
    - wait: { gone: "Forms dialog" }`,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  params: [
    { name: "file", type: "string", positional: true, doc: "the steps file (.json, or YAML)" },
    ...SCOPE_PARAMS,
    ...CLI_ONLY,
    { name: "steps", type: "json", doc: "the steps, instead of a file" },
    { name: "dry_run", type: "boolean", doc: "resolve every target, act on nothing" },
    ACT_FORMAT,
  ],
  output: { type: "object", properties: { ok: { type: "boolean" }, steps: { type: "array" } } },
  deadlineMs: () => 600_000,
  async run(ctx, args) {
    if ((args.steps === undefined) === (args.file === undefined)) {
      throw new DesktopError("INVALID_ARGS", "run takes a steps file or steps", {
        suggestion: "Pass the path of a steps file, or the steps inline",
      });
    }
    const doc = args.steps ?? await loadRunFile(args.file!);
    return await (await ctx.desktop()).run(doc, {
      scope: toScope(args),
      ...(args.dry_run ? { dryRun: true } : {}),
    });
  },
  render: (r, args) => args.format === "json" ? JSON.stringify(r) : runLines(r),
  data: (r) => r as unknown as Record<string, unknown>,
  failure(report) {
    const bad = report.steps.find((s) => !s.ok);
    if (!bad) return undefined;
    return new DesktopError(
      (bad.error?.code ?? "ACTION_FAILED") as DesktopError["code"],
      `step ${bad.step} (${bad.verb}) failed: ${bad.error?.message ?? ""}`,
      { suggestion: bad.error?.suggestion, details: { step: bad.step, verb: bad.verb } },
    );
  },
});
