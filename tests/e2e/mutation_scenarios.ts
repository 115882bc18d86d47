/**
 * The identity mutation suite (refs.md sections 3 and 4), shared by its e2e
 * tests (tests/e2e/mutation_*_test.ts) and bench/ref_stability.ts.
 *
 * One real app shows a model of items whose uids never appear in a label;
 * whenever an action reaches an item, the app writes `log N: UID ...` into
 * its window title, and the witness reads that title through pyatspi (not
 * through desktop). For each scenario, two agents read the app (the CLI in
 * its own session, and an MCP connection); then the app mutates, and each
 * agent clicks the elements it saw by every kind of target (full ref, short
 * ref, twin ref, id). Each click is a hit (the witness shows the item the
 * agent saw), a refusal (an error code, and the witness shows no click), a
 * wrong-element action (the witness shows another item) or a miss (success
 * reported, nothing reached). The driver (resets, mutations, settling) is a
 * third MCP connection: its reads are its own session's and change no
 * agent's ids.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Element, Snapshot } from "../../src/model/element.ts";
import { INTERACTIVE_ROLES } from "../../src/model/roles.ts";
import { resolveRef } from "../../src/refs/resolve.ts";
import { indexedBase } from "../../src/identity/syntax.ts";
import { runCli } from "../harness/cli.ts";
import { type DesktopOptions, REPO_ROOT, type TestDesktop } from "../harness/desktop.ts";

/** How an agent names an element. */
export type Kind = "full ref" | "short ref" | "twin ref" | "id";
/** Which interface the agent uses. */
export type Channel = "cli" | "mcp";
/** What one click came to. */
export type Outcome = "hit" | "refused" | "wrong" | "missed";

/** An element the agent saw, and the item it stands for. */
export interface TargetSpec {
  /** For reports: `Open in "Item 2"`. */
  name: string;
  /** The uid the witness shows when the action reaches the item the agent saw. */
  uid: string;
  /** Finds the element in a read. */
  pick: (root: Element) => Element | undefined;
}

/** One scenario of the suite. */
export interface Scenario {
  /** Name in the table. */
  name: string;
  /** The elements the agents saw and then click. */
  targets: TargetSpec[];
  /** What a correct tool does here: act on the element seen, or refuse. */
  expect: "hit" | "refuse" | ((kind: Kind) => "hit" | "refuse");
  /** Work before the agents' read (e.g. a saved snapshot). */
  before?: (ctx: SuiteContext) => Promise<void>;
  /** The mutation. */
  mutate: (ctx: SuiteContext) => Promise<void>;
  /** The agents read after the mutation instead of before it. */
  readAfter?: boolean;
  /** Work after the mutation and before the clicks (another session reads...). */
  after?: (ctx: SuiteContext) => Promise<void>;
}

/** One click's result. */
export interface Attempt {
  /** Scenario name. */
  scenario: string;
  /** Target name. */
  target: string;
  /** Target kind. */
  kind: Kind;
  /** The target as given (`items/item-2/open`, `id 35`). */
  given: string;
  /** CLI or MCP. */
  channel: Channel;
  /** What happened. */
  outcome: Outcome;
  /** The error code of a refusal. */
  code?: string;
  /** What the witness saw (uid and text), for wrong actions. */
  witnessed?: string;
  /** What a correct tool does. */
  expected: "hit" | "refuse";
}

/** How a peer scheme's ref from before the mutation fares after it. */
export interface PeerScore {
  /** Resolved to the item seen. */
  hit: number;
  /** Resolved to nothing. */
  none: number;
  /** Resolved to another item: a wrong-element action. */
  wrong: number;
}

/** Everything a scenario hook can use. */
export interface SuiteContext {
  /** The desktop. */
  d: TestDesktop;
  /** The app's current process id (a restart changes it). */
  pid(): number;
  /** Kills the app and starts it again on the same desktop; later steps follow the new process. */
  restartApp(): Promise<void>;
  /** Clicks a toolbar button by ref through the driver and waits for the app to settle. */
  press(ref: string): Promise<void>;
  /** Runs the CLI as the CLI agent (its session), failing on an error. */
  agentCli(args: string[]): Promise<string>;
  /** Runs the CLI in another session, failing on an error. */
  otherCli(session: string, args: string[]): Promise<string>;
  /** A scratch directory. */
  dir: string;
}

/** What an app under the suite is. */
export interface SuiteApp {
  /** The scenarios, applied in order, each from a reset state. */
  scenarios: Scenario[];
  /** Ref of the button that resets the app's model. */
  reset: string;
  /** Whether a read shows that the last press took effect (`gen N`), given the press count. */
  applied?: (root: Element, presses: number) => boolean;
  /** Whether the app's elements carry item uids (`d`), so peer schemes can be scored. */
  peers?: boolean;
  /** How the app was started (for a restart). */
  start?: DesktopOptions;
}

