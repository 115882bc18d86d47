/**
 * Exercises the pure modules with no permission at all. Run by
 * tests/integration/pure_no_permission_test.ts as `deno test --no-prompt` without
 * any --allow flag; any permission request fails this file.
 */

import assert from "node:assert/strict";
import { DesktopError, toDesktopError } from "../../../src/errors.ts";
import {
  assignIds,
  type Element,
  filterTree,
  flatten,
  parseRoles,
  roleFromAtspiCode,
  roleFromAx,
} from "../../../src/model/mod.ts";
import { assignRefs, resolveRef, resolveText, slug, validateRef } from "../../../src/refs/mod.ts";
import { diffTrees } from "../../../src/diff/mod.ts";
import {
  agentTargets,
  parseSnapshot,
  renderChanges,
  renderElements,
} from "../../../src/output/mod.ts";

function tree(value: string): Element {
  const root: Element = {
    i: 0,
    r: roleFromAtspiCode(75),
    t: "Demo",
    c: [{
      i: 0,
      r: roleFromAx("AXWindow", "AXStandardWindow"),
      t: "Demo",
      c: [{
        i: 0,
        r: "form",
        c: [
          { i: 0, r: "input", t: "Email", v: value },
          { i: 0, r: "input", t: "Password", sec: true },
          { i: 0, r: roleFromAtspiCode(43), t: "Submit" },
        ],
      }],
    }],
  };
  assignIds(root);
  assignRefs(root);
  return root;
}

Deno.test("pure modules run without any permission", () => {
  for (const name of ["read", "write", "env", "run", "ffi", "net", "sys"] as const) {
    assert.notEqual(Deno.permissions.querySync({ name }).state, "granted", name);
  }
  const before = tree("a@b.c");
  const after = tree("x@y.z");
  assert.equal(slug("Full Name"), "full-name");
  validateRef("form/email");
  assert.equal(resolveRef(before, "submit").t, "Submit");
  assert.equal(resolveText(before, { text: "Email" }).r, "input");
  assert.equal(flatten(before).length, 6);
  assert.equal(filterTree(before, { roles: parseRoles("interactive") }).kept, 6);
  const changes = diffTrees(before, after);
  assert.equal(changes.length, 1);
  assert.ok(renderChanges(changes, "agent").includes('~ [4|form/email] v: "a@b.c" -> "x@y.z"'));
  assert.ok(renderChanges(changes, "jsonl").startsWith("{"));
  const agent = renderElements(before, { format: "agent" });
  assert.ok(agent.includes("[6|form/submit] btn"));
  assert.deepEqual(agentTargets(agent).find((t) => t.i === 6), { i: 6, ref: "form/submit" });
  assert.ok(renderElements(before, { format: "yaml" }).includes("ref: form/email"));
  const json = renderElements(before, { format: "json", meta: { app: { name: "Demo", pid: 1 } } });
  assert.deepEqual(parseSnapshot(json).root, before);
  assert.equal(toDesktopError(new DesktopError("TIMEOUT", "t")).code, "TIMEOUT");
  assert.throws(() => parseSnapshot("{"), (e) => e instanceof DesktopError);
});
