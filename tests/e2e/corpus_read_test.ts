/**
 * The read side on real apps nobody here built for, each checked against
 * pyatspi as the independent reference (tests/harness/pyatspi_tree.py): node
 * coverage, names, child order and text content must match, apart from the
 * deliberate choices the reference walker documents. Each app runs in one
 * desktop shared by its steps, and adds the checks of the defects it showed:
 * - a GTK3 file chooser: tree-view cells grouped into rows keyed by file name,
 *   a new file observed as its own row, and in a warm read equal to a cold one;
 * - evince: the text of a PDF page is found with `find --text`;
 * - LibreOffice Calc: the sheet (2^34 cells, MANAGES_DESCENDANTS) is read
 *   where showing, without the app growing;
 * - gnome-calculator: `--depth N` prints N levels;
 * - Firefox: the hidden preloaded tab is neither printed nor matched.
 *
 * @module
 */

import assert from "node:assert/strict";
import { tinyPdf } from "../harness/pdf.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { runCli } from "../harness/cli.ts";
import {
  type DesktopApp,
  type DesktopOptions,
  drive,
  hasDesktopTools,
  REPO_ROOT,
  startDesktop,
  type TestDesktop,
} from "../harness/desktop.ts";
import { compareWithReference, type Conformance, pyatspiTree } from "../harness/pyatspi_compare.ts";
import { eventually } from "../harness/tree.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { warmProbe } from "../harness/warm_probe.ts";

/** Runs the CLI against the desktop, failing with its stderr and the app's log. */
async function cli(d: TestDesktop, args: string[]): Promise<string> {
  const res = await runCli(d, [...args, "--timeout", "30000"]);
  if (res.code !== 0) {
    throw new Error(`desktop ${args.join(" ")} exited ${res.code}: ${res.stderr}\n${d.appLog()}`);
  }
  return res.stdout;
}

/** The provider's tree of the desktop's app (with native ids). */
async function readTree(d: TestDesktop): Promise<Snapshot> {
  const res = await drive<Snapshot>(d, { op: "read", scope: { pid: d.pid }, timeoutMs: 30000 });
  if (!res.ok) throw new Error(`read failed: ${JSON.stringify(res.error)}\n${d.appLog()}`);
  return res.value;
}

/**
 * Reads the app and walks it with pyatspi until both agree (an app may still
 * be settling right after start), or returns the last comparison.
 */
async function conformance(d: TestDesktop, tries = 3): Promise<Conformance> {
  let last: Conformance | undefined;
  for (let k = 0; k < tries; k++) {
    const snap = await readTree(d);
    last = compareWithReference(snap.root, await pyatspiTree(d));
    if (isClean(last)) return last;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return last!;
}

function isClean(c: Conformance): boolean {
  return !c.missing.length && !c.extra.length && !c.names.length && !c.order.length &&
    !c.texts.length;
}

function assertConforms(c: Conformance): void {
  const show = (xs: string[]) => xs.slice(0, 12).join("\n  ") + (xs.length > 12 ? "\n  ..." : "");
  assert.ok(c.refNodes > 5, `pyatspi found a real tree (${c.refNodes} nodes)`);
  assert.deepEqual(c.missing, [], `nodes pyatspi found that we did not:\n  ${show(c.missing)}`);
  assert.deepEqual(c.extra, [], `nodes we found that pyatspi did not:\n  ${show(c.extra)}`);
  assert.deepEqual(c.names, [], `names differ:\n  ${show(c.names)}`);
  assert.deepEqual(c.order, [], `child order differs:\n  ${show(c.order)}`);
  assert.deepEqual(c.texts, [], `text differs:\n  ${show(c.texts)}`);
}

function all(root: Element): Element[] {
  const out: Element[] = [];
  const visit = (e: Element) => {
    out.push(e);
    (e.c ?? []).forEach(visit);
  };
  visit(root);
  return out;
}

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The local page both browsers open. */
const PAGE = `<!doctype html><html><head><title>Corpus page</title></head><body>
<h1>Order form</h1><p>Fill in the <b>order</b> and press send.</p>
<form><label>Name <input id="name" placeholder="Your name"></label>
<label>Quantity <select id="qty"><option>One</option><option selected>Two</option></select></label>
<label><input type="checkbox" id="gift"> Gift wrap</label>
<button type="submit">Send</button></form>
<ul><li>First item</li><li>Second <a href="#x">link</a> item</li></ul>
</body></html>`;

/**
 * The app as pyatspi sees it: its documents (name, SHOWING, and the names
 * inside), and every name outside documents that are not showing.
 */
async function documents(d: TestDesktop): Promise<{
  docs: Array<{ name: string; showing: boolean; inner: string[] }>;
  shown: string[];
}> {
  const script = `
import json, sys, pyatspi
DOCS = {82, 95, 94, 92, 93, 96}
docs, shown = [], []
def names(a, out, depth):
    if a is None or depth > 40 or len(out) > 20: return
    if a.name: out.append(a.name)
    for i in range(a.childCount):
        names(a.getChildAtIndex(i), out, depth + 1)
def walk(a, depth):
    if a is None or depth > 40: return
    if int(a.getRole()) in DOCS:
        showing = a.getState().contains(pyatspi.STATE_SHOWING)
        inner = []
        names(a, inner, 0)
        docs.append({"name": a.name or "", "showing": showing, "inner": inner})
        if showing: shown.extend(inner)
        return
    if a.name: shown.append(a.name)
    for i in range(a.childCount):
        walk(a.getChildAtIndex(i), depth + 1)
desk = pyatspi.Registry.getDesktop(0)
for i in range(desk.childCount):
    app = desk.getChildAtIndex(i)
    if app is not None and app.get_process_id() == int(sys.argv[1]):
        walk(app, 0)
print(json.dumps({"docs": docs, "shown": shown}))
`;
  const res = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, String(d.pid)],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(res.stdout));
}

