/**
 * Synthesized keys reach the app they were aimed at, whatever app has the
 * keyboard focus: with mousepad focused, text typed by ref into a field of a
 * page in Firefox (whose focus action does not raise its window, unlike
 * GTK's) lands in that field and nowhere else (pyatspi reads both).
 *
 * @module
 */

import assert from "node:assert/strict";
import { runCli } from "../harness/cli.ts";
import { hasDesktopTools, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { eventually } from "../harness/tree.ts";

/** The text of every editable text object of a process, read by pyatspi. */
async function editableTexts(d: TestDesktop, pid: number): Promise<string[]> {
  const script = `
import json, sys, pyatspi
pid = int(sys.argv[1])
app = next(a for a in pyatspi.Registry.getDesktop(0) if a and a.get_process_id() == pid)
out = []
def walk(o, depth):
    if o is None or depth > 40: return
    if o.getState().contains(pyatspi.STATE_EDITABLE):
        try: out.append(o.queryText().getText(0, -1))
        except NotImplementedError: pass
    for c in o: walk(c, depth + 1)
walk(app, 0)
print(json.dumps(out))
`;
  const res = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, String(pid)],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (res.code !== 0) throw new Error(`pyatspi failed: ${dec.decode(res.stderr)}`);
  return JSON.parse(dec.decode(res.stdout));
}

Deno.test({
  name: "act: keys typed by ref reach their app while another app has the keyboard focus",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "desktop-focus-" });
    const page = `${dir}/signup.html`;
    await Deno.writeTextFile(
      page,
      `<!doctype html><title>Sign up</title><form><p><label>Name <input></label></p>` +
        `<p><label>Email <input type="email"></label></p></form>`,
    );
    await using d = await startDesktop({
      app: "firefox-esr",
      url: page,
      registerTimeoutMs: 60_000,
    });
    const editor = await d.startApp({ app: "mousepad" });
    const run = async (args: string[]) => {
      const res = await runCli(d, [...args, "--timeout", "30000"]);
      assert.equal(res.code, 0, `desktop ${args.join(" ")}: ${res.stderr}`);
      return res.stdout;
    };
    // The editor gets the keyboard focus, as the window a user was working in.
    await run(["window", "--pid", String(editor.pid), "--raise"]);
    await eventually("the page's Name field", async () => {
      const out = await runCli(d, ["read", "--pid", String(d.pid), "--timeout", "30000"]);
      return out.stdout.includes('input "Name"') ? true : undefined;
    }, 30_000);
    await run(["type", "--pid", String(d.pid), "--ref", "name", "Ada Lovelace"]);
    await eventually("the page's Name field holds the text (pyatspi)", async () => {
      const texts = await editableTexts(d, d.pid);
      return texts.includes("Ada Lovelace") ? true : undefined;
    }, 10_000);
    const editorTexts = await editableTexts(d, editor.pid);
    assert.ok(
      !editorTexts.some((t) => t.includes("Ada")),
      `the editor got none of it: ${editorTexts}`,
    );
  },
});

Deno.test({
  name: "act: a menu item of an app behind another is clicked in that app, menus opened there",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "desktop-focus-menu-" });
    try {
      await Deno.writeTextFile(`${dir}/notes.txt`, "notes\n");
      await using d = await startDesktop({ app: "mousepad", url: `${dir}/notes.txt` });
      // A window of another app lies over mousepad's menu bar and has the keyboard focus.
      const cover = await d.startApp({ app: "zenity", url: "--text=covering\0--width=900" });
      const run = async (args: string[]) => {
        const res = await runCli(d, [...args, "--timeout", "30000"]);
        assert.equal(res.code, 0, `desktop ${args.join(" ")}: ${res.stderr}`);
        return res.stdout;
      };
      await run(["window", "--pid", String(cover.pid), "--move", "0,0", "--raise"]);
      await run(["read", "--pid", String(d.pid)]);
      const out = await run(["click", "--pid", String(d.pid), "--ref", "file/save-as"]);
      // The pointer opened mousepad's own File menu: the click went to mousepad, not the cover.
      assert.match(out, /via input \(menu opened, item clicked\)/, out);
      await eventually("mousepad's Save As dialog (pyatspi)", async () => {
        const names = await pyatspiNames(d, d.pid);
        return names.some((n) => /save as/i.test(n)) ? true : undefined;
      }, 10_000);
      assert.ok((await pyatspiNames(d, cover.pid)).length > 0, "the covering app still answers");
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

/** Every accessible name of a process, read by pyatspi. */
async function pyatspiNames(d: TestDesktop, pid: number): Promise<string[]> {
  const script = `
import json, sys, pyatspi
pid = int(sys.argv[1])
out = []
def walk(a, depth):
    if a is None or depth > 30: return
    if a.name: out.append(a.name)
    for i in range(a.childCount): walk(a.getChildAtIndex(i), depth + 1)
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.get_process_id() == pid: walk(app, 0)
print(json.dumps(out))
`;
  const res = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, String(pid)],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(res.stdout) || "[]");
}
