/**
 * The macOS side of screenshots, through its FFI against the AX/CF/CG shim:
 * CGWindowListCreateImage of a window at Retina scale, the pixels read out of
 * the image's data provider, marks placed at the right pixels, and every CF
 * object released exactly once.
 */

import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { rejectsWith, scenario, shim } from "./macos_shim_helpers.ts";

async function magick(args: string[]): Promise<string> {
  const out = await new Deno.Command(args[0], { args: args.slice(1), stdout: "piped" }).output();
  assert.ok(out.success, args.join(" "));
  return new TextDecoder().decode(out.stdout).trim();
}

async function pixel(path: string, x: number, y: number): Promise<number[]> {
  const out = await new Deno.Command("convert", {
    args: [path, "-crop", `1x1+${x}+${y}`, "+repage", "-depth", "8", "rgb:-"],
    stdout: "piped",
  }).output();
  return [...out.stdout];
}

Deno.test("macos screenshot: a window at Retina scale, with marks, all CF objects released", async () => {
  const dir = await Deno.makeTempDir({ prefix: "desktop-macos-shot-" });
  try {
    await scenario("browser", async (p) => {
      const desktop = createDesktop(p, { store: createMemoryRefStore() });
      const [win] = await desktop.listWindows({ app: "Safari" });
      assert.ok(win.b);
      const shot = await desktop.screenshot({ app: "Safari" }, { marks: true });
      assert.equal(shot.of, "window");
      assert.deepEqual(shot.region, win.b);
      assert.equal(shot.scale, 2);
      assert.deepEqual([shot.width, shot.height], [win.b[2] * 2, win.b[3] * 2]);
      const path = `${dir}/window.png`;
      await Deno.writeFile(path, shot.png);
      assert.equal(
        await magick(["identify", "-format", "%m %w %h", path]),
        `PNG ${shot.width} ${shot.height}`,
      );

      // The window is drawn light on a dark desktop; a mark's box edge is coloured.
      const submit = shot.marks.find((m) => m.t === "Submit");
      assert.ok(submit, JSON.stringify(shot.marks.map((m) => m.t)));
      const ex = (submit.b[0] - shot.region[0]) * 2;
      const ey = (submit.b[1] - shot.region[1]) * 2 + submit.b[3];
      const edge = await pixel(path, ex, ey);
      assert.notDeepEqual(edge, [236, 236, 236], "no mark drawn on the Submit button's edge");
      const plain = await desktop.screenshot({ app: "Safari" });
      await Deno.writeFile(`${dir}/plain.png`, plain.png);
      assert.deepEqual(await pixel(`${dir}/plain.png`, ex + 6, ey), [236, 236, 236]);

      // One element: its box, twice the points.
      const el = await desktop.screenshot({ app: "Safari" }, { target: { ref: submit.ref } });
      assert.equal(el.of, "element");
      assert.deepEqual([el.width, el.height], [submit.b[2] * 2, submit.b[3] * 2]);

      // The whole main display, scaled down to a quarter.
      const screen = await desktop.screenshot({}, { scale: 0.25 });
      assert.deepEqual(screen.region, [0, 0, 1440, 900]);
      assert.deepEqual([screen.width, screen.height], [720, 450]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("macos window: move, resize, minimize, restore, raise through AX; a fixed-size window is ACTION_NOT_SUPPORTED", async () => {
  await scenario("windows", async (p) => {
    const desktop = createDesktop(p, { store: createMemoryRefStore() });
    const scope = { app: "TextEdit", window: "Notes" };
    const moved = await desktop.window(scope, [
      { kind: "resize", w: 800, h: 500 },
      { kind: "move", x: 20, y: 40 },
    ]);
    assert.deepEqual(moved.state.b, [20, 40, 800, 500]);
    // The window list (CGWindowListCopyWindowInfo) sees the new frame too.
    const [notes] = await desktop.listWindows(scope);
    assert.deepEqual(notes.b, [20, 40, 800, 500]);

    const min = await desktop.window(scope, [{ kind: "minimize" }]);
    assert.equal(min.state.minimized, true);
    assert.equal(
      (await desktop.listWindows({ app: "TextEdit" })).some((w) => w.title === "Notes"),
      false,
      "a minimized window is still on screen",
    );
    const back = await desktop.window(scope, [{ kind: "restore" }, { kind: "raise" }]);
    assert.equal(back.state.minimized, false);
    assert.ok(shim.log().some((l) => l.includes("AXRaise")), shim.log().join("\n"));

    await assert.rejects(
      () =>
        desktop.window({ app: "TextEdit", window: "About" }, [{ kind: "resize", w: 900, h: 900 }]),
      (e: Error & { code?: string }) => e.code === "ACTION_NOT_SUPPORTED",
    );
    // It still moves.
    const about = await desktop.window({ app: "TextEdit", window: "About" }, [
      { kind: "move", x: 10, y: 10 },
    ]);
    assert.deepEqual(about.state.b, [10, 10, 300, 200]);
  });
});

Deno.test("macos clipboard: set through the Pasteboard Manager, read back by another session", async () => {
  await scenario("browser", async (p) => {
    const desktop = createDesktop(p, { store: createMemoryRefStore() });
    const text = "héllo ✓ pasteboard\nline 2";
    await desktop.clipboardSet(text);
    assert.ok(shim.log().some((l) => l.startsWith("pasteboard put")));
    assert.equal(await desktop.clipboardGet(), text);
    await desktop.clipboardSet("");
    assert.equal(await desktop.clipboardGet(), "");
    await desktop.clipboardSet("kept");
  });
  // A new provider, as a later command would open: the pasteboard still holds the text.
  await scenario("browser", async (p) => {
    const desktop = createDesktop(p, { store: createMemoryRefStore() });
    assert.equal(await desktop.clipboardGet(), "kept");
  });
});

/**
 * A stand-in for /usr/bin/open: `open -a Notes` starts a process standing for
 * the app and writes its pid where the test picks it up (the test then adds
 * the app to the shim, as LaunchServices would show it); an unknown app exits
 * 1 as `open` does.
 */
async function fakeOpen(dir: string): Promise<string> {
  const path = `${dir}/open`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh
case "$2" in
  Notes|com.example.Notes) sleep 60 >/dev/null 2>&1 & echo $! > "${dir}/pid"; exit 0 ;;
  Silent) exit 0 ;;
  *) echo "Unable to find application named '$2'" >&2; exit 1 ;;
esac
`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** The app the shim shows once the stand-in started it: a window and a Quit item. */
function notesApp(pid: number): Record<string, unknown> {
  return {
    pid,
    name: "Notes",
    bundle: "com.example.Notes",
    menubar: {
      role: "AXMenuBar",
      children: [
        {
          role: "AXMenuBarItem",
          title: "Apple",
          children: [{
            role: "AXMenu",
            children: [{ role: "AXMenuItem", title: "Force Quit…", actions: ["AXPress"] }],
          }],
        },
        {
          role: "AXMenuBarItem",
          title: "Notes",
          children: [{
            role: "AXMenu",
            children: [
              { role: "AXMenuItem", title: "About Notes", actions: ["AXPress"] },
              {
                role: "AXMenuItem",
                title: "Quit Notes",
                actions: ["AXPress"],
                on: { AXPress: [{ quit: true }] },
              },
            ],
          }],
        },
      ],
    },
    windows: [{
      role: "AXWindow",
      subrole: "AXStandardWindow",
      title: "Notes",
      windowNumber: 77,
      frame: [40, 40, 500, 300],
      children: [],
    }],
  };
}

function running(pid: number): boolean {
  const out = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)], stdout: "piped" })
    .outputSync();
  const stat = new TextDecoder().decode(out.stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
}

Deno.test("macos launch and quit: by name or bundle id through open, the app menu's Quit, --force, unknown app, time-out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "desktop-macos-launch-" });
  Deno.env.set("DESKTOP_MAC_OPEN", await fakeOpen(dir));
  const started: number[] = [];
  try {
    await scenario("windows", async (p) => {
      const desktop = createDesktop(p, { store: createMemoryRefStore() });
      // LaunchServices shows the app a moment after `open` returns.
      const appear = async () => {
        for (let k = 0; k < 100; k++) {
          try {
            const pid = Number((await Deno.readTextFile(`${dir}/pid`)).trim());
            // The stand-in may not have written the pid yet: an empty file is not pid 0.
            if (!Number.isInteger(pid) || pid <= 0) throw new Error("not yet");
            await Deno.remove(`${dir}/pid`);
            started.push(pid);
            shim.addApp(notesApp(pid));
            return;
          } catch {
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      };
      const [launched] = await Promise.all([
        desktop.launch("Notes", { timeoutMs: 4000 }),
        appear(),
      ]);
      assert.equal(launched.app.name, "Notes");
      assert.equal(launched.app.pid, started[0]);
      assert.deepEqual(launched.windows.map((w) => w.title), ["Notes"]);
      assert.ok(running(started[0]));

      // Quit: one menu item pressed, the app menu's Quit (only it quits the app in the tree,
      // not the Apple menu's Force Quit), and the process ends.
      const quit = await desktop.quit({ app: "Notes" }, { timeoutMs: 4000 });
      assert.equal(quit.via, "windows");
      const presses = shim.log().filter((l) => l.includes("AXMenuItem AXPress"));
      assert.equal(presses.length, 1, shim.log().join("\n"));
      assert.equal(running(started[0]), false);

      // By bundle id; --force ends the process with a signal.
      const [byId] = await Promise.all([
        desktop.launch("com.example.Notes", { timeoutMs: 4000 }),
        appear(),
      ]);
      assert.equal(byId.app.pid, started[1]);
      const forced = await desktop.quit({ pid: started[1] }, { force: true, timeoutMs: 4000 });
      assert.equal(forced.via, "signal");
      assert.equal(running(started[1]), false);

      await rejectsWith(desktop.launch("NoSuchApp", { timeoutMs: 2000 }), "APP_NOT_FOUND");
      await rejectsWith(desktop.launch("Silent", { timeoutMs: 600 }), "TIMEOUT");
    });
  } finally {
    Deno.env.delete("DESKTOP_MAC_OPEN");
    for (const pid of started.filter((p) => p > 0)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("macos fill and run: many fields from one read, then steps by ref; a failing step stops the run with its index", async () => {
  await scenario("browser", async (p) => {
    const desktop = createDesktop(p, { store: createMemoryRefStore() });
    const scope = { app: "Safari" };
    await desktop.read(scope);
    const filled = await desktop.fill(scope, [
      { target: { ref: "form/email" }, value: "ada@example.com" },
      { target: { ref: "form/subscribe-to-news" }, value: "true" },
      { target: { ref: "volume" }, value: "70" },
    ]);
    assert.deepEqual(filled.map((f) => f.ok), [true, true, true], JSON.stringify(filled));
    assert.equal(filled[0].element?.v, "ada@example.com");
    assert.equal(filled[1].element?.chk, true);
    assert.equal(filled[2].element?.v, "70");

    const report = await desktop.run({
      app: "Safari",
      steps: [
        { "set-value": { ref: "form/email", value: "grace@example.com" } },
        { expect: { ref: "form/email", value: "grace@example.com" } },
        { click: "form/reset" }, // disabled: the run stops here
        { click: "form/submit" },
      ],
    });
    assert.equal(report.ok, false);
    // Three reports: the run stopped at the failing step; Submit was never clicked.
    assert.deepEqual(report.steps.map((s) => s.ok), [true, true, false]);
    assert.equal(report.steps[2].error?.code, "ACTION_NOT_SUPPORTED");
  });
});
