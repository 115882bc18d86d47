/**
 * The import rules of ARCHITECTURE.md, checked on the real import graph
 * (`deno info --json` of mod.ts and cli.ts): no import cycle, a pure core
 * that imports no edge, backends that import no face.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** Every project module reachable from the entry points, with the project modules it imports. */
async function importGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const entry of ["mod.ts", "cli.ts"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: Array<{
        specifier: string;
        dependencies?: Array<{ code?: { specifier?: string }; type?: { specifier?: string } }>;
      }>;
    };
    const local = (s: string | undefined) =>
      s?.startsWith(ROOT.href) ? s.slice(ROOT.href.length) : undefined;
    for (const m of info.modules) {
      const from = local(m.specifier);
      if (!from) continue;
      const deps = graph.get(from) ?? new Set<string>();
      for (const d of m.dependencies ?? []) {
        for (const s of [d.code?.specifier, d.type?.specifier]) {
          const to = local(s);
          if (to) deps.add(to);
        }
      }
      graph.set(from, deps);
    }
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan, iterative). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], on = new Set<string>(), out: string[][] = [];
  let n = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ v: string; it: Iterator<string> }> = [];
    const open = (v: string) => {
      index.set(v, n);
      low.set(v, n++);
      stack.push(v);
      on.add(v);
      work.push({ v, it: (graph.get(v) ?? new Set()).values() });
    };
    open(start);
    while (work.length) {
      const top = work[work.length - 1];
      const next = top.it.next();
      if (!next.done) {
        const w = next.value;
        if (!index.has(w)) open(w);
        else if (on.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          comp.push(w);
        } while (w !== top.v);
        if (comp.length > 1) out.push(comp.sort());
      }
    }
  }
  return out;
}

/** Imports from modules matching `from` into modules matching `to`. */
function crossing(
  graph: Map<string, Set<string>>,
  from: RegExp,
  to: RegExp,
): string[] {
  const out: string[] = [];
  for (const [m, deps] of graph) {
    if (!from.test(m)) continue;
    for (const d of deps) if (to.test(d)) out.push(`${m} -> ${d}`);
  }
  return out.sort();
}

/** The pure core: the element model, refs, identity, diff, output and errors. */
const CORE = /^src\/(model|refs|identity|diff|output)\/|^src\/errors\.ts$/;
/** What touches the OS or a face: backends, FFI, state, faces, sessions. */
const EDGES =
  /^src\/(platform|ffi|state|io|ops|commands|mcp|act|apps|fill|run|screenshot|session|observe)\/|^src\/(desktop|desktop_types|connect)\.ts$|^(cli|mod)\.ts$/;
/** The faces: the CLI, the MCP server, the library's entry. */
const FACES = /^src\/(ops|commands|mcp)\/|^src\/connect\.ts$|^(cli|mod)\.ts$/;

Deno.test("import graph: no module imports itself through others (no cycle)", async () => {
  const graph = await importGraph();
  assert.ok(graph.size > 100, `${graph.size} modules`);
  assert.deepEqual(cycles(graph), []);
});

Deno.test("import graph: the pure core imports no backend, state, session or face", async () => {
  assert.deepEqual(crossing(await importGraph(), CORE, EDGES), []);
});

Deno.test("import graph: backends and FFI import no face", async () => {
  assert.deepEqual(crossing(await importGraph(), /^src\/(platform|ffi)\//, FACES), []);
});
