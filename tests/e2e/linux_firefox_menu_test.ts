/**
 * Reading Firefox ESR while its File menu is open leaves it running: the
 * reader once asked for every action's description and key binding
 * (`Action.GetActions`), and Firefox aborted building that reply for the
 * open menu's items (libdbus invalid-UTF-8 assertion).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Snapshot } from "../../src/model/element.ts";
import { cli } from "../harness/gtk_suite.ts";
import { alive, hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { allElements, eventually } from "../harness/tree.ts";

async function read(d: TestDesktop): Promise<Snapshot> {
  return JSON.parse(await cli(d, ["read", "--app", d.appName, "--format", "json"])) as Snapshot;
}

/** The items of the expanded File menu in a read ([] when it is closed). */
function fileMenuItems(snap: Snapshot): string[] {
  const file = allElements(snap.root).find((e) => e.r === "menu" && e.t === "File");
  if (!file?.exp) return [];
  return (file.c ?? []).filter((c) => c.r === "menuitem").map((c) => c.t ?? "");
}

Deno.test({
  name: "firefox-esr: repeated reads with the File menu open leave Firefox running",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "firefox-esr", registerTimeoutMs: 90000 });
    await eventually("a first read", () => read(d), 30000);
    // Open the menu as a user does, from the keyboard (a press can be lost
    // while the window is still settling: press again after a while).
    let open = false;
    for (let attempt = 0; attempt < 3 && !open; attempt++) {
      await new Deno.Command("xdotool", { args: ["key", "alt+f"], env: d.env, clearEnv: true })
        .output();
      open = await eventually("the File menu to open", async () => {
        return fileMenuItems(await read(d)).length > 0 ? true : undefined;
      }, 10000).catch(() => false);
    }
    assert.ok(open, "the File menu opened");
    for (let i = 0; i < 5; i++) {
      const snap = await read(d);
      assert.ok(alive(d.pid), `Firefox died during read ${i + 1}; its log:\n${d.appLog()}`);
      assert.ok(fileMenuItems(snap).includes("Quit"), `read ${i + 1} shows the open File menu`);
    }
    assert.doesNotMatch(d.appLog(), /invalid UTF-8|_dbus_check_is_valid_utf8/);
  },
});
