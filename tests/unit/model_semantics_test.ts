import assert from "node:assert/strict";
import type { Element, Role } from "../../src/model/element.ts";
import { foldLabels, isToolkitClassName, withoutObjectChars } from "../../src/model/semantics.ts";
import { assignIds } from "../../src/model/tree.ts";
import { assignRefs } from "../../src/refs/generate.ts";
import { renderAgent } from "../../src/output/agent.ts";

function el(r: Role, t?: string, c?: Element[], extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t === undefined ? {} : { t }), ...(c ? { c } : {}), ...extra };
}

function refs(root: Element): string[] {
  foldLabels(root);
  assignIds(root);
  assignRefs(root);
  const out: string[] = [];
  const walk = (e: Element) => {
    out.push(`${e.r} ${e.ref}`);
    e.c?.forEach(walk);
  };
  walk(root);
  return out;
}

Deno.test("semantics: a label with a LABEL_FOR relation folds into its control", () => {
  // Chromium: <label for=c>Customer</label><input id=c>: the label wraps a static text.
  const root = el("form", "Filter", [
    el("txt", undefined, [el("txt", "Customer")], { lf: ":1.2/7", a: ["doDefault"] }),
    el("input", "Customer", undefined, { nid: ":1.2/7" }),
  ]);
  assert.deepEqual(refs(root), ["form filter", "input filter/customer"]);
});

Deno.test("semantics: a related label names an unnamed control, wherever it is", () => {
  const input = el("input", undefined, undefined, { nid: "n9" });
  const root = el("dialog", "Save", [
    el("group", undefined, [el("txt", "Name:", undefined, { lf: "n9" })]),
    el("group", undefined, [input]),
  ]);
  assert.deepEqual(refs(root), [
    "dialog save",
    "group save/group.1",
    "group save/group.2",
    "input save/name",
  ]);
  assert.equal(input.t, "Name");
});

Deno.test("semantics: a label wrapping its control is unwrapped", () => {
  const chk = el("chk", "Paid only", undefined, { nid: "c1" });
  const root = el("form", "Filter", [
    el("txt", undefined, [chk, el("txt", "Paid only")], { lf: "c1" }),
  ]);
  assert.deepEqual(refs(root), ["form filter", "chk filter/paid-only"]);
});

Deno.test("semantics: an unnamed control takes the text just before it (zenity forms)", () => {
  const root = el("window", "Form", [
    el("group", undefined, [
      el("txt", "Name"),
      el("input"),
      el("txt", "E-mail"),
      el("input"),
      el("txt", "Age:"),
      el("spin"),
    ]),
  ]);
  assert.deepEqual(refs(root), [
    "window form",
    "group group",
    "input name",
    "input e-mail",
    "spin age",
  ]);
});

Deno.test("semantics: a text before a control that only repeats its label folds", () => {
  const root = el("form", "Sign up", [el("txt", "Email"), el("input", "Email")]);
  assert.deepEqual(refs(root), ["form sign-up", "input sign-up/email"]);
});

Deno.test("semantics: texts that are not labels stay", () => {
  const long = "Enter the customer's full legal name as printed on the invoice, please";
  const root = el("form", "F", [
    el("txt", long),
    el("input"), // a sentence is not a label
    el("txt", "Orders"),
    el("btn", "Refresh"), // a button has its own label
    el("txt", "Status"),
    el("input", "Search"), // a named control keeps its name and the text stays
  ]);
  const out = refs(root);
  assert.equal(out.length, 7);
  assert.ok(out.includes("txt f/status"));
});

Deno.test("semantics: toolkit class names and U+FFFC are dropped", () => {
  const root = el("window", "App", [
    el("btn", "AdwGizmo"),
    el("input", "GtkSourceView", undefined, { v: "text\uFFFC" }),
    el("combo", undefined, undefined, { v: "\uFFFC" }),
  ]);
  foldLabels(root);
  assert.equal(root.c![0].t, undefined);
  assert.equal(root.c![1].t, undefined);
  assert.equal(root.c![1].v, "text");
  assert.equal(root.c![2].v, undefined);
  assert.ok(isToolkitClassName("GtkMenuButton"));
  assert.ok(!isToolkitClassName("Gtk"));
  assert.ok(!isToolkitClassName("Save As"));
  // Types a language binding names for an app's own classes: GJS, PyGObject.
  assert.ok(isToolkitClassName("Gjs_SidebarRow"));
  assert.ok(isToolkitClassName("__main__+MainWindow"));
  for (const label of ["C++", "Gjs", "A+", "1+1", "KeePassXC", "R&D"]) {
    assert.ok(!isToolkitClassName(label), label);
  }
  assert.equal(withoutObjectChars("a\uFFFCb"), "a b");
});

