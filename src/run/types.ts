/**
 * The types of a run's options and report, apart from the code so that the
 * session's interface names them without importing the feature.
 *
 * @module
 */

import type { ElementBrief } from "../model/element.ts";
import type { Scope } from "../platform/provider.ts";

/** What one step did. */
export interface StepReport {
  /** 1-based step number. */
  step: number;
  /** The verb. */
  verb: string;
  /** Whether it succeeded (dry run: whether its target resolved). */
  ok: boolean;
  /** The element it acted on or resolved to. */
  element?: ElementBrief;
  /** A short note: what it did, or why it was not checked. */
  detail?: string;
  /** The failure. */
  error?: { code: string; message: string; suggestion?: string };
}

/** The result of a run. */
export interface RunReport {
  /** True when every step succeeded. */
  ok: boolean;
  /** Whether nothing was acted on. */
  dryRun: boolean;
  /** One report per step run (a run stops after the first failure). */
  steps: StepReport[];
}

/** Options of {@link runSteps}. */
export interface RunOptions {
  /** Resolve every target without acting. */
  dryRun?: boolean;
  /** Scope for steps that name none (CLI `--app`). */
  scope?: Scope;
}
