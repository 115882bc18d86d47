/**
 * gnome-system-monitor (GTK 3, gtkmm): its process table is a tree view whose
 * Name column packs an icon renderer beside a text renderer, and whose cells
 * all list an "edit" action though none is editable. Read as an agent needs
 * it: one line per process, the name as its first cell, no "edit" noise.
 * Witness: pyatspi reads the same table's process names and cell states.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { type CliResult, runCli } from "../harness/cli.ts";
import { pyatspiJson, selectedCells } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

/** A text as a regular expression that matches it literally. */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Witness {
  /** Process names: the named cells inside the table's first column cells. */
  names: string[];
  /** Those of them scrolled out of view (GTK puts them at INT32_MIN). */
  hidden: string[];
  /** Cells with the EDITABLE state. */
  editable: number;
  /** Cells listing an "edit" action. */
  withEdit: number;
}

Deno.test({
  name: "gnome-system-monitor: a process is one row line, named by its text cell; no edit noise",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-system-monitor" });
    const witness = await eventually("the process table", async () => {
      const w = await pyatspiJson<Witness>(
        d,
        `
names, hidden, editable, with_edit = [], [], 0, 0
for o in walk(app):
    # The table changes as processes come and go: an object may vanish mid-walk.
    try:
        if o.getRoleName() != "table cell":
            continue
        if o.getState().contains(pyatspi.STATE_EDITABLE):
            editable += 1
        act = o.queryAction()
        if any(act.getName(i) == "edit" for i in range(act.nActions)):
            with_edit += 1
        parent = o.parent
        if o.name and parent is not None and parent.getRoleName() == "table cell":
            names.append(o.name)
            if o.queryComponent().getExtents(pyatspi.DESKTOP_COORDS).y == -2147483648:
                hidden.append(o.name)
    except Exception:
        continue
print(json.dumps({"names": names, "hidden": hidden, "editable": editable, "withEdit": with_edit}))
`,
      );
      return w.names.length >= 3 ? w : undefined;
    }, 60_000);
    assert.equal(witness.editable, 0, "no cell of the table is editable");
    assert.ok(witness.withEdit > 0, "yet the cells list an edit action");

    // The app fills a new row's cells a moment after adding it: read until the first processes
    // pyatspi names are there (each a row line that starts with its name), within 20 s.
    let res: CliResult | undefined;
    let lines: string[] = [];
    await eventually("a row line for each of the first processes", async () => {
      res = await runCli(d, ["read", "--app", d.appName, "--timeout", "60000"]);
      assert.equal(res.code, 0, res.stderr);
      lines = res.stdout.split("\n");
      const rowLines = lines.filter((l) => / row: "/.test(l));
      // Processes come and go while the test runs (a CI machine starts and ends many): most of
      // the first five pyatspi named must still be there, each as one row line.
      const present = witness.names.slice(0, 5).filter((name) =>
        rowLines.some((l) => l.includes(` row: ${JSON.stringify(name)} | `))
      );
      if (present.length >= 3) return true;
      const missing = witness.names.slice(0, 5).filter((n) => !present.includes(n));
      throw new Error(`missing ${JSON.stringify(missing)} in ${rowLines.length} row lines`);
    }, 20_000);
    assert.ok(res, "a read");
    assert.ok(!res.stdout.includes("actions=edit"), res.stdout.slice(0, 2000));
    // One line per process, not one per cell (the table fills while the test runs: the read's
    // own row lines are the measure, not the processes pyatspi saw earlier).
    const rowCount = lines.filter((l) => / row: "/.test(l)).length;
    assert.ok(rowCount >= 3, res.stdout.slice(0, 2000));
    assert.ok(
      lines.length < rowCount + 60,
      `${lines.length} lines for ${rowCount} rows:\n${
        lines.filter((l) => !/ row: "/.test(l)).slice(0, 80).join("\n")
      }`,
    );
    // A cell whose figure ticks between two of its reads may show inline with its value; on a
    // line of its own it may not.
    const cellLines = lines.filter((l) => /^\s*\[\d+\|[^\]]*\] cell /.test(l));
    assert.deepEqual(cellLines.slice(0, 5), [], "no cell on a line of its own");

    // Selected by ref, though scrolled out of view (a GTK 3 cell cannot be scrolled to: focusing
    // it scrolls its row in). GTK marks every cell of the row selected; the row line says it once.
    // Processes come and go while the test runs: a row gone since the read is STALE_REF (never
    // another row), and the next process is tried. A row whose CPU or memory figures changed is
    // the same row: refusing it is a defect.
    const candidates = witness.hidden.filter((n) =>
      witness.names.filter((m) => m === n).length === 1
    );
    assert.ok(candidates.length > 0, `a process scrolled out of view: ${witness.hidden.length}`);
    let name = "";
    let ref = "";
    for (const candidate of candidates.slice(0, 5)) {
      const now = await runCli(d, ["read", "--app", d.appName, "--timeout", "60000"]);
      const row = now.stdout.split("\n").find((l) =>
        l.includes(` row: ${JSON.stringify(candidate)} | `)
      );
      if (!row) continue;
      const rowRef = row.match(/\[\d+\|([^\]]+)\]/)![1];
      const click = await runCli(d, ["click", "--app", d.appName, "--ref", rowRef]);
      if (click.code !== 0 && /AMBIGUOUS_TARGET/.test(click.stderr)) {
        // A process of the same name started since the read: the row's twins are new, and which
        // is which cannot be told. Refusing is right; try the next one.
        continue;
      }
      if (click.code !== 0 && /STALE_REF|ELEMENT_NOT_FOUND/.test(click.stderr)) {
        // Its figures change every second: that is the same row. Only a process that ended
        // (its row gone, as pyatspi reads the table) may be refused.
        const names = await pyatspiJson<string[]>(
          d,
          `
names = []
for o in walk(app):
    try:
        if o.getRoleName() == "table cell" and o.name and o.parent.getRoleName() == "table cell":
            names.append(o.name)
    except Exception:
        continue
print(json.dumps(names))
`,
        );
        assert.ok(!names.includes(candidate), `a false refusal of a live row: ${click.stderr}`);
        continue;
      }
      assert.equal(click.code, 0, click.stderr);
      const selected = await eventually("the row's cells selected (pyatspi)", async () => {
        const cells = await selectedCells(d);
        return cells.includes(candidate) && cells.length > 2 ? true : undefined;
      }, 10_000).catch(() => false);
      if (selected) {
        [name, ref] = [candidate, rowRef];
        break;
      }
      // A press the busy app dropped, while its figures changed by themselves: the tool must
      // have said so (not a plain ok); try the next one.
      if (/unverified: the row did not become selected/.test(click.stdout)) continue;
      // A process that ended right after the click takes its row with it: try the next one.
      const later = await runCli(d, ["read", "--app", d.appName, "--timeout", "60000"]);
      assert.ok(
        !later.stdout.includes(` row: ${JSON.stringify(candidate)} | `),
        `the row of ${candidate} is still there, and not selected; the click said: ` +
          `${click.stdout}${click.stderr}; selected now: ${JSON.stringify(await selectedCells(d))}`,
      );
    }
    assert.ok(ref, `no process lived long enough to be clicked: ${candidates.slice(0, 5)}`);
    const after = await runCli(d, ["read", "--app", d.appName, "--timeout", "60000"]);
    // Processes come and go: a twin row's index may have moved since (`.6` to `.7`), its base not.
    const base = ref.replace(/\.\d+$/, "");
    assert.match(
      after.stdout,
      new RegExp(
        `\\|${escape(base)}(\\.\\d+)?\\] row focused selected: ${
          escape(JSON.stringify(name))
        } \\| `,
      ),
      after.stdout,
    );
    assert.doesNotMatch(after.stdout, /\] cell [^\n]*(selected|focused)/, "no cell repeats it");
  },
});

