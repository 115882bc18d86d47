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
import {
  swayRequest,
  swayRequestSync,
  swayWindowOrigin,
  swayWindowOriginSync,
  windowsOfTree,
} from "../../src/platform/linux/wayland/sway_ipc.ts";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { DesktopError } from "../../src/errors.ts";

/** Whether a file exists. */
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A GTK 3 form: an entry, a check box and a long scrolled list. */
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
scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
scale.get_accessible().set_name("Volume")
box.pack_start(scale, False, False, 0)
rows = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
for i in range(200):
    rows.pack_start(Gtk.Label(label=f"Row {i}"), False, False, 0)
scroller = Gtk.ScrolledWindow()
scroller.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.ALWAYS)
scroller.add(rows)
box.pack_start(scroller, True, True, 0)
win.add(box)
win.show_all()
Gtk.main()
`;

/** A GTK 4 form: an entry and a check box. */
const GTK4_FORM = `
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk
loop = GLib.MainLoop()
win = Gtk.Window(title="Sway Form")
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
entry = Gtk.Entry()
entry.update_property([Gtk.AccessibleProperty.LABEL], ["Name"])
box.append(entry)
box.append(Gtk.CheckButton(label="Subscribe"))
win.set_child(box)
win.connect("close-request", lambda *_: loop.quit())
win.present()
loop.run()
`;

/** A Qt 6 form: a line edit and a check box. */
const QT6_FORM = `
import sys
from PyQt6.QtWidgets import QApplication, QCheckBox, QLineEdit, QVBoxLayout, QWidget
app = QApplication(sys.argv)
win = QWidget()
win.setWindowTitle("Sway Form")
lay = QVBoxLayout(win)
edit = QLineEdit()
edit.setAccessibleName("Name")
lay.addWidget(edit)
lay.addWidget(QCheckBox("Subscribe"))
lay.addStretch(1)
win.show()
sys.exit(app.exec())
`;

/** This process's own Wayland variables, put back after each test (other tests run here too). */
const OWN_ENV = {
  WAYLAND_DISPLAY: Deno.env.get("WAYLAND_DISPLAY"),
  SWAYSOCK: Deno.env.get("SWAYSOCK"),
};

/** Closes this process's Wayland client and puts its Wayland variables back. */
function leaveSession(): void {
  closeWlroots();
  for (const [k, v] of Object.entries(OWN_ENV)) {
    if (v === undefined) Deno.env.delete(k);
    else Deno.env.set(k, v);
  }
}

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
    `print(json.dumps([o.queryText().getText(0, o.queryText().characterCount) for o in walk(app) if o.getState().contains(pyatspi.STATE_EDITABLE)][0]))`,
  );
}

/** Whether the check box is checked, by pyatspi. */
function checked(d: SwayDesktop): Promise<boolean> {
  return pyatspiJson<boolean>(
    d,
    `print(json.dumps(next(o for o in walk(app) if o.getRoleName() == "check box").getState().contains(pyatspi.STATE_CHECKED)))`,
  );
}

/** Python defining vbar(): the app's scroll bar with the longest range. */
const VBAR = `
def vbar():
    best = None
    for o in walk(app):
        if o.getRoleName() != "scroll bar":
            continue
        try:
            top = o.queryValue().maximumValue
        except NotImplementedError:
            continue
        if best is None or top > best[0]:
            best = (top, o)
    return best[1]
`;

/** The pyatspi expression of an element: the first editable one, the scroll bar with the longest range, or the first of a role. */
function pick(role: string): string {
  if (role === "editable") {
    return "next(o for o in walk(app) if o.getState().contains(pyatspi.STATE_EDITABLE))";
  }
  if (role === "scroll bar") return "vbar()";
  return `next(o for o in walk(app) if o.getRoleName() == ${JSON.stringify(role)})`;
}

/** The centre of the first showing element of a role, window-relative, by pyatspi. */
function centreOf(d: SwayDesktop, role: string): Promise<{ x: number; y: number }> {
  return pyatspiJson<{ x: number; y: number }>(
    d,
    `${VBAR}
e = ${pick(role)}.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
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
  assert.deepEqual(
    swayWindowOriginSync(d.pid, "Sway Form"),
    origin,
    "the blocking IPC call agrees",
  );
  return { x: origin.x + p.x, y: origin.y + p.y };
}

/** The vertical scroll bar's value, by pyatspi. */
function scrolled(d: SwayDesktop): Promise<number> {
  return pyatspiJson<number>(
    d,
    `${VBAR}
print(json.dumps(vbar().queryValue().currentValue))`,
  );
}

