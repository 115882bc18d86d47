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
import { slug } from "../refs/generate.ts";
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
/**
 * A line whose handle is its id alone, its ref being its label's slug
 * (`[15] chk "Subscribe to the newsletter"`; such a label is printed
 * unescaped), or, with no label, its role (`[21] banner`).
 */
const LABEL_REF = /^\[(\d+)\](?: ([a-z]+))?(?: "([^"\\]*)"|$| )/;

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
 *   '[7] btn "Save As…"',
 *   '[8] toolbar',
 *   '  rows: "…" | [id|<row>/delete] btn "Delete"',
 *   '  [38|list/item-1]: "Item 1" | [40]',
 * ].join("\n");
 * assert.deepEqual(agentTargets(text), [
 *   { i: 7, ref: "save-as" },
 *   { i: 8, ref: "toolbar" },
 *   { i: 38, ref: "list/item-1" },
 *   { i: 40, ref: "list/item-1/delete" },
 * ]);
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
    const own = tokens.length ? refFromLine(body) : null;
    if (own) out.push(target(own.id, own.ref));
    for (const t of tokens) {
      const m = ID_REF.exec(t);
      if (m) out.push(target(m[1], m[2]));
    }
  }
  return out;
}

/** The id and the ref a line whose handle is its id alone stands for (`[15] chk "Remember me"`). */
function refFromLine(body: string): { id: string; ref: string } | null {
  const m = LABEL_REF.exec(body);
  if (m?.[3] !== undefined) return { id: m[1], ref: slug(m[3]) };
  if (m?.[2] !== undefined) return { id: m[1], ref: m[2] };
  return null;
}

/**
 * The agent-format text with every ref written out: a line whose handle is
 * its id alone gets the ref it stands for (its label's slug, or its role), so
 * that a program can find a line by its ref.
 *
 * @param text output of `read --format agent`
 * @returns the same lines, each element line as `[id|ref]`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeRefsOut } from "./agent_parse.ts";
 * assert.equal(writeRefsOut('  [15] chk "Remember me" checked\n  [3] toolbar'),
 *   '  [15|remember-me] chk "Remember me" checked\n  [3|toolbar] toolbar');
 * ```
 */
export function writeRefsOut(text: string): string {
  return text.split("\n").map((line) => {
    const body = line.trimStart();
    const own = body.startsWith("[") ? refFromLine(body) : null;
    if (!own) return line;
    const indent = line.length - body.length;
    return `${line.slice(0, indent)}[${own.id}|${own.ref}]${body.slice(own.id.length + 2)}`;
  }).join("\n");
}

/**
 * The ref of the element a line starts with: written out (`[12|form/email]`)
 * or stood for by its id alone (`[15] chk "Remember me"`: `remember-me`).
 *
 * @param line one line of the agent format, indented or not
 * @returns the ref, or undefined when the line starts with no element handle
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineRef } from "./agent_parse.ts";
 * assert.equal(lineRef('  [12|form/email] input "Email"'), "form/email");
 * assert.equal(lineRef('  [15] chk "Remember me"'), "remember-me");
 * assert.equal(lineRef('  "static text"'), undefined);
 * ```
 */
export function lineRef(line: string): string | undefined {
  const body = line.trimStart();
  if (!body.startsWith("[")) return undefined;
  return /^\[(?:\d+|-)\|([^\]]+)\]/.exec(body)?.[1] ?? refFromLine(body)?.ref;
}
