import assert from "node:assert/strict";
import { classifyNativeError, nativeError, noBusError } from "../../src/platform/linux/errors.ts";
import { callTimeoutFor } from "../../src/platform/linux/provider.ts";
import { pickClickAction } from "../../src/platform/linux/act.ts";
import { parseNumber, parseToggle } from "../../src/act/policy.ts";
import { DesktopError } from "../../src/errors.ts";

Deno.test("linux errors: D-Bus failures map to codes", () => {
  const cases: Array<[string, string]> = [
    ["Did not receive a reply. Possible causes include: ...", "APP_UNRESPONSIVE"],
    ["org.freedesktop.DBus.Error.NoReply", "APP_UNRESPONSIVE"],
    ["The name :1.42 was not provided by any .service files", "STALE_REF"],
    ["org.freedesktop.DBus.Error.UnknownObject: Unknown object '/x'", "STALE_REF"],
    ["The application no longer exists", "APP_NOT_FOUND"],
    ["something else entirely", "ACTION_FAILED"],
  ];
  for (const [msg, want] of cases) {
    assert.equal(classifyNativeError(msg, "ACTION_FAILED"), want, msg);
  }
  const err = nativeError("click", "NoReply", "INTERNAL");
  assert.equal(err.code, "APP_UNRESPONSIVE");
  assert.ok(err.suggestion);
});

Deno.test("linux errors: a missing bus says how to start one", () => {
  const err = noBusError("no address");
  assert.equal(err.code, "PERMISSION_DENIED");
  assert.match(err.suggestion ?? "", /at-spi-bus-launcher/);
  assert.match(err.suggestion ?? "", /ACCESSIBILITY_ENABLED=1/);
});

Deno.test("linux: the per-call timeout stays well inside the deadline", () => {
  for (const t of [50, 400, 2000, 10000, 60000]) {
    const c = callTimeoutFor(t);
    assert.ok(c >= 100 && c <= 3000, `${t} -> ${c}`);
    if (t >= 400) assert.ok(c * 3 < t + 1, `${t} -> ${c}`);
  }
});

Deno.test("linux act: click prefers the element's own press-like action", () => {
  assert.equal(pickClickAction(["showContextMenu", "press"]), 1);
  assert.equal(pickClickAction(["Toggle", "click"]), 1);
  assert.equal(pickClickAction(["activate", "toggle"]), 0);
  assert.equal(pickClickAction(["showContextMenu"]), -1);
  assert.equal(pickClickAction([]), -1);
});

Deno.test("linux act: set-value arguments parse or fail with INVALID_ARGS", () => {
  assert.equal(parseToggle("TRUE"), true);
  assert.equal(parseToggle("off"), false);
  assert.equal(parseToggle("maybe"), undefined);
  assert.equal(parseNumber(" 42.5 "), 42.5);
  for (const bad of ["", "abc", "1e999", "NaN"]) {
    try {
      parseNumber(bad);
      assert.fail(bad);
    } catch (e) {
      assert.ok(e instanceof DesktopError);
      assert.equal(e.code, "INVALID_ARGS");
    }
  }
});
