import assert from "node:assert/strict";
import type { Provider } from "../../src/platform/provider.ts";
import type { Snapshot } from "../../src/model/element.ts";
import { find, get, rejectsWith, SAFARI, scenario, shim } from "./macos_shim_helpers.ts";

const read = (p: Provider): Promise<Snapshot> => p.read({ app: "Safari" });
const status = async (p: Provider) =>
  find((await read(p)).root, (e) => e.nid !== undefined && e.r === "txt" && e.b?.[0] === 320);

Deno.test("macos click: AXPress first, and the app's effect shows on re-read", async () => {
  await scenario("browser", async (p) => {
    const submit = get(await read(p), "btn", "Submit");
    const res = await p.act({ app: "Safari" }, { element: submit }, { kind: "click" });
    assert.deepEqual(res, { via: "accessible", detail: "AXPress" });
    assert.equal((await status(p))?.t, "Submitted");
  });
});

Deno.test("macos click: a check box toggles, re-read shows it checked", async () => {
  await scenario("browser", async (p) => {
    const box = get(await read(p), "chk", "Subscribe to news");
    await p.act({}, { element: box }, { kind: "click" });
    assert.equal(get(await read(p), "chk", "Subscribe to news").chk, true);
  });
});

Deno.test("macos click: without a press action it clicks the element's centre", async () => {
  await scenario("browser", async (p) => {
    const promo = get(await read(p), "img", "Promo banner");
    const res = await p.act({}, { element: promo }, { kind: "click" });
    assert.equal(res.via, "input");
    assert.equal(res.detail, "left x1");
    assert.equal((await status(p))?.t, "Promo clicked");
    assert.ok(shim.log().includes("mouse down button=0 at 400,630 clicks=1"));
  });
});

Deno.test("macos click: right click uses AXShowMenu, double click sends click state 2", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    const right = await p.act({}, { element: get(snap, "btn", "Submit") }, {
      kind: "click",
      button: "right",
    });
    assert.equal(right.detail, "AXShowMenu");
    assert.ok(shim.log().includes("action submit AXShowMenu"));
    const dbl = await p.act({}, { element: get(snap, "img", "Promo banner") }, {
      kind: "click",
      count: 2,
    });
    assert.equal(dbl.via, "input");
    assert.ok(shim.log().includes("mouse up button=0 at 400,630 clicks=2"));
  });
});

Deno.test("macos click: input goes only where the element is on screen", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    // Terms lies below the 800 px window: scrolled into view first, then clicked there.
    const res = await p.act({}, { element: get(snap, "btn", "Terms") }, {
      kind: "click",
      button: "right",
    });
    assert.equal(res.detail, "right x1");
    const log = shim.log();
    const scrolled = log.indexOf("action far AXScrollToVisible");
    const clicked = log.findIndex((l) => l.startsWith("mouse down button=1 at 70,715"));
    assert.ok(scrolled >= 0 && clicked > scrolled, log.join("\n"));
    // The banner moved out of view and cannot be scrolled back: no click anywhere.
    shim.apply(SAFARI, [{ move: "promo", frame: [300, 2000, 200, 60] }]);
    const before = shim.log().length;
    await rejectsWith(
      p.act({}, { element: get(snap, "img", "Promo banner") }, { kind: "click" }),
      "ACTION_FAILED",
    );
    assert.ok(!shim.log().slice(before).some((l) => l.startsWith("mouse")), "no input was sent");
  });
});

Deno.test("macos click: a disabled element is ACTION_NOT_SUPPORTED, bad counts INVALID_ARGS", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    await rejectsWith(
      p.act({}, { element: get(snap, "btn", "Reset") }, { kind: "click" }),
      "ACTION_NOT_SUPPORTED",
    );
    await rejectsWith(
      p.act({}, { element: get(snap, "btn", "Submit") }, { kind: "click", count: 0 }),
      "INVALID_ARGS",
    );
    assert.ok(!shim.log().some((l) => l.startsWith("action disabled")));
  });
});

Deno.test("macos type: focuses the field and types Unicode text in chunks", async () => {
  await scenario("browser", async (p) => {
    const email = get(await read(p), "input", "Email");
    const text = "zoë+日本@example.com — a long address that needs several chunks 😀";
    const res = await p.act({}, { element: email }, { kind: "type", text });
    assert.equal(res.via, "input");
    const after = get(await read(p), "input", "Email");
    assert.equal(after.v, text);
    assert.equal(after.f, true);
    assert.ok(shim.log().filter((l) => l.startsWith("key down code=0")).length >= 3);
  });
});

Deno.test("macos type: an emoji on a chunk boundary is never split", async () => {
  await scenario("browser", async (p) => {
    const email = get(await read(p), "input", "Email");
    const text = `${"a".repeat(19)}😀b${"c".repeat(18)}🎉`;
    await p.act({}, { element: email }, { kind: "type", text });
    assert.equal(get(await read(p), "input", "Email").v, text);
  });
});

