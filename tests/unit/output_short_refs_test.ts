import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { foldLabels } from "../../src/model/semantics.ts";
import { assignIds } from "../../src/model/tree.ts";
import { agentTargets, writeRefsOut } from "../../src/output/agent_parse.ts";
import { renderElements } from "../../src/output/render.ts";
import { refShortener } from "../../src/output/short_refs.ts";
import { parseSnapshot } from "../../src/output/snapshot.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { resolveRef } from "../../src/refs/resolve.ts";

Deno.test("short refs: the shortest suffix that resolution finds alone", () => {
  const s = refShortener([
    "form/email",
    "form/email-address",
    "toolbar/search",
    "main/search/search",
    "list/a",
    "list/a/delete",
    "list/b",
    "list/b/delete",
    "dialog/ok.1",
    "dialog/ok.2",
    "footer/ok",
    "submit",
    "form/submit",
  ]);
  assert.equal(s.short("form/email"), "email");
  assert.equal(s.short("toolbar/search"), "toolbar/search");
  assert.equal(s.short("main/search/search"), "search/search");
  assert.equal(s.short("list/a/delete"), "a/delete");
  assert.equal(s.short("dialog/ok.1"), "ok.1");
  // `ok` would be ambiguous with the indexed twins: resolution counts them too.
  assert.equal(s.short("footer/ok"), "footer/ok");
  // A whole ref always resolves exactly, even where it is another's suffix.
  assert.equal(s.short("submit"), "submit");
  assert.equal(s.short("form/submit"), "form/submit");
  // A run row's ref stays long enough for its cells' derived refs.
  assert.equal(s.shortRow("list/a", ["delete"]), "a");
  assert.equal(s.short("unknown/ref"), "unknown/ref");
});

/** Every element of a tree. */
function all(el: Element): Element[] {
  return [el, ...(el.c ?? []).flatMap(all)];
}

for (const fixture of ["browser_form.json", "mcp_checkout.json"]) {
  Deno.test(`short refs: every target printed for ${fixture} resolves to its element`, async () => {
    const path = new URL(`../fixtures/${fixture}`, import.meta.url);
    const { root } = parseSnapshot(await Deno.readTextFile(path));
    foldLabels(root);
    assignIds(root);
    assignRefs(root);
    const byId = new Map(all(root).map((e) => [e.i, e]));
    const text = renderElements(root, { format: "agent", shortRefs: true });
    const full = renderElements(root, { format: "agent" });
    const targets = agentTargets(text);
    assert.equal(targets.length, agentTargets(full).length);
    assert.ok(text.length < full.length, "shorter than full refs");
    for (const t of targets) {
      assert.equal(resolveRef(root, t.ref), byId.get(t.i!), `${t.ref} is element ${t.i}`);
    }
  });
}

Deno.test("handles: the id alone where the ref is the label's slug or the role, [id|ref] elsewhere", () => {
  const long = "Send me a weekly summary of every order and refund";
  const root: Element = {
    i: 0,
    r: "app",
    t: "Shop",
    c: [
      { i: 0, r: "banner" },
      {
        i: 0,
        r: "form",
        t: "Account",
        c: [
          { i: 0, r: "chk", t: "Remember me" },
          { i: 0, r: "btn", t: "Save As…" },
          { i: 0, r: "btn", t: "OK" },
          { i: 0, r: "btn", t: "OK" },
          { i: 0, r: "chk", t: long },
          { i: 0, r: "input", t: 'Say "hi"' },
        ],
      },
      { i: 0, r: "form", t: "Search", c: [{ i: 0, r: "input", t: "Remember me" }] },
    ],
  };
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent", shortRefs: true });
  const line = (label: string) => text.split("\n").find((l) => l.includes(label))!.trim();
  assert.match(line("Shop"), /^\[\d+\] app "Shop"$/);
  assert.match(text, /^ {2}\[\d+\] banner$/m);
  assert.match(line('"Save As…"'), /^\[\d+\] btn "Save As…"$/);
  // A label over 40 characters: its ref is its slug cut at a word's end, written from it as well.
  assert.match(
    line(long.slice(0, 20)),
    /^\[\d+\] chk "Send me a weekly summary of every order and refund"$/,
  );
  // Not the label's slug as it stands: a twin index, a path, escapes.
  assert.deepEqual(text.match(/\[\d+\|ok\.[12]\] btn "OK"/g)?.length, 2, text);
  assert.deepEqual(
    text.match(/\[\d+\|[a-z]+\/remember-me\] (chk|input) "Remember me"/g)?.length,
    2,
  );
  assert.match(line("Say"), /^\[\d+\|say-hi\] input "Say \\"hi\\""$/);
  // A line cut by --max-text keeps its ref; --full-refs prints every ref.
  const cut = renderElements(root, { format: "agent", shortRefs: true, maxText: 5 });
  assert.match(cut, /\[\d+\|save-as\] btn "Save…"/);
  const full = renderElements(root, { format: "agent" });
  assert.match(full, /\[\d+\|account\/save-as\] btn "Save As…"/);
  // Every element can be targeted from the text: the handles read back to the refs.
  const byId = new Map(all(root).map((e) => [e.i, e]));
  const targets = agentTargets(text);
  assert.equal(targets.length, all(root).length);
  for (const t of targets) assert.equal(resolveRef(root, t.ref), byId.get(t.i!), t.ref);
});

