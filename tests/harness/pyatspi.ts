/**
 * pyatspi as the independent witness of the e2e tests: small questions asked
 * of the desktop's app through `/usr/bin/python3` and pyatspi, never through
 * our own reader.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { TestDesktop } from "./desktop.ts";

/**
 * Runs a pyatspi script against the desktop's app and parses the JSON it
 * prints. The script sees `app` (the app's accessible, found by pid) and
 * `walk(a)` (every descendant of `a`, depth-first).
 *
 * @param d the test desktop
 * @param body Python that prints one JSON value
 * @returns the parsed value
 */
export async function pyatspiJson<T>(d: TestDesktop, body: string): Promise<T> {
  const script = `
import json, sys, pyatspi
def walk(a, depth=0):
    if depth > 40: return
    for c in a:
        if c is None: continue
        yield c
        yield from walk(c, depth + 1)
app = next(a for a in pyatspi.Registry.getDesktop(0)
           if a is not None and a.get_process_id() == int(sys.argv[1]))
${body}
`;
  const res = await new Deno.Command("timeout", {
    args: ["30", "/usr/bin/python3", "-c", script, String(d.pid)],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assert.equal(res.code, 0, `pyatspi failed: ${dec.decode(res.stderr)}`);
  return JSON.parse(dec.decode(res.stdout)) as T;
}

/** The text of every editable text object of the app. */
export function editableTexts(d: TestDesktop): Promise<string[]> {
  return pyatspiJson<string[]>(
    d,
    `
out = []
for o in walk(app):
    if o.getState().contains(pyatspi.STATE_EDITABLE):
        try:
            out.append(o.queryText().getText(0, -1))
        except NotImplementedError:
            pass
print(json.dumps(out))
`,
  );
}

/**
 * The names of the app's selected table cells (a GTK tree view marks every
 * cell of a selected row), skipping objects that vanish mid-walk (a table
 * whose rows come and go).
 */
export function selectedCells(d: TestDesktop): Promise<string[]> {
  return pyatspiJson<string[]>(
    d,
    `
names = []
for o in walk(app):
    try:
        if o.getRoleName() == "table cell" and o.getState().contains(pyatspi.STATE_SELECTED):
            names.append(o.name)
    except Exception:
        continue
print(json.dumps(names))
`,
  );
}

/** The text of the app's first focusable editable field (a calculator's display), or "". */
export function focusableFieldText(d: TestDesktop): Promise<string> {
  return pyatspiJson<string>(
    d,
    `
text = ""
for o in walk(app):
    st = o.getState()
    if st.contains(pyatspi.STATE_EDITABLE) and st.contains(pyatspi.STATE_FOCUSABLE):
        text = o.queryText().getText(0, -1)
        break
print(json.dumps(text))
`,
  );
}

/**
 * The names of the app's objects of one role, in document order.
 *
 * @param d the test desktop
 * @param role pyatspi's role name ("combo box", "dialog")
 * @returns their names
 */
export function namesOfRole(d: TestDesktop, role: string): Promise<string[]> {
  return pyatspiJson<string[]>(
    d,
    `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == ${JSON.stringify(role)}]))`,
  );
}

/**
 * The title of the app's first titled window, as pyatspi reads it (pages
 * under test set `document.title` to say what was pressed).
 *
 * @param d the test desktop
 * @returns the title, or "" when no window has one
 */
export function firstWindowTitle(d: TestDesktop): Promise<string> {
  return pyatspiJson<string>(
    d,
    `print(json.dumps(next((w.name for w in app if w is not None and w.name), "")))`,
  );
}

/**
 * The title of the web page the browser shows, as pyatspi reads it from its
 * document: pages under test set `document.title` to say what their own
 * handlers saw.
 *
 * @param d the test desktop (a browser)
 * @returns the page's title
 */
export function pageTitle(d: TestDesktop): Promise<string> {
  return pyatspiJson<string>(
    d,
    `print(json.dumps(next(o.name for o in walk(app) if o.getRoleName() == "document web")))`,
  );
}
