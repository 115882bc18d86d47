/**
 * Long labels in a real browser: a message list whose rows are keyed by a
 * sender and subject longer than a ref keeps (40 characters). The read
 * prints each row's id alone (its ref is its first text's slug, cut at a
 * word's end); a ref written with the whole slug acts on that very row; a
 * whole slug that shares only its first 40 characters with a row is
 * ELEMENT_NOT_FOUND, and nothing is pressed. Witness: the page's title,
 * which its Archive buttons set, read through pyatspi.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { cliError, runCli } from "../harness/cli.ts";
import { firstWindowTitle as title } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const SUBJECTS = [
  "Lena Fischer: Security alert, a new sign-in from Oslo",
  "Priya Natarajan: Action required, verify your domain today",
  "Mara Okafor: Quarterly report for the board, second draft",
  "GitHub: New comment on the release plan from the team",
];

/** A message list: each row a subject and an Archive button that names its row in the title. */
function page(): string {
  const rows = SUBJECTS.map((s) =>
    `<li><span>${s}</span> <button onclick="document.title='archived=${s.slice(0, 12)}'">` +
    `Archive</button></li>`
  ).join("\n");
  return `<!doctype html><html><head><title>Inbox</title></head><body>
<ul aria-label="Messages">${rows}</ul></body></html>`;
}

Deno.test({
  name: "refs: a row keyed by a long label prints its id alone, and its whole slug acts on it",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const file = await Deno.makeTempFile({ suffix: ".html" });
    await Deno.writeTextFile(file, page());
    await using d = await startDesktop({ app: "chromium", url: `file://${file}` });
    const cli = (args: string[]) => runCli(d, [...args, "--app", d.appName, "--timeout", "20000"]);
    const read = await eventually("the message list", async () => {
      const res = await cli(["read"]);
      return res.printed.includes("GitHub: New comment") ? res : undefined;
    }, 20_000);
    // Rows keyed by their subject: the id alone, no cut slug to copy.
    assert.match(
      read.printed,
      /\[\d+\]: "Mara Okafor: Quarterly report for the board, second draft"/,
    );
    assert.doesNotMatch(read.printed, /mara-okafor-quarterly/, "no ref printed for the row");

    const whole = "mara-okafor-quarterly-report-for-the-board-second-draft";
    const res = await cli(["click", "--ref", `${whole}/archive`]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^ok click /);
    await eventually("the page archived Mara's message (pyatspi)", async () => {
      return (await title(d)).startsWith("archived=Mara Okafor:") ? true : undefined;
    }, 10_000);

    // Shares its first 40 characters with Mara's row, but is not its label: refused.
    const other = "mara-okafor-quarterly-report-for-the-board-final-version";
    const wrong = await cli(["click", "--ref", `${other}/archive`]);
    assert.notEqual(wrong.code, 0);
    const err = cliError(wrong);
    assert.equal(err.code, "ELEMENT_NOT_FOUND");
    assert.match(
      String(err.message),
      /does not make "mara-okafor-quarterly-report-for-the-board-final-version"/,
    );
    assert.ok((await title(d)).startsWith("archived=Mara Okafor:"), "nothing else was pressed");
    const priya = await cli([
      "click",
      "--ref",
      "priya-natarajan-action-required-verify-your-domain-today/archive",
    ]);
    assert.equal(priya.code, 0, priya.stderr);
    await eventually("Priya's message archived (pyatspi)", async () => {
      return (await title(d)).startsWith("archived=Priya Natar") ? true : undefined;
    }, 10_000);
  },
});