/** Every accessible name in the app, read by pyatspi (the independent witness). */
async function pyatspiNames(d: TestDesktop): Promise<string[]> {
  const script = `
import json, sys, pyatspi
out = []
def walk(a, depth):
    if a is None or depth > 30: return
    if a.name: out.append(a.name)
    for i in range(a.childCount):
        walk(a.getChildAtIndex(i), depth + 1)
desk = pyatspi.Registry.getDesktop(0)
for i in range(desk.childCount):
    app = desk.getChildAtIndex(i)
    if app is not None and app.get_process_id() == int(sys.argv[1]):
        walk(app, 0)
print(json.dumps(out))
`;
  const res = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, String(d.pid)],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(res.stdout));
}

/** One corpus app: how to start it and what to check beyond conformance. */
interface CorpusCase {
  app: DesktopApp;
  name: string;
  /** Prepares files in `dir`; returns the desktop options. */
  setup?: (dir: string) => Promise<Partial<DesktopOptions>>;
  steps?: Record<string, (d: TestDesktop, dir: string) => Promise<void>>;
  /** Skip the conformance step (the app's tree changes on its own). */
  noConformance?: boolean;
}

const CASES: CorpusCase[] = [
  {
    app: "zenity",
    name: "GTK3 file chooser (zenity)",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/files`);
      for (const f of ["alpha.txt", "beta.txt"]) await Deno.writeTextFile(`${dir}/files/${f}`, f);
      return { url: ["--file-selection", `--filename=${dir}/files/`].join("\0") };
    },
    steps: {
      "tree-view cells are grouped into rows keyed by file name": async (d, dir) => {
        const files = (await Array.fromAsync(Deno.readDir(`${dir}/files`))).map((e) => e.name);
        const out = await cli(d, ["read", "--pid", String(d.pid), "--format", "json"]);
        const snap = JSON.parse(out) as Snapshot;
        const table = all(snap.root).find((e) => e.r === "table" && e.t === "Files");
        assert.ok(table, "the Files table is read");
        const rows = (table.c ?? []).filter((e) => e.r === "row");
        const named = rows.map((row) => {
          const hits = all(row).filter((e) => e.r === "cell" && files.includes(e.t ?? ""));
          assert.equal(hits.length, 1, `one file name per row: ${JSON.stringify(row)}`);
          return { file: hits[0].t!, ref: row.ref ?? "" };
        });
        assert.deepEqual(named.map((n) => n.file).sort(), files.sort(), "a row per file on disk");
        for (const n of named) {
          assert.match(n.ref, new RegExp(`${n.file.replace(".", "-")}$`), "row keyed by its file");
        }
      },
      "the file chooser window is a dialog (pyatspi: a top-level file chooser)": async (d) => {
        const roles = await pyatspiJson<string[]>(
          d,
          `print(json.dumps([w.getRoleName() for w in app]))`,
        );
        assert.ok(roles.includes("file chooser"), JSON.stringify(roles));
        const snap = JSON.parse(
          await cli(d, ["read", "--pid", String(d.pid), "--format", "json"]),
        ) as Snapshot;
        const tops = (snap.root.c ?? []).map((w) => w.r);
        assert.ok(tops.includes("dialog"), JSON.stringify(tops));
      },
      "a new file's row is in a warm read, equal to a cold read": async (d, dir) => {
        // The tree view manages its descendants: no event the kept tree follows names its new
        // row (GTK 3 sends row-inserted; the ATK bridge drops its children-changed).
        const probe = warmProbe(d);
        try {
          await probe.ask("warm");
          await probe.ask("warm");
          await Deno.writeTextFile(`${dir}/files/delta.txt`, "delta");
          await new Promise((r) => setTimeout(r, 1000));
          // The warm read first: a cold read makes the app build the new row's objects, and the
          // events of that would be a hint the kept tree did not have from the app's change.
          let warm, cold;
          for (let i = 0; i < 20; i++) {
            warm = await probe.ask("warm");
            cold = await probe.ask("cold");
            if (JSON.stringify(cold.root).includes("delta.txt")) break;
            await new Promise((r) => setTimeout(r, 250));
          }
          assert.ok(JSON.stringify(cold!.root).includes("delta.txt"), "a cold read shows the file");
          assert.deepEqual(warm!.root, cold!.root, "the warm read equals a cold read");
          // The witness: pyatspi finds the new file's cell in the app.
          const names = await pyatspiJson<string[]>(
            d,
            `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "table cell"]))`,
          );
          assert.ok(names.includes("delta.txt"), JSON.stringify(names));
        } finally {
          await probe.close();
        }
      },
      "a new file is observed as its own row": async (d, dir) => {
        const obs = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--quiet",
            `${REPO_ROOT}cli.ts`,
            "observe",
            "--app",
            d.appName,
            "--duration",
            "20",
            "--ignore-focus",
          ],
          cwd: REPO_ROOT,
          env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
          clearEnv: true,
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const lines = obs.stdout.pipeThrough(new TextDecoderStream()).getReader();
        let buf = "";
        const events: Array<Record<string, unknown>> = [];
        const until = async (match: (e: Record<string, unknown>) => boolean) => {
          for (;;) {
            const nl = buf.indexOf("\n");
            if (nl >= 0) {
              const ev = JSON.parse(buf.slice(0, nl));
              buf = buf.slice(nl + 1);
              events.push(ev);
              if (match(ev)) return ev;
              continue;
            }
            const next = await lines.read();
            if (next.done) throw new Error(`no matching event: ${JSON.stringify(events)}`);
            buf += next.value;
          }
        };
        await until((e) => e.type === "snapshot");
        await Deno.writeTextFile(`${dir}/files/gamma.txt`, "gamma");
        const added = await until((e) =>
          e.type === "added" && typeof e.ref === "string" && e.ref.includes("gamma-txt")
        );
        // The row itself is what was added, keyed by the new file, not another row.
        assert.equal((added.el as Element).r, "row", JSON.stringify(added));
        assert.match(String(added.ref), /gamma-txt$/, JSON.stringify(added));
        assert.ok(
          !events.some((e) =>
            (e.type === "added" || e.type === "removed") && /(alpha|beta)-txt/.test(String(e.ref))
          ),
          `no other row changed: ${JSON.stringify(events)}`,
        );
        try {
          obs.kill("SIGINT");
        } catch {
          // already done
        }
        await lines.cancel().catch(() => {});
        await obs.status;
        await obs.stderr.cancel().catch(() => {});
      },
    },
  },
  {
    app: "evince",
    name: "evince with a PDF",
    setup: async (dir) => {
      await Deno.writeFile(
        `${dir}/report.pdf`,
        tinyPdf([["Quarterly report", "Revenue grew in the third quarter."]]),
      );
      return { url: `${dir}/report.pdf` };
    },
    steps: {
      "the page's text is found with find --text": async (d) => {
        const out = await cli(d, ["find", "--pid", String(d.pid), "--text", "Quarterly"]);
        assert.match(out, /Quarterly report/, out);
        // The witness: pyatspi reads the same text from the page.
        const ref = await pyatspiTree(d);
        assert.ok(ref.some((n) => n.text?.includes("Revenue grew")), "pyatspi reads the page text");
      },
      "a find bar that is not drawn is not read; opened, it is": async (d) => {
        // The witness: where the find bar's controls are and whether they show, per pyatspi.
        const findBar = () =>
          pyatspiJson<{ showing: boolean; x: number }[]>(
            d,
            `
