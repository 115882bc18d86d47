import assert from "node:assert/strict";
import { createDesktop, type Desktop } from "../../src/desktop.ts";
import { DesktopError } from "../../src/errors.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import type { Action, ActionResult, ActionTarget, Provider } from "../../src/platform/provider.ts";
import { createMemoryRefStore } from "../../src/state/ref_store.ts";

/** A provider over a snapshot the test can swap, recording every action. */
class FakeProvider implements Provider {
  readonly platform = "replay" as const;
  acted: Array<{ target: ActionTarget; action: Action }> = [];
  listeners: Array<() => void> = [];
  constructor(public snapshot: Snapshot, public withWatch = false) {
    if (!withWatch) this.watch = undefined;
  }
  listApps() {
    return Promise.resolve([this.snapshot.app]);
  }
  listWindows() {
    return Promise.resolve([]);
  }
  read() {
    return Promise.resolve(structuredClone(this.snapshot));
  }
  act(_scope: unknown, target: ActionTarget, action: Action): Promise<ActionResult> {
    this.acted.push({ target, action });
    return Promise.resolve({ via: "accessible" });
  }
  watch?(_scope: unknown, onChange: () => void): Promise<() => void> {
    this.listeners.push(onChange);
    return Promise.resolve(() => {
      this.listeners = this.listeners.filter((l) => l !== onChange);
    });
  }
  close() {}
}

function el(r: Element["r"], t?: string, extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t !== undefined ? { t } : {}), ...extra };
}

/** A small form app: a form with Email and Submit, and a dialog with OK buttons. */
function formApp(
  opts: { okCount?: number; submitLabel?: string; started?: number; extraFirst?: boolean } = {},
): Snapshot {
  const oks = Array.from(
    { length: opts.okCount ?? 1 },
    (_, k) => el("btn", "OK", { b: [100 + 100 * k, 300, 80, 30] }),
  );
  const form = el("form", undefined, {
    c: [
      ...(opts.extraFirst ? [el("input", "Phone", { b: [10, 0, 200, 20] })] : []),
      el("input", "Email", { b: [10, 30, 200, 20], f: true }),
      el("btn", opts.submitLabel ?? "Submit", { b: [10, 60, 80, 30] }),
    ],
  });
  return {
    app: { name: "Forms", pid: 99, started: opts.started ?? 1 },
    readAt: "2026-01-01T00:00:00Z",
    root: el("app", "Forms", {
      c: [
        el("window", "Main", {
          b: [0, 0, 800, 600],
          c: [form, el("dialog", "Confirm", { c: oks })],
        }),
      ],
    }),
  };
}

function session(snapshot: Snapshot, withWatch = false): { desktop: Desktop; p: FakeProvider } {
  const p = new FakeProvider(snapshot, withWatch);
  return { desktop: createDesktop(p, { store: createMemoryRefStore() }), p };
}

async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DesktopError, `expected DesktopError, got ${err}`);
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

async function idOf(desktop: Desktop, ref: string): Promise<number> {
  return (await desktop.resolve({}, { ref })).i;
}

Deno.test("session: a target must name exactly one of ref, id, text, point", async () => {
  const { desktop } = session(formApp());
  await rejectsWith(desktop.resolve({}, {}), "INVALID_ARGS");
  await rejectsWith(desktop.resolve({}, { ref: "form/email", text: "Email" }), "INVALID_ARGS");
  await rejectsWith(desktop.resolve({}, { id: 3, point: { x: 1, y: 1 } }), "INVALID_ARGS");
});

Deno.test("session: refs resolve exactly and by unique suffix; malformed refs are INVALID_ARGS", async () => {
  const { desktop } = session(formApp());
  assert.equal((await desktop.resolve({}, { ref: "form/email" })).t, "Email");
  assert.equal((await desktop.resolve({}, { ref: "submit" })).t, "Submit");
  await rejectsWith(desktop.resolve({}, { ref: "form//email" }), "INVALID_ARGS");
  await rejectsWith(desktop.resolve({}, { ref: "nothing-here" }), "ELEMENT_NOT_FOUND");
});

