import assert from "node:assert/strict";
import type { Snapshot } from "../../src/model/element.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { actOn, agentRefs, assertNotSaved, cli, cliCode, readApp } from "../harness/gtk_suite.ts";
import { allElements, byRef, eventually } from "../harness/tree.ts";
import { resolveRef } from "../../src/refs/resolve.ts";

const FORM = `${REPO_ROOT}tests/fixtures/web/form.html`;

Deno.test({
  name: "chromium: a web form and a long list, read and driven by ref",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using d = await startDesktop({ app: "chromium", url: FORM });
    // The page's tree arrives after the browser window registers.
    const first: Snapshot = await eventually("the page's last row", async () => {
      const snap = await readApp(d);
      return byRef(snap.root, "list/item-300/delete") ? snap : undefined;
    }, 20000);

    await t.step("form inputs and list rows have landmark refs", async () => {
      for (const ref of ["form/email", "form/full-name", "form/password", "form/submit"]) {
        assert.ok(byRef(first.root, ref), ref);
      }
      const del = byRef(first.root, "list/item-5/delete");
      assert.equal(del?.r, "btn");
      assert.equal(byRef(first.root, "form/password")?.sec, true);
      const rows = allElements(first.root).filter((e) => e.ref?.match(/^list\/item-\d+$/));
      assert.equal(rows.length, 300);
      // The agent format prints each ref as its shortest unique suffix: each resolves to the
      // element whose full ref JSON gives.
      const agent = agentRefs(await cli(d, ["read", "--app", d.appName, "--format", "agent"]));
      for (const ref of ["form/email", "form/submit", "list/item-5/delete"]) {
        const short = agent.find((a) => a === ref || ref.endsWith(`/${a}`));
        assert.ok(short, `agent output lists ${ref}`);
        assert.equal(resolveRef(first.root, short), byRef(first.root, ref), short);
      }
    });

    await t.step("two consecutive reads give the page identical refs", async () => {
      // The page's refs; the browser's own tab strip changes on its own (tab
      // buttons come and go after a load), which is not the page's business.
      const pageRefs = async () =>
        allElements((await readApp(d)).root).map((e) => e.ref!).filter((r) =>
          /^(form|list)(\/|$)/.test(r)
        );
      const a = await pageRefs();
      const b = await pageRefs();
      assert.ok(a.length > 900, `${a.length} page refs`);
      const diff = a.filter((r, i) => r !== b[i]).slice(0, 10);
      assert.deepEqual(b, a, `first differences: ${diff.join(", ")}`);
    });

    await t.step("typing an email and clicking Submit by ref changes the page", async () => {
      await actOn(d, "form/email", { kind: "type", text: "ada@example.com" });
      await actOn(d, "form/submit", { kind: "click" });
      const status = await eventually("the submitted status", async () => {
        const snap = await readApp(d);
        return allElements(snap.root).find((e) => e.t === "Submitted: ada@example.com");
      });
      assert.equal(status.r, "txt");
      assert.equal(byRef((await readApp(d)).root, "form/email")?.v, "ada@example.com");
    });

    await t.step("a password typed into the page is never printed or saved", async () => {
      await actOn(d, "form/password", { kind: "type", text: "pw-s3cret" });
      const json = await cli(d, ["read", "--app", d.appName, "--format", "json"]);
      const agent = await cli(d, ["read", "--app", d.appName, "--format", "agent"]);
      assert.ok(!json.includes("pw-s3cret") && !agent.includes("pw-s3cret"));
      const pw = byRef((JSON.parse(json) as Snapshot).root, "form/password");
      assert.equal(pw?.sec, true);
      assert.equal(pw?.v, undefined);
      await assertNotSaved(d, "pw-s3cret");
    });

    await t.step("set-value checks the checkbox", async () => {
      await actOn(d, "form/i-agree", { kind: "set-value", value: "true" });
      await eventually("the checkbox to be checked", async () => {
        const el = byRef((await readApp(d)).root, "form/i-agree");
        return el?.chk === true ? el : undefined;
      });
    });

    await t.step("clicking a row's Delete button by ref removes that row only", async () => {
      await actOn(d, "list/item-5/delete", { kind: "click" });
      const after = await eventually("row 5 to disappear", async () => {
        const snap = await readApp(d);
        return byRef(snap.root, "list/item-5") ? undefined : snap;
      });
      assert.ok(byRef(after.root, "list/item-4/delete"));
      assert.ok(byRef(after.root, "list/item-6/delete"));
    });

    await t.step("scroll brings a far row into view, and the wheel scrolls back", async () => {
      const page = byRef(first.root, "desktop-test-form")?.b ?? [0, 0, 1200, 900];
      const bottom = page[1] + page[3];
      const before = byRef((await readApp(d)).root, "list/item-250/delete");
      assert.ok(before?.b && before.b[1] > bottom, "row 250 starts below the viewport");
      await cli(d, ["scroll", "--app", d.appName, "--ref", "list/item-250/delete"]);
      const shown = await eventually("row 250 to be in view", async () => {
        const el = byRef((await readApp(d)).root, "list/item-250/delete");
        return el?.b && el.b[1] >= page[1] && el.b[1] < bottom ? el : undefined;
      });
      await cli(d, [
        "scroll",
        "--app",
        d.appName,
        "--ref",
        "list/item-250/delete",
        "--direction",
        "up",
        "--amount",
        "5",
      ]);
      await eventually("the wheel to move the page", async () => {
        const el = byRef((await readApp(d)).root, "list/item-250/delete");
        return el?.b && el.b[1] > shown.b![1] ? el : undefined;
      });
    });

    await t.step(
      "a real click on a row out of view scrolls it in first, then hits it",
      async () => {
        const page = byRef(first.root, "desktop-test-form")?.b ?? [0, 0, 1200, 900];
        const far = byRef((await readApp(d)).root, "list/item-290/delete");
        assert.ok(far?.b && far.b[1] > page[1] + page[3], "row 290 is below the viewport");
        // A right click goes through synthesized input, which needs the button on screen;
        // the page marks the row whose button got it.
        const out = await cli(d, [
          "click",
          "--app",
          d.appName,
          "--ref",
          "list/item-290/delete",
          "--button",
          "right",
        ]);
        assert.match(out, /via input/);
        const after = await eventually("row 290 to be marked", async () => {
          const snap = await readApp(d);
          return byRef(snap.root, "list/item-290-marked/delete") ? snap : undefined;
        });
        const marked = allElements(after.root).filter((e) => e.t?.endsWith(" marked"));
        assert.deepEqual(marked.map((e) => e.t), ["Item 290 marked"]);
      },
    );

    await t.step("a stopped browser is APP_UNRESPONSIVE", async () => {
      d.signalApp("SIGSTOP");
      try {
        const code = await cliCode(d, ["read", "--app", d.appName, "--timeout", "2000"]);
        assert.equal(code, "APP_UNRESPONSIVE");
      } finally {
        d.signalApp("SIGCONT");
      }
    });
  },
});