/** The result of a run. */
export interface SuiteResult {
  /** Every click. */
  attempts: Attempt[];
  /** Peer schemes per scenario: `@eN` and positional `role.N`. */
  peers: Array<{ scenario: string; sequential: PeerScore; positional: PeerScore }>;
}

const WITNESS = `${REPO_ROOT}tests/fixtures/mutation_witness.py`;
const AGENT_SESSION = "mutation-agent";
const DRIVER_POLL_MS = 150;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The witness: the last `log N: UID ...` in the app's window titles, via pyatspi. */
export async function witness(pid: number, env: Record<string, string>): Promise<
  { n: number; uid: string; text: string }
> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: [WITNESS, String(pid)],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`witness: ${new TextDecoder().decode(out.stderr)}`);
  const names = JSON.parse(new TextDecoder().decode(out.stdout)) as string[];
  for (const name of names) {
    const m = name.match(/log (\d+): (\S+) (.*?)(?: - Chromium)?$/);
    if (m) return { n: Number(m[1]), uid: m[2], text: m[3] };
  }
  return { n: 0, uid: "", text: "" };
}

/** Every element of a tree, document order. */
export function allOf(root: Element): Element[] {
  const out: Element[] = [];
  const visit = (el: Element) => {
    out.push(el);
    el.c?.forEach(visit);
  };
  visit(root);
  return out;
}

/** The first element below `root` (included) that matches, depth-first. */
export function findIn(root: Element, pred: (el: Element) => boolean): Element | undefined {
  if (pred(root)) return root;
  for (const c of root.c ?? []) {
    const f = findIn(c, pred);
    if (f) return f;
  }
  return undefined;
}

/** The shortest suffix of an element's ref that resolves to it in its own read. */
function shortestRef(root: Element, el: Element): string | undefined {
  const segs = el.ref?.split("/") ?? [];
  for (let k = 1; k < segs.length; k++) {
    const ref = segs.slice(-k).join("/");
    try {
      if (resolveRef(root, ref) === el) return ref;
    } catch {
      // ambiguous or not found: longer
    }
  }
  return undefined;
}

/**
 * The ways an agent can name an element it saw: its full (or twin) ref, its
 * shortest unique suffix, its id.
 *
 * @param root the agent's read
 * @param el the element
 * @returns the targets
 */
export function kindsOf(
  root: Element,
  el: Element,
): Array<{ kind: Kind; ref?: string; id?: number }> {
  const out: Array<{ kind: Kind; ref?: string; id?: number }> = [];
  out.push({ kind: indexedBase(el.ref) !== undefined ? "twin ref" : "full ref", ref: el.ref });
  const short = shortestRef(root, el);
  if (short !== undefined) out.push({ kind: "short ref", ref: short });
  out.push({ kind: "id", id: el.i });
  return out;
}

/**
 * An MCP connection to `desktop mcp` on the test desktop (its own session).
 *
 * @param d the test desktop
 * @returns the client and a call helper
 */
export async function mcpClient(d: TestDesktop) {
  const client = new Client({ name: "mutation-suite", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", `${REPO_ROOT}cli.ts`, "mcp"],
      cwd: REPO_ROOT,
      env: { ...d.env, DESKTOP_STATE_DIR: `${d.env.XDG_RUNTIME_DIR}/state` },
      stderr: "pipe",
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args }) as {
      content: Array<{ text?: string }>;
      isError?: boolean;
    };
    return { text: res.content.map((c) => c.text ?? "").join("\n"), isError: !!res.isError };
  };
  return { client, call };
}

/** An MCP client's call helper, as {@link mcpClient} gives it. */
type McpCall = (
  name: string,
  args: Record<string, unknown>,
) => Promise<{ text: string; isError: boolean }>;

/**
 * One click by an agent, and what the witness saw of it: a hit (the item
 * `uid`, once), a refusal (an error code and no click), a wrong click (another
 * item, or a click besides an error) or a miss (success reported, nothing
 * reached).
 *
 * @param d the test desktop
 * @param pid the app's process id
 * @param channel the CLI (in `session`) or MCP (through `agent`)
 * @param agent the MCP connection of the agent
 * @param session the CLI agent's session
 * @param target the ref or id given
 * @param uid what the witness shows when the click reaches the element meant
 * @returns the outcome, the refusal's code and what the witness saw
 */
