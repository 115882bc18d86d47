/**
 * `desktop clipboard` on a headless X11 desktop, with xclip as the witness:
 * text set by a command that has exited is still on the clipboard for xclip
 * and for a paste into a real app; text xclip copies reads back; the owner
 * process gives up when another client copies; a megabyte goes both ways in
 * pieces (INCR).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { cli, readApp } from "../harness/gtk_suite.ts";
import { allElements, eventually } from "../harness/tree.ts";

async function xclip(d: TestDesktop, args: string[], input?: string): Promise<string> {
  const child = new Deno.Command("xclip", {
    args: ["-selection", "clipboard", ...args],
    env: d.env,
    stdin: input === undefined ? "null" : "piped",
    // `xclip -i` forks an owner that would hold a stdout pipe open forever.
    stdout: input === undefined ? "piped" : "null",
    stderr: "null",
  }).spawn();
  if (input !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(input));
    await w.close();
  }
  if (input !== undefined) {
    await child.status;
    return "";
  }
  const out = await child.output();
  return new TextDecoder().decode(out.stdout);
}

/** Pids of clipboard owner processes this repository started. */
async function owners(): Promise<number[]> {
  const out = await new Deno.Command("pgrep", {
    args: ["-f", "platform/linux/clipboard.ts"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

Deno.test({
  name: "clipboard: set survives the command, xclip and a paste read it, get reads xclip's text",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using d = await startDesktop({ app: "zenity", url: "--add-entry=Name" });
    const before = new Set(await owners());
    try {
      await t.step("an empty clipboard reads as nothing", async () => {
        assert.equal(await cli(d, ["clipboard", "get"]), "");
      });

      const text = "héllo wörld ✓ — line 1\nline 2";
      await t.step("set: the command exits, the text stays (xclip, then our get)", async () => {
        const out = await cli(d, ["clipboard", "set", text]);
        assert.match(out, /^ok clipboard set/);
        assert.equal(await xclip(d, ["-o"]), text);
        assert.equal(await cli(d, ["clipboard", "get"]), text);
        assert.equal((await owners()).filter((p) => !before.has(p)).length, 1);
      });

      await t.step("the copied text pastes into a real app's field", async () => {
        await cli(d, ["clipboard", "set", "Ada Lovelace"]);
        const [entry] = JSON.parse(
          await cli(d, [
            "find",
            "--app",
            d.appName,
            "--roles",
            "input",
            "--all",
            "--format",
            "json",
          ]),
        );
        await cli(d, ["focus", "--app", d.appName, "--ref", entry.ref]);
        await cli(d, ["key", "--app", d.appName, "ctrl+v"]);
        await eventually("the pasted name", async () => {
          const field = allElements((await readApp(d)).root).find((e) => e.r === "input");
          return field?.v === "Ada Lovelace" ? true : undefined;
        });
      });

      await t.step(
        "a megabyte of text goes both ways in pieces (INCR), checked by xclip",
        async () => {
          const words = ["alpha", "épée", "日本", "line\n", "✓"];
          const big = Array.from({ length: 180_000 }, (_, k) => words[k % words.length]).join(" ");
          assert.ok(new TextEncoder().encode(big).length > 1_000_000);
          // Too large for one argument: `-` reads it from standard input.
          const set = await runCli(d, ["clipboard", "set", "-"], big);
          assert.equal(set.code, 0, set.stderr);
          assert.equal(await xclip(d, ["-o"]), big);
          await xclip(d, ["-i"], big + " (from xclip)");
          assert.equal(await cli(d, ["clipboard", "get"]), big + " (from xclip)");
        },
      );

      await t.step("get reads what another client copied; our owner then exits", async () => {
        await xclip(d, ["-i"], "copied by xclip");
        assert.equal(await cli(d, ["clipboard", "get"]), "copied by xclip");
        await eventually("our clipboard owner to exit", async () => {
          const left = (await owners()).filter((p) => !before.has(p));
          return left.length === 0 ? true : undefined;
        });
      });
    } finally {
      for (const pid of await owners()) {
        if (before.has(pid)) continue;
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    }
  },
});