Deno.test("handles: a run's row prints its id alone when its ref is its first text's slug", () => {
  const row = (first: string, name: string) => ({
    i: 0,
    r: "row" as const,
    c: [
      { i: 0, r: "cell" as const, t: first },
      { i: 0, r: "cell" as const, c: [{ i: 0, r: "lnk" as const, t: name }] },
      { i: 0, r: "cell" as const, c: [{ i: 0, r: "btn" as const, t: "Delete" }] },
    ],
  });
  const root: Element = {
    i: 0,
    r: "app",
    t: "Reports",
    c: [
      { i: 0, r: "table", t: "Files", c: [1, 2, 3, 4].map((k) => row(`Report ${k}`, "Open")) },
      {
        i: 0,
        r: "table",
        t: "Hits",
        c: ["Alpha", "Alpha", "Beta", "Gamma"].map((n, k) => row(`${k + 1}.`, n)),
      },
    ],
  };
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent", shortRefs: true });
  // Keyed by its first text: the id alone.
  assert.match(text, /^ {4}\[\d+\]: "Report 2" \| \[\d+\] \| \[\d+\]$/m, text);
  // An ordinal ("3.") never names a row: the link after it does, as it keys the row's ref.
  assert.match(text, /^ {4}\[\d+\]: "3\." \| \[\d+\] "Beta" \| \[\d+\]$/m, text);
  // A twin: the ref is printed.
  assert.match(text, /^ {4}\[\d+\|alpha\.2\]: "2\." /m, text);
  const byId = new Map(all(root).map((e) => [e.i, e]));
  const targets = agentTargets(text);
  assert.equal(targets.length, all(root).filter((e) => e.r !== "cell").length, text);
  for (const t of targets) assert.equal(resolveRef(root, t.ref), byId.get(t.i!), t.ref);
});

Deno.test("handles: cells of a row folded onto one line are read back too", () => {
  const root: Element = {
    i: 0,
    r: "app",
    t: "Release",
    c: [{
      i: 0,
      r: "list",
      t: "Steps",
      c: [
        {
          i: 0,
          r: "listitem",
          c: [{ i: 0, r: "txt", t: "Announce it" }, { i: 0, r: "btn", t: "Send draft" }],
        },
        { i: 0, r: "listitem", c: [{ i: 0, r: "chk", t: "Tag the release", chk: true }] },
      ],
    }],
  };
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent", shortRefs: true });
  assert.match(text, /listitem: "Announce it" \| \[\d+\] btn "Send draft"/, text);
  const byId = new Map(all(root).map((e) => [e.i, e]));
  const targets = agentTargets(text);
  assert.ok(targets.some((t) => t.ref === "send-draft"), JSON.stringify(targets));
  assert.ok(targets.some((t) => t.ref.endsWith("tag-the-release")), JSON.stringify(targets));
  for (const t of targets) assert.equal(resolveRef(root, t.ref), byId.get(t.i!), t.ref);
  assert.match(writeRefsOut(text), /\[\d+\|send-draft\] btn "Send draft"/);
});

Deno.test("handles: a row folded onto its line without a label is named by its first text", () => {
  const row = (cells: string[]) => ({
    i: 0,
    r: "row" as const,
    c: cells.map((t) => ({ i: 0, r: "cell" as const, t })),
  });
  const root: Element = {
    i: 0,
    r: "app",
    t: "Prices",
    c: [{
      i: 0,
      r: "table",
      t: "Boards",
      // Two rows only (no run), and rows that start with an ordinal or a bullet.
      c: [row(["Pi 5", "$80"]), row(["2.", "Rock 5B", "$129"]), row(["·", "Orange Pi", "$95"])],
    }],
  };
  assignIds(root);
  assignRefs(root);
  const text = renderElements(root, { format: "agent", shortRefs: true });
  assert.match(text, /^ {4}\[\d+\] row: "Pi 5" \| "\$80"$/m, text);
  assert.match(text, /^ {4}\[\d+\] row: "2\." \| "Rock 5B" \| "\$129"$/m, text);
  const byId = new Map(all(root).map((e) => [e.i, e]));
  const targets = agentTargets(text);
  assert.deepEqual(targets.map((t) => t.ref).slice(2), ["pi-5", "rock-5b", "orange-pi"]);
  for (const t of targets) assert.equal(resolveRef(root, t.ref), byId.get(t.i!), t.ref);
});
