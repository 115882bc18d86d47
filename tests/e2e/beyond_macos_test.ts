/**
 * The macOS side of screenshots, through its FFI against the AX/CF/CG shim:
 * CGWindowListCreateImage of a window at Retina scale, the pixels read out of
 * the image's data provider, marks placed at the right pixels, and every CF
 * object released exactly once.
 */

import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";
import { scenario, shim } from "./macos_shim_helpers.ts";

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
