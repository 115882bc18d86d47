import assert from "node:assert/strict";
import { DesktopError } from "../../src/errors.ts";
import type { Element, Role } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import {
  parseSnapshot,
  renderElements,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
} from "../../src/output/mod.ts";
import { assignRefs } from "../../src/refs/generate.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

function sample(): Element {
  const root = el("app", "Notes", [
    el("window", "Notes", [
      el("toolbar", undefined, [el("btn", "Save", undefined, { a: ["press"], b: [1, 2, 3, 4] })]),
      el("form", undefined, [
        el("input", "Title", undefined, { v: "Groceries", f: true, sel: [0, 9] }),
        el("input", "PIN", undefined, { sec: true }),
        el("chk", "Pinned", undefined, { chk: "mixed", e: false }),
        el("slider", "Zoom", undefined, { v: "1.5", min: 0.5, max: 4, exp: false }),
      ]),
    ], { b: [0, 0, 640, 480] }),
  ]);
  assignIds(root);
  assignRefs(root);
  return root;
}

const META = {
  app: { name: "Notes", pid: 4242, started: 1700000000000 },
  window: { id: 3, title: "Notes", app: "Notes", pid: 4242, b: [0, 0, 640, 480] },
  readAt: "2026-01-01T00:00:00.000Z",
};

/** Asserts SNAPSHOT_INVALID and that the message contains `fragment`. */
function invalid(text: string, fragment: string | RegExp): void {
  try {
    parseSnapshot(text);
  } catch (e) {
    assert.ok(e instanceof DesktopError, String(e));
    assert.equal(e.code, "SNAPSHOT_INVALID");
    assert.ok(e.suggestion);
    if (typeof fragment === "string") assert.ok(e.message.includes(fragment), e.message);
    else assert.match(e.message, fragment);
    return;
  }
  assert.fail(`accepted: ${text.slice(0, 100)}`);
}

/** A valid document with one key replaced. */
function doc(patch: Record<string, unknown>): string {
  const base = JSON.parse(renderElements(sample(), { format: "json", meta: META }));
  return JSON.stringify({ ...base, ...patch });
}

Deno.test("parseSnapshot: the json tree output loads back identical (minus nid)", () => {
  const root = sample();
  const snap = parseSnapshot(renderElements(root, { format: "json", meta: META }));
  assert.deepEqual(snap.root, root);
  assert.deepEqual(snap.app, META.app);
  assert.deepEqual(snap.window, META.window);
  assert.equal(snap.readAt, META.readAt);
});

Deno.test("parseSnapshot: the flat output rebuilds the same tree from pi", () => {
  const root = sample();
  const snap = parseSnapshot(renderElements(root, { format: "json", flat: true, meta: META }));
  assert.deepEqual(snap.root, root);
});

Deno.test("parseSnapshot: pretty JSON loads too; app may be a bare name; readAt defaults", () => {
  const text = renderElements(sample(), { format: "json", pretty: true, meta: { app: "Notes" } });
  const snap = parseSnapshot(text);
  assert.deepEqual(snap.app, { name: "Notes", pid: 0 });
  assert.equal(snap.readAt, "");
  assert.equal(snap.window, undefined);
});

Deno.test("parseSnapshot: a secure value in a file is dropped", () => {
  const text = doc({
    root: { i: 1, r: "input", t: "PIN", sec: true, v: "1234" },
  });
  const snap = parseSnapshot(text);
  assert.equal(snap.root.v, undefined);
  assert.equal(snap.root.sec, true);
});

Deno.test("parseSnapshot: unknown keys are ignored", () => {
  const snap = parseSnapshot(doc({ root: { i: 1, r: "btn", zz: 1 }, extra: true }));
  assert.deepEqual(snap.root, { i: 1, r: "btn" });
});

Deno.test("parseSnapshot: corrupt, truncated and empty files", () => {
  const good = renderElements(sample(), { format: "json", meta: META });
  invalid("", "empty");
  invalid("   \n", "empty");
  invalid(good.slice(0, good.length / 2), "truncated");
  invalid("{not json", "not JSON");
  invalid("[1,2]", "expected a JSON object");
  invalid("null", "expected a JSON object");
});

Deno.test("parseSnapshot: wrong format or version", () => {
  invalid(doc({ format: "something-else" }), 'format is not "desktop-snapshot"');
  invalid(doc({ format: undefined }), 'no "format" key');
  invalid(doc({ version: 2 }), "newer");
  invalid(doc({ version: "1" }), "version is");
  invalid(doc({ version: undefined }), "version is");
});