/** A memory figure as gnome-system-monitor prints it ("114.3 MB", "958.5 kB", "N/A"), in kB. */
function kilobytes(cell: string): number {
  const m = cell.match(/^([\d.]+)\s*(kB|MB|GB)$/);
  if (!m) return 0;
  return Number(m[1]) * { kB: 1, MB: 1e3, GB: 1e6 }[m[2] as "kB" | "MB" | "GB"];
}

Deno.test({
  name: "gnome-system-monitor: read --interactive keeps the column headers; clicking one sorts",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-system-monitor" });
    const read = await eventually("the process table", async () => {
      const r = await runCli(d, ["read", "--app", d.appName, "--interactive"]);
      return r.code === 0 && / row: "/.test(r.stdout) ? r.stdout : undefined;
    }, 60_000);
    // The headers an agent sorts by, and which name the cells of each row line.
    const header = read.split("\n").find((l) => l.includes('colheader "Memory"'));
    assert.ok(header, read.slice(0, 2000));
    const ref = header.match(/\[\d+\|([^\]]+)\]/)![1];
    const click = await runCli(d, ["click", "--app", d.appName, "--ref", ref]);
    assert.equal(click.code, 0, click.stderr);
    assert.match(click.stdout, /^ok click .*colheader "Memory"/);
    assert.doesNotMatch(click.stdout, /unverified/);
    // Witness: pyatspi reads the Memory column top to bottom, ordered by size (either way; the
    // figures tick while it reads, so two neighbours may be out of order).
    // A process that ends while pyatspi walks the table makes its walk fail: asked again.
    const witness = () =>
      pyatspiJson<string[]>(
        d,
        `
cells = []
for o in walk(app):
    try:
        if o.getRoleName() in ("table", "tree table"):
            t = o.queryTable()
            cols = [t.getColumnDescription(i) or (t.getColumnHeader(i) or o).name for i in range(t.nColumns)]
            k = cols.index("Memory")
            cells = [t.getAccessibleAt(r, k).name for r in range(t.nRows)]
            break
    except Exception as e:
        cells = [str(e)]
print(json.dumps(cells))
`,
      );
    let memory = await witness();
    for (let k = 0; k < 5 && memory.some((c) => c.startsWith("atspi_error")); k++) {
      memory = await witness();
    }
    const sizes = memory.map(kilobytes);
    assert.ok(sizes.filter((s) => s > 0).length >= 3, JSON.stringify(memory.slice(0, 10)));
    const down = sizes.slice(1).filter((s, i) => s > sizes[i] * 1.05).length;
    const up = sizes.slice(1).filter((s, i) => s < sizes[i] * 0.95).length;
    assert.ok(Math.min(down, up) <= 2, `not sorted by memory: ${memory.slice(0, 12)}`);
  },
});
