/**
 * Element identity: the ref syntax, target resolution, and the one decision
 * whether an element still is the one the agent saw (native id, ref, row,
 * landmark path, role, label). Pure.
 *
 * @module
 */

export * from "./syntax.ts";
export * from "./same.ts";
export * from "./resolve.ts";
