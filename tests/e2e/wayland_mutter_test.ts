/**
 * Every verb by ref on GNOME's compositor, headless and with no X at all:
 * a GTK 3 form, GTK 4's widget factory and a Qt 6 form run under
 * `mutter --headless --wayland --no-x11`. What AT-SPI can do (click by the
 * accessible action, type through EditableText, set-value, focus) works and
 * pyatspi witnesses it; keys go through mutter's RemoteDesktop session
 * (pyatspi sees the field's text change);
 * screenshots of the screen come through mutter's ScreenCast over PipeWire;
 * what mutter does not give a client (the pointer, a window's place, window
 * operations) fails with an error naming what is missing.
 */

import assert from "node:assert/strict";
import { missingMutterTools, startMutter } from "../harness/wayland_mutter.ts";
import { REPO_ROOT } from "../harness/desktop.ts";
import { pngSize } from "../../src/output/png.ts";

const missing = missingMutterTools();

/** pyatspi's word on one element of an app: its text, checked state and value. */
async function witness(
  env: Record<string, string>,
  app: string,
  name: string,
): Promise<{ text?: string; checked: boolean; value?: number }> {
  const script = `
import json, sys, pyatspi
app_name, name = sys.argv[1], sys.argv[2]
def walk(x, depth=0):
    if x is None or depth > 40: return None
    if x.name == name: return x
    for c in x:
        r = walk(c, depth + 1)
        if r is not None: return r
for a in pyatspi.Registry.getDesktop(0):
    if a is not None and a.name == app_name:
        e = walk(a)
        if e is None: break
        out = {"checked": e.getState().contains(pyatspi.STATE_CHECKED)}
        # The field's text, or where GTK 4 keeps it: the text node inside the entry.
        def text_of(x, depth=0):
            try:
                q = x.queryText()
                # GTK 4 answers GetText(0, -1) with nothing: the count is given.
                t = q.getText(0, q.characterCount)
                if t or depth > 3: return t
            except NotImplementedError:
                pass
            for c in x:
                t = text_of(c, depth + 1)
                if t: return t
            return None
        t = text_of(e)
        if t is not None: out["text"] = t
        try:
            out["value"] = e.queryValue().currentValue
        except NotImplementedError: pass
        print(json.dumps(out)); sys.exit(0)
print("null")
`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, app, name],
    clearEnv: true,
    env,
  }).output();
  const parsed = JSON.parse(new TextDecoder().decode(out.stdout) || "null");
  assert.ok(parsed, `pyatspi found no "${name}" in ${app}`);
  return parsed;
}

/** pyatspi's word on the value of an app's first showing vertical scroll bar. */
async function scrollBarValue(env: Record<string, string>, app: string): Promise<number> {
  const script = `
import json, sys, pyatspi
def walk(x, depth=0):
    if x is None or depth > 40: return None
    s = x.getState()
    if x.getRole() == pyatspi.ROLE_SCROLL_BAR and s.contains(pyatspi.STATE_VERTICAL) \\
            and s.contains(pyatspi.STATE_SHOWING):
        return x
    for c in x:
        r = walk(c, depth + 1)
        if r is not None: return r
for a in pyatspi.Registry.getDesktop(0):
    if a is not None and a.name == sys.argv[1]:
        bar = walk(a)
        if bar: print(json.dumps(bar.queryValue().currentValue)); sys.exit(0)
        def roles(x, depth=0):
            if x is None or depth > 40: return []
            me = [x.getRoleName() + ":" + ",".join(pyatspi.stateToString(t) for t in x.getState().getStates())]
            return me + [r for c in x for r in roles(c, depth + 1)]
        print(json.dumps([r for r in roles(a) if "scroll" in r or "list" in r])); sys.exit(0)
print("null")
`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, app],
    clearEnv: true,
    env,
  }).output();
  const value = JSON.parse(new TextDecoder().decode(out.stdout) || "null");
  assert.equal(typeof value, "number", `pyatspi found no vertical scroll bar in ${app}: ${value}`);
  return value;
}

interface Case {
  label: string;
  cmd: string[];
  appName: string;
  env?: Record<string, string>;
  check: string;
  entry: string;
  slider?: string;
  /** A long list in a scrolled view (its ref), turned without a pointer by its scroll bar. */
  list?: string;
  /** The list's view shows no scroll bar to the accessibility tree (Qt's item views). */
  listWithoutBar?: boolean;
  /** The check box offers no accessible action and fields refuse grab_focus (GTK 4.8). */
  noPressAction?: boolean;
}

const FIXTURES = `${REPO_ROOT}tests/fixtures/wayland`;
const CASES: Case[] = [
  {
    label: "GTK 3",
    cmd: ["/usr/bin/python3", `${FIXTURES}/form_gtk3.py`],
    appName: "form_gtk3.py",
    check: "Subscribe",
    entry: "Name",
    slider: "Volume",
    list: "listbox",
  },
  {
    label: "GTK 4",
    cmd: ["/usr/bin/python3", `${FIXTURES}/form_gtk4.py`],
    appName: "wayland-form-gtk4",
    // Cairo frames: GL through Mesa's software rasterizer keeps GTK 4 too busy to register.
    env: { GSK_RENDERER: "cairo" },
    noPressAction: true,
    check: "Subscribe",
    entry: "Name",
    slider: "Volume",
  },
  {
    label: "Qt 6",
    cmd: ["/usr/bin/python3", `${FIXTURES}/form_qt6.py`],
    appName: "wayland-form-qt",
    check: "Subscribe",
    entry: "Name",
    slider: "Volume",
    list: "rows",
    listWithoutBar: true,
  },
];

