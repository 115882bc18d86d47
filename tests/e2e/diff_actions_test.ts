import assert from "node:assert/strict";
import { getEncoding } from "js-tiktoken";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/diff_actions.html`;
const enc = getEncoding("o200k_base");
const tokens = (s: string) => enc.encode(s).length;

/** What an action's result may cost an agent (o200k tokens), line and changes together. */
const BUDGET = 300;

/** A generous bound on one action through the CLI (read, act, settle, print). */
const ACTION_MS = 20_000;

/** Runs an action with --diff: ok, within the time bound, and its printed text. */
async function act(d: TestDesktop, args: string[]): Promise<string> {
  const t0 = Date.now();
  const r = await runCli(d, [...args, "--app", d.appName, "--diff"]);
  const ms = Date.now() - t0;
  assert.equal(r.code, 0, `desktop ${args.join(" ")}: ${r.stderr}`);
  assert.ok(ms < ACTION_MS, `${args[0]} took ${ms} ms`);
  return r.stdout;
}

/** The names in the People table's first column, top to bottom, as pyatspi reads them. */
function peopleOrder(d: TestDesktop): Promise<string[]> {
  return pyatspiJson<string[]>(
    d,
    `
table = next(o for o in walk(app) if o.getRoleName() == "table" and o.name == "People")
names = []
for row in walk(table):
    if row.getRoleName() == "table row" and row.childCount and row[0].getRoleName() == "table cell":
        names.append(row[0].name or row[0].queryText().getText(0, -1))
print(json.dumps(names))
`,
  );
}

/** The screen y of the list item "Message 1", as pyatspi reads it. */
function firstMessageY(d: TestDesktop): Promise<number> {
  return pyatspiJson<number>(
    d,
    `
item = next(o for o in walk(app) if o.getRoleName() == "list item"
            and "Message 1 from" in (o.name or "".join(c.name or "" for c in o)))
print(json.dumps(item.queryComponent().getExtents(pyatspi.DESKTOP_COORDS).y))
`,
  );
}

/** pyatspi: the first and last messages wholly inside the Inbox region's box. */
function messagesInView(d: TestDesktop): Promise<[string, string]> {
  return pyatspiJson<[string, string]>(
    d,
    `
box = lambda o: o.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
inbox = box(next(o for o in walk(app) if o.name == "Inbox"))
names = []
for o in walk(app):
    if o.getRoleName() != "list item": continue
    name = o.name or "".join(c.name or "" for c in o)
    if "Message " not in name: continue
    name = name[name.index("Message "):]
    e = box(o)
    if e.y >= inbox.y - 1 and e.y + e.height <= inbox.y + inbox.height + 1: names.append(name.strip())
