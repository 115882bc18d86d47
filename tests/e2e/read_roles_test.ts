/**
 * What an agent needs of lists, tables and value widgets, read from Chromium
 * (tests/fixtures/web/roles_settings.html, roles_prose.html) and thunar's
 * file list. Witness: pyatspi reads the same objects' roles, names, states
 * and attributes.
 *
 * - a list box's items are `option`s, the list box says its chosen option on
 *   its own line, and `--interactive` keeps it with its options;
 * - `--roles listbox` is accepted;
 * - a sorted column header says `sort=ascending`;
 * - a slider and a spin button show their value text beside the number;
 * - `--budget` cuts a long text area value and says how to read it whole;
 * - a list item of prose has no ref of its words; one with a control is a
 *   `listitem`;
 * - thunar: `--interactive` keeps the file list's rows with their names.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const SETTINGS = `${REPO_ROOT}tests/fixtures/web/roles_settings.html`;
const PROSE = `${REPO_ROOT}tests/fixtures/web/roles_prose.html`;

/** What pyatspi reads of the settings page. */
interface SettingsWitness {
  options: string[];
  selected: string[];
  valuetext: Record<string, string>;
  sort: Record<string, string>;
  bio: number;
}

Deno.test({
  name: "chromium read: options, chosen option, value text and sort order on their lines; " +
    "--interactive keeps the list box; --budget cuts a long value",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "chromium", url: SETTINGS });
    const tree = await eventually("the settings page, read", async () => {
      const res = await runCli(d, ["read", "--app", d.appName]);
      return res.code === 0 && res.stdout.includes('"Polski"') && res.stdout.includes("Invoices")
        ? res.stdout
        : undefined;
    }, 60_000);
    const w = await pyatspiJson<SettingsWitness>(
      d,
      `
out = {"options": [], "selected": [], "valuetext": {}, "sort": {}, "bio": 0}
for o in walk(app):
    role = o.getRoleName()
    attrs = dict(a.split(":", 1) for a in o.getAttributes() if ":" in a)
    if role == "list item" and o.parent is not None and o.parent.getRoleName() == "list box":
        out["options"].append(o.name)
        if o.getState().contains(pyatspi.STATE_SELECTED):
            out["selected"].append(o.name)
    elif role in ("slider", "spin button") and "valuetext" in attrs:
        out["valuetext"][o.name] = attrs["valuetext"]
    elif role in ("column header", "table column header") and "sort" in attrs:
        out["sort"][o.name] = attrs["sort"]
    elif role == "entry" and o.name == "Biography":
        out["bio"] = o.queryText().characterCount
print(json.dumps(out))
`,
    );
    assert.equal(w.options.length, 8, JSON.stringify(w));
    for (const name of w.options) {
      const sel = w.selected.includes(name) ? " selected" : "";
      assert.match(tree, new RegExp(`\\] option "${name}"${sel}( \\(|\\n)`), name);
    }
    assert.doesNotMatch(tree, / row "(English|Polski)"/);
    assert.match(tree, new RegExp(`\\] listbox "Language" val="${w.selected.join(", ")}"`));
    assert.deepEqual(w.valuetext, { "Billing month": "March", "Session length": "1:30" });
    assert.match(tree, /\] slider "Billing month" val="3" valtext="March"/);
    assert.match(tree, /\] spin "Session length" val="90" valtext="1:30"/);
    assert.equal(w.sort.Date, "ascending");
    assert.match(tree, /\] colheader "Date" (\([^)]*\) )?sort=ascending/);
    assert.doesNotMatch(tree, /colheader "(Amount|Status)"[^\n]*sort=/);
    assert.match(tree, /\] combo "Theme" val="Dark"/);

    // --interactive keeps the list box, its options and the table's rows.
    const t0 = Date.now();
    const inter = await runCli(d, ["read", "--app", d.appName, "--interactive", "--budget", "800"]);
    assert.equal(inter.code, 0, inter.stderr);
    assert.ok(Date.now() - t0 < 30_000, "an interactive read takes seconds, not minutes");
    assert.match(inter.stdout, /\] listbox "Language" val="Français"/);
    assert.equal(inter.stdout.match(/\] option "/g)?.length, 8, inter.stdout);
    assert.match(inter.stdout, /\] row: "2026-01-04" \| "120\.00" \| "Paid"/);
    // The 1,800-character biography is cut, saying its length and how to read it whole.
    assert.ok(w.bio > 1500, `pyatspi reads ${w.bio} characters`);
    const bio = /input "Biography" val="([^\n]*)/.exec(inter.stdout)?.[1] ?? "";
    assert.ok(bio.length < 400, bio);
    assert.match(bio, /…"\(\d+ chars: read --scope-ref \S+ --max-text 0\)/);
    const ref = /--scope-ref (\S+) --max-text 0/.exec(bio)![1];
    const whole = await runCli(d, [
      "read",
      "--app",
      d.appName,
      "--scope-ref",
      ref,
      "--max-text",
      "0",
    ]);
    assert.equal(whole.code, 0, whole.stderr);
    assert.ok(whole.stdout.length > w.bio, "the hint reads the whole value");

    const boxOnly = await runCli(d, ["read", "--app", d.appName, "--roles", "listbox"]);
    assert.equal(boxOnly.code, 0, boxOnly.stderr);
    assert.match(boxOnly.stdout, /\] listbox "Language"/);
    const bogus = await runCli(d, ["read", "--app", d.appName, "--roles", "listboxes"]);
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /INVALID_ARGS/);
  },
});

