/**
 * A page of rows for warm-read tests and benchmarks: each row a link, a
 * button and a check box, and a button "Change one row" that renames one
 * row's link each time it is pressed (the `step`-th row after the last).
 *
 * @module
 */

/**
 * The page's HTML.
 *
 * @param rows how many rows
 * @param title the page's title
 * @param step how far the next renamed row lies from the last (modulo `rows`)
 * @returns the HTML
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowsPage } from "./rows_page.ts";
 * const html = rowsPage(3, "Rows", 7);
 * assert.equal(html.match(/<li>/g)?.length, 3);
 * assert.match(html, /<title>Rows<\/title>/);
 * ```
 */
export function rowsPage(rows: number, title: string, step: number): string {
  const items = Array.from(
    { length: rows },
    (_, i) =>
      `<li><a href="#r${i}">Row ${i}</a> <button>Edit ${i}</button> ` +
      `<input type="checkbox" aria-label="Select ${i}"></li>`,
  ).join("\n");
  return `<!doctype html><html><head><title>${title}</title></head><body>
<h1>Orders</h1><button id="change" onclick="change()">Change one row</button>
<ul aria-label="orders">${items}</ul>
<script>
let n = 0;
function change() {
  const a = document.querySelectorAll("li a")[(n * ${step}) % ${rows}];
  a.textContent = "Changed " + (++n);
}
</script></body></html>`;
}