/** Types, replaces and clicks through the wlroots delegate; pyatspi witnesses each. */
async function typeAndClick(d: SwayDesktop): Promise<void> {
  const input = wlrootsInput();
  assert.equal(input.name, "wlroots");

  input.click(await onScreen(d, await centreOf(d, "editable")), "left", 1);
  input.type("Hello Wörld €");
  await eventually(
    "the typed text",
    async () => (await entryText(d)) === "Hello Wörld €" || undefined,
    10_000,
  );

  input.key({ mods: ["ctrl"], key: "a" }, 1);
  input.type("x");
  await eventually(
    "the replaced text",
    async () => (await entryText(d)) === "x" || undefined,
    10_000,
  );
  input.key({ mods: [], key: "BackSpace" }, 1);
  await eventually(
    "the deleted text",
    async () => (await entryText(d)) === "" || undefined,
    10_000,
  );

  assert.equal(await checked(d), false);
  input.click(await onScreen(d, await centreOf(d, "check box")), "left", 1);
  await eventually("the checked box", async () => (await checked(d)) || undefined, 10_000);
  input.park?.();

  assert.throws(() => input.key({ mods: ["fn"], key: "a" }, 1), /fn/);
}

const APPS: { name: string; script: string }[] = [
  { name: "GTK 3", script: GTK3_FORM },
  { name: "GTK 4", script: GTK4_FORM },
  { name: "Qt 6", script: QT6_FORM },
];

for (const app of APPS) {
  Deno.test({
    name:
      `wayland (sway): wlroots input types into a ${app.name} field and clicks its check box at the point sway maps`,
    ignore: Deno.build.os !== "linux" || !hasSway(),
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      await using d = await startSway({ cmd: ["/usr/bin/python3", "-c", app.script] });
      assert.equal(d.env.DISPLAY, undefined, "no X display in this session");
      useSession(d);
      try {
        await typeAndClick(d);
      } finally {
        leaveSession();
      }
    },
  });
}

Deno.test({
  name:
    "wayland (sway): the wheel scrolls a GTK 3 list, a drag moves its slider; screencopy captures the screen and a region",
  ignore: Deno.build.os !== "linux" || !hasSway(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startSway({ cmd: ["/usr/bin/python3", "-c", GTK3_FORM] });
    useSession(d);
    try {
      const input = wlrootsInput();
      const list = await onScreen(d, await centreOf(d, "scroll bar"));
      const before = await scrolled(d);
      input.wheel({ x: list.x - 40, y: list.y }, "down", 3);
      await eventually(
        "the list scrolled down",
        async () => (await scrolled(d)) > before || undefined,
        10_000,
      );
      const down = await scrolled(d);
      input.wheel({ x: list.x - 40, y: list.y }, "up", 1);
      await eventually(
        "the list scrolled back up",
        async () => (await scrolled(d)) < down || undefined,
        10_000,
      );

      const slider = await pyatspiJson<number[]>(
        d,
        `e = next(o for o in walk(app) if o.getRoleName() == "slider").queryComponent().getExtents(pyatspi.WINDOW_COORDS)
print(json.dumps([e.x, e.y, e.width, e.height]))`,
      );
      const sliderValue = () =>
        pyatspiJson<number>(
          d,
          `print(json.dumps(next(o for o in walk(app) if o.getRoleName() == "slider").queryValue().currentValue))`,
        );
      assert.equal(await sliderValue(), 0);
      const knob = await onScreen(d, {
        x: slider[0] + 8,
        y: slider[1] + Math.floor(slider[3] / 2),
      });
      input.drag(knob, { x: knob.x + Math.floor(slider[2] * 0.6), y: knob.y });
      await eventually(
        "the dragged slider",
        async () => (await sliderValue()) >= 40 || undefined,
        10_000,
      );

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
      const at = (
        img: typeof shot.image,
        x: number,
        y: number,
      ) => [...img.data.subarray(4 * (y * img.width + x), 4 * (y * img.width + x) + 4)];
      assert.deepEqual(
        at(part.image, 5, 7),
        at(shot.image, 15, 27),
        "the region is the screen's pixels",
      );
      assert.throws(() => wlrootsCapture([5000, 5000, 10, 10]), /off the screen/);
      assert.throws(() => input.click({ x: 5000, y: 10 }, "left", 1), /off the screen/);
      assert.equal(swayWindowOriginSync(d.pid + 100_000), undefined, "no window for another pid");
      assert.throws(
        () => swayRequestSync(4, 1_000, `${d.env.XDG_RUNTIME_DIR}/none.sock`),
        /cannot reach sway's IPC/,
      );
      await assert.rejects(
        () => swayRequest(4, 1_000, `${d.env.XDG_RUNTIME_DIR}/none.sock`),
        /cannot reach sway's IPC/,
      );
    } finally {
      leaveSession();
    }
  },
});

/** The CLI by pid in the session; stdout, or the error's JSON for a failing command. */
async function cli(d: SwayDesktop, args: string[]): Promise<{ ok: boolean; out: string }> {
  const res = await runCli(d, [...args, "--pid", String(d.pid), "--timeout", "20000"]);
  return { ok: res.code === 0, out: res.code === 0 ? res.stdout : res.stderr };
}