export async function clickAndWitness(
  d: TestDesktop,
  pid: number,
  channel: Channel,
  agent: { call: McpCall },
  session: string,
  target: { ref?: string; id?: number },
  uid: string,
): Promise<{ outcome: Outcome; code?: string; witnessed?: string }> {
  const w0 = await witness(pid, d.env);
  let code: string | undefined;
  if (channel === "cli") {
    const args = ["click", "--pid", String(pid), "--session", session];
    args.push(...(target.ref !== undefined ? ["--ref", target.ref] : ["--id", String(target.id)]));
    const r = await runCli(d, args);
    if (r.code !== 0) code = JSON.parse(r.stderr.trim().split("\n").pop()!).code;
  } else {
    const r = await agent.call("click", {
      pid,
      ...(target.ref !== undefined ? { ref: target.ref } : { id: target.id }),
    });
    if (r.isError) code = JSON.parse(r.text).code;
  }
  // A click the tool carried out shows in the title within moments; a refusal must show
  // nothing (a stray click would also show at the next attempt's first look).
  let w = await witness(pid, d.env);
  const until = Date.now() + 8000;
  while (code === undefined && w.n === w0.n && Date.now() < until) {
    await sleep(100);
    w = await witness(pid, d.env);
  }
  const outcome: Outcome = w.n !== w0.n
    ? (code === undefined && w.n === w0.n + 1 && w.uid === uid ? "hit" : "wrong")
    : code === undefined
    ? "missed"
    : "refused";
  return {
    outcome,
    ...(code ? { code } : {}),
    ...(w.n !== w0.n ? { witnessed: `${w.uid} ${w.text}` } : {}),
  };
}

/** The page's peer refs: `@eN` (N-th interactive element) and positional `role.N` chains. */
function peerRefs(root: Element): { seq: Map<Element, string>; pos: Map<Element, string> } {
  const seq = new Map<Element, string>();
  allOf(root).filter((e) => INTERACTIVE_ROLES.has(e.r)).forEach((e, k) => seq.set(e, `@e${k + 1}`));
  const pos = new Map<Element, string>();
  const visit = (parent: Element, prefix: string) => {
    const seen = new Map<string, number>();
    for (const c of parent.c ?? []) {
      const n = (seen.get(c.r) ?? 0) + 1;
      seen.set(c.r, n);
      const ref = `${prefix}${c.r}.${n}`;
      pos.set(c, ref);
      visit(c, `${ref}/`);
    }
  };
  visit(root, "");
  return { seq, pos };
}

/** Scores the peer schemes on one target over the agent's read and the read after the mutation. */
function scorePeers(
  before: Element,
  after: Element,
  targets: TargetSpec[],
  score: { sequential: PeerScore; positional: PeerScore },
): void {
  const b = peerRefs(before), a = peerRefs(after);
  const invert = (m: Map<Element, string>) => new Map([...m].map(([el, ref]) => [ref, el]));
  const aSeq = invert(a.seq), aPos = invert(a.pos);
  for (const t of targets) {
    const el = t.pick(before);
    if (!el) continue;
    for (
      const [ref, lookup, s] of [
        [b.seq.get(el), aSeq, score.sequential],
        [b.pos.get(el), aPos, score.positional],
      ] as const
    ) {
      const got = ref === undefined ? undefined : lookup.get(ref);
      if (!got) s.none++;
      else if (got.d === t.uid) s.hit++;
      else s.wrong++;
    }
  }
}

/**
 * Runs the suite on a started desktop.
 *
 * @param d the test desktop running the app
 * @param suite the app's scenarios
 * @param only run only the scenarios with these names (all when undefined)
 * @returns every click and the peers' scores
 */
