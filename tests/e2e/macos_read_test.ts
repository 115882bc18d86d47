import assert from "node:assert/strict";
import { assignRefs } from "../../src/refs/generate.ts";
import { resolveRef } from "../../src/refs/resolve.ts";
import { find, FINDER, get, rejectsWith, SAFARI, scenario } from "./macos_shim_helpers.ts";

Deno.test("macos: listApps lists apps with normal windows, front to back, focus from AX", async () => {
  await scenario("browser", async (p) => {
    const apps = await p.listApps();
    assert.deepEqual(apps, [
      { name: "Safari", pid: SAFARI, focused: true, windows: 2 },
      { name: "Finder", pid: FINDER, focused: false, windows: 1 },
    ]);
  });
});

Deno.test("macos: listWindows leaves out minimized and non-zero-layer windows", async () => {
  await scenario("browser", async (p) => {
    const all = await p.listWindows();
    assert.deepEqual(all.map((w) => [w.id, w.title, w.pid]), [
      [11, "Sign up — Example", SAFARI],
      [12, "Downloads", SAFARI],
      [21, "Documents", FINDER],
    ]);
    assert.equal(all[0].focused, true);
    assert.deepEqual(all[0].b, [0, 0, 1200, 800]);
    const finder = await p.listWindows({ app: "finder" });
    assert.deepEqual(finder.map((w) => w.title), ["Documents"]);
  });
});

Deno.test("macos: read maps AX roles, labels and states onto the element model", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({ app: "Safari" });
    assert.equal(snap.app.pid, SAFARI);
    assert.equal(snap.root.r, "app");
    const email = get(snap, "input", "Email");
    assert.equal(email.req, true);
    assert.equal(email.ph, "you@example.com");
    assert.deepEqual(email.b, [130, 90, 300, 24]);
    assert.deepEqual(email.a, ["show-menu"]);
    assert.equal(get(snap, "chk", "Subscribe to news").chk, false);
    assert.equal(get(snap, "btn", "Reset").e, false);
    const slider = get(snap, "slider", "Volume");
    assert.deepEqual([slider.v, slider.min, slider.max], ["50", 0, 100]);
    assert.deepEqual(slider.a, ["increment", "decrement"]);
    assert.equal(get(snap, "txt", "Invoice 2024-18").r, "txt");
    assert.equal(get(snap, "chk", "Select all").chk, "mixed");
    const ids = [] as number[];
    find(snap.root, (e) => (ids.push(e.i), false));
    assert.deepEqual(ids, ids.map((_, k) => k + 1), "ids are depth-first from 1");
  });
});

Deno.test("macos: a secure text field is marked sec and its value is never read", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({ app: "Safari" });
    const pw = get(snap, "input", "Password");
    assert.equal(pw.sec, true);
    assert.equal(pw.v, undefined);
    assert.ok(!JSON.stringify(snap).includes("hunter2"));
  });
  // scenario() asserted that the shim counted zero reads of the secure AXValue.
});

Deno.test("macos: refs from the read are landmark paths (form/email, invoices rows)", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({ app: "Safari" });
    assignRefs(snap.root);
    assert.equal(resolveRef(snap.root, "form/email").r, "input");
    assert.equal(resolveRef(snap.root, "form/email").ph, "you@example.com");
    assert.equal(resolveRef(snap.root, "form/password").sec, true);
    assert.equal(resolveRef(snap.root, "form/submit").t, "Submit");
    assert.equal(resolveRef(snap.root, "invoices/invoice-2024-18/delete").r, "btn");
  });
});

Deno.test("macos: a window scope reads only that window (by title or window id)", async () => {
  await scenario("browser", async (p) => {
    const byTitle = await p.read({ app: "Safari", window: "downloads" });
    assert.equal(byTitle.root.r, "window");
    assert.equal(byTitle.root.t, "Downloads");
    assert.equal(byTitle.window?.id, 12);
    assert.equal(byTitle.root.c?.[0].t, "No downloads");
    const byId = await p.read({ pid: SAFARI, windowId: 11 });
    assert.equal(byId.root.t, "Sign up — Example");
  });
});

Deno.test("macos: depth and bounds options limit what is read", async () => {
  await scenario("browser", async (p) => {
    const shallow = await p.read({ app: "Safari" }, { depth: 1 });
    assert.deepEqual(shallow.root.c?.map((e) => e.r), ["menubar", "window", "window"]);
    assert.ok(shallow.root.c?.every((w) => w.c === undefined));
    const noBounds = await p.read({ app: "Safari" }, { bounds: false });
    assert.equal(find(noBounds.root, (e) => e.b !== undefined), undefined);
  });
});

Deno.test("macos: closed menus of the menu bar are not walked, open ones are", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({ app: "Safari" });
    assert.ok(get(snap, "menuitem", "File"));
    assert.equal(find(snap.root, (e) => e.t === "New Window"), undefined);
    assert.equal(get(snap, "menuitem", "Show Sidebar").chk, true);
    assert.equal(get(snap, "menuitem", "Zoom In").chk, undefined);
  });
});

Deno.test("macos: the focused app is read when the scope is empty", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({});
    assert.equal(snap.app.name, "Safari");
  });
});

Deno.test("macos: nids stay the same for the same element across reads", async () => {
  await scenario("browser", async (p) => {
    const a = get(await p.read({ app: "Safari" }), "btn", "Submit");
    const b = get(await p.read({ app: "Safari" }), "btn", "Submit");
    assert.ok(a.nid?.startsWith(`ax:${SAFARI}:`));
    assert.equal(a.nid, b.nid);
  });
});

Deno.test("macos: an app with only minimized windows is not listed but readable by pid", async () => {
  await scenario("browser", async (p) => {
    assert.ok(!(await p.listApps()).some((a) => a.pid === 650));
    const snap = await p.read({ pid: 650 });
    assert.equal(snap.app.name, "Notes");
    assert.equal(get(snap, "input", "Note").v, "eggs, milk");
  });
});

Deno.test("macos: a huge value is cut to its first 2000 characters", async () => {
  await scenario("browser", async (p) => {
    const snap = await p.read({ app: "Safari" });
    const email = get(snap, "input", "Email");
    await p.act({}, { element: email }, { kind: "set-value", value: "lorem ipsum ".repeat(1000) });
    const v = get(await p.read({ app: "Safari" }), "input", "Email").v!;
    assert.equal(v.length, 2000);
    assert.ok("lorem ipsum ".repeat(1000).startsWith(v));
  });
});

Deno.test("macos: bad scopes fail with APP_NOT_FOUND / WINDOW_NOT_FOUND and candidates", async () => {
  await scenario("browser", async (p) => {
    const err = await rejectsWith(p.read({ app: "Mail" }), "APP_NOT_FOUND");
    assert.deepEqual(err.candidates, [{ name: "Safari", pid: SAFARI }, {
      name: "Finder",
      pid: FINDER,
    }]);
    await rejectsWith(p.read({ pid: 4242 }), "APP_NOT_FOUND");
    await rejectsWith(p.read({ app: "SystemUIServer" }), "APP_NOT_FOUND");
    await rejectsWith(p.read({ app: "Safari", window: "Bookmarks" }), "WINDOW_NOT_FOUND");
    await rejectsWith(p.read({ app: "Safari", windowId: 21 }), "WINDOW_NOT_FOUND");
  });
});

Deno.test("macos: a closed provider refuses work and closing twice is safe", async () => {
  await scenario("browser", async (p) => {
    p.close();
    p.close();
    await rejectsWith(p.listApps().then(() => p.read({ app: "Safari" })), "INTERNAL");
  });
});