/** Runs the CLI and asserts it succeeded. */
async function cliOk(d: SwayDesktop, args: string[]): Promise<string> {
  const r = await cli(d, args);
  assert.ok(r.ok, `desktop ${args.join(" ")}: ${r.out}`);
  return r.out;
}

for (const app of APPS) {
  Deno.test({
    name:
      `wayland (sway): the CLI by refs on a ${app.name} form: read, type, key, set-value, click, screenshot, list --windows`,
    ignore: Deno.build.os !== "linux" || !hasSway(),
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      await using d = await startSway({ cmd: ["/usr/bin/python3", "-c", app.script] });
      const read = await cliOk(d, ["read"]);
      assert.match(read, /input "Name"/);
      assert.match(read, /chk "Subscribe"/);

      await cliOk(d, ["type", "--ref", "name", "--text", "Hi there"]);
      await eventually(
        "the typed text",
        async () => (await entryText(d)) === "Hi there" || undefined,
        10_000,
      );

      await cliOk(d, ["key", "ctrl+a"]);
      await cliOk(d, ["key", "BackSpace"]);
      await eventually(
        "the cleared field",
        async () => (await entryText(d)) === "" || undefined,
        10_000,
      );

      await cliOk(d, ["set-value", "--ref", "name", "abc"]);
      await eventually(
        "the set text",
        async () => (await entryText(d)) === "abc" || undefined,
        10_000,
      );

      // GTK 4's check button offers no accessible action: it is clicked with the virtual pointer
      // at the point sway's IPC maps its box to (the others through their action).
      const clicked = await cliOk(d, ["click", "--ref", "subscribe"]);
      assert.match(clicked, /chk "Subscribe" checked/);
      await eventually("the checked box", async () => (await checked(d)) || undefined, 10_000);

      const png = `${d.env.XDG_RUNTIME_DIR}/shot.png`;
      await cliOk(d, ["screenshot", "--out", png]);
      const bytes = await Deno.readFile(png);
      assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG file on disk");
      const dims = new DataView(bytes.buffer, bytes.byteOffset + 16, 8);
      assert.ok(dims.getUint32(0) > 100 && dims.getUint32(4) > 100, "the window's pixels");

      const list = await cliOk(d, ["list", "--windows"]);
      const sway = windowsOfTree(await swayRequest(4, 5_000, d.swaysock));
      const mine = sway.find((w) => w.pid === d.pid);
      assert.ok(mine, "sway shows the app's window");
      assert.ok(list.includes(`"${mine.title}"`) && list.includes(`pid=${d.pid}`), list);

      // The window's screenshot is cropped where sway says the window is (its boxes are
      // relative to it), not at the screen's corner: sway's title bar is above it.
      const shot = JSON.parse(
        await cliOk(d, ["screenshot", "--pid", String(d.pid), "--out", png, "--format", "json"]),
      ) as { of: string; region: number[]; window: { b: number[] } };
      assert.equal(shot.of, "window");
      assert.ok(mine.rect[1] > 0, `sway places the window below its title bar: ${mine.rect}`);
      assert.deepEqual(
        shot.region.slice(0, 2),
        [mine.origin.x + shot.window.b[0], mine.origin.y + shot.window.b[1]],
        `window box ${shot.window.b} at sway's origin ${JSON.stringify(mine.origin)}`,
      );
      // An element's too: its box in the window, moved by the window's place.
      const field = JSON.parse(
        await cliOk(d, ["screenshot", "--ref", "name", "--out", png, "--format", "json"]),
      ) as { of: string; region: number[]; element: { b: number[] } };
      assert.equal(field.of, "element");
      assert.deepEqual(
        field.region,
        [
          mine.origin.x + field.element.b[0],
          mine.origin.y + field.element.b[1],
          field.element.b[2],
          field.element.b[3],
        ],
      );
    },
  });
}

Deno.test({
  name:
    "wayland (mutter): a compositor without wlroots' protocols is PLATFORM_NOT_SUPPORTED naming what it lacks",
  ignore: Deno.build.os !== "linux" || !hasDesktopTools() || !exists("/usr/bin/mutter"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using d = await startDesktop({
      app: "gtk3-script",
      url: `${REPO_ROOT}tests/fixtures/gtk3/rename_dialog.py`,
      session: "mutter",
    });
    closeWlroots();
    Deno.env.set("WAYLAND_DISPLAY", `${d.env.XDG_RUNTIME_DIR}/${d.env.WAYLAND_DISPLAY}`);
    try {
      assert.throws(() => wlrootsInput(), (e: unknown) => {
        assert.ok(e instanceof DesktopError);
        assert.equal(e.code, "PLATFORM_NOT_SUPPORTED");
        assert.match(e.message, /does not offer the virtual keyboard or pointer protocols/);
        assert.match(e.suggestion ?? "", /set-value/);
        return true;
      });
      assert.throws(
        () => wlrootsCapture(),
        /does not offer the screencopy protocol \(zwlr_screencopy_manager_v1\)/,
      );
    } finally {
      leaveSession();
    }
  },
});