print(json.dumps([names[0], names[-1]]))
`,
  );
}

Deno.test({
  name: "chromium: an action's changes say what changed in under 300 tokens",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    await eventually("the page's table", async () => {
      const r = await runCli(d, ["find", "--app", d.appName, "--text", "Katherine Johnson"]);
      return r.code === 0 ? true : undefined;
    }, 30_000);
    // The read an agent starts from: ids of the last read.
    assert.equal((await runCli(d, ["read", "--app", d.appName])).code, 0);

    await t.step("a scroll of a long list lists no boxes, and is verified", async () => {
      const y0 = await firstMessageY(d);
      const out = await act(d, [
        "scroll",
        "--ref",
        "inbox",
        "--direction",
        "down",
        "--amount",
        "10",
      ]);
      assert.ok(y0 - await firstMessageY(d) > 100, "pyatspi: the list moved up");
      assert.doesNotMatch(out, /\(-?\d+,-?\d+,\d+,\d+\)|unverified|renumbered/);
      assert.match(out, /^ok scroll /);
      // Where the view went, as the app shows it (pyatspi), and where it was.
      const [first, last] = await messagesInView(d);
      assert.ok(out.includes(`; in view: "${first}" to "${last}" (was "Message 1 from`), out);
      assert.ok(tokens(out) < BUDGET, `${tokens(out)} tokens:\n${out}`);
    });

    await t.step("observe leaves boxes out unless --bounds", async () => {
      const watch = async (extra: string[], direction: string) => {
        const observing = runCli(d, ["observe", "--app", d.appName, "--duration", "5", ...extra]);
        await new Promise((ok) => setTimeout(ok, 2500));
        await act(d, ["scroll", "--ref", "inbox", "--direction", direction, "--amount", "5"]);
        const r = await observing;
        assert.equal(r.code, 0, r.stderr);
        return r.stdout.trim().split("\n").map((l) => JSON.parse(l));
      };
      const y0 = await firstMessageY(d);
      const quiet = await watch([], "up");
      assert.ok(await firstMessageY(d) - y0 > 50, "pyatspi: the list moved down");
      assert.equal(quiet.at(-1).type, "done");
      assert.deepEqual(quiet.filter((e) => e.type === "changed" && "b" in e.changes), []);
      const boxes = await watch(["--bounds"], "down");
      assert.ok(boxes.some((e) => e.type === "changed" && "b" in e.changes), "--bounds: moves");
    });

    await t.step("a sort is reported as a reorder, and verified", async () => {
      const before = await peopleOrder(d);
      const out = await act(d, ["click", "--ref", "name/btn"]);
      const after = await peopleOrder(d);
      assert.deepEqual(after, [...before].sort((a, b) => a.localeCompare(b)), "pyatspi: sorted");
      assert.doesNotMatch(out, /unverified|renumbered/);
      assert.match(out, /sort: none -> "ascending"/);
      assert.match(out, /^~ \[-\|main\/people\] reordered: \d+ moved \(now alan-turing, /m);
      assert.ok(tokens(out) < BUDGET, `${tokens(out)} tokens:\n${out}`);
      // The same button again, by the keyboard: it has the focus now.
      const key = await act(d, ["key", "Return"]);
      assert.deepEqual(await peopleOrder(d), [...after].reverse(), "pyatspi: sorted back");
      assert.match(key, /reordered: \d+ moved \(now niklaus-wirth, /);
      assert.doesNotMatch(key, /unverified/);
      assert.ok(tokens(key) < BUDGET, `${tokens(key)} tokens:\n${key}`);
    });

    await t.step("a menu that opens lists its items", async () => {
      const out = await act(d, ["click", "--ref", "actions"]);
      const items = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "menu item"
  and o.getState().contains(pyatspi.STATE_SHOWING)]))`,
      );
      assert.deepEqual(items, ["Export", "Import", "Merge duplicates", "Delete all"]);
      for (const item of items) assert.match(out, new RegExp(`^\\+ .*menuitem "${item}"$`, "m"));
      assert.match(out, /exp: false -> true/);
      assert.ok(tokens(out) < BUDGET, `${tokens(out)} tokens:\n${out}`);
      // Closed again, for what follows.
      await act(d, ["click", "--ref", "actions"]);
    });

    await t.step("the browser's status bubble over a link is not a change", async () => {
      const found = await runCli(d, [
        "find",
        "--app",
        d.appName,
        "--ref",
        "sections/reports",
        "--format",
        "json",
      ]);
      assert.equal(found.code, 0, found.stderr);
      const [x, y, w, h] = JSON.parse(found.stdout)[0].b as number[];
      const [cx, cy] = [x + (w >> 1), y + (h >> 1)];
      // A user's pointer over the link (the tool parks its own after a click): the bubble shows.
      // Chromium shows it on a motion that enters the link, so each try moves off and back on.
      const hover = async () => {
        for (const [px, py] of [[cx + w, cy + 4 * h], [cx, cy]]) {
          const moved = await new Deno.Command("xdotool", {
            args: ["mousemove", `${px}`, `${py}`],
            env: d.env,
            clearEnv: true,
          }).output();
          assert.equal(moved.code, 0, "xdotool mousemove");
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      // pyatspi sees the bubble: a window of its own that shows the link's address.
      const bubbles = await eventually("the status bubble", async () => {
        await hover();
        const texts = await pyatspiJson<string[]>(
          d,
          `
def text(o):
    try:
        return o.queryText().getText(0, -1)
    except NotImplementedError:
        return o.name or ""
print(json.dumps([" ".join(text(c) for c in walk(w)) for w in app
  if w.getRoleName() in ("window", "frame") and not w.name]))
`,
        );
        // The bubble elides a long address (the fragment goes first), so its witness is the
        // page's own file name or the fragment, in a window with no name.
        if (texts.some((s) => /#reports|diff_actions/.test(s))) return texts;
        throw new Error(`unnamed windows' texts: ${JSON.stringify(texts)}`);
      }, 15_000);
      assert.ok(bubbles.length > 0);
      const out = await act(d, ["click", "--x", `${cx}`, "--y", `${cy}`]);
      assert.doesNotMatch(out, /^[+-] .*\] window/m);
      assert.match(out, /#reports"/); // the address bar took the link's address
    });

    await t.step("a modal dialog is printed whole, with its role and fields", async () => {
      const out = await act(d, ["click", "--ref", "new-contact"]);
      const dialogs = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "dialog"]))`,
      );
      assert.deepEqual(dialogs, ["New contact"]);
      assert.match(out, /^\+ \[-\|[^\]]+\] dialog "New contact"$/m);
      // The line says so too: the next keys go to the dialog.
      assert.match(out.split("\n")[0], /; opened dialog "New contact"/);
      for (const field of ["Name", "Email", "Phone", "City"]) {
        assert.match(out, new RegExp(`^\\+ .*input "${field}"`, "m"));
      }
      assert.match(out, /chk "Favourite"/);
      assert.match(out, /btn "Save"/);
      assert.match(out, /combo "Group"/);
      // Not the wrapper around it, nor a pointer to read it again.
      assert.doesNotMatch(out, /scope-ref|\] group/);
      assert.ok(tokens(out) < BUDGET, `${tokens(out)} tokens:\n${out}`);
      await act(d, ["click", "--ref", "new-contact/form/cancel"]);
    });

    await t.step("an edited cell's change names its own column, not the next one", async () => {
      // Return on the City cell opens its editor; the cells after it keep their refs.
      const opened = await act(d, ["key", "Return", "--ref", "ada-lovelace/city"]);
      assert.match(opened, /^\+ \[-\|[^\]]*ada-lovelace\/city\/input\] input "City"/m);
      await act(d, ["type", "--ref", "ada-lovelace/city/input", "--replace", "--text", "Nice"]);
      const out = await act(d, ["key", "Return"]);
      const cells = await pyatspiJson<string[]>(
        d,
        `