Deno.test({
  name:
    "chromium read: a list item of prose has no ref of its words; one with a control is a listitem",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "chromium", url: PROSE });
    const tree = await eventually("the release notes, read", async () => {
      const res = await runCli(d, ["read", "--app", d.appName]);
      return res.code === 0 && res.stdout.includes("Unchanged.") ? res.stdout : undefined;
    }, 60_000);
    const items = await pyatspiJson<string[]>(
      d,
      `
print(json.dumps([o.queryText().getText(0, -1) for o in walk(app)
    if o.getRoleName() == "list item"]))
`,
    );
    assert.equal(items.length, 6, JSON.stringify(items));
    const first = items[0].replace(/^[•\s]+/, "").replace(/\s+/g, " ").trim();
    assert.ok(first.startsWith("To make understanding"), first);
    // The words are read as text, with no ref or row line of their own.
    assert.ok(tree.includes(`"${first}"\n`), tree);
    assert.doesNotMatch(tree, /to-make-understanding|exports-are-faster|old-archives/);
    assert.doesNotMatch(tree, /\] (row|listitem)[: ]+"To make/);
    assert.match(tree, /\] lnk "the benchmark"/);
    // Items holding a control are list items; a paragraph in a table cell is no row.
    assert.match(
      tree,
      /\[\d+\|[^\]]*announce-it\] listitem: "Announce it" \| \[\d+\|[^\]]+\] btn "Draft"/,
    );
    assert.match(tree, /\] listitem: \[\d+\|[^\]]+\] chk "Tag the release" checked/);
    assert.match(
      tree,
      /\] row: "Export 1 GB" \| "Twice as fast as before, measured on the reference machine\."/,
    );
    assert.equal(tree.match(/\] row[: ]/g)?.length, 3, tree);
  },
});

Deno.test({
  name: "thunar read --interactive: the file list's rows are kept with their names",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "roles-thunar-" });
    try {
      const files = ["alpha.txt", "beta.txt", "gamma.txt"];
      for (const f of files) await Deno.writeTextFile(`${dir}/${f}`, f);
      await using d = await startDesktop({ app: "thunar", url: dir });
      const out = await eventually("thunar's file list", async () => {
        const res = await runCli(d, ["read", "--app", d.appName, "--interactive"]);
        return res.code === 0 && files.every((f) => res.stdout.includes(`"${f}"`))
          ? res.stdout
          : undefined;
      }, 60_000);
      const names = await pyatspiJson<string[]>(
        d,
        `
print(json.dumps(sorted({o.name for o in walk(app)
    if o.getRoleName() == "table cell" and o.name.endswith(".txt")})))
`,
      );
      assert.deepEqual(names, files);
      for (const f of files) {
        assert.match(out, new RegExp(`\\] row: "${f.replace(".", "\\.")}" \\| `), f);
      }
      assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(), files);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