Deno.test("semantics: folding is idempotent", () => {
  const make = () =>
    el("form", "Filter", [
      el("txt", undefined, [el("txt", "Customer")], { lf: "n1" }),
      el("input", undefined, undefined, { nid: "n1" }),
      el("txt", "Status"),
      el("combo"),
    ]);
  const once = make();
  foldLabels(once);
  const twice = make();
  foldLabels(twice);
  foldLabels(twice);
  assert.deepEqual(twice, once);
});

Deno.test("semantics: a related label saying something else than the control's name stays", () => {
  // <label for=email>Email address</label><input aria-label="Email">: both texts are visible.
  const root = el("form", "Sign up", [
    el("txt", "Email address", undefined, { lf: "e" }),
    el("input", "Email", undefined, { nid: "e" }),
  ]);
  assert.deepEqual(refs(root), [
    "form sign-up",
    "txt sign-up/email-address",
    "input sign-up/email",
  ]);
});

Deno.test("semantics: a label repeating its text child twice says it once (GTK 4 '7 7')", () => {
  const seven = el("btn", "7 7", [el("txt", "7")]);
  const times = el("btn", "× ×", [el("txt", "×")], { d: "Multiply [*]" });
  const pi = el("btn", undefined, [el("txt", "π")], { d: "Pi [Ctrl+P]" });
  const says = el("btn", "bye bye"); // no child says it: a real label
  const out = refs(el("window", "Calculator", [seven, times, pi, says]));
  assert.equal(seven.t, "7");
  assert.equal(times.t, "×");
  assert.equal(says.t, "bye bye");
  assert.deepEqual(out.slice(1).filter((r) => r.startsWith("btn")), [
    "btn 7",
    "btn multiply",
    "btn pi",
    "btn bye-bye",
  ]);
});

Deno.test("semantics: a label joining its text's mnemonic form and the text says the text (GTK 4.8)", () => {
  // gnome-clocks: a button named "_Add World Clock Add World Clock" holding a label "Add World Clock".
  const add = el("btn", "_Add World Clock Add World Clock", [el("txt", "Add World Clock")]);
  const under = el("btn", "Save_as Save_as", [el("txt", "Saveas")]); // not its text's mnemonic form
  const plain = el("btn", "Open recent Open recent files", [el("txt", "Open recent files")]);
  const out = refs(el("window", "Clocks", [add, under, plain]));
  assert.equal(add.t, "Add World Clock");
  assert.equal(under.t, "Save_as Save_as");
  assert.equal(plain.t, "Open recent Open recent files", "no underscore: a label of its own");
  assert.ok(out.includes("btn add-world-clock"), out.join("\n"));
});

Deno.test("semantics: boxes pair labels with fields when the toolkit lists them in reverse", () => {
  // zenity --forms: a GTK 3 grid lists its children last first.
  const name = el("input", undefined, undefined, { b: [576, 347, 204, 34] });
  const mail = el("input", undefined, undefined, { b: [576, 387, 204, 34] });
  const pass = el("input", undefined, undefined, { b: [576, 427, 204, 34], sec: true });
  const root = el("window", "Form", [
    el("group", "Contact", [
      pass,
      el("txt", "Password", undefined, { b: [505, 427, 60, 34] }),
      mail,
      el("txt", "E-mail", undefined, { b: [505, 387, 45, 34] }),
      name,
      el("txt", "Name", undefined, { b: [505, 347, 39, 34] }),
      el("txt", "Fill in the form", undefined, { b: [505, 300, 200, 20] }),
    ]),
  ]);
  foldLabels(root);
  assert.equal(name.t, "Name");
  assert.equal(mail.t, "E-mail");
  assert.equal(pass.t, "Password");
  assert.deepEqual(root.c![0].c!.map((k) => k.t), [
    "Password",
    "E-mail",
    "Name",
    "Fill in the form",
  ]);
});

