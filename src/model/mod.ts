/**
 * The element model: types, the role vocabulary, tree helpers and filters.
 * Pure: needs no permission.
 *
 * @module
 */

export * from "./element.ts";
export * from "./roles.ts";
export * from "./tree.ts";
export * from "./filter.ts";
export * from "./semantics.ts";
