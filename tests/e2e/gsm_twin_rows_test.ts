/**
 * gnome-system-monitor's rows of one process name are twins (`twinproc.1`,
 * `twinproc.2`, ...), and their index shifts whenever one of them ends or a
 * new one starts. A click by the ref the last read printed must press the
 * process the agent saw (told apart by the process id, a cell that keeps its
 * text, not by the CPU or memory figures, which change by themselves), or
 * refuse: never another process's row.
 * Witness: pyatspi reads which cells of the table are selected (the row's
 * process id among them).
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { pyatspiJson, selectedCells } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";

const NAME = "twinproc";

Deno.test({
  name:
    "gnome-system-monitor: a twin row whose index shifted is pressed by its process, or refused",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gnome-system-monitor" });
    // Processes of one name: a copy of sleep named twinproc.
    const dir = await Deno.makeTempDir();
    const exe = `${dir}/${NAME}`;
    await Deno.copyFile("/bin/sleep", exe);
    await Deno.chmod(exe, 0o755);
    const procs: Deno.ChildProcess[] = [];
    const spawn = () => {
      const p = new Deno.Command(exe, { args: ["600"], stdout: "null", stderr: "null" }).spawn();
      procs.push(p);
      return p.pid;
    };
    try {
      const pids = [spawn(), spawn(), spawn()];
      const cli = (args: string[]) =>
        runCli(d, [...args, "--app", d.appName, "--timeout", "30000"]);
      /** The twin rows a read printed: ref and process id, in order. */
      const twins = async () => {
        const r = await cli(["read"]);
        assert.equal(r.code, 0, r.stderr);
        const pattern = new RegExp(
          `\\[\\d+\\|([^\\]]+)\\] row[^:]*: "${NAME}" \\| "[^"]*" \\| "[^"]*" \\| "(\\d+)"`,
          "g",
        );
        return [...r.stdout.matchAll(pattern)].map((m) => ({ ref: m[1], pid: Number(m[2]) }));
      };
      const seen = await eventually("three twin rows", async () => {
        const rows = await twins();
        return rows.length === 3 && rows.every((r) => pids.includes(r.pid)) ? rows : undefined;
      }, 60_000);
      const target = seen[2];
      assert.match(target.ref, /\.3$/, JSON.stringify(seen));
      // The first twin ends and a new one starts: the target's index shifts.
      Deno.kill(seen[0].pid, "SIGTERM");
      const late = spawn();
      const processIds = () =>
        pyatspiJson<string[]>(
          d,
          `
ids = []
for o in walk(app):
    try:
        if o.getRoleName() == "table cell" and o.name.isdigit():
            ids.append(o.name)
    except Exception:
        continue
print(json.dumps(ids))
`,
        );
      await eventually("the app shows the change", async () => {
        const ids = await processIds();
        return !ids.includes(String(seen[0].pid)) && ids.includes(String(late)) ? true : undefined;
      }, 30_000);

      const click = await cli(["click", "--ref", target.ref]);
      const now = await eventually("a selection", async () => {
        const s = await selectedCells(d);
        return s.length || click.code !== 0 ? s : undefined;
      }, 10_000).catch(() => [] as string[]);
      for (const other of [...pids, late].filter((p) => p !== target.pid)) {
        assert.ok(!now.includes(String(other)), `process ${other} pressed: ${click.stdout}`);
      }
      // Its process id tells it apart: it is pressed, not refused.
      assert.equal(click.code, 0, click.stderr);
      assert.ok(now.includes(String(target.pid)), `${JSON.stringify(now)}: ${click.stdout}`);
      assert.doesNotMatch(click.stdout, /another item took/, click.stdout);
    } finally {
      for (const p of procs) {
        try {
          p.kill("SIGKILL");
        } catch {
          // Ended.
        }
        await p.status;
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
