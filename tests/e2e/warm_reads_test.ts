/**
 * Warm equals cold: an MCP server's worker keeps each app's tree between
 * reads (src/platform/linux/live_tree.ts) and must print exactly what a cold
 * read prints. A Chromium page applies seeded random mutations on command
 * (rows added and removed, cells and labels rewritten, boxes checked, fields
 * filled, sections shown and hidden, the page scrolled: boxes change, no
 * event says so); after each, the page's own step counter
 * (its title) witnesses that the mutation landed, and the MCP read (warm) is
 * compared with a one-shot CLI read (cold, nothing kept), as agent text and
 * as JSON. The same on gtk3-widget-factory: seeded random check boxes are
 * toggled, the cold read witnessing each change.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { writeRefsOut } from "../../src/output/agent_parse.ts";
import { rowsPage } from "../harness/rows_page.ts";
import { warmProbe } from "../harness/warm_probe.ts";
import { mcpClient } from "./mutation_scenarios.ts";

/** The page: `#seed` picks the mutations; the Mutate button applies the next one. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>step 0</title></head>
<body>
<main>
<h1>Warm reads</h1>
<button id="mutate" onclick="mutate()">Mutate</button>
<label><input type="checkbox" id="c0"> Alpha</label>
<label><input type="checkbox" id="c1"> Beta</label>
<label>Note <input id="note" value=""></label>
<section id="more" aria-label="More" hidden><p>Hidden until shown</p><button>Inside</button></section>
<table aria-label="Rows"><thead><tr><th>Name</th><th>Status</th><th>Act</th></tr></thead>
<tbody id="rows"></tbody></table>
<div style="height: 1500px"></div>
</main>
<script>
let seed = Number(location.hash.slice(1)) || 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (n) => Math.floor(rnd() * n);
const rows = document.getElementById("rows");
let made = 0, step = 0;
function addRow(at) {
  const tr = document.createElement("tr");
  const id = "Item " + (++made);
  tr.innerHTML = "<td>" + id + "</td><td>new</td><td><button>Open " + id + "</button></td>";
  rows.insertBefore(tr, rows.children[at] || null);
}
for (let i = 0; i < 40; i++) addRow(i);
const kinds = [
  () => addRow(pick(rows.children.length + 1)),
  () => rows.children.length > 5 && rows.children[pick(rows.children.length)].remove(),
  () => { const r = rows.children[pick(rows.children.length)]; r.children[1].textContent = ["done", "late", "open", "held"][pick(4)] + " " + pick(100); },
  () => { const r = rows.children[pick(rows.children.length)]; r.querySelector("button").textContent = "Edit " + pick(1000); },
  () => { const c = document.getElementById("c" + pick(2)); c.checked = !c.checked; },
  () => { document.getElementById("note").value = "note " + pick(1000); },
  () => { const m = document.getElementById("more"); m.hidden = !m.hidden; },
  () => { document.querySelector("h1").textContent = "Warm reads " + pick(100); },
  () => window.scrollTo(0, pick(3) * 150),
];
function mutate() {
  const n = 1 + pick(3);
  for (let i = 0; i < n; i++) kinds[pick(kinds.length)]();
  document.title = "step " + (++step);
}
</script>
</body></html>
`;

const SEED = 20;
const STEPS = 10;

Deno.test({
  name:
    "warm reads: after each seeded random mutation of a page, the warm read prints what a cold read prints",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const file = await Deno.makeTempFile({ suffix: ".html" });
    await Deno.writeTextFile(file, PAGE);
    await using d = await startDesktop({ app: "chromium", url: `file://${file}#${SEED}` });
    const { client, call } = await mcpClient(d);
    try {
      const cold = async (format: string) => {
        const res = await runCli(d, ["read", "--app", d.appName, "--format", format]);
        assert.equal(res.code, 0, res.stderr);
        return res.printed.trim();
      };
      const warm = async (format: string) => {
        const res = await call("read", { app: d.appName, format });
        assert.ok(!res.isError, res.text);
        return res.text.trim();
      };
      /** Cold reads until the page's title shows `step`, and holds still twice in a row. */
      const settled = async (step: number) => {
        let last = "";
        for (let i = 0; i < 20; i++) {
          const now = await cold("agent");
          if (now.includes(`step ${step}`) && now === last) return now;
          last = now;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`the page never settled at step ${step}:\n${last}`);
      };
      await settled(0);
      assert.equal(await warm("agent"), await cold("agent"));
      // The same page again: answered from the kept tree, still the same.
      assert.equal(await warm("agent"), await cold("agent"));
      for (let step = 1; step <= STEPS; step++) {
        const clicked = await call("click", { app: d.appName, text: "Mutate" });
        assert.ok(!clicked.isError, clicked.text);
        const before = await settled(step);
        const w = await warm("agent");
        const c = await cold("agent");
        assert.equal(c, before, "the page held still");
        assert.equal(w, c, `step ${step}: warm and cold reads differ`);
        const noTime = (s: string) => s.replace(/"readAt": ?"[^"]*"/g, "");
        assert.equal(
          noTime(await warm("json")),
          noTime(await cold("json")),
          `step ${step}: JSON differs`,
        );
      }
    } finally {
      await client.close();
      await Deno.remove(file).catch(() => {});
    }
  },
});