table = next(o for o in walk(app) if o.getRoleName() == "table" and o.name == "People")
row = next(r for r in walk(table) if r.getRoleName() == "table row" and r.childCount
           and (r[0].name or r[0].queryText().getText(0, -1)) == "Ada Lovelace")
print(json.dumps([c.name or c.queryText().getText(0, -1) for c in row]))
`,
      );
      assert.deepEqual(cells, ["Ada Lovelace", "Nice", "Analyst"]);
      // The new text is the City column's; nothing is said of the Role column's text.
      assert.match(out, /ada-lovelace\/city\/txt\] "Nice"/);
      assert.doesNotMatch(out, /ada-lovelace\/role|"Analyst"/);
    });

    await t.step("a native modal dialog: its page comes back named, not listed again", async () => {
      const opened = await act(d, ["click", "--ref", "preferences"]);
      assert.match(opened.split("\n")[0], /; opened dialog "Preferences"/);
      const out = await act(d, ["click", "--ref", "preferences/close"]);
      const dialogs = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "dialog"]))`,
      );
      assert.ok(!dialogs.includes("Preferences"), JSON.stringify(dialogs));
      assert.match(out.split("\n")[0], /; closed dialog "Preferences"/);
      // What the page held is not listed line by line (400 messages, 12 people).
      assert.doesNotMatch(out, /Message 2 from|"Katherine Johnson"/);
      assert.ok(tokens(out) < BUDGET, `${tokens(out)} tokens:\n${out}`);
    });
  },
});