Deno.test("semantics: Firefox's forms: a wrapping label names its control; inline text labels the next field", () => {
  // `<label>Country <select>` reads "Country France" (the label's text holds the choice).
  const combo = el("combo", "Country", undefined, { nid: "c1", v: "France", b: [79, 395, 91, 23] });
  const label = el("txt", "Country France", [el("txt", "Country"), combo], { lf: "c1" });
  // `<p>Email <input>`: the paragraph's text run has no box of its own.
  const email = el("input", undefined, undefined, { b: [60, 284, 190, 23] });
  const para = el("group", undefined, [el("txt", "Email"), email]);
  const root = el("form", undefined, [label, para]);
  foldLabels(root);
  assignIds(root);
  assignRefs(root);
  assert.deepEqual(refs(root), [
    "form form",
    "combo form/country",
    "group form/group",
    "input form/email",
  ]);
  assert.equal(combo.v, "France");
  assert.equal(email.t, "Email");
});

Deno.test("semantics: a combo named after its current choice takes the text before it as label", () => {
  // GTK 3 (gedit's Save As): an unlabelled combo is named by its active item.
  const combo = () =>
    el("combo", "Unix/Linux", [el("menu", undefined, [
      el("menuitem", "Unix/Linux", undefined, { s: true }),
      el("menuitem", "Windows"),
    ])]);
  const before = combo();
  const dialog = el("dialog", "Save As", [el("txt", "Line Ending:"), before]);
  refs(dialog);
  assert.equal(before.ref, "save-as/line-ending");
  assert.equal(before.t, "Line Ending");
  assert.equal(before.v, "Unix/Linux");
  // Another choice: the combo's ref does not move.
  const other = combo();
  other.t = "Windows";
  const again = el("dialog", "Save As", [el("txt", "Line Ending:"), other]);
  foldLabels(again);
  assignIds(again);
  assignRefs(again);
  assert.equal(other.ref, before.ref);
  assert.equal(other.v, "Windows");
  // A combo with a label of its own keeps it.
  const labelled = el("combo", "Time zone", [el("menu", undefined, [el("menuitem", "UTC")])], {
    v: "UTC",
  });
  foldLabels(labelled);
  assert.equal(labelled.t, "Time zone");
});

Deno.test("semantics: a button with no name of its own is named by the text inside it", () => {
  // GTK 4's file chooser: a path-bar button named "GtkButton" with a label "tmp" inside.
  const button = el("btn", "GtkButton", [el("txt", "tmp")]);
  const icon = el("btn", "GtkButton", [el("img")]);
  const root = el("window", "Files", [el("toolbar", "Path", [button, icon])]);
  refs(root);
  assert.equal(button.t, "tmp");
  assert.equal(button.ref, "path/tmp");
  assert.equal(icon.t, undefined, "no text inside: no name");
  // A named button keeps its name.
  const named = el("btn", "Save", [el("txt", "Save changes")]);
  foldLabels(named);
  assert.equal(named.t, "Save");
});

Deno.test("semantics: a named button's or link's own text is no value (the × of 'Close')", () => {
  const close = el("btn", "Close", undefined, { v: "×" });
  const link = el("lnk", "Home", undefined, { v: "⌂" });
  const spin = el("spin", "Copies", undefined, { v: "2" });
  const ranged = el("btn", "Bold", undefined, { v: "0", min: 0, max: 1 });
  const unnamed = el("btn", undefined, undefined, { v: "×" });
  foldLabels(el("window", "W", [close, link, spin, ranged, unnamed]));
  assert.equal(close.v, undefined);
  assert.equal(link.v, undefined);
  assert.equal(spin.v, "2", "a control's value stays");
  assert.equal(ranged.v, "0", "a range is not text (its noise has its own rule)");
  assert.equal(unnamed.v, "×", "with no name, the text is all there is");
});

Deno.test("semantics: a GTK 4 drop-down's button shows its choice: the combo's value, not a ref", () => {
  const button = el("btn", undefined, [el("txt", "Unix/Linux (LF)")]);
  const combo = el("combo", "Line Ending", [button]);
  const root = el("dialog", "Save As", [combo]);
  refs(root);
  assert.equal(combo.v, "Unix/Linux (LF)");
  assert.equal(combo.ref, "save-as/line-ending");
  assert.ok(!button.ref!.includes("unix"), button.ref);
});