/** The ref of the first element line of `read` whose name is `name`. */
function refOf(tree: string, name: string): string {
  const m = tree.split("\n").find((l) => l.includes(`"${name}"`))?.match(/\[\d+\|([^\]]+)\]/);
  assert.ok(m, `no "${name}" in:\n${tree}`);
  return m[1];
}

/** A whole-screen screenshot through the CLI: its PNG's pixels, after checking its size. */
async function screenshot(
  desk: Awaited<ReturnType<typeof startMutter>>,
  name: string,
): Promise<Uint8Array> {
  const out = `${desk.env.HOME}/${name}`;
  const shot = await desk.cli("screenshot", "--out", out);
  assert.equal(shot.code, 0, shot.stdout + shot.stderr);
  assert.match(shot.stdout, /1280x1024 png: screen at 0,0 1280x1024/);
  const png = await Deno.readFile(out);
  assert.deepEqual(pngSize(png), { width: 1280, height: 1024 });
  return png;
}

Deno.test({
  name: "wayland mutter: every verb by ref on GTK 3, GTK 4 and Qt with no X display",
  ignore: Deno.build.os !== "linux" || missing.length > 0,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using desk = await startMutter();
    for (const c of CASES) {
      await t.step(c.label, async () => {
        await desk.startApp(c.cmd, c.appName, c.env);
        const app = ["--app", c.appName];
        const read = await desk.cli("read", ...app);
        assert.equal(read.code, 0, read.stderr + read.stdout);
        const check = refOf(read.stdout, c.check);
        const entry = refOf(read.stdout, c.entry);
        if (c.label === "GTK 3") {
          // A list box's rows scrolled out of view read with their labels (pyatspi: the label
          // is there, not showing), each by its own ref.
          assert.match(read.stdout, /\[\d+\|row-40\] option: "Row 40"/);
          assert.doesNotMatch(read.stdout, /\] option\n/, "no unnamed option");
        }
        const before = await screenshot(desk, "before.png");

        const click = await desk.cli("click", "--ref", check, ...app);
        if (c.noPressAction) {
          // GTK 4.8 gives its check buttons no accessible action: only the pointer presses them.
          assert.notEqual(click.code, 0);
          const err = JSON.parse(click.stdout || click.stderr);
          assert.equal(err.code, "PLATFORM_NOT_SUPPORTED");
          assert.match(err.message, /Wayland/);
          assert.equal((await witness(desk.env, c.appName, c.check)).checked, false);
        } else {
          assert.equal(click.code, 0, click.stdout + click.stderr);
          assert.match(click.stdout, /^ok click .* via accessible/);
          assert.equal((await witness(desk.env, c.appName, c.check)).checked, true);
        }

        const type = await desk.cli("type", "--ref", entry, "hello", ...app);
        assert.equal(type.code, 0, type.stdout + type.stderr);
        assert.equal((await witness(desk.env, c.appName, c.entry)).text, "hello");

        if (c.slider) {
          const slider = refOf(read.stdout, c.slider);
          const set = await desk.cli("set-value", "--ref", slider, "40", ...app);
          assert.equal(set.code, 0, set.stdout + set.stderr);
          assert.equal((await witness(desk.env, c.appName, c.slider)).value, 40);
        }

        const focus = await desk.cli("focus", "--ref", entry, ...app);
        if (c.noPressAction) {
          // GTK 4.8 refuses grab_focus: only a pointer click would focus the field.
          assert.notEqual(focus.code, 0);
          const err = JSON.parse(focus.stdout || focus.stderr);
          assert.equal(err.code, "PLATFORM_NOT_SUPPORTED");
          assert.match(err.message, /Wayland/);
        } else assert.equal(focus.code, 0, focus.stdout + focus.stderr);

        // Keys go through mutter's RemoteDesktop session.
        const key = await desk.cli("key", "--ref", entry, "BackSpace", ...app);
        if (c.noPressAction) {
          // The field cannot be given the focus without the pointer (above): no key is sent.
          assert.notEqual(key.code, 0);
          assert.equal(JSON.parse(key.stdout || key.stderr).code, "PLATFORM_NOT_SUPPORTED");
          assert.equal((await witness(desk.env, c.appName, c.entry)).text, "hello");
        } else {
          // By ref: the field took the focus request but GTK 3 and Qt windows on headless mutter
          // never report the focus, and no pointer click can give it: the keys go, and the
          // field's text is the witness.
          assert.equal(key.code, 0, key.stdout + key.stderr);
          assert.match(key.stdout, /^ok key/);
          assert.equal((await witness(desk.env, c.appName, c.entry)).text, "hell");
          // Without a ref, the key goes where the focus is: the same field.
          const free = await desk.cli("key", "BackSpace", ...app);
          assert.equal(free.code, 0, free.stdout + free.stderr);
          assert.match(free.stdout, /^ok key/);
          assert.equal((await witness(desk.env, c.appName, c.entry)).text, "hel");
          // The compositor's keyboard as the action code reaches it (src/platform/linux/input.ts).
          const typed = await desk.typeWithCompositor(" world", "BackSpace");
          assert.equal(typed.code, 0, typed.stderr);
          assert.equal((await witness(desk.env, c.appName, c.entry)).text, "hel worl");
        }

        // The pointer: mutter tells no client where its window is.
        const wheel = await desk.cli(
          "scroll",
          "--x",
          "100",
          "--y",
          "100",
          "--direction",
          "down",
          ...app,
        );
        assert.notEqual(wheel.code, 0);
        const wheelErr = JSON.parse(wheel.stdout || wheel.stderr);
        assert.equal(wheelErr.code, "PLATFORM_NOT_SUPPORTED");

        if (c.list && c.listWithoutBar) {
          // No pointer and no scroll bar to turn: refused, saying what still works.
          const scroll = await desk.cli("scroll", "--ref", c.list, "--direction", "down", ...app);
          assert.notEqual(scroll.code, 0);
          const err = JSON.parse(scroll.stdout || scroll.stderr);
          assert.equal(err.code, "PLATFORM_NOT_SUPPORTED");
          assert.match(err.message, /Wayland/);
          assert.match(err.suggestion, /no scroll bar.*Page_Down/);
        } else if (c.list) {
          // Scrolling a list by ref with no pointer: its view's scroll bar turns, as far as the
          // wheel would have (pyatspi reads the bar's value).
          const before = await scrollBarValue(desk.env, c.appName);
          const scroll = await desk.cli(
            "scroll",
            "--ref",
            c.list,
            "--direction",
            "down",
            ...app,
          );
          assert.equal(scroll.code, 0, scroll.stdout + scroll.stderr);
          assert.match(scroll.stdout, /^ok scroll .* via accessible \(scroll bar /);
          const after = await scrollBarValue(desk.env, c.appName);
          assert.ok(after > before, `the list scrolled: ${before} -> ${after}`);
        }

        // The screen through mutter's ScreenCast over PipeWire: it shows what the actions did
        // (the screen before them differs; pyatspi saw the text change above).
        const after = await screenshot(desk, "after.png");
        assert.notDeepEqual(after, before, "the screenshot shows the changed form");
        // A window's or an element's place is unknown on mutter: refused, never cropped blind.
        const win = await desk.cli("screenshot", "--out", `${desk.env.HOME}/win.png`, ...app);
        assert.notEqual(win.code, 0);
        const winErr = JSON.parse(win.stdout || win.stderr);
        assert.equal(winErr.code, "PLATFORM_NOT_SUPPORTED");
        assert.match(winErr.message, /place of window .* is unknown/);

        const wins = await desk.cli("list", "--windows", ...app);
        assert.equal(wins.code, 0, wins.stdout + wins.stderr);
        assert.match(wins.stdout, new RegExp(`app="${c.appName}"`));

        const raise = await desk.cli("window", "--raise", ...app);
        assert.notEqual(raise.code, 0);
        assert.match(raise.stdout + raise.stderr, /GNOME's mutter/);
      });
    }
  },
});

