import assert from "node:assert/strict";
import { assertClean, shim } from "../e2e/macos_shim_helpers.ts";
import { libraryPaths, openMacosLibraries } from "../../src/ffi/macos/libraries.ts";
import type { CFOwned } from "../../src/ffi/macos/cf.ts";
import { AxSession } from "../../src/platform/macos/session.ts";
import { AX_ERROR } from "../../src/ffi/macos/ax_error.ts";

function withSession(fn: (s: AxSession) => void): void {
  shim.reset("browser");
  const s = new AxSession(openMacosLibraries(libraryPaths(Deno.env.get("DESKTOP_AX_SHIM"))), 2000);
  try {
    fn(s);
  } finally {
    s.close();
  }
  assertClean();
}

/** Breadth-first search by placeholder text; returns an owned element. */
function findByPlaceholder(s: AxSession, root: CFOwned, text: string): CFOwned | undefined {
  const queue: CFOwned[] = [s.cf.retain(root.ptr)];
  let found: CFOwned | undefined;
  while (queue.length) {
    using el = queue.shift()!;
    if (!found && s.read(el.ptr, "AXPlaceholderValue").value === text) found = s.cf.retain(el.ptr);
    const kids = s.copy(el.ptr, "AXChildren");
    if (kids.value) {
      using arr = kids.value;
      for (const k of s.cf.arrayItems(arr.ptr)) if (k) queue.push(s.cf.retain(k));
    }
  }
  return found;
}

Deno.test("macos session: batched reads give values and per-slot errors by position", () => {
  withSession((s) => {
    using app = s.appElement(501);
    using email = findByPlaceholder(s, app, "you@example.com")!;
    assert.ok(email);
    const r = s.copyMany(
      email.ptr,
      ["AXRole", "AXNoSuchThing", "AXHelp", "AXRequired"],
      (slots) => slots.map((sl) => ("ptr" in sl ? s.toJs(sl.ptr) : { error: sl.error })),
    );
    assert.equal(r.err, 0);
    assert.deepEqual(r.result, [
      "AXTextField",
      { error: AX_ERROR.AttributeUnsupported },
      { error: AX_ERROR.NoValue },
      true,
    ]);
  });
});

Deno.test("macos session: a batched read of a vanished element returns its error", () => {
  withSession((s) => {
    using app = s.appElement(501);
    shim.removeApp(501);
    const r = s.copyMany(app.ptr, ["AXRole"], () => "unreached");
    assert.equal(r.err, AX_ERROR.CannotComplete);
    assert.equal(r.result, undefined);
    assert.equal(s.appError(r.err, 501, { op: "read" }).code, "APP_NOT_FOUND");
  });
});

Deno.test("macos session: the messaging timeout is set process-wide from the deadline", () => {
  withSession((s) => {
    using app = s.appElement(501);
    shim.setHang(501, 5000);
    const { err } = s.copy(app.ptr, "AXRole");
    // With the default ~6 s timeout a 5 s stall would still answer; the session's
    // timeout (a quarter of the 2000 ms deadline, clamped to 0.25-1 s) cuts it short.
    assert.equal(err, AX_ERROR.CannotComplete);
    assert.equal(s.appError(err, 501, { op: "read", app: "Safari" }).code, "APP_UNRESPONSIVE");
  });
});
