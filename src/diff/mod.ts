/**
 * Ref-keyed diff of element trees. Pure: needs no permission.
 *
 * @module
 */

export * from "./diff.ts";
