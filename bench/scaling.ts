/**
 * Scaling benchmark: ids+refs, agent rendering and the ref-keyed diff on
 * generated trees of 1k, 10k and 100k elements. What counts is the ratio
 * between sizes (10x the elements should cost at most ~12x the time), not
 * the absolute milliseconds of a shared machine.
 *
 * Run: deno run -A bench/scaling.ts [--section]
 * (`--section` also replaces this benchmark's section of BENCHMARKS.md)
 *
 * @module
 */

import { diffTrees } from "../src/diff/diff.ts";
import type { Element } from "../src/model/element.ts";
import { assignIds } from "../src/model/tree.ts";
import { renderElements } from "../src/output/render.ts";
import { assignRefs } from "../src/refs/generate.ts";
import { machineFacts, publishResults } from "./report.ts";

const SIZES = [1_000, 10_000, 100_000];

/**
 * Builds a page-like tree of about `n` elements: sections holding a form
 * (inputs, check boxes, a button) and a list of rows (a label cell, a value
 * cell and a Delete button each), as web apps and settings windows look.
 */
export function generateTree(n: number): Element {
  let count = 3;
  const sections: Element[] = [];
  for (let s = 0; count < n; s++) {
    const form: Element = {
      i: 0,
      r: "form",
      t: `Settings ${s}`,
      c: Array.from({ length: 4 }, (_, k) => ({
        i: 0,
        r: k % 2 ? "chk" as const : "input" as const,
        t: `Field ${s}.${k}`,
        ...(k % 2 ? { chk: false } : { v: `value ${k}` }),
        b: [10, 10 + 30 * k, 200, 24] as Element["b"],
        a: ["activate"],
      })),
    };
    form.c!.push({ i: 0, r: "btn", t: "Save", b: [10, 140, 80, 30], a: ["press"] });
    const rows: Element[] = [];
    for (let k = 0; k < 40; k++) {
      rows.push({
        i: 0,
        r: "row",
        b: [0, 20 * k, 600, 20],
        c: [
          { i: 0, r: "cell", t: `Invoice ${s}-${k}`, b: [0, 20 * k, 200, 20] },
          { i: 0, r: "cell", t: `${(k * 7.5).toFixed(2)} EUR`, b: [200, 20 * k, 200, 20] },
          { i: 0, r: "btn", t: "Delete", b: [500, 20 * k, 80, 20], a: ["press"] },
        ],
      });
    }
    const list: Element = { i: 0, r: "list", t: `Invoices ${s}`, c: rows };
    sections.push({ i: 0, r: "group", c: [form, list] });
    count += 1 + 6 + 1 + rows.length * 4;
  }
  return {
    i: 0,
    r: "app",
    t: "Generated",
    c: [{ i: 0, r: "window", t: "Generated", c: [{ i: 0, r: "web", t: "Page", c: sections }] }],
  };
}

/** Counts elements. */
function size(el: Element): number {
  return 1 + (el.c ?? []).reduce((sum, c) => sum + size(c), 0);
}

/** A copy with one row inserted at the top of each list and 1% of values changed. */
function mutate(root: Element): Element {
  const copy = structuredClone(root);
  let k = 0;
  const visit = (el: Element) => {
    if (el.r === "list" && el.c) {
      el.c.unshift({ i: 0, r: "row", c: [{ i: 0, r: "cell", t: `New ${k}` }] });
    }
    if (el.v !== undefined && k++ % 100 === 0) el.v = el.v + " (edited)";
    for (const c of el.c ?? []) visit(c);
  };
  visit(copy);
  return copy;
}

/** Median milliseconds of `runs` calls of `fn` (each given a fresh input from `prepare`). */
function median<T>(runs: number, prepare: () => T, fn: (input: T) => unknown): number {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const input = prepare();
    const t0 = performance.now();
    fn(input);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

interface Row {
  n: number;
  refs: number;
  render: number;
  diff: number;
}

function measure(target: number): Row {
  const base = generateTree(target);
  const n = size(base);
  const runs = n > 50_000 ? 5 : n > 5_000 ? 11 : 31;
  // Warm-up so the JIT has compiled the hot paths before timing.
  for (let w = 0; w < 2; w++) {
    const t = structuredClone(base);
    assignIds(t);
    assignRefs(t);
    renderElements(t, { format: "agent" });
  }
  const refs = median(runs, () => structuredClone(base), (t) => {
    assignIds(t);
    assignRefs(t);
  });
  const numbered = structuredClone(base);
  assignIds(numbered);
  assignRefs(numbered);
  const render = median(runs, () => numbered, (t) => renderElements(t, { format: "agent" }));
  const after = mutate(base);
  assignIds(after);
  assignRefs(after);
  for (let w = 0; w < 2; w++) diffTrees(numbered, after);
  const diff = median(runs, () => null, () => diffTrees(numbered, after));
  return { n, refs, render, diff };
}

if (import.meta.main) {
  const rows = SIZES.map((s) => {
    const row = measure(s);
    console.error(`scaling: ${row.n} elements measured`);
    return row;
  });
  const fmt = (ms: number) => ms.toFixed(2);
  const ratio = (a: number, b: number) => (a / b).toFixed(1) + "x";
  const facts = await machineFacts();
  const lines = [
    "Command: `deno run -A bench/scaling.ts`",
    "",
    `- date: ${facts.date}; ${facts.cpu}, ${facts.cores} cores; deno ${facts.deno}`,
    "",
    "Generated page-like trees (forms and 40-row lists); median of 31 runs at 1k, 11 at 10k, 5 at 100k, after warm-up runs.",
    "The diff compares the tree with a copy where a row was inserted at the top of every",
    "list and 1% of values changed.",
    "",
    "| elements | ids+refs ms | render agent ms | diffTrees ms |",
    "|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.n} | ${fmt(r.refs)} | ${fmt(r.render)} | ${fmt(r.diff)} |`),
    "",
    "Growth for 10x the elements (target: at most ~12x):",
    "",
    "| step | ids+refs | render agent | diffTrees |",
    "|---|---:|---:|---:|",
    ...rows.slice(1).map((r, k) => {
      const p = rows[k];
      return `| ${p.n} -> ${r.n} | ${ratio(r.refs, p.refs)} | ${ratio(r.render, p.render)} | ${
        ratio(r.diff, p.diff)
      } |`;
    }),
    "",
  ];
  const body = lines.join("\n");
  await publishResults("scaling.md", "Scaling: ids+refs, agent render, diff", body);
}
