/**
 * Formatters: agent text, YAML, JSON, JSONL. Pure: needs no permission.
 *
 * @module
 */

export * from "./render.ts";
