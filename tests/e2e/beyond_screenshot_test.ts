/**
 * `desktop screenshot` on a real app under Xvfb, with ImageMagick and xdotool
 * as witnesses: the PNG is a valid image of the window's size, it shows the
 * same pixels as ImageMagick's own capture, marks draw boxes and labels whose
 * ids act on the elements they outline, and bad input gets its code.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cliError, runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cli, readApp } from "../harness/gtk_suite.ts";
import { allElements, eventually } from "../harness/tree.ts";

async function tool(d: TestDesktop, cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, env: d.env, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** ImageMagick's idea of a PNG: format and size. */
async function identify(
  d: TestDesktop,
  path: string,
): Promise<{ format: string; w: number; h: number }> {
  const [format, w, h] = (await tool(d, "identify", ["-format", "%m %w %h", path])).trim().split(
    " ",
  );
  return { format, w: Number(w), h: Number(h) };
}

/** A rectangle's pixels as ImageMagick reads them: [r, g, b] per pixel, row by row. */
async function pixels(
  d: TestDesktop,
  path: string,
  x: number,
  y: number,
  w = 1,
  h = 1,
): Promise<number[][]> {
  const out = await new Deno.Command("convert", {
    args: [path, "-crop", `${w}x${h}+${x}+${y}`, "+repage", "-depth", "8", "rgb:-"],
    env: d.env,
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  const bytes = out.stdout;
  return Array.from({ length: bytes.length / 3 }, (_, i) => [...bytes.subarray(i * 3, i * 3 + 3)]);
}

/** The screen's size, as xdotool sees it. */
async function screenSize(d: TestDesktop): Promise<[number, number]> {
  const [w, h] = (await tool(d, "xdotool", ["getdisplaygeometry"])).trim().split(" ").map(Number);
  return [w, h];
}

/** The visible part of the app's window: its xdotool geometry clipped to the screen. */
async function visibleWindow(
  d: TestDesktop,
): Promise<{ x: number; y: number; w: number; h: number }> {
  const g = await windowGeometry(d);
  const [sw, sh] = await screenSize(d);
  const x = Math.max(0, g.x), y = Math.max(0, g.y);
  return { x, y, w: Math.min(sw, g.x + g.w) - x, h: Math.min(sh, g.y + g.h) - y };
}

/** The app's visible top-level window geometry, as xdotool sees it. */
async function windowGeometry(
  d: TestDesktop,
): Promise<{ x: number; y: number; w: number; h: number }> {
  const ids = (await tool(d, "xdotool", ["search", "--onlyvisible", "--pid", String(d.pid)]))
    .trim().split("\n").filter(Boolean);
  assert.ok(ids.length > 0, "xdotool sees no window of the app");
  const shell = await tool(d, "xdotool", ["getwindowgeometry", "--shell", ids[0]]);
  const v = Object.fromEntries(shell.trim().split("\n").map((l) => l.split("=")));
  return { x: Number(v.X), y: Number(v.Y), w: Number(v.WIDTH), h: Number(v.HEIGHT) };
}

Deno.test({
  name: "screenshot: window, element, screen, scale and marks on gtk3-widget-factory",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const dir = await Deno.makeTempDir({ prefix: "desktop-shot-test-" });
    try {
      await t.step(
        "the window's PNG has the window's size (xdotool) and is a valid PNG",
        async () => {
          const out = `${dir}/window.png`;
          const json = JSON.parse(
            await cli(d, ["screenshot", "--app", d.appName, "--out", out, "--format", "json"]),
          );
          const geo = await visibleWindow(d);
          assert.deepEqual(await identify(d, out), { format: "PNG", w: geo.w, h: geo.h });
          assert.deepEqual(json.region, [geo.x, geo.y, geo.w, geo.h]);
          assert.equal(json.of, "window");
        },
      );

      await t.step("without --out it writes a temporary file and prints its path", async () => {
        const text = await cli(d, ["screenshot", "--app", d.appName, "--scale", "0.5"]);
        const path = text.split(" ")[0];
        try {
          const geo = await visibleWindow(d);
          const img = await identify(d, path);
          assert.equal(img.w, Math.round(geo.w / 2));
          assert.equal(img.h, Math.round(geo.h / 2));
        } finally {
          await Deno.remove(path);
        }
      });

      await t.step("the screen capture shows what ImageMagick's capture shows", async () => {
        const ours = `${dir}/screen.png`;
        const theirs = `${dir}/import.png`;
        await cli(d, ["screenshot", "--out", ours]);
        await tool(d, "import", ["-window", "root", theirs]);
        const a = await identify(d, ours);
        assert.deepEqual(a, await identify(d, theirs));
        // Spinners animate between the two captures: allow a few changed pixels.
        const cmp = await new Deno.Command("compare", {
          args: ["-metric", "AE", ours, theirs, "null:"],
          env: d.env,
          stderr: "piped",
        }).output();
        const differing = Number(new TextDecoder().decode(cmp.stderr).trim().split(" ")[0]);
        assert.ok(differing < a.w * a.h * 0.01, `${differing} pixels differ`);
      });

      await t.step("an element's PNG has the element's size", async () => {
        const [el] = JSON.parse(
          await cli(d, [
            "find",
            "--app",
            d.appName,
            "--text",
            "Page 2",
            "--roles",
            "radio",
            "--format",
            "json",
          ]),
        );
        const out = `${dir}/element.png`;
        const json = JSON.parse(
          await cli(d, [
            "screenshot",
            "--app",
            d.appName,
            "--ref",
            el.ref,
            "--out",
            out,
            "--format",
            "json",
          ]),
        );
        assert.deepEqual(json.region, el.b);
        assert.deepEqual(await identify(d, out), { format: "PNG", w: el.b[2], h: el.b[3] });
      });

      await t.step(
        "--marks outlines elements and labels them; a label's id acts on its element",
        async () => {
          const plain = `${dir}/plain.png`;
          const marked = `${dir}/marked.png`;
          await cli(d, ["screenshot", "--app", d.appName, "--out", plain, "--format", "json"]);
          const json = JSON.parse(
            await cli(d, [
              "screenshot",
              "--app",
              d.appName,
              "--marks",
              "--out",
              marked,
              "--format",
              "json",
            ]),
          );
          const page2 = json.marks.find((m: { t?: string; r: string }) =>
            m.r === "radio" && m.t === "Page 2"
          );
          assert.ok(
            page2,
            `no mark for the Page 2 radio in ${JSON.stringify(json.marks.slice(0, 5))}`,
          );
          const [x0, y0] = json.region;
          const [bx, by, , bh] = page2.b;
          // The box's left edge is drawn in a mark colour over the plain pixels.
          const edge = await pixels(d, marked, bx - x0, by - y0 + Math.floor(bh / 2));
          assert.notDeepEqual(edge, await pixels(d, plain, bx - x0, by - y0 + Math.floor(bh / 2)));
          // The label (above the box, or inside at the top when there is no room) has white ink.
          const labelTop = by - y0 - 11 >= 0 ? by - y0 - 11 : by - y0;
          const label = await pixels(d, marked, bx - x0 + 2, labelTop + 2, 12, 7);
          const ink = label.filter((p) => p.every((c) => c === 255)).length;
          assert.ok(ink > 3, `only ${ink} white pixels where the label should be`);
          // The id on the label is the id --id takes: clicking it selects Page 2.
          await cli(d, ["click", "--app", d.appName, "--id", String(page2.i)]);
          const radio = await eventually("the Page 2 radio to be checked", async () => {
            const found = allElements((await readApp(d)).root).find((e) =>
              e.r === "radio" && e.t === "Page 2"
            );
            return found?.chk === true ? found : undefined;
          });
          assert.ok(radio, "the Page 2 radio did not become checked");
        },
      );

      await t.step("MCP returns the screenshot as PNG image content with the marks", async () => {
        const client = new Client({ name: "shot-e2e", version: "1.0.0" });
        await client.connect(
          new StdioClientTransport({
            command: Deno.execPath(),
            args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "mcp"],
            cwd: REPO_ROOT,
            env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
            stderr: "pipe",
          }),
        );
        try {
          const res = await client.callTool({
            name: "screenshot",
            arguments: { app: d.appName, marks: true, scale: 0.5 },
          }) as {
            content: Array<{ type: string; data?: string; text?: string }>;
            structuredContent?: { width: number; height: number; marks: Array<{ ref?: string }> };
            isError?: boolean;
          };
          assert.ok(!res.isError, JSON.stringify(res.content));
          const image = res.content.find((c) => c.type === "image");
          assert.ok(image?.data);
          const path = `${dir}/mcp.png`;
          await Deno.writeFile(path, Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0)));
          const legend = res.structuredContent!;
          assert.deepEqual(await identify(d, path), {
            format: "PNG",
            w: legend.width,
            h: legend.height,
          });
          assert.ok(legend.marks.some((m: { ref?: string }) => m.ref === "page-2"));
        } finally {
          await client.close();
        }
      });

      await t.step("bad input gets a clear code", async () => {
        const bad = await runCli(d, ["screenshot", "--app", d.appName, "--scale", "2"]);
        assert.equal(bad.code, 2);
        assert.equal(cliError(bad).code, "INVALID_ARGS");
        const missing = await runCli(d, [
          "screenshot",
          "--app",
          d.appName,
          "--ref",
          "no-such-thing",
        ]);
        assert.equal(cliError(missing).code, "ELEMENT_NOT_FOUND");
        const noApp = await runCli(d, ["screenshot", "--app", "no-such-app"]);
        assert.equal(cliError(noApp).code, "APP_NOT_FOUND");
        const replay = await runCli(d, [
          "screenshot",
          "--from",
          "tests/fixtures/browser_form.json",
        ]);
        assert.equal(cliError(replay).code, "PLATFORM_NOT_SUPPORTED");
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
