/**
 * The end-to-end checks both GTK widget factories must pass, run against one
 * app instance per test file.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { type DesktopApp, drive, startDesktop, type TestDesktop } from "./desktop.ts";
import { allElements, byRef, eventually } from "./tree.ts";

/** Reads the app through the driver, failing the test on an error. */
export async function readApp(d: TestDesktop): Promise<Snapshot> {
  const r = await drive<Snapshot>(d, { op: "read", scope: { app: d.appName } });
  if (!r.ok) throw new Error(`read failed: ${JSON.stringify(r.error)}`);
  return r.value;
}

/** Acts on a ref through the driver, failing the test on an error. */
export async function actOn(d: TestDesktop, ref: string, action: Record<string, unknown>) {
  const r = await drive(d, { op: "act", scope: { app: d.appName }, ref, action });
  if (!r.ok) {
    throw new Error(
      `${action.kind} ${ref} failed: ${JSON.stringify(r.error)}\napp log:\n${d.appLog()}`,
    );
  }
  return r.value;
}

const usable = (e: Element) => e.e !== false && e.ref !== undefined && e.b !== undefined;

/**
 * Registers the GTK suite as one Deno test with steps sharing one app.
 *
 * @param app which widget factory
 * @param opts `password`: the app shows a password entry to check secrecy on
 */
export function gtkSuite(app: DesktopApp, opts: { password: boolean }): void {
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
      });

      await t.step("two consecutive reads give identical refs", async () => {
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

      await t.step("typing into an entry by ref changes its value", async () => {
        const snap = await readApp(d);
        const entry = allElements(snap.root).find((e) =>
          e.r === "input" && e.v === "entry" && e.ro !== true && usable(e)
        );
        assert.ok(entry, "an editable entry showing 'entry'");
        await actOn(d, entry.ref!, { kind: "type", text: "typed42" });
        await eventually("the entry to contain the typed text", async () => {
          const el = byRef((await readApp(d)).root, entry.ref!);
          return el?.v?.includes("typed42") ? el : undefined;
        });
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

      await t.step("set-value with a non-number on a slider is INVALID_ARGS", async () => {
        const snap = await readApp(d);
        const el = allElements(snap.root).find((e) => e.r === "slider" && usable(e))!;
        const r = await drive(d, {
          op: "act",
          scope: { app: d.appName },
          ref: el.ref,
          action: { kind: "set-value", value: "loud" },
        });
        assert.equal(r.ok ? "ok" : r.error.code, "INVALID_ARGS");
      });

      await t.step("an unknown action name is ACTION_NOT_SUPPORTED", async () => {
        const snap = await readApp(d);
        const el = allElements(snap.root).find((e) => e.r === "chk" && usable(e))!;
        const r = await drive(d, {
          op: "act",
          scope: { app: d.appName },
          ref: el.ref,
          action: { kind: "action", name: "frobnicate" },
        });
        assert.equal(r.ok ? "ok" : r.error.code, "ACTION_NOT_SUPPORTED");
      });

      if (opts.password) {
        await t.step("a password entry's value is never printed", async () => {
          const snap = await readApp(d);
          const pw = allElements(snap.root).find((e) => e.sec === true && usable(e));
          assert.ok(pw, "a secure field");
          await actOn(d, pw.ref!, { kind: "set-value", value: "s3cret-pw" });
          const r = await drive(d, { op: "read", scope: { app: d.appName } });
          const text = JSON.stringify(r);
          assert.ok(r.ok);
          assert.ok(!text.includes("s3cret-pw"), "the secret appears in the read");
          const after = byRef((r.value as Snapshot).root, pw.ref!);
          assert.equal(after?.sec, true);
          assert.equal(after?.v, undefined);
        });
      }

      await t.step("a bad --app is APP_NOT_FOUND listing running apps", async () => {
        const r = await drive(d, { op: "read", scope: { app: "no-such-app-xyz" } });
        assert.equal(r.ok, false);
        if (r.ok) return;
        assert.equal(r.error.code, "APP_NOT_FOUND");
        const names = (r.error.candidates as Array<{ name: string }>).map((c) => c.name);
        assert.ok(names.includes(d.appName), `candidates ${names}`);
      });

      await t.step("a stopped app is APP_UNRESPONSIVE, not a hang", async () => {
        d.signalApp("SIGSTOP");
        try {
          const r = await drive(d, { op: "read", scope: { app: d.appName }, timeoutMs: 2000 });
          assert.equal(r.ok ? "ok" : r.error.code, "APP_UNRESPONSIVE");
        } finally {
          d.signalApp("SIGCONT");
        }
        await readApp(d); // it answers again once resumed
      });

      await t.step("a killed app is a clean APP_NOT_FOUND", async () => {
        d.signalApp("SIGKILL");
        await eventually("the app to leave the bus", async () => {
          const r = await drive(d, { op: "read", scope: { app: d.appName }, timeoutMs: 2000 });
          return !r.ok && r.error.code === "APP_NOT_FOUND" ? true : undefined;
        }, 10000);
      });
    },
  });
}