export async function runSuite(
  d: TestDesktop,
  suite: SuiteApp,
  only?: readonly string[],
): Promise<SuiteResult> {
  const appOpts = suite.start;
  const dir = await Deno.makeTempDir({ prefix: "mutation-suite-" });
  const driver = await mcpClient(d);
  const agent = await mcpClient(d);
  let presses = 0;
  const attempts: Attempt[] = [];
  const peers: SuiteResult["peers"] = [];

  let pid = d.pid;
  const app = () => ({ pid });
  const readJson = async (
    via: {
      call: (n: string, a: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;
    },
  ): Promise<Element> => {
    const r = await via.call("read", { ...app(), format: "json" });
    if (r.isError) throw new Error(`read: ${r.text}`);
    return (JSON.parse(r.text) as Snapshot).root;
  };
  const signature = (root: Element) =>
    allOf(root).map((e) => `${e.ref}|${e.t ?? ""}|${e.d ?? ""}`).join("\n");
  /** Waits until two driver reads in a row agree (and the last press shows). */
  const settle = async (what: string) => {
    const deadline = Date.now() + 30_000;
    let last = "";
    while (Date.now() < deadline) {
      const root = await readJson(driver);
      const sig = signature(root);
      const shown = suite.applied ? suite.applied(root, presses) : true;
      if (shown && sig === last) return root;
      last = shown ? sig : "";
      await sleep(DRIVER_POLL_MS);
    }
    throw new Error(`${what}: the app did not settle within 30 s\n${d.appLog()}`);
  };
  const cliOk = async (args: string[]) => {
    const r = await runCli(d, args);
    if (r.code !== 0) throw new Error(`desktop ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  const ctx: SuiteContext = {
    d,
    dir,
    pid: () => pid,
    async restartApp() {
      if (!appOpts) throw new Error("restartApp: the suite was not told how the app starts");
      d.signalApp("SIGKILL");
      pid = (await d.startApp(appOpts)).pid;
    },
    async press(ref) {
      const r = await driver.call("click", { ...app(), ref });
      if (r.isError) throw new Error(`press ${ref}: ${r.text}`);
      presses++;
      await settle(`after ${ref}`);
    },
    agentCli: (args) => cliOk([...args, "--session", AGENT_SESSION]),
    otherCli: (session, args) => cliOk([...args, "--session", session]),
  };

  try {
    for (const sc of suite.scenarios) {
      if (only && !only.includes(sc.name)) continue;
      await ctx.press(suite.reset);
      if (sc.before) await sc.before(ctx);
      const agentsRead = async () => {
        const cliRoot = (JSON.parse(
          await ctx.agentCli(["read", "--pid", String(pid), "--format", "json"]),
        ) as Snapshot).root;
        const mcpRoot = await readJson(agent);
        return { cli: cliRoot, mcp: mcpRoot };
      };
      let seen = sc.readAfter ? undefined : await agentsRead();
      // A restart gives the app a new process: everything here follows it by pid.
      await sc.mutate(ctx);
      if (sc.readAfter) seen = await agentsRead();
      if (sc.after) await sc.after(ctx);
      const afterRoot = await settle(`${sc.name}: after`);
      if (suite.peers) {
        const score = {
          sequential: { hit: 0, none: 0, wrong: 0 },
          positional: { hit: 0, none: 0, wrong: 0 },
        };
        scorePeers(seen!.cli, afterRoot, sc.targets, score);
        peers.push({ scenario: sc.name, ...score });
      }
      for (const channel of ["cli", "mcp"] as const) {
        const root = seen![channel];
        for (const t of sc.targets) {
          const el = t.pick(root);
          if (!el) throw new Error(`${sc.name}: ${t.name} not in the ${channel} agent's read`);
          for (const k of kindsOf(root, el)) {
            const expected = typeof sc.expect === "function" ? sc.expect(k.kind) : sc.expect;
            attempts.push({
              scenario: sc.name,
              target: t.name,
              kind: k.kind,
              given: k.ref ?? `id ${k.id}`,
              channel,
              ...await clickAndWitness(d, pid, channel, agent, AGENT_SESSION, k, t.uid),
              expected,
            });
          }
        }
      }
    }
    return { attempts, peers };
  } finally {
    await driver.client.close().catch(() => {});
    await agent.client.close().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Counts per scenario, kind and channel. */
export interface Row {
  /** Scenario. */
  scenario: string;
  /** Hits / refusals / wrong / missed, per channel. */
  cli: Record<Outcome, number>;
  /** Same through MCP. */
  mcp: Record<Outcome, number>;
  /** Codes of the refusals. */
  codes: string[];
  /** Kinds tried. */
  kinds: string[];
}

/**
 * The per-scenario table rows.
 *
 * @param attempts every click
 * @returns one row per scenario, in run order
 */
export function tableRows(attempts: Attempt[]): Row[] {
  const rows = new Map<string, Row>();
  const zero = (): Record<Outcome, number> => ({ hit: 0, refused: 0, wrong: 0, missed: 0 });
  for (const a of attempts) {
    let row = rows.get(a.scenario);
    if (!row) {
      row = { scenario: a.scenario, cli: zero(), mcp: zero(), codes: [], kinds: [] };
      rows.set(a.scenario, row);
    }
    row[a.channel][a.outcome]++;
    if (a.code && !row.codes.includes(a.code)) row.codes.push(a.code);
    if (!row.kinds.includes(a.kind)) row.kinds.push(a.kind);
  }
  return [...rows.values()];
}

/** A GTK TreeView cell of the suite's app by its column and the row's item name. */
export function gtkCell(
  root: Element,
  column: "name" | "status",
  item: string,
): Element | undefined {
  const table = findIn(root, (e) => e.r === "table");
  if (!table) return undefined;
  // Cells straight under the table, or grouped into rows (as the reader does for tree views).
  const rows = (table.c ?? []).filter((e) => e.r === "row");
  const groups = rows.length ? rows.map((r) => r.c ?? []) : [table.c ?? []];
  for (const cells of groups) {
    const name = cells.find((e) => e.r === "cell" && e.t === item);
    if (!name) continue;
    if (column === "name") return name;
    return cells.find((e) =>
      e !== name && e.r === "cell" && e.t === "Open" &&
      (rows.length > 0 || e.b?.[1] === name.b?.[1])
    );
  }
  return undefined;
}
