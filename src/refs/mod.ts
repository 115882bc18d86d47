/**
 * Stable element refs: generation and resolution. Pure: needs no permission.
 *
 * @module
 */

export * from "./generate.ts";
export * from "./resolve.ts";
