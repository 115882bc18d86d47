/**
 * Wayland on a wlroots compositor: headless sway (as an unprivileged user
 * when the tests run as root), apps on their Wayland backends, no X server.
 * The wlroots input delegate types into a GTK 3 entry and clicks a check box
 * with the virtual pointer at the point sway's IPC maps the box to; the
 * screencopy capture shows the window. The witness is pyatspi.
 */

import assert from "node:assert/strict";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { hasSway, startSway, type SwayDesktop } from "../harness/wayland_sway.ts";
import { eventually } from "../harness/tree.ts";
import {
  closeWlroots,
  wlrootsCapture,
  wlrootsInput,
} from "../../src/platform/linux/wayland/wlroots.ts";
import { swayWindowOrigin } from "../../src/platform/linux/wayland/sway_ipc.ts";

/** A GTK 3 form: an entry and a check box. */
const GTK3_FORM = `
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
win = Gtk.Window(title="Sway Form")
win.connect("destroy", Gtk.main_quit)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
entry = Gtk.Entry()
entry.get_accessible().set_name("Name")
box.pack_start(entry, False, False, 0)
box.pack_start(Gtk.CheckButton(label="Subscribe"), False, False, 0)
win.add(box)
win.show_all()
Gtk.main()
`;

/** Points this process's Wayland client at the session. */
function useSession(d: SwayDesktop): void {
  closeWlroots();
  Deno.env.set("WAYLAND_DISPLAY", d.waylandSocket);
  Deno.env.set("SWAYSOCK", d.swaysock);
}

/** The entry's text, by pyatspi. */
function entryText(d: SwayDesktop): Promise<string> {
  return pyatspiJson<string>(
    d,
    `print(json.dumps(next(o for o in walk(app) if o.getRoleName() == "text").queryText().getText(0, -1)))`,
  );
}

/** Whether the check box is checked, by pyatspi. */
function checked(d: SwayDesktop): Promise<boolean> {
  return pyatspiJson<boolean>(
    d,
    `print(json.dumps(next(o for o in walk(app) if o.getRoleName() == "check box").getState().contains(pyatspi.STATE_CHECKED)))`,
  );
}

/** The centre of the first element of a role, window-relative, by pyatspi. */
function centreOf(d: SwayDesktop, role: string): Promise<{ x: number; y: number }> {
  return pyatspiJson<{ x: number; y: number }>(
    d,
    `
e = next(o for o in walk(app) if o.getRoleName() == ${
      JSON.stringify(role)
    }).queryComponent().getExtents(pyatspi.WINDOW_COORDS)
print(json.dumps({"x": e.x + e.width // 2, "y": e.y + e.height // 2}))
`,
  );
}

/** A window-relative point on the screen, through sway's IPC. */
async function onScreen(
  d: SwayDesktop,
  p: { x: number; y: number },
): Promise<{ x: number; y: number }> {
  const origin = await swayWindowOrigin(d.pid, "Sway Form");
  assert.ok(origin, "sway shows the app's window");
  return { x: origin.x + p.x, y: origin.y + p.y };
}

Deno.test({
  name:
    "wayland (sway): wlroots input types into a GTK 3 entry, clicks a check box by a mapped point; screencopy shows it",
  ignore: Deno.build.os !== "linux" || !hasSway(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startSway({ cmd: ["/usr/bin/python3", "-c", GTK3_FORM] });
    assert.equal(d.env.DISPLAY, undefined, "no X display in this session");
    useSession(d);
    try {
      const input = wlrootsInput();
      assert.equal(input.name, "wlroots");

      input.click(await onScreen(d, await centreOf(d, "text")), "left", 1);
      input.type("Hello Wörld €");
      await eventually(
        "the typed text",
        async () => (await entryText(d)) === "Hello Wörld €" || undefined,
        10_000,
      );

      input.key({ mods: ["ctrl"], key: "a" }, 1);
      input.type("x\t");
      await eventually(
        "the replaced text",
        async () => (await entryText(d)) === "x" || undefined,
        10_000,
      );

      assert.equal(await checked(d), false);
      input.click(await onScreen(d, await centreOf(d, "check box")), "left", 1);
      await eventually("the checked box", async () => (await checked(d)) || undefined, 10_000);

      assert.throws(() => input.key({ mods: ["fn"], key: "a" }, 1), /fn/);

      const shot = wlrootsCapture();
      assert.deepEqual(shot.region, [0, 0, 1280, 800]);
      assert.equal(shot.image.data.length, 1280 * 800 * 4);
      const colours = new Set<number>();
      for (let i = 0; i < shot.image.data.length; i += 4 * 97) {
        colours.add(
          (shot.image.data[i] << 16) | (shot.image.data[i + 1] << 8) | shot.image.data[i + 2],
        );
      }
      assert.ok(colours.size > 4, `the screenshot shows the window (${colours.size} colours)`);
      const part = wlrootsCapture([10, 20, 100, 50]);
      assert.deepEqual(part.region, [10, 20, 100, 50]);
      assert.equal(part.image.width, 100);
      assert.equal(part.image.height, 50);
    } finally {
      closeWlroots();
    }
  },
});
