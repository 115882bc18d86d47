/**
 * Qt apps on the test desktop, Qt 5 (FeatherPad) and Qt 6 (a PyQt6 notes
 * app): each registers on the accessibility bus, its tree reads without
 * crashing it, and text typed into its editor by ref is what pyatspi reads
 * back.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { cli } from "../harness/gtk_suite.ts";
import { alive, type DesktopApp, hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { allElements, eventually } from "../harness/tree.ts";
import { editableTexts, namesOfRole, pyatspiJson } from "../harness/pyatspi.ts";

for (const [app, qt] of [["featherpad", "qt5"], ["qt6-notes", "qt6"]] as [DesktopApp, string][]) {
  Deno.test({
    name: `${qt} (${app}): registers, reads without crashing, types into the editor by ref`,
    ignore: !hasDesktopTools(),
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      await using d = await startDesktop({ app });
      const snap = JSON.parse(
        await cli(d, ["read", "--app", d.appName, "--format", "json"]),
      ) as Snapshot;
      assert.ok(alive(d.pid), `${app} died while being read; its log:\n${d.appLog()}`);
      const els = allElements(snap.root);
      assert.ok(els.some((e) => e.r === "menubar"), "the menu bar is read");
      // The editor: the largest text input of the window.
      const area = (e: Element) => (e.b ? e.b[2] * e.b[3] : 0);
      const editor = els.filter((e) =>
        e.r === "input" && e.ref
      ).sort((a, b) => area(b) - area(a))[0];
      assert.ok(editor?.ref, `an editable text area with a ref: ${els.map((e) => e.r).join(",")}`);

      const text = "written by ref into Qt";
      await cli(d, ["type", "--app", d.appName, "--ref", editor.ref, "--text", text]);
      const seen = await eventually("pyatspi to read the typed text", async () => {
        const texts = await editableTexts(d);
        return texts.includes(text) ? texts : undefined;
      }, 10000);
      assert.ok(seen.includes(text));
      // Read again: the app still answers and shows the text as the editor's value.
      const again = JSON.parse(
        await cli(d, ["read", "--app", d.appName, "--format", "json"]),
      ) as Snapshot;
      assert.ok(alive(d.pid), `${app} is still running`);
      assert.ok(
        allElements(again.root).some((e) => e.ref === editor.ref && e.v === text),
        "the editor's value shows the typed text",
      );
      // Qt marks the editor's viewport focused with it (its focus proxy is the editor): the
      // focus is the editor's alone.
      const focusedChain = await pyatspiJson<string[]>(
        d,
        `print(json.dumps([o.getRoleName() for o in walk(app)
                   if o.getState().contains(pyatspi.STATE_FOCUSED)]))`,
      );
      assert.ok(focusedChain.length >= 2, `pyatspi: ${focusedChain}`);
      const focused = allElements(again.root).filter((e) => e.f);
      assert.deepEqual(focused.map((e) => e.ref), [editor.ref]);
    },
  });
}

Deno.test({
  name: "qt5 (featherpad): a menu item that opens a modal dialog is clicked by ref, then closed",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // Qt answers an accessible action only when the dialog's exec() returns: the click was
    // APP_UNRESPONSIVE though the dialog opened. Qt menu items are clicked with the pointer.
    await using d = await startDesktop({ app: "featherpad" });
    await cli(d, ["read", "--app", d.appName]);
    await cli(d, ["click", "--app", d.appName, "--ref", "menubar/help"]);
    await eventually("the Help menu to open", async () => {
      const snap = JSON.parse(
        await cli(d, ["read", "--app", d.appName, "--format", "json"]),
      ) as Snapshot;
      return allElements(snap.root).some((e) => e.ref === "menubar/help/about") ? true : undefined;
    }, 10000);
    const out = await cli(d, ["click", "--app", d.appName, "--ref", "menubar/help/about"]);
    assert.match(out, /^ok click .* via input/);
    const dialogs = await eventually("pyatspi to see the About dialog", async () => {
      const names = await namesOfRole(d, "dialog");
      return names.some((n) => /about/i.test(n)) ? names : undefined;
    }, 10000);
    const title = dialogs.find((n) => /about/i.test(n))!;
    // Closed by ref: the app answers and the dialog is gone.
    const snap = JSON.parse(
      await cli(d, ["read", "--app", d.appName, "--format", "json"]),
    ) as Snapshot;
    const dialog = allElements(snap.root).find((e) => e.r === "dialog" && e.t === title)!;
    const close = allElements(dialog).find((e) => e.r === "btn" && /close|ok/i.test(e.t ?? ""));
    assert.ok(close?.ref, "the dialog has a Close button with a ref");
    await cli(d, ["click", "--app", d.appName, "--ref", close.ref]);
    await eventually("the dialog to close", async () => {
      const names = await namesOfRole(d, "dialog");
      return names.includes(title) ? undefined : true;
    }, 10000);
    assert.ok(alive(d.pid), "featherpad is still running");
  },
});

Deno.test({
  name: "qt6 (qt6-notes): a combo box's choice is its value, and set-value chooses an item",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // Qt names an unlabelled combo after its current text, and its popup is a list view whose
    // selection is not the combo's choice: the ref read "low", and set-value changed nothing.
    await using d = await startDesktop({ app: "qt6-notes" });
    const combo = await eventually("the Priority combo", async () => {
      const snap = JSON.parse(
        await cli(d, ["read", "--app", d.appName, "--format", "json"]),
      ) as Snapshot;
      return allElements(snap.root).find((e) => e.r === "combo" && e.v === "Low");
    }, 10000);
    assert.ok(!/(^|\/)low$/.test(combo.ref!), `the value is not in the ref: ${combo.ref}`);
    const out = await cli(d, [
      "set-value",
      "--app",
      d.appName,
      "--ref",
      combo.ref!,
      "--value",
      "High",
    ]);
    assert.match(out, /^ok set-value/);
    const names = await eventually("pyatspi to see High chosen", async () => {
      const got = await namesOfRole(d, "combo box");
      return got.includes("High") ? got : undefined;
    }, 10000);
    assert.ok(names.includes("High"));
  },
});

Deno.test({
  name:
    "qt5 (featherpad): lines typed by ref while a menu is open reach the editor, line breaks kept",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // An open menu holds the keyboard: the keys went to it and the tool said ok. The menu is
    // closed first (as a user's click into the editor closes it), and a newline typed as a
    // character reached the Qt editor as nothing: it is typed as Return.
    await using d = await startDesktop({ app: "featherpad" });
    await cli(d, ["read", "--app", d.appName]);
    await cli(d, ["click", "--app", d.appName, "--ref", "menubar/edit"]);
    await eventually("the Edit menu to open", async () => {
      const out = await cli(d, ["read", "--app", d.appName]);
      return /\] menu(\s|$)/m.test(out) ? true : undefined;
    }, 10000);
    const out = await cli(d, ["type", "--app", d.appName, "--ref", "input", "one\ntwo\tthree"]);
    assert.match(out, /^ok type .*closed the open menu first \(Escape x1\)/);
    assert.doesNotMatch(out, /unverified/);
    const texts = await eventually("pyatspi to read the lines", async () => {
      const all = await editableTexts(d);
      return all.includes("one\ntwo\tthree") ? all : undefined;
    }, 10000);
    assert.ok(texts.includes("one\ntwo\tthree"));
  },
});