out = []
for o in walk(app):
    if o.description.startswith("Find previous occurrence"):
        e = o.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        out.append({"showing": o.getState().contains(pyatspi.STATE_SHOWING), "x": e.x})
print(json.dumps(out))
`,
          );
        const hidden = await findBar();
        assert.deepEqual(hidden, [{ showing: false, x: -2147483648 }], "the bar is there, undrawn");
        const pid = String(d.pid);
        const before = await cli(d, ["read", "--pid", pid]);
        assert.doesNotMatch(before, /Find previous occurrence/, before);
        await cli(d, ["key", "--pid", pid, "ctrl+f"]);
        await eventually(
          "the find bar opens",
          async () => (await findBar())[0]?.showing || undefined,
        );
        const after = await cli(d, ["read", "--pid", pid]);
        assert.match(after, /btn "[^"\n]*"[^\n]* desc="Find previous occurrence/, after);
      },
    },
  },
  {
    app: "nautilus",
    name: "nautilus (GTK 4 grid view)",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/folder/reports`, { recursive: true });
      for (const f of ["budget.ods", "notes.txt"]) {
        await Deno.writeTextFile(`${dir}/folder/${f}`, f);
      }
      return { url: `${dir}/folder` };
    },
    steps: {
      "grid items are keyed by their file name, path bar buttons by their folder": async (d) => {
        const snap = await eventually("the folder's items", async () => {
          const json = await cli(d, ["read", "--pid", String(d.pid), "--format", "json"]);
          const s = JSON.parse(json) as Snapshot;
          return all(s.root).some((e) => /\/notes-txt$/.test(e.ref ?? "")) ? s : undefined;
        }, 15_000);
        const cells = all(snap.root).filter((e) =>
          e.r === "cell" && !/\/cell(\.\d+)?$/.test(e.ref ?? "")
        );
        const keys = cells.map((c) => c.ref!.split("/").pop()).sort();
        assert.deepEqual(keys, ["budget-ods", "notes-txt", "reports"], JSON.stringify(keys));
        // The path bar's last button shows the folder's name (pyatspi: its tooltip and its text).
        const buttons = all(snap.root).filter((e) => e.r === "btn").map((e) => e.t);
        assert.ok(buttons.includes("folder"), JSON.stringify(buttons));
        const names = await pyatspiNames(d);
        for (const f of ["budget.ods", "notes.txt", "reports"]) assert.ok(names.includes(f), f);
      },
      "a double click on a folder's item by ref opens it": async (d) => {
        const pid = String(d.pid);
        // One click selects the item (pyatspi: SELECTED), and opens nothing.
        await cli(d, ["click", "--pid", pid, "--ref", "reports"]);
        await eventually("the item is selected", async () => {
          const sel = await pyatspiJson<boolean>(
            d,
            `print(json.dumps(any(o.getState().contains(pyatspi.STATE_SELECTED)
                  for o in walk(app) if o.getRoleName() == "table cell"
                  and any(k.name == "reports" for k in walk(o)))))`,
          );
          return sel || undefined;
        });
        await cli(d, ["click", "--pid", pid, "--ref", "reports", "--double"]);
        await eventually("the reports folder opens (pyatspi: the window's title)", async () => {
          const titles = await pyatspiJson<string[]>(d, `print(json.dumps([w.name for w in app]))`);
          return titles.includes("reports") ? true : undefined;
        }, 10_000);
      },
    },
  },
  {
    app: "libreoffice-calc",
    name: "LibreOffice Calc",
    steps: {
      "the sheet is read where showing, bounded, without the app growing": async (d) => {
        const before = rssMb(d.pid);
        const snap = await readTree(d);
        const after = rssMb(d.pid);
        assert.ok(after - before < 100, `soffice grew ${Math.round(after - before)} MB`);
        const sheet = all(snap.root).find((e) => e.r === "table" && /^Sheet /.test(e.t ?? ""));
        assert.ok(sheet?.b, "the sheet is read, with its box");
        const cells = all(sheet).filter((e) => e.r === "cell");
        assert.ok(cells.length > 20 && cells.length <= 2048, `${cells.length} cells`);
        assert.ok(cells.some((c) => c.t === "A1"), "A1 shows in a new sheet");
        const [x, y, w, h] = sheet.b;
        for (const c of cells) {
          assert.match(c.t ?? "", /^[A-Z]+[0-9]+$/, JSON.stringify(c));
          const [cx, cy] = c.b ?? [NaN, NaN];
          assert.ok(cx >= x && cy >= y && cx < x + w && cy < y + h, `${c.t} shows in the sheet`);
        }
        // Cells come row by row.
        assert.ok((sheet.c ?? []).every((r) => r.r === "row"), "cells grouped into rows");
      },
    },
  },
  {
    app: "gnome-calculator",
    name: "gnome-calculator",
    steps: {
      "a menu button around its toggle is one line, and its ref opens the menu": async (d) => {
        const pid = String(d.pid);
        const read = await cli(d, ["read", "--pid", pid]);
        const lines = read.split("\n").filter((l) => l.includes('desc="Primary menu"'));
        assert.equal(lines.length, 1, read);
        const ref = /^\s*\[\d+\|([^\]]+)\] btn /.exec(lines[0])?.[1];
        assert.ok(ref, lines[0]);
        // The witness: pyatspi's menu button (the outer one) says whether its menu is open.
        const expanded = () =>
          pyatspiJson<boolean>(
            d,
            `print(json.dumps(any(o.getState().contains(pyatspi.STATE_EXPANDED) for o in walk(app)
                  if o.description == "Primary menu")))`,
          );
        assert.equal(await expanded(), false);
        await cli(d, ["click", "--pid", pid, "--ref", ref]);
        try {
          await eventually("the menu opens", async () => (await expanded()) || undefined);
        } finally {
          await cli(d, ["key", "--pid", pid, "Escape"]);
        }
      },
      "--depth N prints N levels below the root": async (d) => {
        const full = await cli(d, ["read", "--pid", String(d.pid), "--no-bounds"]);
        const levelOf = (l: string) => (l.length - l.trimStart().length) / 2;
        const fullLevels = new Map<string, number>();
        for (const l of full.split("\n")) {
          const m = /^\s*\[\d+\|([^\]]+)\]/.exec(l);
          if (m) fullLevels.set(m[1], levelOf(l));
        }
        // One level less than the full read prints.
        const depth = Math.max(...fullLevels.values()) - 1;
        assert.ok(depth >= 2, `a real tree:\n${full}`);
        const cut = await cli(d, [
          "read",
          "--app",
          d.appName,
          "--no-bounds",
          "--depth",
          `${depth}`,
        ]);
        const levels = new Set<number>();
        for (const l of cut.split("\n")) {
          const m = /^\s*\[\d+\|([^\]]+)\]/.exec(l);
          if (!m) continue;
          levels.add(levelOf(l));
          // A wrapper that the full read prints as the button it wraps (its only child, cut here)
          // stands where that button does.
          const place = fullLevels.get(m[1]) ??
            [...fullLevels].find(([ref]) => ref.startsWith(`${m[1]}/`))?.[1];
          assert.equal(place, levelOf(l), `same place as in the full read: ${l}`);
        }
        assert.deepEqual([...levels].sort(), Array.from({ length: depth + 1 }, (_, k) => k), cut);
      },
    },
  },
  {
    app: "mousepad",
    name: "mousepad (GTK3 menus)",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/notes.txt`, "Shopping list\nmilk\n");
      return { url: `${dir}/notes.txt` };
    },
    steps: {
      "a closed menu of the menu bar is one line; opened, it lists its items": async (d) => {
        // The witness: whether File's items show on screen, per pyatspi.
        const fileItemsShowing = () =>
          pyatspiJson<boolean[]>(
            d,
            `
bar = next(o for o in walk(app) if o.getRoleName() == "menu bar")
menu = next(o for o in bar if o.name == "File")
print(json.dumps([o.getState().contains(pyatspi.STATE_SHOWING) for o in menu
                  if o.getRoleName() == "menu item"]))
`,
          );
        const pid = String(d.pid);
        assert.ok(!(await fileItemsShowing()).some(Boolean), "File is closed");
        const closed = await cli(d, ["read", "--pid", pid]);
        assert.match(
          closed,
          /menu "File"[^\n]* \(closed, \d+ items: open it, or read --scope-ref /,
        );
        assert.doesNotMatch(closed, /Save As/, closed);
        // Scoped to it, the closed menu lists its items.
        const scoped = await cli(d, ["read", "--pid", pid, "--scope-ref", "menubar/file"]);
        assert.match(scoped, /menuitem "Save As\.\.\."/, scoped);
        await cli(d, ["click", "--pid", pid, "--ref", "menubar/file"]);
        try {
          await eventually(
            "File opens",
            async () => (await fileItemsShowing()).some(Boolean) || undefined,
          );
          const open = await cli(d, ["read", "--pid", pid]);
          assert.match(open, /menuitem "Save As\.\.\."/, open);
        } finally {
          await cli(d, ["key", "--pid", pid, "Escape"]);
        }
      },
    },
  },
  {
    app: "thunar",
    name: "thunar",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/reports`);
      await Deno.writeTextFile(`${dir}/readme.txt`, "hello");
      return { url: dir };
    },
    steps: {
      "keys with no target reach the app's window, which is never clicked": async (d) => {
        // Thunar starts with nothing focused: the keys go to its window (ctrl+2: details view).
        await cli(d, ["key", "--pid", String(d.pid), "ctrl+2"]);
        await eventually("the details view (pyatspi)", async () => {
          const names = await pyatspiNames(d);
          return names.includes("Details view") ? true : undefined;
        }, 10_000);
      },
      "a single click on a folder's row selects it and does not open it": async (d) => {
        // GTK's row action activates (opens) the folder, as a double click does: a click must
        // select it, with the pointer, and leave the window where it was.
        const snap = JSON.parse(
          await cli(d, ["read", "--pid", String(d.pid), "--format", "json"]),
        ) as Snapshot;
        const cell = all(snap.root).find((e) =>
          e.r === "cell" && /reports\/name$/.test(e.ref ?? "")
        );
        assert.ok(cell, "the reports row's Name cell");
        await cli(d, ["click", "--pid", String(d.pid), "--ref", cell.ref!]);
        await eventually("the reports row selected (pyatspi)", async () => {
          const selected = await pyatspiJson<string[]>(
            d,
            `print(json.dumps([o.name for o in walk(app) if o.getRoleName() == "table cell"
                  and o.getState().contains(pyatspi.STATE_SELECTED) and o.name]))`,
          );
          return selected.includes("reports") ? true : undefined;
        }, 10_000);
        const names = await pyatspiNames(d);
        assert.ok(!names.some((n) => n.startsWith("reports - ")), "the folder did not open");
      },
      "a folder opens with a double click on its row, by ref": async (d) => {
        const snap = JSON.parse(
          await cli(d, ["read", "--pid", String(d.pid), "--format", "json"]),
        ) as Snapshot;
        const cell = all(snap.root).find((e) =>
          e.r === "cell" && /reports\/name$/.test(e.ref ?? "")
        );
        assert.ok(cell, "the reports row's Name cell has a ref keyed by the folder");
        await cli(d, ["click", "--pid", String(d.pid), "--ref", cell.ref!, "--double"]);
        await eventually("the window shows the folder (pyatspi)", async () => {
          const names = await pyatspiNames(d);
          return names.some((n) => n.startsWith("reports - ")) ? true : undefined;
        }, 10_000);
      },
    },
  },
  {
    app: "featherpad",
    name: "FeatherPad (Qt 5)",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/notes.txt`, "Shopping list\nmilk\n");
      return { url: `${dir}/notes.txt` };
    },
  },
  { app: "qt6-notes", name: "a PyQt6 app (Qt 6)" },
  {
    // Qt 5's icon view (a table of hidden columns) and tree view (Places: its cells are new
    // objects on every walk, matched by parent, role and name).
    app: "pcmanfm-qt",
    name: "pcmanfm-qt (Qt 5)",
    setup: async (dir) => {
      await Deno.mkdir(`${dir}/files`);
      for (let i = 0; i < 12; i++) await Deno.writeTextFile(`${dir}/files/f${i}.txt`, `${i}`);
      return { url: `${dir}/files` };
    },
  },
  {
    app: "libreoffice-writer",
    name: "LibreOffice Writer",
    setup: async (dir) => {
      await Deno.writeTextFile(
        `${dir}/letter.txt`,
        "Dear reader,\n\nThe quarterly figures follow.\n",
      );
      return { url: `${dir}/letter.txt` };
    },
    steps: {
      "paragraph text is read": async (d) => {
        const out = await cli(d, ["find", "--pid", String(d.pid), "--text", "quarterly figures"]);
        assert.match(out, /The quarterly figures follow\./, out);
      },
    },
  },
  {
    app: "firefox-esr",
    name: "Firefox ESR with a local page",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/page.html`, PAGE);
      return { url: `${dir}/page.html` };
    },
    steps: {
      "the page's text is read, hidden documents are neither printed nor matched": async (d) => {
        // The browser registers before its page has loaded: wait for the page's text.
        const out = await eventually("the page's text", async () => {
          const res = await runCli(d, ["find", "--pid", String(d.pid), "--text", "press send"]);
          return res.code === 0 ? res.stdout : undefined;
        }, 30_000);
        assert.match(out, /Fill in the order and press send\./, out);
        // The witness: pyatspi lists the documents and whether they show.
        // Firefox preloads its hidden New Tab document a moment after start.
        let found = await documents(d);
        for (let t = 0; t < 40 && !found.docs.some((doc) => !doc.showing); t++) {
          await new Promise((r) => setTimeout(r, 250));
          found = await documents(d);
        }
        const { docs, shown } = found;
        const hidden = docs.filter((doc) => !doc.showing);
        assert.ok(hidden.length > 0, `Firefox keeps a hidden document: ${JSON.stringify(docs)}`);
        const snap = await readTree(d);
        const read = all(snap.root).map((e) => e.t ?? "");
        const seen = (name: string) =>
          shown.some((s) => s.toLowerCase().includes(name.toLowerCase()));
        // Names found only inside hidden documents: never read, never matched.
        const only = hidden.flatMap((doc) => doc.inner).filter((n) => n.trim() && !seen(n));
        assert.ok(only.length > 0, `hidden documents have content: ${JSON.stringify(hidden)}`);
        for (const name of only.slice(0, 3)) {
          assert.ok(!read.includes(name), `"${name}" of a hidden document is not read`);
          const res = await runCli(d, ["find", "--pid", String(d.pid), "--text", name]);
          assert.notEqual(res.code, 0, `--text "${name}" matches nothing: ${res.stdout}`);
        }
      },
    },
  },
  {
    app: "chromium",
    name: "Chromium with a local page",
    setup: async (dir) => {
      await Deno.writeTextFile(`${dir}/page.html`, PAGE);
      return { url: `${dir}/page.html` };
    },
  },
];

for (const c of CASES) {
  Deno.test({
    name: `corpus read e2e: ${c.name}`,
    ignore: !hasDesktopTools(),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const dir = await Deno.makeTempDir({ prefix: "desktop-corpus-" });
      try {
        const extra = c.setup ? await c.setup(dir) : {};
        await using d = await startDesktop({ app: c.app, registerTimeoutMs: 120_000, ...extra });
        if (!c.noConformance) {
          await t.step("conforms to pyatspi: coverage, names, order, text", async () => {
            assertConforms(await conformance(d));
          });
        }
        for (const [name, fn] of Object.entries(c.steps ?? {})) {
          await t.step(name, () => fn(d, dir));
        }
      } finally {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  });
}