Deno.test("macos type: a newline presses Return (the field's submit effect runs)", async () => {
  await scenario("browser", async (p) => {
    const email = get(await read(p), "input", "Email");
    await p.act({}, { element: email }, { kind: "type", text: "a@b.c\n" });
    assert.equal(get(await read(p), "input", "Email").v, "a@b.c");
    assert.equal((await status(p))?.t, "Submitted by Return");
  });
});

Deno.test("macos type: a password is typed but never read back", async () => {
  await scenario("browser", async (p) => {
    const pw = get(await read(p), "input", "Password");
    await p.act({}, { element: pw }, { kind: "type", text: "s3cret" });
    assert.equal(shim.attr(SAFARI, "password", "AXValue"), "hunter2s3cret");
    const again = get(await read(p), "input", "Password");
    assert.equal(again.v, undefined);
    assert.equal(again.sec, true);
  });
});

Deno.test("macos type: typing into another app's field activates that app first", async () => {
  await scenario("browser", async (p) => {
    const search = get(await p.read({ app: "Finder" }), "input", "Search");
    await p.act({ app: "Finder" }, { element: search }, { kind: "type", text: "report" });
    assert.equal(get(await p.read({ app: "Finder" }), "input", "Search").v, "report");
    assert.equal((await p.listApps())[0].name, "Finder");
  });
});

Deno.test("macos key: combos map to virtual keys and modifier flags", async () => {
  await scenario("browser", async (p) => {
    const email = get(await read(p), "input", "Email");
    await p.act({}, { element: email }, { kind: "type", text: "abc" });
    await p.act({}, { element: email }, { kind: "key", combo: "Backspace" });
    assert.equal(get(await read(p), "input", "Email").v, "ab");
    await p.act({}, { element: email }, { kind: "key", combo: "cmd+shift+a" });
    assert.ok(shim.log().some((l) => l.startsWith("key down code=0 flags=0x120000")));
    await p.act({}, { point: { x: 10, y: 10 } }, { kind: "key", combo: "ctrl+Tab" });
    assert.ok(shim.log().some((l) => l.startsWith("key down code=48 flags=0x40000")));
    await rejectsWith(
      p.act({}, { element: email }, { kind: "key", combo: "cmd+nosuchkey" }),
      "INVALID_ARGS",
    );
  });
});

Deno.test("macos action: friendly and raw names, and the list of available ones", async () => {
  await scenario("browser", async (p) => {
    const slider = get(await read(p), "slider", "Volume");
    assert.equal(
      (await p.act({}, { element: slider }, { kind: "action", name: "increment" })).detail,
      "AXIncrement",
    );
    assert.equal(get(await read(p), "slider", "Volume").v, "60");
    await p.act({}, { element: slider }, { kind: "action", name: "AXDecrement" });
    await p.act({}, { element: slider }, { kind: "action", name: "decrement" });
    assert.equal(get(await read(p), "slider", "Volume").v, "40");
    const err = await rejectsWith(
      p.act({}, { element: slider }, { kind: "action", name: "explode" }),
      "ACTION_NOT_SUPPORTED",
    );
    assert.deepEqual(err.details?.available, ["increment", "decrement"]);
    assert.match(err.message, /increment, decrement/);
  });
});

Deno.test("macos set-value: text, numbers and check states, verified by re-reading", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    await p.act({}, { element: get(snap, "input", "Email") }, {
      kind: "set-value",
      value: "x@y.z",
    });
    await p.act({}, { element: get(snap, "slider", "Volume") }, { kind: "set-value", value: "75" });
    const box = get(snap, "chk", "Subscribe to news");
    assert.equal(
      (await p.act({}, { element: box }, { kind: "set-value", value: "on" })).detail,
      "AXPress",
    );
    const same = await p.act({}, { element: box }, { kind: "set-value", value: "true" });
    assert.equal(same.detail, "unchanged");
    const after = await read(p);
    assert.equal(get(after, "input", "Email").v, "x@y.z");
    assert.equal(get(after, "slider", "Volume").v, "75");
    assert.equal(get(after, "chk", "Subscribe to news").chk, true);
  });
});

Deno.test("macos set-value: bad values and unsettable elements fail with codes", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    const cases: [string, string, string, string][] = [
      ["slider", "Volume", "loud", "INVALID_ARGS"],
      ["slider", "Volume", "", "INVALID_ARGS"],
      ["slider", "Volume", "100000", "INVALID_ARGS"], // outside 0..100: no silent clamp
      ["chk", "Subscribe to news", "maybe", "INVALID_ARGS"],
      ["txt", "Invoice 2024-17", "new text", "ACTION_NOT_SUPPORTED"],
      ["btn", "Reset", "x", "ACTION_NOT_SUPPORTED"], // disabled
    ];
    for (const [r, label, value, code] of cases) {
      await rejectsWith(
        p.act({}, { element: get(snap, r, label) }, { kind: "set-value", value }),
        code as "INVALID_ARGS",
      );
    }
    assert.equal(get(await read(p), "slider", "Volume").v, "50");
  });
});