Deno.test({
  name:
    "warm reads: after each seeded random toggle in a GTK 3 app, the warm read prints what a cold read prints",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const { client, call } = await mcpClient(d);
    let seed = SEED;
    const pick = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    try {
      const cold = async () => {
        const res = await runCli(d, ["read", "--app", d.appName]);
        assert.equal(res.code, 0, res.stderr);
        return res.printed.trim();
      };
      const warm = async () => {
        const res = await call("read", { app: d.appName });
        assert.ok(!res.isError, res.text);
        return res.text.trim();
      };
      const boxes = await call("find", { app: d.appName, roles: "chk", all: true });
      assert.ok(!boxes.isError, boxes.text);
      // `[id|ref] chk "label" (box) states`, refs written out: the enabled ones can be toggled.
      const refList = [...writeRefsOut(boxes.text).matchAll(/^\[(?:\d+|-)\|([^\]]+)\] chk (.*)$/gm)]
        .filter((m) => !/\bdisabled\b/.test(m[2]))
        .map((m) => m[1]);
      assert.ok(refList.length >= 2, `check boxes to toggle:\n${boxes.text}`);
      assert.equal(await warm(), await cold());
      for (let step = 1; step <= 6; step++) {
        const ref = refList[pick(refList.length)];
        const before = await cold();
        const clicked = await call("click", { app: d.appName, ref });
        assert.ok(!clicked.isError, clicked.text);
        // Settled: two cold reads alike, and unlike the read before the click (the witness).
        let now = await cold();
        for (let i = 0; i < 10 && now === before; i++) now = await cold();
        assert.notEqual(now, before, `toggling ${ref} changed nothing`);
        const w = await warm();
        const c = await cold();
        assert.equal(w, c, `step ${step} (${ref}): warm and cold reads differ`);
      }
    } finally {
      await client.close();
    }
  },
});

/**
 * The probe: this file run as a program (`deno run -A warm_reads_test.ts
 * --probe APP`, with the test desktop's environment) holds two providers of
 * its own, one with warm reads on and one reading cold, and answers each
 * line on stdin (`warm` or `cold`) with one JSON line: the read's tree and
 * the kept trees' counters. A process of its own: libatspi binds to one
 * accessibility bus per process.
 */
async function probe(app: string): Promise<void> {
  const { LinuxProvider } = await import("../../src/platform/linux/provider.ts");
  const { setLiveTrees } = await import("../../src/platform/linux/live_tree.ts");
  const warm = await LinuxProvider.open({ timeoutMs: 20_000 });
  const cold = await LinuxProvider.open({ timeoutMs: 20_000 });
  setLiveTrees(true);
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  let buf = "";
  for await (const chunk of lines) {
    buf += chunk;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const cmd = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (cmd === "cold") setLiveTrees(false);
      const snap = await (cmd === "cold" ? cold : warm).read({ app });
      setLiveTrees(true);
      const out = { root: snap.root, stats: warm.liveTreeStats() };
      await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(out) + "\n"));
    }
  }
  // The providers' event pumps would keep the process alive.
  warm.close();
  cold.close();
  Deno.exit(0);
}

Deno.test({
  name:
    "warm reads: after one row's link is renamed, the read re-reads that row alone and equals a cold read",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const ROWS = 150;
    const file = await Deno.makeTempFile({ suffix: ".html" });
    await Deno.writeTextFile(file, rowsPage(ROWS, "Rows", 7));
    await using d = await startDesktop({ app: "chromium", url: `file://${file}` });
    // Patched reads are on by default (see livePatchesEnabled).
    const probe = warmProbe(d);
    const ask = probe.ask;
    try {
      // The page in the app, whole.
      for (let i = 0; i < 40; i++) {
        const res = await runCli(d, ["read", "--app", d.appName]);
        if (res.code === 0 && res.stdout.includes(`Select ${ROWS - 1}`)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      // Until the page holds still (a late event has a read patch its part): then a read of
      // the unchanged page is answered from the kept tree.
      let last = await ask("warm");
      for (let i = 0; i < 10; i++) {
        const next = await ask("warm");
        const hit = next.stats.hits > last.stats.hits;
        last = next;
        if (hit) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(
        last.stats.hits >= 1,
        `the unchanged page is answered from the kept tree: ${JSON.stringify(last.stats)}`,
      );
      const whole = last.stats.nodes;
      for (let step = 1; step <= 3; step++) {
        const clicked = await runCli(d, ["click", "--app", d.appName, "--text", "Change one row"]);
        assert.equal(clicked.code, 0, clicked.stderr);
        // Settled (read cold): the page shows the change, and two reads agree.
        let before = "";
        for (let i = 0; i < 20; i++) {
          const now = JSON.stringify((await ask("cold")).root);
          if (now.includes(`Changed ${step}`) && now === before) break;
          before = now;
          await new Promise((r) => setTimeout(r, 150));
        }
        const w = await ask("warm");
        const c = await ask("cold");
        assert.ok(JSON.stringify(c.root).includes(`Changed ${step}`), `step ${step} not seen`);
        assert.deepEqual(w.root, c.root, `step ${step}: warm and cold reads differ`);
        // The change was read in its part (the renamed row), not the whole page.
        const reread = w.stats.nodesReread - last.stats.nodesReread;
        assert.equal(
          w.stats.patched,
          last.stats.patched + 1,
          `step ${step}: ${JSON.stringify(w.stats)}`,
        );
        assert.ok(
          reread > 0 && reread < whole / 20,
          `step ${step}: re-read ${reread} of ${whole} nodes`,
        );
        last = w;
      }
    } finally {
      await probe.close();
      await Deno.remove(file).catch(() => {});
    }
  },
});

if (import.meta.main && Deno.args[0] === "--probe") await probe(Deno.args[1]);