Deno.test("session: --id means the element of the last read, found again after ids shift", async () => {
  const { desktop, p } = session(formApp());
  await desktop.read({});
  const emailId = await idOf(desktop, "form/email");
  p.snapshot = formApp({ extraFirst: true }); // a field inserted above: ids shift
  const found = await desktop.resolve({}, { id: emailId });
  assert.equal(found.t, "Email");
  assert.equal(found.i, emailId, "shown under the id --id took, not the fresh read's");
  // By ref too: the id is the last read's, and an element that read did not show has none.
  assert.equal(await idOf(desktop, "form/email"), emailId);
  assert.equal(await idOf(desktop, "form/phone"), 0);
  assert.equal(
    (await desktop.act({}, { ref: "form/email" }, { kind: "click" })).element?.i,
    emailId,
  );
});

Deno.test("session: --id without a recorded read is STALE_REF asking for a read", async () => {
  const { desktop } = session(formApp());
  await rejectsWith(desktop.resolve({}, { id: 3 }), "STALE_REF", /no read/);
});

Deno.test("session: --id of a renamed element is STALE_REF naming the change and candidates", async () => {
  const { desktop, p } = session(formApp());
  await desktop.read({});
  const submitId = await idOf(desktop, "form/submit");
  p.snapshot = formApp({ submitLabel: "Send" });
  await assert.rejects(desktop.resolve({}, { id: submitId }), (err: unknown) => {
    assert.ok(err instanceof DesktopError);
    assert.equal(err.code, "STALE_REF");
    assert.match(err.message, /Submit/);
    const refs = (err.candidates ?? []).map((c) => "ref" in c ? c.ref : undefined);
    assert.ok(refs.includes("form/send"), JSON.stringify(err.candidates));
    return true;
  });
});

Deno.test("session: --id after the app restarted is STALE_REF, never the element now at that id", async () => {
  const { desktop, p } = session(formApp());
  await desktop.read({});
  const emailId = await idOf(desktop, "form/email");
  p.snapshot = formApp({ started: 2 });
  await rejectsWith(desktop.resolve({}, { id: emailId }), "STALE_REF", /restarted/);
});

Deno.test("session: --id after the app restarted under a new pid is STALE_REF naming the restart", async () => {
  const { desktop, p } = session(formApp());
  await desktop.read({});
  const emailId = await idOf(desktop, "form/email");
  const next = formApp({ started: 2 });
  next.app.pid = 100;
  p.snapshot = next;
  await rejectsWith(desktop.resolve({}, { id: emailId }), "STALE_REF", /restarted/);
});

Deno.test("session: an id the last read did not print is STALE_REF", async () => {
  const { desktop } = session(formApp());
  await desktop.read({}, { roles: new Set(["input"]) });
  const submitId = await idOf(desktop, "form/submit");
  await rejectsWith(desktop.resolve({}, { id: submitId }), "STALE_REF", /not printed/);
});

Deno.test("session: an indexed ref whose twin moved in front is STALE_REF", async () => {
  const { desktop, p } = session(formApp({ okCount: 2 }));
  await desktop.read({});
  assert.deepEqual((await desktop.resolve({}, { ref: "confirm/ok.2" })).b, [200, 300, 80, 30]);
  // A third OK appears first: "ok.2" would now be the old ok.1.
  const next = formApp({ okCount: 2 });
  const dialog = next.root.c![0].c![1];
  dialog.c!.unshift(el("btn", "OK", { b: [0, 300, 80, 30] }));
  p.snapshot = next;
  await rejectsWith(desktop.resolve({}, { ref: "confirm/ok.2" }), "STALE_REF");
});

Deno.test("session: an indexed ref survives its dialog moving when no twin came or went", async () => {
  const { desktop, p } = session(formApp({ okCount: 2 }));
  await desktop.read({});
  const moved = formApp({ okCount: 2 });
  for (const ok of moved.root.c![0].c![1].c!) ok.b = [ok.b![0] + 50, ok.b![1] + 40, 80, 30];
  p.snapshot = moved;
  assert.deepEqual((await desktop.resolve({}, { ref: "confirm/ok.2" })).b, [250, 340, 80, 30]);
  // A twin appeared and everything moved: without a native id the index cannot be trusted.
  const more = formApp({ okCount: 3 });
  for (const ok of more.root.c![0].c![1].c!) ok.b = [ok.b![0] + 9, ok.b![1], 80, 30];
  p.snapshot = more;
  await rejectsWith(desktop.resolve({}, { ref: "confirm/ok.2" }), "STALE_REF");
});