Deno.test("semantics: an editable combo named by what is typed in it keeps the text as its value", () => {
  // FeatherPad's search box (Qt): the combo box's name follows its field's text ("gamma").
  const field = el("input", undefined, undefined, { d: "Search...", v: "gamma" });
  const combo = el("combo", "gamma", [field]);
  const root = el("window", "Untitled", [combo]);
  refs(root);
  assert.equal(combo.t, undefined);
  assert.equal(combo.v, "gamma");
  assert.equal(combo.ref, "combo");
  assert.ok(!field.ref!.includes("gamma"), field.ref);
});

Deno.test("semantics: a tab list named after its current tab has no label of its own", () => {
  // qterminal: window "Shell No. 1" holds a tab list "Shell No. 1" (the current tab's title).
  const tabs = el("tablist", "Shell No. 1", [el("tab", "Shell No. 1", undefined, { s: true })]);
  const root = el("window", "Shell No. 1", [tabs]);
  refs(root);
  assert.equal(tabs.t, undefined);
  assert.equal(tabs.ref, "tablist");
});

Deno.test("semantics: a row named by all its content has no label of its own (Firefox list items)", () => {
  const row = el("row", "• Ken Great write-up. Reply Like", [
    el("txt", "• Ken"),
    el("txt", undefined, undefined, { v: "Great write-up." }),
    el("btn", "Reply"),
    el("btn", "Like"),
  ]);
  const partial = el("row", "Inbox", [el("lnk", "Inbox 12")]);
  const root = el("list", "Comments", [row, partial]);
  foldLabels(root);
  assert.equal(row.t, undefined);
  assert.equal(partial.t, "Inbox", "a name that is not all the content stays");
  assignIds(root);
  assignRefs(root);
  assert.ok(row.ref?.endsWith("/ken"), row.ref);
});

Deno.test("semantics: an iframe and its document under one name are one element (Firefox)", () => {
  const play = el("btn", "Play");
  const frame = el("window", "Setup video", [el("web", "Setup video", [play])]);
  foldLabels(el("web", "Page", [frame]));
  assert.deepEqual(frame.c, [play]);
  const other = el("window", "Ads", [el("web", "Sponsored", [el("btn", "Buy")])]);
  foldLabels(el("web", "Page", [other]));
  assert.equal(other.c?.[0].r, "web", "a document of another name stays");
});

Deno.test("semantics: a paragraph holding its own text is a text (Firefox)", () => {
  const p = el("group", undefined, undefined, { v: "Prices were checked." });
  const labelled = el("group", "Profile", undefined, { v: "x" });
  foldLabels(el("web", "Page", [p, labelled]));
  assert.equal(p.r, "txt");
  assert.equal(labelled.r, "group");
});

Deno.test("semantics: a button named only by its tooltip takes the text it shows (GTK 4 path bar)", () => {
  // Nautilus's path bar: a button with no name, its folder as tooltip, an icon and the folder's text.
  const root = el("toolbar", undefined, [
    el("btn", undefined, [el("group", undefined, [el("img"), el("txt", "Debian GNU/Linux")])], {
      d: "Debian GNU/Linux",
    }),
    el("btn", undefined, [el("txt", "Save")], { d: "Save the document" }),
  ]);
  const out = refs(root);
  assert.equal(root.c![0].t, "Debian GNU/Linux");
  assert.equal(root.c![1].t, "Save");
  assert.deepEqual(out.filter((r) => r.startsWith("btn")), [
    "btn toolbar/debian-gnu-linux",
    "btn toolbar/save",
  ]);
});

Deno.test("semantics: Chromium's offer to describe an image is not part of a label", () => {
  const logo = el("lnk", "logo. To get missing image descriptions, open the context menu.");
  const bare = el("img", "To get missing image descriptions, open the context menu.");
  const out = refs(el("web", "Page", [logo, bare]));
  assert.equal(logo.t, "logo");
  assert.equal(bare.t, undefined);
  assert.deepEqual(out.slice(1), ["lnk logo", "img img"]);
});

