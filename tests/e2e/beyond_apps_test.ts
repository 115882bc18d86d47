/**
 * `desktop launch`, `quit` and `window` on a headless X11 desktop (Xvfb, no
 * window manager), with /proc and xdotool as witnesses: launched apps show
 * up with their pid and window, quit leaves no process behind, window
 * operations change the real X window, and bad input gets its code.
 */

import assert from "node:assert/strict";
import { cliError, runCli } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { alive, hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cli } from "../harness/gtk_suite.ts";
import { eventually } from "../harness/tree.ts";

async function xdotool(d: TestDesktop, args: string[]): Promise<string> {
  const out = await new Deno.Command("xdotool", {
    args,
    env: d.env,
    stdout: "piped",
    stderr: "null",
  })
    .output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** The geometry of the pid's visible X window, or null when none is visible. */
async function geometry(d: TestDesktop, pid: number): Promise<number[] | null> {
  const ids = (await xdotool(d, ["search", "--onlyvisible", "--pid", String(pid)])).split("\n")
    .filter(Boolean);
  if (!ids.length) return null;
  const v = Object.fromEntries(
    (await xdotool(d, ["getwindowgeometry", "--shell", ids[0]])).split("\n").map((l) =>
      l.split("=")
    ),
  );
  return [Number(v.X), Number(v.Y), Number(v.WIDTH), Number(v.HEIGHT)];
}

Deno.test({
  name: "launch, window and quit on a bare X11 desktop",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const launched: number[] = [];
    const launch = async (spec: string) => {
      const res = JSON.parse(await cli(d, ["launch", spec, "--format", "json"]));
      launched.push(res.app.pid);
      return res as { app: { name: string; pid: number }; windows: Array<{ title: string }> };
    };
    try {
      await t.step(
        "launch by desktop file id waits for the window; quit closes it, no process left",
        async () => {
          const res = await launch("org.gnome.Calculator");
          assert.equal(res.app.name, "gnome-calculator");
          assert.ok(alive(res.app.pid));
          assert.ok(res.windows.length >= 1);
          assert.ok(await geometry(d, res.app.pid), "xdotool sees no window of the calculator");
          const quit = await cli(d, ["quit", "--app", "gnome-calculator"]);
          assert.match(quit, /^ok quit "gnome-calculator" pid=\d+ via windows/);
          assert.equal(alive(res.app.pid), false, "the calculator still runs");
        },
      );

      await t.step(
        "window: move, resize, maximize, restore, minimize, restore, close",
        async () => {
          const file = `${d.env.XDG_RUNTIME_DIR}/notes.txt`;
          await Deno.writeTextFile(file, "some notes\n");
          const res = await launch(
            `zenity --text-info --title Notes --width 400 --height 300 --filename ${file}`,
          );
          const pid = res.app.pid;
          const win = ["--app", "zenity"];
          await cli(d, ["window", ...win, "--move", "30,40", "--resize", "600,450"]);
          assert.deepEqual(await geometry(d, pid), [30, 40, 600, 450]);

          const max = JSON.parse(
            await cli(d, ["window", ...win, "--maximize", "--format", "json"]),
          );
          assert.equal(max.state.maximized, true);
          const [sw, sh] = (await xdotool(d, ["getdisplaygeometry"])).split(" ").map(Number);
          assert.deepEqual(await geometry(d, pid), [0, 0, sw, sh]);
          await cli(d, ["window", ...win, "--restore"]);
          assert.deepEqual(await geometry(d, pid), [30, 40, 600, 450]);

          await cli(d, ["window", ...win, "--minimize"]);
          assert.equal(await geometry(d, pid), null, "the minimized window is still visible");
          await cli(d, ["window", ...win, "--restore", "--raise"]);
          assert.deepEqual(await geometry(d, pid), [30, 40, 600, 450]);

          const closed = JSON.parse(
            await cli(d, ["window", ...win, "--close", "--format", "json"]),
          );
          assert.equal(closed.state.exists, false);
          await eventually("zenity to exit", () => Promise.resolve(alive(pid) ? undefined : true));
        },
      );

      await t.step(
        "a GTK 2 app started without its bridge: the error says it runs, and why",
        async () => {
          const env = { ...d.env };
          delete env.GTK_MODULES;
          const child = new Deno.Command("gtk-demo", {
            env,
            clearEnv: true,
            stdout: "null",
            stderr: "null",
          })
            .spawn();
          try {
            // Its window is up (X has it) while pyatspi never sees the app.
            await eventually(
              "gtk-demo's window",
              async () => (await geometry(d, child.pid)) ? true : undefined,
            );
            const seen = await pyatspiJson<number[]>(
              d,
              `print(json.dumps([a.get_process_id() for a in pyatspi.Registry.getDesktop(0) if a]))`,
            );
            assert.ok(!seen.includes(child.pid), "pyatspi does not list it");
            for (const scope of [["--app", "gtk-demo"], ["--pid", String(child.pid)]]) {
              const err = cliError(await runCli(d, ["read", ...scope]));
              assert.equal(err.code, "APP_NOT_FOUND");
              assert.match(
                String(err.message),
                new RegExp(`pid ${child.pid}, GTK 2\\) runs but is not on`),
              );
              assert.match(
                String(err.suggestion),
                /GTK_MODULES=gail:atk-bridge.*desktop launch gtk-demo/,
              );
            }
            // list shows it too, off the bus, with what turns its accessibility on.
            const listed = (await runCli(d, ["list"])).stdout;
            assert.match(
              listed,
              new RegExp(
                `"gtk-demo" pid=${child.pid} not on the accessibility bus \\(GTK 2\\): .*GTK_MODULES`,
              ),
              listed,
            );
            const apps = JSON.parse(
              (await runCli(d, ["list", "--format", "json"])).stdout,
            ) as Array<
              { pid: number; offBus?: { toolkit: string } }
            >;
            assert.equal(apps.find((a) => a.pid === child.pid)?.offBus?.toolkit, "GTK 2");
            // A name nothing runs under keeps the plain answer.
            const none = cliError(await runCli(d, ["read", "--app", "no-such-app-here"]));
            assert.match(String(none.message), /^no running app matches/);
          } finally {
            child.kill("SIGKILL");
            await child.status;
          }
        },
      );

      await t.step(
        "a Tk app: the error says Tk has no accessibility, and what to use",
        async () => {
          const child = new Deno.Command("wish", {
            env: d.env,
            clearEnv: true,
            stdin: "piped",
            stdout: "null",
            stderr: "null",
          }).spawn();
          const writer = child.stdin.getWriter();
          await writer.write(new TextEncoder().encode("button .b -text Hello; pack .b\n"));
          try {
            // Tk sets no _NET_WM_PID: the witness that it runs is the library it loaded.
            await eventually("wish to load Tk", () =>
              Promise.resolve(
                Deno.readTextFileSync(`/proc/${child.pid}/maps`).includes("libtk") || undefined,
              ));
            const err = cliError(await runCli(d, ["read", "--app", "wish"]));
            assert.equal(err.code, "APP_NOT_FOUND");
            assert.match(String(err.message), /\(pid \d+, Tk\) runs but is not on/);
            assert.match(String(err.suggestion), /no accessibility support.*screenshot/);
            assert.doesNotMatch(String(err.suggestion), /desktop launch/);
          } finally {
            await writer.close().catch(() => {});
            child.kill("SIGKILL");
            await child.status;
          }
        },
      );

      await t.step("a GTK 2 app launched by desktop joins the accessibility bus", async () => {
        // GTK 2 loads its bridge only when GTK_MODULES names it; launch sets it.
        const res = await launch("gtk-demo");
        assert.equal(res.app.name, "gtk-demo");
        const read = await cli(d, ["read", "--pid", String(res.app.pid)]);
        assert.match(read, /window "GTK\+ Code Demos"/, read);
        // The witness: pyatspi sees the app and its window too.
        const names = await pyatspiJson<string[]>(
          { ...d, pid: res.app.pid },
          `print(json.dumps([w.name for w in app]))`,
        );
        assert.deepEqual(names, ["GTK+ Code Demos"]);
        await cli(d, ["quit", "--pid", String(res.app.pid), "--force"]);
      });

      await t.step("a window that cannot be resized gets ACTION_NOT_SUPPORTED", async () => {
        const res = await launch("zenity --question --title Sure --text Really");
        const before = await geometry(d, res.app.pid);
        const bad = await runCli(d, ["window", "--app", "zenity", "--resize", "900,700"]);
        const err = cliError(bad);
        assert.equal(err.code, "ACTION_NOT_SUPPORTED", JSON.stringify(err));
        assert.match(String(err.message), /cannot be/);
        assert.deepEqual(await geometry(d, res.app.pid), before);
        const forced = await cli(d, ["quit", "--pid", String(res.app.pid), "--force"]);
        assert.match(forced, /via signal/);
        assert.equal(alive(res.app.pid), false);
      });

      await t.step(
        "bad input: unknown app, a command that fails, one that never registers",
        async () => {
          const unknown = await runCli(d, ["launch", "no-such-app-anywhere"]);
          assert.equal(unknown.code, 1);
          assert.equal(cliError(unknown).code, "APP_NOT_FOUND");

          const failing = await runCli(d, ["launch", "false"]);
          assert.equal(cliError(failing).code, "ACTION_FAILED");

          const silent = await runCli(d, ["launch", "sleep 60", "--timeout", "1500"]);
          const err = cliError(silent);
          assert.equal(err.code, "TIMEOUT");
          const pid = (err.details as { pid: number }).pid;
          launched.push(pid);
          assert.ok(alive(pid), "the slow app was killed, not left to the user");
          await cli(d, ["quit", "--pid", String(pid), "--force"]);
          assert.equal(alive(pid), false);

          const noWindow = await runCli(d, ["window", "--app", d.appName]);
          assert.equal(cliError(noWindow).code, "INVALID_ARGS");
          const noApp = await runCli(d, ["quit", "--app", "no-such-app"]);
          assert.equal(cliError(noApp).code, "APP_NOT_FOUND");
          const badPair = await runCli(d, ["window", "--app", d.appName, "--resize", "big"]);
          assert.equal(badPair.code, 2);
        },
      );
    } finally {
      for (const pid of launched) {
        if (alive(pid)) {
          try {
            Deno.kill(pid, "SIGKILL");
          } catch {
            // gone
          }
        }
      }
    }
    assert.deepEqual(launched.filter(alive), [], "launched processes were left behind");
  },
});

