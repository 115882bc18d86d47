/**
 * Label relations: which control a label labels (AT-SPI LABEL_FOR). Chromium
 * and Firefox expose an HTML `<label>` this way, GTK a label with a mnemonic
 * widget; the pure core folds such a label into its control (one element, one
 * bare ref) instead of printing the same text twice.
 *
 * @module
 */

import type { AtspiRawNode } from "../raw.ts";
import type { AppCall } from "./atspi_bus.ts";

/** AtspiRelationType LABEL_FOR. */
export const RELATION_LABEL_FOR = 1;

/** AtspiRole LABEL: the only role whose relations are read for folding. */
const ROLE_LABEL = 29;

/**
 * Whether a node's LABEL_FOR relation is worth a call: only labels can label.
 *
 * @param node the node (role known)
 * @returns true for AT-SPI labels
 * @example
 * ```ts
 * import { wantsLabelFor } from "./relations.ts";
 * console.log(wantsLabelFor({ role: 29 }), wantsLabelFor({ role: 43 })); // true false
 * ```
 */
export function wantsLabelFor(node: Pick<AtspiRawNode, "role">): boolean {
  return node.role === ROLE_LABEL;
}

/**
 * Object paths of the controls a relation set names with LABEL_FOR, in the
 * same app only (a target on another bus cannot be in this tree).
 *
 * @param rels the `a(ua(so))` GetRelationSet reply
 * @param bus the node's own bus name
 * @returns the target paths, in order
 * @example
 * ```ts
 * import { labelForTargets } from "./relations.ts";
 * console.log(labelForTargets([[1, [[":1.2", "/a/7"]]], [2, [[":1.2", "/a/9"]]]], ":1.2"));
 * // ["/a/7"]
 * ```
 */
export function labelForTargets(
  rels: ReadonlyArray<readonly [number, ReadonlyArray<readonly [string, string]>]>,
  bus: string,
): string[] {
  const out: string[] = [];
  for (const [type, targets] of rels) {
    if (type !== RELATION_LABEL_FOR) continue;
    for (const [b, path] of targets) {
      if (b === bus && path !== "/org/a11y/atspi/null") out.push(path);
    }
  }
  return out;
}

/**
 * Reads a label's LABEL_FOR targets into `node.labelFor`.
 *
 * @param node the label node (bus and path known)
 * @param call the app call function
 */
export async function readLabelFor(node: AtspiRawNode, call: AppCall): Promise<void> {
  const [rels] = await call(node.path, "org.a11y.atspi.Accessible", "GetRelationSet");
  const targets = labelForTargets(
    rels as Array<[number, Array<[string, string]>]>,
    node.bus,
  );
  if (targets.length) node.labelFor = targets;
}
