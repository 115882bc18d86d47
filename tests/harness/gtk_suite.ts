/**
 * The end-to-end checks both GTK widget factories must pass, through the
 * `desktop` CLI, against one app instance per test file.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { agentTargets } from "../../src/output/agent_parse.ts";
import { cliError, runCli } from "./cli.ts";
import { type DesktopApp, drive, startDesktop, type TestDesktop } from "./desktop.ts";
import { allElements, byRef, eventually } from "./tree.ts";

/** Runs the CLI against the desktop, failing the test (with the app's log) on an error. */
export async function cli(d: TestDesktop, args: string[]): Promise<string> {
  const res = await runCli(d, args);
  if (res.code !== 0) {
    throw new Error(
      `desktop ${args.join(" ")} exited ${res.code}: ${res.stderr}\napp log:\n${d.appLog()}`,
    );
  }
  return res.stdout;
}

/** The code of the JSON error a failing CLI run printed ("ok" when it succeeded). */
export async function cliCode(d: TestDesktop, args: string[]): Promise<string> {
  const res = await runCli(d, args);
  return res.code === 0 ? "ok" : cliError(res).code;
}

/** `desktop read --format json` on the desktop's app. */
export async function readApp(d: TestDesktop): Promise<Snapshot> {
  return JSON.parse(await cli(d, ["read", "--app", d.appName, "--format", "json"])) as Snapshot;
}

/** The CLI arguments of an action (the action commands' flags). */
function actionArgs(action: Record<string, unknown>): string[] {
  switch (action.kind) {
    case "click":
      return ["click"];
    case "type":
      return ["type", "--text", String(action.text)];
    case "set-value":
      return ["set-value", "--value", String(action.value)];
    case "action":
      return ["action", "--name", String(action.name)];
    default:
      throw new Error(`no CLI mapping for ${action.kind}`);
  }
}

/** Acts on a ref through the CLI (`click`, `type`, `set-value`, `action`). */
export function actOn(
  d: TestDesktop,
  ref: string,
  action: Record<string, unknown>,
): Promise<string> {
  return cli(d, [...actionArgs(action), "--app", d.appName, "--ref", ref]);
}

/** The error code of acting on a ref through the CLI ("ok" when it worked). */
export function actCode(
  d: TestDesktop,
  ref: string,
  action: Record<string, unknown>,
): Promise<string> {
  return cliCode(d, [...actionArgs(action), "--app", d.appName, "--ref", ref]);
}

/** The refs `read --format agent` output addresses (rows of uniform runs included), in order. */
export function agentRefs(text: string): string[] {
  return agentTargets(text).map((t) => t.ref);
}

