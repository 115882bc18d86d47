/**
 * Chromium and Firefox ESR: HTML and ARIA widgets beyond plain forms, read as
 * an agent needs them (tests/fixtures/web/board.html, a project board), and
 * the read leaves the browser running (Firefox aborts on a Properties.GetAll
 * of a progress bar's Value, so it never gets one). Witness: pyatspi reads
 * the same objects' values and roles.
 *
 * - a date input's parts (spin buttons with no text) show their numbers;
 * - a `<meter>` (single-precision) prints 0.7, not 0.699999988079071;
 * - an ARIA tab panel (a scroll pane with xml-roles "tabpanel") is a tabpanel;
 * - a contenteditable's text is its value, printed once;
 * - a named button's glyph is no value;
 * - set-value on a date part (Chromium ignores its Value) types the number;
 * - Chromium's offer to describe an image is not part of its link's label;
 * - an action that adds or removes a list of 20 entries reports it as one line with a count;
 * - a paragraph split at inline elements (`<em>`, `<code>`) is one line, as pyatspi reads it.
 */

import assert from "node:assert/strict";
import { type DesktopApp, hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/board.html`;

interface FlatEl {
  ref: string;
  r: string;
  t?: string;
  v?: string;
}

/** What pyatspi reads of the page's widgets. */
interface Witness {
  /** Date parts (spin buttons below the "Due before" field): name to text, else number. */
  spins: Record<string, string>;
  meters: number[];
  panels: string[];
  notes: string | null;
}

for (const app of ["chromium", "firefox-esr"] as DesktopApp[]) {
  Deno.test({
    name: `${app} widgets: date parts, meter, tab panel and contenteditable read as pyatspi ` +
      "sees them; the browser keeps running",
    ignore: !hasDesktopTools(),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using d = await startDesktop({ app, url: PAGE });
      // Read until two reads a second apart agree: a browser builds the page's tree as it loads.
      let last = "";
      const els = await eventually("the page's Notes field, settled", async () => {
        const res = await runCli(d, ["read", "--app", d.appName, "--flat", "--format", "json"]);
        if (res.code !== 0) return undefined;
        const list = JSON.parse(res.stdout).elements as FlatEl[];
        const key = JSON.stringify(list.map((e) => [e.ref, e.r, e.t, e.v]));
        const settled = key === last && list.some((e) => e.t === "Notes");
        last = key;
        if (!settled) await new Promise((r) => setTimeout(r, 1000));
        return settled ? list : undefined;
      }, 60_000);
      const witness = await pyatspiJson<Witness>(
        d,
        `
out = {"spins": {}, "meters": [], "panels": [], "notes": None}
for o in walk(app):
    role = o.getRoleName()
    if role == "spin button" and o.parent is not None and o.parent.name == "Due before" \
            or role == "spin button" and o.name.endswith("Due before"):
        text = o.queryText().getText(0, -1)
        number = o.queryValue().currentValue
        out["spins"][o.name] = text if text else "%g" % number
    elif role == "level bar":
        out["meters"].append(o.queryValue().currentValue)
    elif role == "scroll pane":
        attrs = dict(a.split(":", 1) for a in o.getAttributes() if ":" in a)
        if attrs.get("xml-roles") == "tabpanel":
            out["panels"].append(o.name)
    elif role == "entry" and o.name == "Notes":
        out["notes"] = o.queryText().getText(0, -1)
print(json.dumps(out))
`,
      );
      assert.ok(Object.keys(witness.spins).length >= 2, JSON.stringify(witness));
      for (const [name, value] of Object.entries(witness.spins)) {
        const mine = els.find((e) => e.r === "spin" && e.t === name);
        assert.equal(mine?.v, value, name);
      }
      const meter = witness.meters[0];
      assert.ok(Math.abs(meter - 0.7) < 1e-6, `pyatspi reads the meter as ${meter}`);
      assert.ok(els.some((e) => e.r === "progress" && e.v === "0.7"), JSON.stringify(els));
      assert.deepEqual(witness.panels, ["Board"]);
      assert.ok(els.some((e) => e.r === "tabpanel" && e.t === "Board"));
      const notes = els.find((e) => e.t === "Notes");
      assert.equal(notes?.v, witness.notes);

      const tree = await runCli(d, ["read", "--app", d.appName]);
      assert.equal(tree.code, 0, tree.stderr);
      // A paragraph with inline elements is one line, as pyatspi reads the paragraph's text.
      const paragraph = await pyatspiJson<string>(
        d,
        `
def whole(o):
    # Each embedded object character stands for an inline element (its hyperlink's object).
    text = o.queryText().getText(0, -1)
    if "\\ufffc" not in text:
        return text
    links = o.queryHypertext()
    return "".join(whole(links.getLink(links.getLinkIndex(i)).getObject(0))
                   if ch == "\\ufffc" else ch for i, ch in enumerate(text))
print(json.dumps(next(whole(o) for o in walk(app)
    if o.getRoleName() == "paragraph" and "Drag a card" in o.queryText().getText(0, -1))))
`,
      );
      const words = paragraph.replace(/\s+/g, " ").trim();
      assert.ok(
        tree.stdout.includes(`"${words}"\n`),
        `${JSON.stringify(words)} in\n${tree.stdout}`,
      );
      assert.equal(tree.stdout.split(String(witness.notes)).length - 1, 1, "the note once");
      if (app === "chromium") {
        // Chromium offers to describe the logo in its name; that offer is not the page's label.
        const offered = await pyatspiJson<string[]>(
          d,
          `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "link"
             and "image descriptions" in o.name]))`,
        );
        assert.equal(offered.length, 1, "pyatspi: the browser's offer is in the link's name");
        assert.match(tree.stdout, /\] lnk "logo"\n/, tree.stdout);
        assert.doesNotMatch(tree.stdout, /image descriptions/);
        // Chromium's date parts ignore a Value set through AT-SPI: the number is typed instead.
        const month = els.find((e) => e.r === "spin" && e.t === "Month Due before")!;
        const set = await runCli(d, ["set-value", "--app", d.appName, "--ref", month.ref, "3"]);
        assert.equal(set.code, 0, set.stderr);
        const now = await pyatspiJson<number>(
          d,
          `print(json.dumps(next(o.queryValue().currentValue for o in walk(app)
             if o.getRoleName() == "spin button" and o.name == "Month Due before")))`,
        );
        assert.equal(now, 3);
      }
      // A count a label ends with is not part of its ref: "Reports (3)" is `reports`, and stays
      // so when the count moves.
      const reportsRef = (text: string) =>
        /\[\d+\|([^\]]*reports)\] lnk "Reports \((\d+)\)"/.exec(text);
      const before = reportsRef(tree.stdout);
      assert.ok(before, tree.stdout);
      // So are a count a label starts with ("2 comments") and, where the browser shows the badge
      // as a text of its own (Chromium; Firefox reads "Inbox 4" as one text), a badge's count.
      const countRefs = (text: string) => [
        /\[\d+\|([^\]]*)\] lnk "Inbox (\d+)"/.exec(text)?.slice(1),
        /\[\d+\|([^\]]*)\] lnk "(\d+) comments"/.exec(text)?.slice(1),
      ];
      const [inbox, comments] = countRefs(tree.stdout);
      assert.ok(inbox, tree.stdout);
      if (app === "chromium") assert.match(inbox[0], /(^|\/)inbox$/, tree.stdout);
      assert.match(comments?.[0] ?? "", /(^|\/)comments$/, tree.stdout);
      // An action that brings in (then takes away) a list of 20 entries reports the list as
      // one line with a count, not a line per entry.
      const toggleActivity = () =>
        runCli(d, [
          "click",
          "--app",
          d.appName,
          "--text",
          "Show activity",
          "--roles",
          "btn",
          "--diff",
        ]);
      const shown = await toggleActivity();
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(
        shown.stdout,
        /\n\+ \[[^|\]]+\|[^\]]*activity\] list "Activity"[^\n]* \(and \d+ inside: read --scope-ref /,
      );
      assert.doesNotMatch(shown.stdout, /Task 7 moved/);
      const entries = await pyatspiJson<number>(
        d,
        `print(json.dumps(len([o for o in walk(app) if o.getRoleName() == "link"
           and o.name.startswith("Task ")])))`,
      );
      assert.equal(entries, 20, "pyatspi: the list holds 20 entries");
      const hidden = await toggleActivity();
      assert.equal(hidden.code, 0, hidden.stderr);
      assert.match(
        hidden.stdout,
        /\n- \[[^|\]]+\|[^\]]*activity\] list "Activity"[^\n]* \(and \d+ inside\)/,
      );
      assert.ok(hidden.stdout.split("\n").length < 10, hidden.stdout);
      const reports = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "link"
           and o.name.startswith("Reports")]))`,
      );
      assert.deepEqual(reports, [`Reports (${Number(before[2]) + 2})`], "pyatspi: the count moved");
      const counted = await pyatspiJson<string[]>(
        d,
        `print(json.dumps(sorted(o.name for o in walk(app) if o.getRoleName() == "link"
           and (o.name.startswith("Inbox") or o.name.endswith("comments")))))`,
      );
      assert.deepEqual(counted, [
        `${Number(comments![1]) + 2} comments`,
        `Inbox ${Number(inbox[1]) + 2}`,
      ]);
      const now = await runCli(d, ["read", "--app", d.appName]);
      assert.equal(reportsRef(now.stdout)?.[1], before[1], now.stdout);
      assert.equal(reportsRef(now.stdout)?.[2], String(Number(before[2]) + 2));
      const [inboxNow, commentsNow] = countRefs(now.stdout).map((r) => r?.[0]);
      assert.equal(commentsNow, comments![0], now.stdout);
      if (app === "chromium") assert.equal(inboxNow, inbox[0], now.stdout);
      const list = await runCli(d, ["list", "--format", "json"]);
      assert.ok(
        (JSON.parse(list.stdout) as Array<{ pid: number }>).some((a) => a.pid === d.pid),
        `${app} is still running:\n${d.appLog()}`,
      );
    },
  });
}