Deno.test("macos scroll: wheel events at the centre move the scroll bar", async () => {
  await scenario("browser", async (p) => {
    const form = find((await read(p)).root, (e) => e.r === "form")!;
    const res = await p.act({}, { element: form }, {
      kind: "scroll",
      direction: "down",
      amount: 3,
    });
    assert.equal(res.via, "input");
    const bar = find((await read(p)).root, (e) => e.b?.[0] === 1180 && e.v !== undefined);
    assert.equal(bar?.v, "0.3");
    await p.act({}, { element: form }, { kind: "scroll", direction: "up", amount: 1 });
    assert.equal(
      find((await read(p)).root, (e) => e.b?.[0] === 1180 && e.v !== undefined)?.v,
      "0.2",
    );
  });
});

Deno.test("macos scroll: into view uses AXScrollToVisible, or says it cannot", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    const res = await p.act({}, { element: get(snap, "btn", "Terms") }, { kind: "scroll" });
    assert.equal(res.detail, "scroll into view");
    assert.ok(shim.log().includes("action far AXScrollToVisible"));
    await rejectsWith(
      p.act({}, { element: get(snap, "btn", "Submit") }, { kind: "scroll" }),
      "ACTION_NOT_SUPPORTED",
    );
    await rejectsWith(
      p.act({}, { element: get(snap, "btn", "Submit") }, { kind: "scroll", amount: 0 }),
      "INVALID_ARGS",
    );
    // At a point there is nothing to bring into view: the wheel turns the default 3 notches.
    const atPoint = await p.act({}, { point: { x: 5, y: 5 } }, { kind: "scroll" });
    assert.equal(atPoint.via, "input");
  });
});

Deno.test("macos drag: dragging the slider's knob sets its value", async () => {
  await scenario("browser", async (p) => {
    const slider = get(await read(p), "slider", "Volume");
    const res = await p.act({}, { element: slider }, { kind: "drag", to: { x: 170, y: 610 } });
    assert.equal(res.via, "input");
    assert.equal(get(await read(p), "slider", "Volume").v, "75");
    await rejectsWith(
      p.act({}, { element: slider }, { kind: "drag", to: { x: NaN, y: 1 } }),
      "INVALID_ARGS",
    );
  });
});

Deno.test("macos focus: raises the window and focuses the element", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    const downloads = find(snap.root, (e) => e.r === "window" && e.t === "Downloads")!;
    assert.equal((await p.act({}, { element: downloads }, { kind: "focus" })).detail, "raise");
    assert.ok(shim.log().includes("action AXWindow AXRaise"));
    const after = await read(p);
    const windows = after.root.c?.filter((e) => e.r === "window").map((e) => e.t);
    assert.deepEqual(windows, ["Downloads", "Sign up — Example"], "the raised window comes first");
    const email = get(after, "input", "Email");
    assert.equal((await p.act({}, { element: email }, { kind: "focus" })).detail, "focus");
    assert.equal(get(await read(p), "input", "Email").f, true);
  });
});

Deno.test("macos point targets: click at a point, element-only actions refuse points", async () => {
  await scenario("browser", async (p) => {
    const res = await p.act({}, { point: { x: 400, y: 630 } }, { kind: "click" });
    assert.equal(res.via, "input");
    assert.equal((await status(p))?.t, "Promo clicked");
    await p.act({ app: "Finder" }, { point: { x: 700, y: 222 } }, { kind: "type", text: "q" });
    assert.equal(get(await p.read({ app: "Finder" }), "input", "Search").v, "q");
    for (const action of [{ kind: "focus" }, { kind: "action", name: "press" }] as const) {
      await rejectsWith(p.act({}, { point: { x: 1, y: 1 } }, action), "INVALID_ARGS");
    }
  });
});

Deno.test("macos stale elements: a removed row's button is STALE_REF, unknown nids too", async () => {
  await scenario("browser", async (p) => {
    const snap = await read(p);
    const del = find(snap.root, (e) => e.r === "btn" && e.t === "Delete" && e.b?.[1] === 450)!;
    await p.act({}, { element: del }, { kind: "click" });
    const after = await read(p);
    assert.equal(find(after.root, (e) => e.t === "Invoice 2024-18"), undefined);
    assert.ok(find(after.root, (e) => e.t === "Invoice 2024-19"));
    await rejectsWith(p.act({}, { element: del }, { kind: "click" }), "STALE_REF");
    await rejectsWith(
      p.act({}, { element: { ...del, nid: "ax:501:999999" } }, { kind: "click" }),
      "STALE_REF",
    );
    await rejectsWith(p.act({}, { element: { i: 1, r: "btn" } }, { kind: "click" }), "STALE_REF");
  });
});

Deno.test("macos: a scripted add shows up on the next read", async () => {
  await scenario("browser", async (p) => {
    await p.act({}, { element: get(await read(p), "btn", "Add row") }, { kind: "click" });
    assert.ok(find((await read(p)).root, (e) => e.t === "Invoice 2024-20"));
  });
});
