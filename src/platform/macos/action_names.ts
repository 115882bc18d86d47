/**
 * AX action names and the friendly names agents see and type: `AXPress` is
 * `press`, `AXShowMenu` is `show-menu`; custom actions (`Name:Delete\n...`)
 * are shown by their name. Pure.
 *
 * @module
 */

/**
 * The friendly name of an AX action.
 *
 * @param ax e.g. `AXShowMenu`
 * @returns e.g. `show-menu`
 * @example
 * ```ts
 * import { friendlyAction } from "./action_names.ts";
 * console.log(friendlyAction("AXScrollToVisible")); // "scroll-to-visible"
 * ```
 */
export function friendlyAction(ax: string): string {
  const custom = /^Name:(.*?)(\n|$)/.exec(ax);
  if (custom) return custom[1];
  const bare = ax.startsWith("AX") ? ax.slice(2) : ax;
  return bare.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/([A-Z])([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}

/**
 * Finds the AX action a user-given name means among the element's actions:
 * the raw name, its friendly form, or `AX` + the name, case-insensitively.
 *
 * @param name what the user typed (`press`, `AXPress`, `show-menu`)
 * @param available the element's AX action names
 * @returns the AX action name, or undefined
 */
export function matchAction(name: string, available: readonly string[]): string | undefined {
  const q = name.trim().toLowerCase();
  return available.find((a) => a.toLowerCase() === q) ??
    available.find((a) => friendlyAction(a).toLowerCase() === q) ??
    available.find((a) => a.toLowerCase() === `ax${q.replaceAll("-", "")}`);
}