/** An X property of a window, as xprop prints it ("" when it has none). */
async function xprop(d: TestDesktop, win: string, name: string): Promise<string> {
  const args = win === "root" ? ["-root", name] : ["-id", win, name];
  const out = await new Deno.Command("xprop", { args, env: d.env, stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout).trim();
}

const hasOpenbox = (() => {
  try {
    return Deno.statSync("/usr/bin/openbox").isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "window under a real window manager (openbox): the EWMH requests, checked with xprop",
  ignore: !hasDesktopTools() || !hasOpenbox,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const wm = new Deno.Command("openbox", {
      args: ["--sm-disable"],
      env: d.env,
      stdout: "null",
      stderr: "null",
    }).spawn();
    let pid = 0;
    try {
      await eventually("openbox to manage the display", async () => {
        const check = await xprop(d, "root", "_NET_SUPPORTING_WM_CHECK");
        return /window id/.test(check) ? true : undefined;
      }, 15_000);
      const file = `${d.env.XDG_RUNTIME_DIR}/managed.txt`;
      await Deno.writeTextFile(file, "managed\n");
      const res = JSON.parse(
        await cli(d, [
          "launch",
          `zenity --text-info --title Managed --width 420 --height 300 --filename ${file}`,
          "--format",
          "json",
        ]),
      );
      pid = res.app.pid;
      const win = ["--app", "zenity"];
      const id = (await xdotool(d, ["search", "--onlyvisible", "--pid", String(pid)]))
        .split("\n")[0];
      assert.ok(id, "zenity has a visible window");
      const state = () => xprop(d, id, "_NET_WM_STATE");

      const before = await geometry(d, pid);
      await cli(d, ["window", ...win, "--move", "200,150"]);
      const moved = await geometry(d, pid);
      assert.ok(moved && before && (moved[0] !== before[0] || moved[1] !== before[1]), "moved");
      // The window manager places its frame there; the client sits inside it.
      assert.ok(moved![0] >= 200 && moved![0] < 240 && moved![1] >= 150 && moved![1] < 200);

      await cli(d, ["window", ...win, "--maximize"]);
      assert.match(await state(), /_NET_WM_STATE_MAXIMIZED_VERT/);
      assert.match(await state(), /_NET_WM_STATE_MAXIMIZED_HORZ/);
      await cli(d, ["window", ...win, "--restore"]);
      assert.doesNotMatch(await state(), /MAXIMIZED/);

      await cli(d, ["window", ...win, "--minimize"]);
      assert.match(await state(), /_NET_WM_STATE_HIDDEN/);
      assert.match(await xprop(d, id, "WM_STATE"), /Iconic/);
      await cli(d, ["window", ...win, "--restore", "--raise"]);
      assert.doesNotMatch(await state(), /HIDDEN/);
      await eventually("zenity to be the active window", async () => {
        const active = await xprop(d, "root", "_NET_ACTIVE_WINDOW");
        return active.endsWith(`0x${Number(id).toString(16)}`) ? true : undefined;
      }, 5_000);

      const closed = JSON.parse(await cli(d, ["window", ...win, "--close", "--format", "json"]));
      assert.equal(closed.state.exists, false);
      await eventually("zenity to exit", () => Promise.resolve(alive(pid) ? undefined : true));

      // A fixed-size dialog cannot be maximized: said plainly, not a time-out.
      const fixed = JSON.parse(
        await cli(d, [
          "launch",
          "zenity --question --title Sure --text Really",
          "--format",
          "json",
        ]),
      );
      pid = fixed.app.pid;
      const refused = await runCli(d, ["window", "--app", "zenity", "--maximize"]);
      assert.equal(cliError(refused).code, "ACTION_NOT_SUPPORTED", refused.stderr);
      assert.doesNotMatch(
        await xprop(
          d,
          (await xdotool(d, ["search", "--onlyvisible", "--pid", String(pid)])).split("\n")[0],
          "_NET_WM_STATE",
        ),
        /MAXIMIZED/,
      );
    } finally {
      if (pid && alive(pid)) Deno.kill(pid, "SIGKILL");
      wm.kill("SIGKILL");
      await wm.status;
    }
  },
});