Deno.test("semantics: an unnamed control takes its only wrapper's tooltip (GIMP's toolbox)", () => {
  const move = el("toggle");
  const wrapper = el("group", undefined, [move], { d: "Move Tool: Move layers and selections" });
  const named = el("toggle", "Crop");
  const other = el("group", undefined, [named], { d: "Crop Tool: Remove edges" });
  const out = refs(el("window", "Toolbox", [wrapper, other]));
  assert.equal(move.d, "Move Tool: Move layers and selections");
  assert.equal(wrapper.d, undefined);
  // A control with a name of its own keeps it; its wrapper keeps the tooltip.
  assert.equal(named.d, undefined);
  assert.equal(other.d, "Crop Tool: Remove edges");
  assert.ok(out.includes("toggle move-tool"), out.join(", "));
});

Deno.test("semantics: focus is on the deepest focused element, not the containers Qt also marks", () => {
  // okular: the page view's widget and three of its ancestors all report FOCUSED.
  const view = el("group", undefined, undefined, { f: true });
  const chain = el("group", undefined, [el("group", undefined, [view], { f: true })], { f: true });
  const tab = el("tab", "Contents", undefined, { f: true });
  const root = el("window", "okular", [chain, el("tablist", undefined, [tab])]);
  foldLabels(root);
  assert.equal(view.f, true);
  assert.equal(chain.f, undefined);
  assert.equal(chain.c![0].f, undefined);
  assert.equal(tab.f, undefined, "the current tab (Qt marks it focused too) is only current");
});

Deno.test("semantics: a focused editor keeps the focus its unlabeled viewport also reports (Qt)", () => {
  const viewport = el("group", undefined, undefined, { f: true });
  const editor = el("input", "Notes", [viewport], { f: true });
  foldLabels(el("window", "Qt6 Notes", [editor]));
  assert.equal(editor.f, true);
  assert.equal(viewport.f, undefined);
});

Deno.test("semantics: a current tab Qt 5 marks focused is not focused while the editor is", () => {
  const tab = el("tab", "untitled", undefined, { f: true, s: true });
  const editor = el("input", "Text", undefined, { f: true });
  foldLabels(el("window", "FeatherPad", [el("tablist", undefined, [tab]), editor]));
  assert.equal(tab.f, undefined);
  assert.equal(editor.f, true);
  const alone = el("tab", "Settings", undefined, { f: true, s: true });
  foldLabels(el("window", "Prefs", [el("tablist", undefined, [alone])]));
  assert.equal(alone.f, true, "a tab that is the only focused element keeps it");
});

Deno.test("semantics: a number on a range is no paragraph, and prints no line (GTK 4 scroll bar)", () => {
  // gnome-font-viewer: scroll bar > filler "GtkRange" holding the bar's position as a Value.
  const filler = el("group", undefined, undefined, { v: "0", min: 0, max: 9239 });
  const para = el("group", undefined, undefined, { v: "A paragraph of its own text." });
  const root = el("window", "Fonts", [el("scroll", undefined, [filler]), para]);
  foldLabels(root);
  assert.equal(filler.r, "group", "not a paragraph");
  assert.equal(para.r, "txt", "Firefox's paragraph with its own text is one");
  assignIds(root);
  assignRefs(root);
  const out = renderAgent(root, { bounds: false });
  assert.doesNotMatch(out, /"0"|range=|group/, out);
  assert.match(out, /"A paragraph of its own text\."/, out);
});

Deno.test("semantics: a tab's name loses the memory figure Chromium appends to it", () => {
  const tab = el("tab", "Orders · Acme - Memory usage - 113 MB");
  const small = el("tab", "New Tab - Memory usage - 33.3 MB");
  const title = el("heading", "Memory usage - 12 MB"); // not a tab: a page's own words
  const out = refs(el("tablist", undefined, [tab, small, title]));
  assert.equal(tab.t, "Orders · Acme");
  assert.equal(small.t, "New Tab");
  assert.equal(title.t, "Memory usage - 12 MB");
  assert.ok(out.includes("tab tablist/orders-acme"), out.join("\n"));
});

