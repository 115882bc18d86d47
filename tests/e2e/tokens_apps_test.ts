/**
 * Real apps: labels fold into their controls, symbols take their description,
 * and the ref rules hold (no label twins, no cell value in a ref, no toolkit
 * class name) on gnome-calculator (GTK 4), a zenity form (GTK 3) and mousepad.
 */

import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { elements } from "../../bench/tokens.ts";
import { type DesktopApp, hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { cli } from "../harness/gtk_suite.ts";
import { eventually } from "../harness/tree.ts";
import { classNameRefs, labelTwins, valueRefs } from "./tokens_rules.ts";

/** Reads an app as JSON once it shows something. */
async function readTree(
  d: Awaited<ReturnType<typeof startDesktop>>,
  ready: (root: Element) => boolean,
): Promise<Element> {
  return await eventually("the app's window", async () => {
    const doc = JSON.parse(
      await cli(d, ["read", "--app", d.appName, "--format", "json", "--timeout", "60000"]),
    );
    return ready(doc.root) ? doc.root as Element : undefined;
  }, 60000);
}

function rules(root: Element): void {
  assert.deepEqual(labelTwins(root), []);
  assert.deepEqual(valueRefs(root), []);
  assert.deepEqual(classNameRefs(root), []);
}

const ZENITY_FORM = ["--text=Contact", "--add-entry=Name", "--add-entry=E-mail"].join("\0");

const cases: Array<{ app: DesktopApp; url?: string; check: (root: Element) => void }> = [
  {
    app: "gnome-calculator",
    check(root) {
      const all = [...elements(root)];
      // The operator buttons are named by their description, not indexed.
      for (const [ref, desc] of [["multiply", "Multiply"], ["divide", "Divide"], ["add", "Add"]]) {
        const btn = all.find((e) => e.ref?.split("/").pop() === ref);
        assert.ok(btn, ref);
        assert.equal(btn.r, "btn");
        assert.ok(btn.d?.startsWith(desc), `${ref}: ${btn.d}`);
      }
      // "7 7" (GTK 4 names a button after its label twice) reads "7".
      assert.ok(all.some((e) => e.r === "btn" && e.t === "7" && e.ref?.endsWith("7")));
      assert.ok(!all.some((e) => e.t === "7 7"));
    },
  },
  {
    app: "zenity",
    url: ZENITY_FORM,
    check(root) {
      const all = [...elements(root)];
      for (const label of ["Name", "E-mail"]) {
        const input = all.find((e) => e.r === "input" && e.t === label);
        assert.ok(input, `an input labelled ${label}`);
        assert.ok(!/\.\d+$/.test(input.ref!), input.ref);
        // The label's text is folded into its input: no separate text line.
        assert.ok(!all.some((e) => e.r === "txt" && e.t === label), `no text "${label}"`);
      }
    },
  },
  { app: "mousepad", check() {} },
];

for (const c of cases) {
  Deno.test({
    name: `real app ${c.app}: labels fold, symbols take their description, ref rules hold`,
    ignore: !hasDesktopTools(),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using d = await startDesktop({ app: c.app, ...(c.url ? { url: c.url } : {}) });
      const root = await readTree(d, (r) => [...elements(r)].length > 5);
      c.check(root);
      rules(root);
    },
  });
}
