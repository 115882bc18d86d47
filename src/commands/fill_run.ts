/**
 * `desktop fill` (many fields from one read) and `desktop run FILE` (a list
 * of steps, or `--dry-run` to resolve them all).
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DesktopError } from "../errors.ts";
import type { FilledField, FillField } from "../fill/fill.ts";
import { loadRunFile, type RunReport } from "../run/run.ts";
import {
  addActFormatOption,
  addScopeOptions,
  elementLine,
  runCommand,
  withDesktop,
} from "./_shared.ts";

/**
 * Parses one `--field REF=VALUE` (`#12=VALUE` names an element by id).
 *
 * @param value the option's text
 * @param prev the fields so far
 * @returns the fields with this one appended
 */
function fieldOption(value: string, prev: FillField[] = []): FillField[] {
  const eq = value.indexOf("=");
  if (eq <= 0) {
    throw new DesktopError("INVALID_ARGS", `--field takes REF=VALUE, got "${value}"`, {
      suggestion: "Pass e.g. --field form/email=ada@example.com (or #12=value for an id)",
    });
  }
  const name = value.slice(0, eq).trim();
  const target = /^#\d+$/.test(name) ? { id: Number(name.slice(1)) } : { ref: name };
  return [...prev, { target, value: value.slice(eq + 1) }];
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

/**
 * The `fill` command.
 *
 * @returns the commander command
 */
export function fillCommand(): CommandUnknownOpts {
  return addActFormatOption(addScopeOptions(
    new Command("fill").description(
      "Set many fields from one read (--field REF=VALUE, repeated); reports what each became",
    ),
  ))
    .option("--field <ref=value>", "a field and its new value (repeat for each field)", fieldOption)
    .addHelpText(
      "after",
      `
Examples:
  $ desktop fill --app Chromium --field form/email=ada@example.com --field form/age=36 --field form/subscribe=true`,
    )
    .action(runCommand(async (opts) => {
      await withDesktop(opts, async (desktop, scope) => {
        const fields = await desktop.fill(scope, opts.field ?? []);
        console.log(
          opts.format === "json"
            ? JSON.stringify({ ok: fields.every((f) => f.ok), fields })
            : fillLines(fields),
        );
        const bad = fields.filter((f) => !f.ok);
        if (bad.length) {
          throw new DesktopError(
            (bad[0].error?.code ?? "ACTION_FAILED") as DesktopError["code"],
            `${bad.length} of ${fields.length} fields failed (first: ${bad[0].field})`,
            { suggestion: bad[0].error?.suggestion ?? "See the report on stdout" },
          );
        }
      }, true);
    }));
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

/**
 * The `run` command.
 *
 * @returns the commander command
 */
export function runStepsCommand(): CommandUnknownOpts {
  return addActFormatOption(addScopeOptions(
    new Command("run")
      .description(
        "Run a JSON or YAML list of steps (any command, plus wait and expect) by refs; stops at " +
          "the first failing step with its number and code",
      )
      .argument("<file>", "the steps file (.json, or YAML)"),
  ))
    .option("--dry-run", "resolve every step's target against the UI now, without acting")
    .addHelpText(
      "after",
      `
A steps file (YAML):
  app: zenity
  steps:
    - fill: { fields: { forms-dialog/name: Ada, forms-dialog/city: London } }
    - click: forms-dialog/ok
    - wait: { gone: "Forms dialog" }

Examples:
  $ desktop run checkout.yaml --dry-run
  $ desktop run checkout.yaml --app Chromium`,
    )
    .action(runCommand(async (file: string, opts) => {
      const doc = await loadRunFile(file);
      await withDesktop(opts, async (desktop, scope) => {
        const report = await desktop.run(doc, { scope, ...(opts.dryRun ? { dryRun: true } : {}) });
        console.log(opts.format === "json" ? JSON.stringify(report) : runLines(report));
        const bad = report.steps.find((s) => !s.ok);
        if (bad) {
          throw new DesktopError(
            (bad.error?.code ?? "ACTION_FAILED") as DesktopError["code"],
            `step ${bad.step} (${bad.verb}) failed: ${bad.error?.message ?? ""}`,
            { suggestion: bad.error?.suggestion, details: { step: bad.step, verb: bad.verb } },
          );
        }
      });
    }));
}