Deno.test("semantics: a text field keeps the focus its focus proxies also report (Qt)", () => {
  // KWrite: the status bar's buttons read focused with the editor, in another branch.
  const editor = el("input", "notes.txt", undefined, { f: true });
  const pos = el("btn", "1:1", undefined, { f: true });
  const mode = el("btn", "INSERT", undefined, { f: true });
  const root = el("window", "notes.txt", [el("group", undefined, [editor]), pos, mode]);
  foldLabels(root);
  assert.equal(editor.f, true);
  assert.equal(pos.f, undefined);
  assert.equal(mode.f, undefined);
  // Two fields both focused: which has the keys is not known, both stay.
  const a = el("input", "A", undefined, { f: true });
  const b = el("input", "B", undefined, { f: true });
  foldLabels(el("window", "Two", [a, b]));
  assert.ok(a.f && b.f);
});

Deno.test("semantics: GTK 3's default 'Menu' on a menu button gives way to its tooltip", () => {
  const recent = el("toggle", "Menu", undefined, { d: "Open a recently used file" });
  const main = el("toggle", "Menu"); // no tooltip: its name stays
  const button = el("btn", "Menu", undefined, { d: "Show the menu" }); // not a menu button
  const out = refs(el("window", "gedit", [recent, main, button]));
  assert.equal(recent.t, "Open a recently used file");
  assert.equal(recent.d, undefined);
  assert.equal(main.t, "Menu");
  assert.equal(button.t, "Menu");
  assert.ok(out.includes("toggle open-a-recently-used-file"), out.join("\n"));
});

Deno.test("semantics: Qt's mnemonic ampersand leaves a tool bar's or menu's title; && is one &", () => {
  const root = el("window", "R&D notes", [
    el("toolbar", "&File"),
    el("menu", "Save && &Quit"),
    el("btn", "Tom & Jerry"),
  ]);
  foldLabels(root);
  assert.deepEqual(root.c!.map((k) => k.t), ["File", "Save & Quit", "Tom & Jerry"]);
  // A window's title is a document's name: its ampersand is text.
  assert.equal(root.t, "R&D notes");
});

Deno.test("semantics: direction marks leave labels and shown values; typed text keeps them", () => {
  const root = el("window", "Files", [
    el("cell", "19\u200E∶47"),
    el("slider", "Volume", undefined, { v: "\u200E0.0" }),
    el("input", "Name", undefined, { v: "a\u200Fb" }),
  ]);
  foldLabels(root);
  assert.deepEqual(root.c!.map((k) => [k.t, k.v]), [
    ["19∶47", undefined],
    ["Volume", "0.0"],
    ["Name", "a\u200Fb"],
  ]);
});

Deno.test("semantics: a choice button named by its label and its choice takes the choice as its value", () => {
  // The collapsible listbox pattern: aria-labelledby names the label and the button itself.
  const root: Element = {
    i: 0,
    r: "main",
    c: [
      { i: 0, r: "txt", t: "Choose an element:", b: [8, 466, 126, 17] },
      {
        i: 0,
        r: "btn",
        t: "Choose an element: Neptunium",
        a: ["open"],
        b: [137, 464, 81, 22],
      },
      // A plain button beside a text that starts its name is left alone.
      { i: 0, r: "txt", t: "Save", b: [8, 500, 30, 17] },
      { i: 0, r: "btn", t: "Save draft", a: ["press"], b: [40, 500, 60, 22] },
    ],
  };
  foldLabels(root);
  assert.deepEqual(root.c!.map((e) => [e.r, e.t, e.v]), [
    ["btn", "Choose an element", "Neptunium"],
    ["txt", "Save", undefined],
    ["btn", "Save draft", undefined],
  ]);
});

Deno.test("semantics: a Qt tooltip's HTML is its text, in the description and in the ref", () => {
  // VLC: an unlabelled combo whose only name is its rich-text tooltip.
  const tip = '<html><head><meta name="qrichtext" content="1" /><style type="text/css">\n' +
    "p, li { white-space: pre-wrap; }\n</style></head><body style=\" font-family:'Sans';\">" +
    "<p>Select the audio output module</p></body></html>";
  const root: Element = { i: 0, r: "dialog", t: "Preferences", c: [{ i: 0, r: "combo", d: tip }] };
  foldLabels(root);
  assignIds(root);
  assignRefs(root);
  const combo = root.c![0];
  assert.equal(combo.d, "Select the audio output module");
  assert.equal(combo.ref, "preferences/select-the-audio-output-module");
  assert.doesNotMatch(renderAgent(root), /html|qrichtext|style/);
});
