/**
 * Reads the agent format back: which elements a text makes addressable, with
 * their ids and refs, rows of uniform runs included (their `[40]` cells get
 * the row's ref plus the header's suffix). Tests and benchmarks use it to
 * check that every element is reachable by ref; an agent-side program can use
 * it to turn a printed tree into targets.
 *
 * @module
 */

import { rowPartRef } from "../identity/syntax.ts";
import { ROW_PLACEHOLDER, RUN_HEADER } from "./agent_rows.ts";

/** An element an agent-format text addresses. */
export interface AgentTarget {
  /** Its id in the read (absent when printed as `-`: not in the last read). */
  i?: number;
  /** Its ref. */
  ref: string;
}

const ID_REF = /^(\d+|-)\|(.*)$/;
const ID_ONLY = /^(\d+|-)$/;

/** The `[...]` tokens of a line, skipping quoted strings (labels may hold brackets). */
function bracketTokens(line: string): string[] {
  const out: string[] = [];
  for (let k = 0; k < line.length; k++) {
    const ch = line[k];
    if (ch === '"') {
      for (k++; k < line.length && line[k] !== '"'; k++) if (line[k] === "\\") k++;
    } else if (ch === "[") {
      const end = line.indexOf("]", k);
      if (end < 0) break;
      out.push(line.slice(k + 1, end));
      k = end;
    }
  }
  return out;
}

function idOf(text: string): number | undefined {
  return text === "-" ? undefined : Number(text);
}

function target(id: string, ref: string): AgentTarget {
  const i = idOf(id);
  return i === undefined ? { ref } : { i, ref };
}

/**
 * Every element an agent-format text addresses, in order.
 *
 * @param text output of `read --format agent` (tree or flat)
 * @returns ids and refs
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentTargets } from "./agent_parse.ts";
 * const text = [
 *   '  rows: "…" | [id|<row>/delete] btn "Delete"',
 *   '  [38|list/item-1]: "Item 1" | [40]',
 * ].join("\n");
 * assert.deepEqual(agentTargets(text), [{ i: 38, ref: "list/item-1" }, { i: 40, ref: "list/item-1/delete" }]);
 * ```
 */
export function agentTargets(text: string): AgentTarget[] {
  const out: AgentTarget[] = [];
  // A run's header: per element cell, the suffix below the row's ref, or null for a cell
  // printed with its own ref (`[id|ref]`).
  let run: { indent: number; suffixes: Array<string | null> } | null = null;
  const placeholder = `id|${ROW_PLACEHOLDER}/`;
  for (const raw of text.split("\n")) {
    const body = raw.trimStart();
    const indent = raw.length - body.length;
    const tokens = bracketTokens(body);
    if (body.startsWith(RUN_HEADER + " ")) {
      const suffixes = tokens.filter((t) => t.startsWith(placeholder) || t === "id|ref")
        .map((t) => t === "id|ref" ? null : t.slice(placeholder.length));
      run = { indent, suffixes };
      continue;
    }
    const head = tokens.length ? ID_REF.exec(tokens[0]) : null;
    const cells = tokens.slice(1);
    if (
      run && indent === run.indent && head && cells.length <= run.suffixes.length &&
      cells.every((t, k) => run!.suffixes[k] === null ? ID_REF.test(t) : ID_ONLY.test(t))
    ) {
      out.push(target(head[1], head[2]));
      cells.forEach((t, k) => {
        const suffix = run!.suffixes[k];
        if (suffix === null) {
          const m = ID_REF.exec(t)!;
          out.push(target(m[1], m[2]));
        } else out.push(target(t, rowPartRef(head[2], suffix)));
      });
      continue;
    }
    if (run && indent <= run.indent) run = null;
    for (const t of tokens) {
      const m = ID_REF.exec(t);
      if (m) out.push(target(m[1], m[2]));
    }
  }
  return out;
}
