import assert from "node:assert/strict";
import {
  clickRoutes,
  MENU_ACTIONS,
  parseNumber,
  parseToggle,
  pickAction,
  PRESS_ACTIONS,
  requireToggle,
  setValueRoute,
} from "../../src/act/policy.ts";
import { DesktopError } from "../../src/errors.ts";

const invalid = (e: unknown) => e instanceof DesktopError && e.code === "INVALID_ARGS";
const vias = (f: Parameters<typeof clickRoutes>[0]) => clickRoutes(f).map((r) => r.via);

Deno.test("policy: click routes are one decision for every backend", () => {
  const base = {
    button: "left" as const,
    count: 1,
    menuItem: false,
    buttonLike: true,
    actionBlocksOnModal: true,
  };
  // Where an action runs its handler inside the app's request (GTK 3), a button's press may
  // open a modal dialog there: the pointer first, where nothing covers the element.
  assert.deepEqual(vias(base), ["clear-pointer", "action", "pointer"]);
  assert.deepEqual(vias({ ...base, actionBlocksOnModal: false }), ["action", "pointer"]);
  // A cell's action activates it (a double click): the action, not a single click.
  assert.deepEqual(vias({ ...base, buttonLike: false }), ["action", "pointer"]);
  // A menu item whose action would run its handler inside the app's request: pointer first.
  assert.deepEqual(vias({ ...base, menuItem: true }), ["menu-pointer", "action", "pointer"]);
  assert.deepEqual(vias({ ...base, menuItem: true, actionBlocksOnModal: false }), [
    "action",
    "pointer",
  ]);
  // Right click: the context-menu action on both platforms, else the pointer.
  const right = clickRoutes({ ...base, button: "right" });
  assert.deepEqual(right.map((r) => r.via), ["action", "pointer"]);
  assert.equal(right[0].via === "action" && right[0].names, MENU_ACTIONS);
  assert.deepEqual(vias({ ...base, count: 2 }), ["pointer"]);
  assert.deepEqual(vias({ ...base, button: "middle" }), ["pointer"]);
});

Deno.test("policy: action names are picked case-insensitively in order of preference", () => {
  assert.equal(pickAction(["activate", "Click"], PRESS_ACTIONS), 1);
  assert.equal(pickAction(["AXShowMenu", "AXPress"], PRESS_ACTIONS), 1);
  assert.equal(pickAction(["AXShowMenu", "AXPress"], MENU_ACTIONS), 0);
  assert.equal(pickAction(["clipboard.copy", "menu.popup"], MENU_ACTIONS), 1);
  assert.equal(pickAction(["scroll"], PRESS_ACTIONS), -1);
});

Deno.test("policy: set-value arguments are read the same way everywhere", () => {
  assert.equal(parseToggle("On"), true);
  assert.equal(parseToggle("unchecked"), false);
  assert.equal(parseToggle("maybe"), undefined);
  assert.throws(() => requireToggle("maybe"), invalid);
  assert.equal(parseNumber(" -3.5 "), -3.5);
  for (const bad of ["", "abc", "Infinity", "1e999"]) {
    assert.throws(() => parseNumber(bad), invalid);
  }
});

Deno.test("policy: set-value routes are one decision for every backend", () => {
  const none = {
    toggle: false,
    number: false,
    text: false,
    keyboardText: false,
    selectable: false,
    options: false,
  };
  const box = { ...none, toggle: true, checked: false };
  assert.equal(setValueRoute(box, "true"), "toggle");
  assert.equal(setValueRoute(box, "off"), "unchanged");
  assert.throws(() => setValueRoute(box, "maybe"), invalid);
  const radio = { ...box, radio: true, checked: true };
  assert.throws(
    () => setValueRoute(radio, "false"),
    (e: unknown) => e instanceof DesktopError && e.code === "ACTION_NOT_SUPPORTED",
  );
  assert.equal(setValueRoute({ ...none, number: true, text: true }, "42"), "number");
  assert.throws(() => setValueRoute({ ...none, number: true }, "lots"), invalid);
  assert.equal(setValueRoute({ ...none, text: true, options: true }, "Ada"), "text");
  assert.equal(setValueRoute({ ...none, keyboardText: true }, "Ada"), "keys");
  assert.equal(setValueRoute({ ...none, selectable: true, options: true }, "true"), "selected");
  assert.equal(setValueRoute({ ...none, selectable: true, options: true }, "Japan"), "select");
  assert.throws(
    () => setValueRoute(none, "x"),
    (e: unknown) => e instanceof DesktopError && e.code === "ACTION_NOT_SUPPORTED",
  );
});

Deno.test("click policy: an item whose action opens it (GTK rows) is clicked with the pointer only", () => {
  const routes = clickRoutes({
    button: "left",
    count: 1,
    menuItem: false,
    itemActionIsNotAClick: true,
    actionBlocksOnModal: true,
  });
  assert.deepEqual(routes.map((r) => r.via), ["clear-pointer", "pointer"]);
  // A double click stays a pointer double click; a right click still prefers the menu action.
  const right = clickRoutes({
    button: "right",
    count: 1,
    menuItem: false,
    itemActionIsNotAClick: true,
    actionBlocksOnModal: true,
  });
  assert.equal(right[0].via, "action");
});
