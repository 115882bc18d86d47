/**
 * Formatters: agent text, YAML, JSON, JSONL, and snapshot files.
 * Pure: needs no permission.
 *
 * @module
 */

export * from "./render.ts";
export * from "./snapshot.ts";
export { elementLine, informativeActions, isAnonymous, quote, renderAgent } from "./agent.ts";
export type { AgentOptions } from "./agent.ts";
export { agentTargets, writeRefsOut } from "./agent_parse.ts";
export { toYaml } from "./yaml.ts";
export type { YamlValue } from "./yaml.ts";
export type { AgentTarget } from "./agent_parse.ts";
export { elementData, flatData, treeData } from "./data.ts";
export type { ElementData } from "./data.ts";
