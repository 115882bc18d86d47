/**
 * The shape shared by the action commands: scope and target options, resolve,
 * act, print one line.
 *
 * @module
 */

import type { Action } from "../platform/provider.ts";
import type { Target } from "../desktop.ts";
import { type ActFormat, formatActResult, type ScopeOptionValues, withDesktop } from "./_shared.ts";

/**
 * Resolves the target, carries out the action and prints the result line.
 *
 * @param verb command name for the output line
 * @param opts parsed scope options and output format
 * @param target what to act on (empty: the focused element, for type and key)
 * @param action what to do
 */
export async function actAndPrint(
  verb: string,
  opts: Partial<ScopeOptionValues> & { format?: ActFormat; diff?: boolean },
  target: Target,
  action: Action,
): Promise<void> {
  await withDesktop(opts, async (desktop, scope) => {
    const result = await desktop.act(scope, target, action);
    console.log(formatActResult(verb, result, opts.format ?? "agent", opts.diff ?? false));
  });
}