/** Fails when `secret` appears in any file the CLI saved (the ref store). */
export async function assertNotSaved(d: TestDesktop, secret: string): Promise<void> {
  const visit = async (path: string): Promise<void> => {
    for await (const entry of Deno.readDir(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) await visit(full);
      else if (entry.isFile) {
        assert.ok(!(await Deno.readTextFile(full)).includes(secret), `${full} holds the secret`);
      }
    }
  };
  try {
    await visit(`${d.env.XDG_RUNTIME_DIR}/state`);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

const usable = (e: Element) => e.e !== false && e.ref !== undefined && e.b !== undefined;

/**
 * Registers the GTK suite as one Deno test with steps sharing one app.
 *
 * @param app which widget factory
 * @param opts `password`: the app shows a password entry to check secrecy on;
 *   `hiddenText`: a text the app has only on a page it does not show
 */
export function gtkSuite(
  app: DesktopApp,
  opts: { password: boolean; hiddenText?: string },
): void {
  Deno.test({
    name: `${app}: read, refs, click, type, set-value, errors`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      await using d = await startDesktop({ app });

      // Some apps keep adding widgets for a moment after they register: wait
      // until two reads in a row have the same size before judging stability.
      await eventually("the app's tree to stop growing", async () => {
        const a = allElements((await readApp(d)).root).length;
        const b = allElements((await readApp(d)).root).length;
        return a === b ? true : undefined;
      }, 15000);

      let first: Snapshot | undefined;
      await t.step("read lists the app's controls, each with a ref", async () => {
        first = await readApp(d);
        const els = allElements(first.root);
        assert.equal(first.root.r, "app");
        assert.ok(els.every((e) => typeof e.ref === "string" && e.ref.length > 0));
        for (const role of ["chk", "input", "slider", "spin", "btn"]) {
          assert.ok(els.some((e) => e.r === role && usable(e)), `a usable ${role}`);
        }
        const refs = agentRefs(await cli(d, ["read", "--app", d.appName, "--format", "agent"]));
        const box = els.find((e) => e.r === "chk" && usable(e))!;
        // The agent format prints each ref as its shortest unique suffix.
        const printed = refs.find((r) => box.ref === r || box.ref!.endsWith(`/${r}`));
        assert.ok(printed, `agent output lists ${box.ref} or a suffix of it`);
        assert.ok(refs.length >= 20, `agent output lists ${refs.length} refs`);
      });

      await t.step("two consecutive reads give identical refs", async () => {
        const a = agentRefs(await cli(d, ["read", "--app", d.appName, "--format", "agent"]));
        const b = agentRefs(await cli(d, ["read", "--app", d.appName, "--format", "agent"]));
        assert.deepEqual(b, a);
        const again = await readApp(d);
        assert.deepEqual(
          allElements(again.root).map((e) => e.ref),
          allElements(first!.root).map((e) => e.ref),
        );
      });

      await t.step("clicking a check button by ref toggles it", async () => {
        const snap = await readApp(d);
        const box = allElements(snap.root).find((e) =>
          e.r === "chk" && e.chk === false && usable(e)
        );
        assert.ok(box, "an unchecked, enabled check button");
        await actOn(d, box.ref!, { kind: "click" });
        await eventually("the check button to be checked", async () => {
          const el = byRef((await readApp(d)).root, box.ref!);
          return el?.chk === true ? el : undefined;
        });
      });

      await t.step("watch reports the app's changes until it is stopped", async () => {
        const snap = await readApp(d);
        const box = allElements(snap.root).find((e) => e.r === "chk" && usable(e));
        assert.ok(box, "an enabled check button");
        const r = await drive<{ during: number; afterStop: number }>(d, {
          op: "watch",
          scope: { app: d.appName },
          ref: box.ref,
          action: { kind: "click" },
        });
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        assert.ok(r.value.during > 0, "no change reported for a click");
        assert.equal(r.value.afterStop, 0, "changes reported after stop");
      });

      await t.step("typing into an entry by ref appends to its value", async () => {
        const snap = await readApp(d);
        const entry = allElements(snap.root).find((e) =>
          e.r === "input" && e.v === "entry" && e.ro !== true && usable(e)
        );
        assert.ok(entry, "an editable entry showing 'entry'");
        await actOn(d, entry.ref!, { kind: "type", text: "typed42" });
        await eventually("the entry to contain the typed text", async () => {
          const el = byRef((await readApp(d)).root, entry.ref!);
          return el?.v === "entrytyped42" ? el : undefined;
        });
      });

      await t.step("key combos by ref: ctrl+a then BackSpace empties an entry", async () => {
        const snap = await readApp(d);
        const entry = allElements(snap.root).find((e) =>
          e.r === "input" && e.v?.includes("typed42")
        );
        assert.ok(entry, "the entry typed into");
        await cli(d, ["key", "--app", d.appName, "--ref", entry.ref!, "ctrl+a"]);
        await cli(d, ["key", "--app", d.appName, "--ref", entry.ref!, "BackSpace"]);
        await eventually("the entry to be empty", async () => {
          const el = byRef((await readApp(d)).root, entry.ref!);
          return el && el.v === undefined ? el : undefined;
        });
        assert.equal(
          await cliCode(d, ["key", "--app", d.appName, "--ref", entry.ref!, "hyper+q"]),
          "INVALID_ARGS",
        );
      });

      await t.step("list --windows ids scope a read to that window", async () => {
        const wins = JSON.parse(
          await cli(d, ["list", "--windows", "--app", d.appName, "--format", "json"]),
        ) as Array<{ id: number; title: string; pid: number }>;
        assert.ok(wins.length >= 1);
        assert.equal(wins[0].pid, d.pid);
        const snap = JSON.parse(
          await cli(d, [
            "read",
            "--app",
            d.appName,
            "--window-id",
            String(wins[0].id),
            "--format",
            "json",
          ]),
        ) as Snapshot;
        assert.equal(snap.root.r, "window");
        assert.ok(allElements(snap.root).some((e) => e.r === "chk"));
        const bad = await cliCode(d, ["read", "--app", d.appName, "--window-id", "7"]);
        assert.equal(bad, "WINDOW_NOT_FOUND");
      });

      await t.step("set-value changes a slider and a spin button", async () => {
        const snap = await readApp(d);
        const els = allElements(snap.root);
        for (const role of ["slider", "spin"]) {
          const el = els.find((e) =>
            e.r === role && usable(e) && e.max !== undefined && e.max >= 30
          );
          assert.ok(el, `a usable ${role}`);
          const want = role === "slider" ? "20" : "27";
          await actOn(d, el.ref!, { kind: "set-value", value: want });
          await eventually(`the ${role} to read ${want}`, async () => {
            const now = byRef((await readApp(d)).root, el.ref!);
            return now?.v === want ? now : undefined;
          });
        }
      });

      await t.step("dragging a slider's knob to its left end lowers its value", async () => {
        const snap = await readApp(d);
        const el = allElements(snap.root).find((e) =>
          e.r === "slider" && usable(e) && e.b![2] > e.b![3] * 3 && Number(e.v) > (e.min ?? 0)
        );
        assert.ok(el, "a usable horizontal slider above its minimum");
        const [x, y, w, h] = el.b!;
        const start = Number(el.v);
        // The knob sits at the value's share of the track: start the drag on it.
        const knobX = Math.round(x + (w * (start - el.min!)) / (el.max! - el.min!));
        await cli(d, [
          "drag",
          "--app",
          d.appName,
          "--x",
          String(Math.min(x + w - 2, Math.max(x + 2, knobX))),
          "--y",
          String(Math.round(y + h / 2)),
          "--to-x",
          String(x - 20),
          "--to-y",
          String(Math.round(y + h / 2)),
        ]);
        await eventually("the slider value to drop", async () => {
          const now = byRef((await readApp(d)).root, el.ref!);
          return now && Number(now.v ?? el.min) < start ? now : undefined;
        });
      });

      await t.step("set-value with a non-number on a slider is INVALID_ARGS", async () => {
        const snap = await readApp(d);
        const el = allElements(snap.root).find((e) => e.r === "slider" && usable(e))!;
        assert.equal(
          await actCode(d, el.ref!, { kind: "set-value", value: "loud" }),
          "INVALID_ARGS",
        );
      });

      await t.step("an unknown action name is ACTION_NOT_SUPPORTED", async () => {
        const snap = await readApp(d);
        const el = allElements(snap.root).find((e) => e.r === "chk" && usable(e))!;
        assert.equal(
          await actCode(d, el.ref!, { kind: "action", name: "frobnicate" }),
          "ACTION_NOT_SUPPORTED",
        );
      });

      if (opts.password) {
        await t.step("a password entry's value is never printed or saved", async () => {
          const snap = await readApp(d);
          const pw = allElements(snap.root).find((e) => e.sec === true && usable(e));
          assert.ok(pw, "a secure field");
          await actOn(d, pw.ref!, { kind: "set-value", value: "s3cret-pw" });
          const json = await cli(d, ["read", "--app", d.appName, "--format", "json"]);
          const agent = await cli(d, ["read", "--app", d.appName, "--format", "agent"]);
          assert.ok(!json.includes("s3cret-pw") && !agent.includes("s3cret-pw"));
          const after = byRef((JSON.parse(json) as Snapshot).root, pw.ref!);
          assert.equal(after?.sec, true);
          assert.equal(after?.v, undefined);
          await assertNotSaved(d, "s3cret-pw");
        });
      }

      if (opts.hiddenText) {
        const hidden = opts.hiddenText;
        await t.step(
          "wait sees only what is shown: text on a hidden page is not there",
          async () => {
            assert.ok(!JSON.stringify(await readApp(d)).includes(hidden), "read leaves it out");
            const waitFor = ["wait", "--app", d.appName, "--timeout", "1500", "--for-text", hidden];
            assert.equal(await cliCode(d, waitFor), "TIMEOUT");
            const gone = await cli(d, [
              "wait",
              "--app",
              d.appName,
              "--timeout",
              "3000",
              "--gone",
              hidden,
            ]);
            assert.match(gone, /^ok wait gone/);
          },
        );
      }

      await t.step("a bad --app is APP_NOT_FOUND listing running apps", async () => {
        const err = cliError(await runCli(d, ["read", "--app", "no-such-app-xyz"]));
        assert.equal(err.code, "APP_NOT_FOUND");
        const names = (err.candidates as Array<{ name: string }>).map((c) => c.name);
        assert.ok(names.includes(d.appName), `candidates ${names}`);
      });

      await t.step("a stopped app is APP_UNRESPONSIVE, not a hang", async () => {
        d.signalApp("SIGSTOP");
        try {
          const code = await cliCode(d, ["read", "--app", d.appName, "--timeout", "2000"]);
          assert.equal(code, "APP_UNRESPONSIVE");
        } finally {
          d.signalApp("SIGCONT");
        }
        await readApp(d); // it answers again once resumed
      });

      await t.step("a killed app is a clean APP_NOT_FOUND, even mid-read", async () => {
        const reading = runCli(d, ["read", "--app", d.appName, "--format", "json"]);
        await new Promise((r) => setTimeout(r, 400)); // CLI start-up, then into the walk
        d.signalApp("SIGKILL");
        const res = await reading;
        const code = res.code === 0 ? "ok" : cliError(res).code;
        // Depending on timing the read finished first, or saw the app go: never a crash.
        assert.ok(["ok", "APP_NOT_FOUND", "STALE_REF"].includes(code), `mid-read: ${code}`);
        await eventually("the app to leave the bus", async () => {
          const code = await cliCode(d, ["read", "--app", d.appName, "--timeout", "2000"]);
          return code === "APP_NOT_FOUND" ? true : undefined;
        }, 10000);
      });
    },
  });
}