Deno.test("parseSnapshot: missing or malformed top-level keys", () => {
  invalid(doc({ root: undefined }), "no root element");
  invalid(doc({ app: undefined }), "app is missing");
  invalid(doc({ app: 5 }), "app must be an object");
  invalid(doc({ app: { pid: 1 } }), "app.name");
  invalid(doc({ app: { name: "x", pid: -1 } }), "app.pid");
  invalid(doc({ window: { id: 1 } }), "window.title");
  invalid(doc({ window: 7 }), "window must be an object");
  invalid(doc({ readAt: 5 }), "readAt must be a string");
  invalid(doc({ elements: [] }), "both root and elements");
});

Deno.test("parseSnapshot: every element key is type-checked, with its place", () => {
  const cases: Array<[unknown, string | RegExp]> = [
    [5, "root must be an element object"],
    [{ r: "btn" }, "root.i (id) is missing"],
    [{ i: 1 }, "root.r (role) is missing"],
    [{ i: 1, r: "button" }, /root\.r is not a role \(app, window/],
    [{ i: -1, r: "btn" }, "root.i must be a non-negative integer"],
    [{ i: 1.5, r: "btn" }, "root.i must be a non-negative integer"],
    [{ i: 1, r: "btn", t: 5 }, "root.t must be a string"],
    [{ i: 1, r: "btn", v: false }, "root.v must be a string"],
    [{ i: 1, r: "btn", b: [1, 2, 3] }, "root.b must be [x, y, w, h]"],
    [{ i: 1, r: "btn", b: [1, 2, 3, "4"] }, "root.b must be [x, y, w, h]"],
    [{ i: 1, r: "btn", b: "1,2,3,4" }, "root.b must be [x, y, w, h]"],
    [{ i: 1, r: "btn", f: "yes" }, "root.f must be true or false"],
    [{ i: 1, r: "chk", chk: "half" }, "root.chk must be"],
    [{ i: 1, r: "slider", min: "0" }, "root.min must be a number"],
    [{ i: 1, r: "btn", a: "press" }, "root.a must be a list"],
    [{ i: 1, r: "btn", a: [1] }, "root.a must be a list"],
    [{ i: 1, r: "app", c: {} }, "root.c must be a list of elements"],
    [{ i: 1, r: "app", c: [{ i: 2, r: "btn" }, { i: 3, r: "btn", b: [0] }] }, "root.c[1].b"],
    [{ i: 1, r: "app", c: [{ i: 2, r: "group", c: [null] }] }, "root.c[0].c[0] must be an element"],
  ];
  for (const [root, fragment] of cases) invalid(doc({ root }), fragment);
});

Deno.test("parseSnapshot: flat form checks parents", () => {
  const flat = (elements: unknown) => doc({ root: undefined, elements });
  invalid(flat([]), "elements is empty");
  invalid(flat({}), "elements must be a list");
  invalid(flat([{ i: 1, r: "app" }, { i: 2, r: "btn" }]), "only the first element may be the root");
  invalid(flat([{ i: 1, r: "app", pi: 0 }]), "must not have a parent");
  invalid(flat([{ i: 1, r: "app" }, { i: 2, r: "btn", pi: 9 }]), "does not name an earlier");
  invalid(flat([{ i: 1, r: "app" }, { i: 1, r: "btn", pi: 1 }]), "used twice");
  const ok = parseSnapshot(flat([
    { i: 1, r: "app" },
    { i: 2, r: "form", pi: 1 },
    { i: 3, r: "btn", t: "A", pi: 2, p: "form" },
    { i: 4, r: "btn", t: "B", pi: 1 },
  ]));
  assert.deepEqual(ok.root, {
    i: 1,
    r: "app",
    c: [{ i: 2, r: "form", c: [{ i: 3, r: "btn", t: "A" }] }, { i: 4, r: "btn", t: "B" }],
  });
});

Deno.test("parseSnapshot: absurd nesting is rejected, not a crash", () => {
  let node: Record<string, unknown> = { i: 1, r: "btn" };
  for (let k = 0; k < 2500; k++) node = { i: 1, r: "group", c: [node] };
  invalid(doc({ root: node }), "nested deeper");
});

Deno.test("snapshot constants", () => {
  assert.equal(SNAPSHOT_FORMAT, "desktop-snapshot");
  assert.equal(SNAPSHOT_VERSION, 1);
});

Deno.test("parseSnapshot: a selection is two offsets, start first; a secure field keeps none", () => {
  const withSel = (sel: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      app: "Notes",
      root: { i: 1, r: "input", t: "Body", sel, ...extra },
    });
  assert.deepEqual(parseSnapshot(withSel([3, 8])).root.sel, [3, 8]);
  assert.equal(parseSnapshot(withSel([3, 8], { sec: true })).root.sel, undefined);
  invalid(withSel([8, 3]), ".sel must be [start, end]");
  invalid(withSel("3..8"), ".sel must be [start, end]");
});
