import assert from "node:assert/strict";
import { fitBudget } from "../../src/output/budget.ts";
import { agentTargets } from "../../src/output/agent_parse.ts";

/** A cheap stand-in for a tokenizer: one token per four characters. */
const count = (s: string) => Math.ceil(s.length / 4);

function page(rows: number): string {
  const lines = [
    '[1|orders-acme] web "Orders"',
    "  [2|main] main",
    '    [3|orders] table "Orders"',
  ];
  lines.push('      rows: [id|<row>/lnk] lnk "…" | "…" | [id|<row>/refund] btn "Refund"');
  for (let k = 0; k < rows; k++) {
    lines.push(
      `      [${10 + 3 * k}|so-${1000 + k}]: [${11 + 3 * k}] "SO-${1000 + k}" | "Paid" | [${
        12 + 3 * k
      }]`,
    );
  }
  lines.push('    [900|help] lnk "Help"');
  return lines.join("\n") + "\n";
}

Deno.test("budget: text within the budget is unchanged", () => {
  const text = page(5);
  assert.equal(fitBudget(text, 10_000, count), text);
});

Deno.test("budget: the largest region collapses, with a summary saying how to see it", () => {
  const text = page(200);
  const out = fitBudget(text, 500, count);
  const total = out.split("\n").reduce((a, l) => a + count(l) + 1, 0);
  assert.ok(total <= 500, `${total} tokens`);
  // The header and the first rows stay; the rest is one line naming the table's ref.
  assert.match(out, /rows: \[id\|<row>\/lnk\]/);
  assert.match(out, /\[10\|so-1000\]/);
  assert.match(
    out,
    /… \d+ more of these 201 lines left out \(over the 500-token budget\): read --scope-ref orders to see them/,
  );
  // Lines outside the region are kept, and every kept line is unchanged.
  assert.match(out, /\[900\|help\] lnk "Help"/);
  for (const line of out.split("\n")) if (!line.includes("…")) assert.ok(text.includes(line));
  // What is still printed still reads back as targets (a row's cells derive their refs).
  const refs = agentTargets(out).map((t) => t.ref);
  assert.ok(refs.includes("so-1000/refund"));
  assert.ok(!refs.includes("so-1199"));
});

Deno.test("budget: without a parent ref the summary says how to narrow the read", () => {
  const lines = Array.from({ length: 100 }, (_, k) => `[${k + 1}|b${k}] btn "Button ${k}"`);
  const out = fitBudget(lines.join("\n") + "\n", 100, count);
  assert.match(out, /narrow the read with --scope-ref, --roles or --text/);
});
