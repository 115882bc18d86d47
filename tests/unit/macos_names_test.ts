import assert from "node:assert/strict";
import { friendlyAction, matchAction } from "../../src/platform/macos/action_names.ts";
import { grantHolder, permissionDenied } from "../../src/platform/macos/permission.ts";
import { looksEmpty, looksLikeChromium } from "../../src/platform/macos/chromium.ts";

Deno.test("macos action names: AX names read as short kebab-case names", () => {
  const table: [string, string][] = [
    ["AXPress", "press"],
    ["AXShowMenu", "show-menu"],
    ["AXScrollToVisible", "scroll-to-visible"],
    ["AXShowDefaultUI", "show-default-ui"],
    ["AXIncrement", "increment"],
    ["Name:Delete\nTarget:0x0\nSelector:(null)", "Delete"],
    ["customThing", "custom-thing"],
  ];
  for (const [ax, friendly] of table) assert.equal(friendlyAction(ax), friendly, ax);
});

Deno.test("macos action names: user names match raw, friendly or AX-prefixed forms", () => {
  const available = ["AXPress", "AXShowMenu", "Name:Delete\nTarget:0x0"];
  const table: [string, string | undefined][] = [
    ["press", "AXPress"],
    ["AXPress", "AXPress"],
    ["PRESS", "AXPress"],
    ["show-menu", "AXShowMenu"],
    ["showmenu", "AXShowMenu"],
    ["delete", "Name:Delete\nTarget:0x0"],
    ["increment", undefined],
  ];
  for (const [name, ax] of table) assert.equal(matchAction(name, available), ax, name);
});

Deno.test("macos permission: the grant holder comes from TERM_PROGRAM or the bundle id", () => {
  const table: [Record<string, string>, string][] = [
    [{ TERM_PROGRAM: "Apple_Terminal" }, "Terminal"],
    [{ TERM_PROGRAM: "iTerm.app" }, "iTerm"],
    [{ TERM_PROGRAM: "vscode" }, "Visual Studio Code"],
    [
      { __CFBundleIdentifier: "com.mitchellh.ghostty" },
      "the app with bundle id com.mitchellh.ghostty",
    ],
    [{ TERM_PROGRAM: "SomethingNew" }, "SomethingNew"],
    [{}, "the terminal app that runs deno"],
  ];
  for (const [env, holder] of table) assert.equal(grantHolder((k) => env[k]), holder);
  const err = permissionDenied("iTerm", "test");
  assert.equal(err.code, "PERMISSION_DENIED");
  assert.match(err.message, /Privacy & Security > Accessibility/);
});

Deno.test("macos chromium: known Chromium and Electron apps are recognised by name", () => {
  for (
    const name of ["Google Chrome", "Chromium", "Slack", "Visual Studio Code", "Code", "Discord"]
  ) {
    assert.ok(looksLikeChromium(name), name);
  }
  for (const name of ["Finder", "Safari", "Xcode", "Mail", "Notes"]) {
    assert.ok(!looksLikeChromium(name), name);
  }
});

Deno.test("macos chromium: only an empty web area makes a tree look switched off", () => {
  const table: [unknown, boolean][] = [
    [{ i: 1, r: "app", c: [{ i: 2, r: "window", c: [{ i: 3, r: "web" }] }] }, true],
    [{
      i: 1,
      r: "app",
      c: [{ i: 2, r: "window", c: [{ i: 3, r: "web", c: [{ i: 4, r: "btn" }] }] }],
    }, false],
    [{ i: 1, r: "app", c: [{ i: 2, r: "window" }] }, false],
    [{ i: 1, r: "app" }, false],
  ];
  for (const [tree, empty] of table) {
    assert.equal(looksEmpty(tree as Parameters<typeof looksEmpty>[0]), empty, JSON.stringify(tree));
  }
});