Deno.test("session: the native identity is the fast path, and is still verified", async () => {
  const withNid = (label: string) => {
    const s = formApp({ submitLabel: label });
    s.root.c![0].c![0].c![1].nid = ":1.5/obj/42";
    return s;
  };
  const { desktop, p } = session(withNid("Submit"));
  await desktop.read({});
  const id = await idOf(desktop, "form/submit");
  assert.equal((await desktop.resolve({}, { id })).nid, ":1.5/obj/42");
  p.snapshot = withNid("Delete everything");
  await rejectsWith(desktop.resolve({}, { id }), "STALE_REF", /renamed/);
});

Deno.test("session: act resolves the target and hands the element to the provider", async () => {
  const { desktop, p } = session(formApp());
  const res = await desktop.act({}, { ref: "submit" }, { kind: "click" });
  assert.equal(res.element?.t, "Submit");
  assert.equal(p.acted.length, 1);
  const target = p.acted[0].target;
  assert.ok("element" in target && target.element.t === "Submit");
});

Deno.test("session: type without a target goes to the focused element; a point goes as a point", async () => {
  const { desktop, p } = session(formApp());
  // The fake app does not take the text, so the effect is not checked here (see act_effect_test).
  await desktop.act({}, {}, { kind: "type", text: "hi" }, { verify: false });
  const t0 = p.acted[0].target;
  assert.ok("element" in t0 && t0.element.t === "Email");
  await desktop.act({}, { point: { x: 5, y: 6 } }, { kind: "click" });
  assert.deepEqual(p.acted[1].target, { point: { x: 5, y: 6 } });
});

Deno.test("session: wait returns the element once present, TIMEOUT with what it saw otherwise", async () => {
  const { desktop } = session(formApp());
  assert.equal((await desktop.wait({}, { text: "Submit" }, 1000))?.r, "btn");
  assert.equal(await desktop.wait({}, { gone: "Nowhere to be seen" }, 1000), null);
  await rejectsWith(desktop.wait({}, { text: "Payment received" }, 250), "TIMEOUT", /Payment/);
  await rejectsWith(desktop.wait({}, { gone: "Submit" }, 250), "TIMEOUT", /still/);
  await rejectsWith(desktop.wait({}, { text: "a", ref: "b" }, 250), "INVALID_ARGS");
});

Deno.test("session: wait wakes on the provider's change events", async () => {
  const { desktop, p } = session(formApp(), true);
  const waiting = desktop.wait({}, { ref: "form/send" }, 5000);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(p.listeners.length, 1, "wait subscribed to changes");
  p.snapshot = formApp({ submitLabel: "Send" });
  p.listeners.forEach((l) => l());
  assert.equal((await waiting)?.t, "Send");
  assert.equal(p.listeners.length, 0, "and unsubscribed");
});

/** The form app with one more "Submit" button outside the form (its whole ref is `submit`). */
function withLooseSubmit(snap: Snapshot): Snapshot {
  const window = snap.root.c![0];
  window.c!.push(el("btn", "Submit", { b: [500, 500, 80, 30] }));
  return snap;
}

Deno.test("session: a shortened ref keeps the meaning it had in the last read", async () => {
  const { desktop, p } = session(formApp());
  await desktop.read({}); // the agent saw form/submit only, and may call it `submit`
  assert.equal((await desktop.resolve({}, { ref: "submit" })).ref, "form/submit");
  // A newcomer now owns the whole ref `submit`: `submit` still means form/submit.
  p.snapshot = withLooseSubmit(formApp());
  assert.deepEqual((await desktop.resolve({}, { ref: "submit" })).b, [10, 60, 80, 30]);
  // The one meant is gone (renamed): STALE_REF, still no action on the newcomer.
  p.snapshot = withLooseSubmit(formApp({ submitLabel: "Send" }));
  await rejectsWith(desktop.resolve({}, { ref: "submit" }), "STALE_REF", /form\/submit/);
  await rejectsWith(desktop.act({}, { ref: "submit" }, { kind: "click" }), "STALE_REF");
  assert.equal(p.acted.length, 0);
  // Once a read has shown the newcomer's whole ref, `submit` means it.
  p.snapshot = withLooseSubmit(formApp());
  await desktop.read({});
  const loose = await desktop.resolve({}, { ref: "submit" });
  assert.deepEqual(loose.b, [500, 500, 80, 30]);
  assert.equal((await desktop.resolve({}, { ref: "form/submit" })).t, "Submit");
});