Deno.test({
  name: "wayland mutter: a screenshot without PipeWire, or without its session manager, says so " +
    "within its deadline",
  ignore: Deno.build.os !== "linux" || missing.length > 0,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step("no PipeWire: PLATFORM_NOT_SUPPORTED naming it", async () => {
      await using desk = await startMutter({ media: "none" });
      const shot = await desk.cli("screenshot", "--out", `${desk.env.HOME}/s.png`);
      assert.notEqual(shot.code, 0);
      const err = JSON.parse(shot.stdout || shot.stderr);
      assert.equal(err.code, "PLATFORM_NOT_SUPPORTED", shot.stderr);
      assert.match(err.message, /pipewire/i);
      assert.match(err.suggestion, /PipeWire and WirePlumber/);
    });
    await t.step("PipeWire alone (nothing links the stream): TIMEOUT by --timeout", async () => {
      await using desk = await startMutter({ media: "pipewire" });
      const t0 = Date.now();
      const shot = await desk.cli(
        "screenshot",
        "--out",
        `${desk.env.HOME}/s.png`,
        "--timeout",
        "2000",
      );
      const took = Date.now() - t0;
      assert.notEqual(shot.code, 0);
      const err = JSON.parse(shot.stdout || shot.stderr);
      assert.equal(err.code, "TIMEOUT", shot.stderr);
      assert.match(err.suggestion, /WirePlumber/);
      // Deno's start on a busy machine, beyond the command's own 2 s.
      assert.ok(took < 2000 + 6000, `took ${took} ms`);
      await assert.rejects(Deno.stat(`${desk.env.HOME}/s.png`), "no file is written");
    });
  },
});
