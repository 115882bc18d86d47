import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { foldLabels } from "../../src/model/semantics.ts";
import { assignIds } from "../../src/model/tree.ts";
import { agentTargets } from "../../src/output/agent_parse.ts";
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
