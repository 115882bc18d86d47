import assert from "node:assert/strict";
import { DesktopError, type ErrorCode } from "../../src/errors.ts";
import type { Element, Role } from "../../src/model/element.ts";
import { assignIds } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import {
  editDistance,
  findById,
  findElements,
  resolveRef,
  resolveText,
  validateRef,
} from "../../src/refs/resolve.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

/** Asserts that `fn` throws a DesktopError with `code`, and returns it. */
function throwsCode(fn: () => unknown, code: ErrorCode): DesktopError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DesktopError, `expected DesktopError, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.ok(e.suggestion, "every error carries a suggestion");
    return e;
  }
  assert.fail(`expected ${code}`);
}

/** The app of seed 000, refs and ids assigned. */
function app(): Element {
  const root = el("app", "Safari", [
    el("window", "Safari", [
      el("toolbar", undefined, [el("input", "Search"), el("btn", "Back")]),
      el("form", undefined, [
        el("input", "Full Name"),
        el("input", "Email", undefined, { b: [100, 140, 200, 30] }),
        el("btn", "Submit"),
        el("btn", "Resubmit"),
      ]),
      el("dialog", undefined, [el("btn", "OK"), el("btn", "OK"), el("btn", "Cancel")]),
      el("group", "Sidebar", [el("lnk", "Inbox 23288 unread", [el("txt", "Inbox 23288 unread")])]),
      el("group", "Other", [el("btn", "Help"), el("btn", "Save")]),
      el("group", "More", [el("btn", "Help"), el("btn", "Save As…"), el("btn", "Save As Copy")]),
      el("input", "Password", undefined, { sec: true }),
    ]),
  ]);
  assignIds(root);
  assignRefs(root);
  return root;
}

Deno.test("resolveRef: exact refs resolve", () => {
  const root = app();
  const cases: Array<[string, Role, string]> = [
    ["toolbar/search", "input", "Search"],
    ["form/full-name", "input", "Full Name"],
    ["form/email", "input", "Email"],
    ["dialog/ok.1", "btn", "OK"],
    ["dialog/ok.2", "btn", "OK"],
    ["sidebar/inbox-23288-unread", "lnk", "Inbox 23288 unread"],
    ["Form/Email", "input", "Email"],
  ];
  for (const [ref, r, t] of cases) {
    const found = resolveRef(root, ref);
    assert.equal(found.r, r, ref);
    assert.equal(found.t, t, ref);
  }
  assert.notEqual(resolveRef(root, "dialog/ok.1"), resolveRef(root, "dialog/ok.2"));
});

Deno.test("resolveRef: a unique suffix on a segment boundary resolves", () => {
  const root = app();
  assert.equal(resolveRef(root, "submit").t, "Submit");
  assert.equal(resolveRef(root, "resubmit").t, "Resubmit");
  assert.equal(resolveRef(root, "email").t, "Email");
  assert.equal(resolveRef(root, "ok.2"), resolveRef(root, "dialog/ok.2"));
  assert.equal(resolveRef(root, "inbox-23288-unread").r, "lnk");
});

Deno.test("resolveRef: a suffix never matches inside a segment", () => {
  const root = app();
  const err = throwsCode(() => resolveRef(root, "mit"), "ELEMENT_NOT_FOUND");
  assert.ok(err.candidates?.length);
});

Deno.test("resolveRef: a bare duplicate is ambiguous, listing both", () => {
  const root = app();
  const err = throwsCode(() => resolveRef(root, "dialog/ok"), "AMBIGUOUS_TARGET");
  assert.deepEqual(err.candidates?.map((c) => "ref" in c ? c.ref : ""), [
    "dialog/ok.1",
    "dialog/ok.2",
  ]);
  throwsCode(() => resolveRef(root, "ok"), "AMBIGUOUS_TARGET");
});

Deno.test("resolveRef: a suffix shared by several refs is ambiguous", () => {
  const root = app();
  const err = throwsCode(() => resolveRef(root, "help"), "AMBIGUOUS_TARGET");
  const refs = err.candidates!.map((c) => "ref" in c ? c.ref : "");
  assert.deepEqual(refs.sort(), ["more/help", "other/help"]);
  for (const c of err.candidates!) {
    assert.ok("r" in c && c.r === "btn");
    assert.ok("i" in c && typeof c.i === "number");
    assert.ok("t" in c && c.t === "Help");
  }
});

Deno.test("resolveRef: not found lists the nearest candidates first, at most 10", () => {
  const root = app();
  const err = throwsCode(() => resolveRef(root, "form/emial"), "ELEMENT_NOT_FOUND");
  const first = err.candidates![0];
  assert.ok("ref" in first && first.ref === "form/email");
  assert.ok("b" in first && first.b?.[0] === 100);
  assert.ok(err.candidates!.length <= 10);
  const renamed = throwsCode(() => resolveRef(root, "dialog/okay"), "ELEMENT_NOT_FOUND");
  const top2 = renamed.candidates!.slice(0, 2).map((c) => "ref" in c ? c.ref : "");
  assert.deepEqual(top2, ["dialog/ok.1", "dialog/ok.2"]);
});

Deno.test("validateRef: malformed refs are INVALID_ARGS", () => {
  const bad = [
    "",
    "   ",
    "/form/email",
    "form/email/",
    "form//email",
    "form/ /email",
    "form/full name",
    "dialog/ok.0",
    "dialog/ok.x",
    "dialog/ok.01",
    "dialog/ok.",
    "dialog/.2",
    "x".repeat(501),
  ];
  for (const ref of bad) {
    throwsCode(() => validateRef(ref), "INVALID_ARGS");
    throwsCode(() => resolveRef(app(), ref), "INVALID_ARGS");
  }
  for (const ref of ["form/email", "dialog/ok.2", "ツールバー/開く", "x".repeat(500), "btn"]) {
    validateRef(ref);
  }
});

Deno.test("findElements: substring on label, description and value; never secure values", () => {
  const root = el("form", undefined, [
    el("input", "Name", undefined, { v: "Ada Lovelace" }),
    el("input", "Password", undefined, { sec: true, v: "lovelace" }),
    el("btn", undefined, undefined, { d: "Send the form" }),
  ]);
  assignIds(root);
  assert.deepEqual(findElements(root, { text: "lovelace" }).map((e) => e.t), ["Name"]);
  assert.equal(findElements(root, { text: "SEND" }).length, 1);
  assert.equal(findElements(root, { roles: new Set<Role>(["input"]) }).length, 2);
  assert.equal(findElements(root, { text: "name", exact: true }).length, 1);
  assert.equal(findElements(root, { text: "nam", exact: true }).length, 0);
});

Deno.test("resolveText: one match resolves; never the first of several", () => {
  const root = app();
  assert.equal(resolveText(root, { text: "Full" }).t, "Full Name");
  // A full-label match wins over labels that only contain the text.
  assert.equal(resolveText(root, { text: "save" }).t, "Save");
  // The link's own text child is not a second match.
  assert.equal(resolveText(root, { text: "inbox" }).r, "lnk");
  const amb = throwsCode(() => resolveText(root, { text: "OK" }), "AMBIGUOUS_TARGET");
  assert.equal(amb.candidates?.length, 2);
  const save = throwsCode(() => resolveText(root, { text: "Save As" }), "AMBIGUOUS_TARGET");
  assert.equal(save.candidates?.length, 2);
  throwsCode(() => resolveText(root, { text: "Help" }), "AMBIGUOUS_TARGET");
});

Deno.test("resolveText: exact mode compares full labels", () => {
  const root = app();
  assert.equal(resolveText(root, { text: "save as…", exact: true }).t, "Save As…");
  const err = throwsCode(
    () => resolveText(root, { text: "Save As", exact: true }),
    "ELEMENT_NOT_FOUND",
  );
  assert.ok(err.candidates?.length, "loose matches are offered");
  throwsCode(() => resolveText(root, { text: "OK", exact: true }), "AMBIGUOUS_TARGET");
});

Deno.test("resolveText: roles narrow the matches; errors for none and empty text", () => {
  const root = app();
  assert.equal(resolveText(root, { text: "Inbox", roles: new Set<Role>(["lnk"]) }).r, "lnk");
  const none = throwsCode(
    () => resolveText(root, { text: "Submit", roles: new Set<Role>(["chk"]) }),
    "ELEMENT_NOT_FOUND",
  );
  assert.ok(none.candidates?.length, "matches of other roles are offered");
  throwsCode(() => resolveText(root, { text: "nothing like this" }), "ELEMENT_NOT_FOUND");
  throwsCode(() => resolveText(root, { text: "  " }), "INVALID_ARGS");
  throwsCode(() => resolveText(root, {}), "INVALID_ARGS");
});

Deno.test("findById: finds by numeric id, undefined when absent", () => {
  const root = app();
  assert.equal(findById(root, 1), root);
  assert.equal(findById(root, 4)?.t, "Search");
  assert.equal(findById(root, 9999), undefined);
});

Deno.test("editDistance: classic cases", () => {
  const cases: Array<[string, string, number]> = [
    ["", "", 0],
    ["abc", "", 3],
    ["kitten", "sitting", 3],
    ["submit", "sumbit", 2],
    ["ok", "ok", 0],
  ];
  for (const [a, b, d] of cases) assert.equal(editDistance(a, b), d, `${a}/${b}`);
});

Deno.test("resolveRef: a duplicated ref never falls through to another element's suffix", () => {
  const root = el("window", "W", [
    el("dialog", undefined, [el("btn", "OK"), el("btn", "OK")]),
    el("group", "Settings", [el("dialog", undefined, [el("btn", "OK")])]),
  ]);
  assignIds(root);
  assignRefs(root);
  const err = throwsCode(() => resolveRef(root, "dialog/ok"), "AMBIGUOUS_TARGET");
  assert.deepEqual(err.candidates?.map((c) => "ref" in c ? c.ref : ""), [
    "settings/dialog/ok",
    "dialog/ok.1",
    "dialog/ok.2",
  ]);
  assert.equal(resolveRef(root, "settings/dialog/ok").i, 7);
});

Deno.test("resolveRef: seed 000 partial match of a deeper ref", () => {
  const root = el("window", "W", [
    el("dialog", undefined, [el("form", undefined, [el("btn", "Submit")]), el("btn", "Cancel")]),
  ]);
  assignIds(root);
  assignRefs(root);
  assert.equal(resolveRef(root, "submit").ref, "dialog/form/submit");
  assert.equal(resolveRef(root, "form/submit").ref, "dialog/form/submit");
  assert.equal(resolveRef(root, "dialog/cancel").t, "Cancel");
});

Deno.test("resolveRef: an index that no longer exists is not found, never guessed", () => {
  const root = el("window", "W", [el("dialog", undefined, [el("btn", "OK")])]);
  assignIds(root);
  assignRefs(root);
  const err = throwsCode(() => resolveRef(root, "dialog/ok.2"), "ELEMENT_NOT_FOUND");
  assert.ok(err.suggestion?.includes("dialog/ok"), err.suggestion);
  assert.equal("ref" in err.candidates![0] ? err.candidates![0].ref : "", "dialog/ok");
});
