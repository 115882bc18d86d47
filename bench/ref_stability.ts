/**
 * Ref stability benchmark (the mutation suite of the refs specification): how element refs survive
 * UI mutations on a real app. Chromium shows tests/fixtures/web/mutations.html
 * (a toolbar of mutation buttons, a Billing form, a 20-row Invoices list)
 * through AT-SPI; the benchmark clicks one mutation button at a time (insert,
 * remove and reorder rows, change a value, rename a label, open a dialog,
 * duplicate a label elsewhere and in the same form) and compares the reads
 * just before and just after.
 *
 * Ground truth is the native identity of each element (AT-SPI bus name and
 * object path, stable for a DOM node while it lives). Three ref schemes are
 * computed from the same two reads: ours (landmark refs, resolved with
 * `resolveRef`), sequential refs `@eN` (the N-th interactive element, as in
 * Playwright-style agent tools) and desktop-cli's positional `role.N` chains.
 * For each, it counts the untouched elements whose ref still resolves to
 * them, and the refs that resolve to a different element (wrong-element
 * resolutions: an action would land elsewhere).
 *
 * Run: deno run -A bench/ref_stability.ts [--section]
 * (`--section` also replaces this benchmark's section of BENCHMARKS.md)
 *
 * With `--identity` it runs the identity mutation suite instead
 * (tests/e2e/mutation_suites.ts: a Chromium page and a GTK TreeView, through
 * the CLI and MCP, with the apps' own logs as witnesses) and writes its
 * scenario table: hits, refusals and wrong-element actions per scenario, and
 * the peer schemes scored on the same trees.
 *
 * @module
 */

import { REPO_ROOT, startDesktop, type TestDesktop } from "../tests/harness/desktop.ts";
import type { Desktop } from "../src/desktop.ts";
import type { AppInfo, Element } from "../src/model/element.ts";
import { INTERACTIVE_ROLES } from "../src/model/roles.ts";
import { resolveRef } from "../src/refs/resolve.ts";
import { locateAll, resolveTarget, toStored } from "../src/identity/mod.ts";
import type { StoredRead } from "../src/state/ref_store.ts";
import { machineFacts, publishResults } from "./report.ts";
import {
  type Attempt,
  type PeerScore,
  runSuite as runIdentitySuite,
  tableRows,
} from "../tests/e2e/mutation_scenarios.ts";
import {
  GTK_SUITE,
  PAGE as IDENTITY_PAGE,
  TREEVIEW,
  WEB_SUITE,
} from "../tests/e2e/mutation_suites.ts";
import { LIVE_PAGE, LIVE_TREEVIEW, LIVE_WEB, runLiveSuite } from "../tests/e2e/mutation_live.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/mutations.html`;
const TITLE = "Ref stability mutations";
const SECTION = "Ref stability: mutations on a real page";
/** Longest wait for the page, or for a mutation to show in a read (ms). */
const WAIT_MS = 20_000;
/** Pause between polling reads (ms). */
const POLL_MS = 200;

/**
 * The ref schemes compared: ours (full refs), ours shortened to the shortest
 * suffix that resolves uniquely (resolution accepts it, agents may use it),
 * sequential `@eN`, positional `role.N` chains.
 */
export type Scheme = "ours" | "short" | "sequential" | "positional";

/** The schemes of the table, in order. */
const SCHEMES: readonly Scheme[] = ["ours", "sequential", "positional"];

/** Every scheme scored. */
const ALL_SCHEMES: readonly Scheme[] = [...SCHEMES, "short"];

/** One read of the app, with the page's elements indexed for every scheme. */
export interface PageRead {
  /** The app that was read. */
  app: AppInfo;
  /** The whole snapshot tree (our refs resolve against it, as the tool does). */
  root: Element;
  /** The web document's descendants, document order. */
  elements: Element[];
  /** The page's interactive elements, document order (`@e1` is the first). */
  interactive: Element[];
  /** Positional ref of each page element. */
  positional: Map<Element, string>;
  /** Page element by positional ref. */
  byPosition: Map<string, Element>;
}

/** One mutation of the suite: the toolbar button that applies it and how to see it applied. */
export interface Mutation {
  /** Name in the table. */
  name: string;
  /** Our ref of the button that applies it. */
  button: string;
  /** Whether a read shows the mutation applied. */
  done: (read: PageRead) => boolean;
}

/** What one scheme scored on one mutation. */
export interface SchemeScore {
  /** Untouched elements that have a ref in this scheme. */
  untouched: number;
  /** Of those, how many refs from before resolve to the same element after. */
  survived: number;
  /** Refs from before (any element) that resolve to a different element after. */
  wrong: number;
  /** A description of each wrong resolution. */
  wrongDetails: string[];
}

/** One mutation's result. */
export interface MutationResult {
  /** The mutation's name. */
  name: string;
  /** Untouched page elements (same identity, role and label before and after). */
  untouched: number;
  /** Scores per scheme. */
  scores: Record<Scheme, SchemeScore>;
}

// ---------------------------------------------------------------------------
// Trees and the peer schemes.

/** Every element below (not including) an element, depth-first. */
function descendants(el: Element): Element[] {
  const out: Element[] = [];
  const visit = (e: Element) => {
    for (const c of e.c ?? []) {
      out.push(c);
      visit(c);
    }
  };
  visit(el);
  return out;
}

/** The first element of a tree (itself included) that matches, depth-first. */
function findFirst(el: Element, pred: (e: Element) => boolean): Element | undefined {
  if (pred(el)) return el;
  for (const c of el.c ?? []) {
    const found = findFirst(c, pred);
    if (found) return found;
  }
  return undefined;
}

/**
 * desktop-cli style positional refs: `role.N` from the web document down,
 * N counting same-role siblings from 1 (`list.1/row.17/btn.1`).
 *
 * @param page the web document
 * @returns each descendant's positional ref
 */
export function positionalRefs(page: Element): Map<Element, string> {
  const out = new Map<Element, string>();
  const visit = (parent: Element, prefix: string) => {
    const seen = new Map<string, number>();
    for (const c of parent.c ?? []) {
      const n = (seen.get(c.r) ?? 0) + 1;
      seen.set(c.r, n);
      const ref = `${prefix}${c.r}.${n}`;
      out.set(c, ref);
      visit(c, `${ref}/`);
    }
  };
  visit(page, "");
  return out;
}

/**
 * Indexes one snapshot for every scheme.
 *
 * @param root the snapshot's tree (ids and refs assigned)
 * @returns the page read, or undefined when the page is not in the tree
 */
export function indexRead(root: Element, app: AppInfo): PageRead | undefined {
  const page = findFirst(root, (e) => e.r === "web" && e.t === TITLE);
  if (!page) return undefined;
  const elements = descendants(page);
  const positional = positionalRefs(page);
  const byPosition = new Map([...positional].map(([el, ref]) => [ref, el]));
  const interactive = elements.filter((e) => INTERACTIVE_ROLES.has(e.r));
  return { app, root, elements, interactive, positional, byPosition };
}

/** The shortest suffix of an element's ref that resolves to it in its own read. */
function shortestRef(read: PageRead, el: Element): string | undefined {
  const segs = el.ref?.split("/") ?? [];
  for (let k = 1; k <= segs.length; k++) {
    const ref = segs.slice(-k).join("/");
    if (resolveIn("ours", read, ref) === el) return ref;
  }
  return undefined;
}

/** An element's ref in a scheme, or undefined when the scheme gives it none. */
function refIn(scheme: Scheme, read: PageRead, el: Element): string | undefined {
  if (scheme === "ours") return el.ref;
  if (scheme === "short") return shortestRef(read, el);
  if (scheme === "positional") return read.positional.get(el);
  const k = read.interactive.indexOf(el);
  return k < 0 ? undefined : `@e${k + 1}`;
}

/**
 * What a ref resolves to in a read, or undefined (not found, ambiguous).
 * With `last` (the read the agent took the ref from), ours also go through
 * the session's guard for shortened refs, as `desktop` does with its ref store.
 */
function resolveIn(
  scheme: Scheme,
  read: PageRead,
  ref: string,
  last?: PageRead,
): Element | undefined {
  if (scheme === "positional") return read.byPosition.get(ref);
  if (scheme === "sequential") return read.interactive[Number(ref.slice(2)) - 1];
  // "ours" and "short": the tool's own resolution.
  try {
    if (!last) return resolveRef(read.root, ref);
    const snapshot = { app: read.app, readAt: "", root: read.root };
    const found = resolveTarget(snapshot, { ref }, storedRead(last));
    // resolveTarget returns a renumbered copy: map it back to the read's own element.
    return read.elements.find((e) => e.nid === found.nid && e.ref === found.ref) ??
      (read.root.nid === found.nid ? read.root : undefined);
  } catch {
    return undefined; // ELEMENT_NOT_FOUND, AMBIGUOUS_TARGET, STALE_REF: an error, never a wrong element
  }
}

const stored = new WeakMap<PageRead, StoredRead>();

/** A read as the ref store keeps it (every element, as `read` prints the whole tree). */
function storedRead(read: PageRead): StoredRead {
  let kept = stored.get(read);
  if (!kept) {
    kept = {
      app: { name: read.app.name, pid: read.app.pid },
      readAt: new Date(0).toISOString(),
      elements: locateAll(read.root).map((x) => toStored(x)),
    };
    stored.set(read, kept);
  }
  return kept;
}

// ---------------------------------------------------------------------------
// Scoring.

/** An element as the report names it: role and our full ref, which says which row it is in. */
function describe(el: Element): string {
  return `${el.r} \`${el.ref}\``;
}

/** Whether an element is unchanged between two reads: same identity, role and label. */
function isUntouched(el: Element, after: Map<string, Element>): boolean {
  const twin = after.get(el.nid!);
  return twin !== undefined && twin.r === el.r && (twin.t ?? "") === (el.t ?? "");
}

/**
 * Scores one scheme over two reads.
 *
 * @param scheme the ref scheme
 * @param before the read before the mutation
 * @param after the read after it
 * @returns untouched, survived and wrong-resolution counts
 */
export function scoreScheme(scheme: Scheme, before: PageRead, after: PageRead): SchemeScore {
  const afterByNid = new Map(after.elements.filter((e) => e.nid).map((e) => [e.nid!, e]));
  const score: SchemeScore = { untouched: 0, survived: 0, wrong: 0, wrongDetails: [] };
  for (const el of before.elements) {
    const ref = el.nid ? refIn(scheme, before, el) : undefined;
    if (ref === undefined) continue;
    const got = resolveIn(scheme, after, ref, before);
    if (isUntouched(el, afterByNid)) {
      score.untouched++;
      if (got?.nid === el.nid) score.survived++;
    }
    if (got && got.nid !== el.nid) {
      score.wrong++;
      score.wrongDetails.push(`\`${ref}\` (${describe(el)}) -> ${describe(got)}`);
    }
  }
  return score;
}

/**
 * Scores every scheme on one mutation.
 *
 * @param name the mutation
 * @param before the read before it
 * @param after the read after it
 * @returns the mutation's row
 */
export function scoreMutation(name: string, before: PageRead, after: PageRead): MutationResult {
  const afterByNid = new Map(after.elements.filter((e) => e.nid).map((e) => [e.nid!, e]));
  const untouched = before.elements.filter((e) => e.nid && isUntouched(e, afterByNid)).length;
  const scores = Object.fromEntries(
    ALL_SCHEMES.map((s) => [s, scoreScheme(s, before, after)]),
  ) as Record<Scheme, SchemeScore>;
  return { name, untouched, scores };
}

// ---------------------------------------------------------------------------
// The mutation suite.

/** Whether the page has an element of this role and label. */
function has(read: PageRead, r: Element["r"], t: string): boolean {
  return read.elements.some((e) => e.r === r && e.t === t);
}

/** The list's rows, in order. */
function rows(read: PageRead): Element[] {
  const list = read.elements.find((e) => e.r === "list" && e.t === "Invoices");
  return (list?.c ?? []).filter((e) => e.r === "listitem");
}

/** Whether a row shows "Invoice N" and its Delete button. */
function isInvoiceRow(row: Element | undefined, n: number): boolean {
  return !!row && !!findFirst(row, (e) => e.t === `Invoice ${n}`) &&
    !!findFirst(row, (e) => e.r === "btn" && e.t === "Delete");
}

/** The suite, applied in this order. */
export const MUTATIONS: readonly Mutation[] = [
  {
    name: "insert a row at the top",
    button: "mutations/insert-row",
    done: (r) => isInvoiceRow(rows(r)[0], 21),
  },
  {
    name: "remove a row in the middle",
    button: "mutations/remove-row",
    done: (r) => !rows(r).some((row) => findFirst(row, (e) => e.t === "Invoice 10")),
  },
  {
    name: "reorder: last row to the top",
    button: "mutations/reorder-rows",
    done: (r) => isInvoiceRow(rows(r)[0], 20),
  },
  {
    name: "change a value",
    button: "mutations/change-value",
    done: (r) => r.elements.some((e) => e.t === "Name" && e.v === "Ada Lovelace"),
  },
  {
    name: "rename a label",
    button: "mutations/rename-label",
    done: (r) => has(r, "btn", "Export all"),
  },
  {
    name: "open a dialog",
    button: "mutations/open-dialog",
    done: (r) => {
      const dialog = r.elements.find((e) => e.r === "dialog" && e.t === "Confirm");
      return !!dialog && !!findFirst(dialog, (e) => e.t === "Cancel");
    },
  },
  {
    name: "duplicate a label",
    button: "mutations/duplicate-label",
    done: (r) => r.elements.filter((e) => e.r === "btn" && e.t === "Save").length === 2,
  },
  {
    // Twins in one landmark get `.1`, `.2`: the bare ref stops resolving on purpose.
    name: "duplicate a label in the same form",
    button: "mutations/duplicate-in-form",
    done: (r) => r.elements.filter((e) => e.r === "btn" && e.t === "Export all").length === 2,
  },
];

// ---------------------------------------------------------------------------
// Driving the app.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fingerprint of the page: identity, role, label and value of every element. */
function signature(read: PageRead): string {
  return read.elements.map((e) => `${e.nid}|${e.r}|${e.t ?? ""}|${e.v ?? ""}`).join("\n");
}

/** One read of the app, indexed (undefined while the page is not there). */
async function readPage(desktop: Desktop, pid: number): Promise<PageRead | undefined> {
  const { snapshot } = await desktop.read({ pid }, {});
  return indexRead(snapshot.root, snapshot.app);
}

/**
 * Reads until `done` holds and the page stays the same over two reads in a
 * row (so a half-applied mutation is never measured).
 */
async function settle(
  desktop: Desktop,
  pid: number,
  what: string,
  done: (r: PageRead) => boolean,
): Promise<PageRead> {
  const deadline = Date.now() + WAIT_MS;
  let last: PageRead | undefined;
  while (Date.now() < deadline) {
    const read = await readPage(desktop, pid);
    if (read && done(read) && last && signature(last) === signature(read)) return read;
    last = read && done(read) ? read : undefined;
    await sleep(POLL_MS);
  }
  throw new Error(`${what}: not shown in a read within ${WAIT_MS} ms`);
}

/** Applies the suite in order, scoring each mutation on the reads around it. */
async function runSuite(d: TestDesktop): Promise<MutationResult[]> {
  for (const [k, v] of Object.entries(d.env)) Deno.env.set(k, v);
  const { connect } = await import("../mod.ts");
  const desktop = await connect({ timeoutMs: 30000 });
  try {
    await settle(desktop, d.pid, "the page", (r) => isInvoiceRow(rows(r).at(-1), 20));
    const results: MutationResult[] = [];
    for (const m of MUTATIONS) {
      const before = await settle(desktop, d.pid, "before " + m.name, () => true);
      await desktop.act({ pid: d.pid }, { ref: m.button }, { kind: "click" });
      const after = await settle(desktop, d.pid, m.name, m.done);
      results.push(scoreMutation(m.name, before, after));
    }
    return results;
  } finally {
    desktop.close();
  }
}

// ---------------------------------------------------------------------------
// Report.

/** `n/N` of one scheme. */
function ratio(s: SchemeScore): string {
  return `${s.survived}/${s.untouched}`;
}

/** The totals over every mutation. */
function totals(results: MutationResult[]): MutationResult {
  return {
    name: "**total**",
    untouched: results.reduce((a, r) => a + r.untouched, 0),
    scores: Object.fromEntries(
      ALL_SCHEMES.map((s) => [s, sumScores(results.map((r) => r.scores[s]))]),
    ) as Record<Scheme, SchemeScore>,
  };
}

/** The per-mutation table with a totals row. */
function table(results: MutationResult[]): string[] {
  const row = (r: MutationResult) =>
    `| ${r.name} | ${r.untouched} | ${SCHEMES.map((s) => ratio(r.scores[s])).join(" | ")} | ${
      SCHEMES.map((s) => r.scores[s].wrong).join(" | ")
    } |`;
  return [
    "| mutation | untouched | survived: ours | survived: `@eN` | survived: positional | wrong: ours | wrong: `@eN` | wrong: positional |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...results.map(row),
    row(totals(results)),
  ];
}

/** Sums scores over mutations. */
function sumScores(scores: SchemeScore[]): SchemeScore {
  return {
    untouched: scores.reduce((a, s) => a + s.untouched, 0),
    survived: scores.reduce((a, s) => a + s.survived, 0),
    wrong: scores.reduce((a, s) => a + s.wrong, 0),
    wrongDetails: scores.flatMap((s) => s.wrongDetails),
  };
}

/** Examples of wrong resolutions: every one of ours (full or short), the first few of each peer. */
function examples(results: MutationResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    for (const s of ALL_SCHEMES) {
      const details = r.scores[s].wrongDetails;
      if (!details.length) continue;
      const shown = s === "ours" || s === "short" ? details : details.slice(0, 2);
      const more = details.length - shown.length;
      out.push(`- ${r.name}, ${s}: ${shown.join("; ")}${more ? `; and ${more} more` : ""}`);
    }
  }
  return out;
}

/** The line on shortened refs (ours cut to their shortest unique suffix). */
function shortLine(results: MutationResult[]): string {
  const short = totals(results).scores.short;
  const worst = results.filter((r) => r.scores.short.wrong > 0).map((r) => r.name);
  return `Shortened refs (ours cut to the shortest suffix that resolves uniquely in the read ` +
    `before, e.g. \`delete\` for a lone Delete button; resolution accepts them): ${ratio(short)} ` +
    `untouched survived, ${plural(short.wrong, "wrong-element resolution")}` +
    (worst.length ? ` (${worst.join(", ")}; listed above)` : "") + ".";
}

/** `1 resolution`, `2 resolutions`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The one-line result against the target. */
function verdict(results: MutationResult[]): string {
  const keyed = results.filter((r) => /insert|remove|value/.test(r.name));
  const ours = sumScores(keyed.map((r) => r.scores.ours));
  const all = totals(results).scores;
  const met = ours.survived === ours.untouched && all.ours.wrong === 0;
  return `Target: untouched refs survive insert/remove/value changes; zero wrong-element ` +
    `resolutions. Result: ${met ? "met" : "NOT met"} for full refs: ours kept ${ratio(ours)} ` +
    `untouched refs over insert/remove/value changes and made ` +
    `${plural(all.ours.wrong, "wrong-element resolution")} over the whole suite ` +
    `(shortened refs: ${plural(all.short.wrong, "wrong-element resolution")}; ` +
    `\`@eN\`: ${all.sequential.wrong}; positional: ${all.positional.wrong}).`;
}

/** The section body. */
async function report(results: MutationResult[]): Promise<string> {
  const facts = await machineFacts();
  const ex = examples(results);
  return [
    "Command: `deno run -A bench/ref_stability.ts`",
    "",
    `- date: ${facts.date}; ${facts.cpu}, ${facts.cores} cores; deno ${facts.deno}; ${facts.chromium}; at-spi2-core ${facts.atspi}`,
    "- page: tests/fixtures/web/mutations.html (a toolbar of mutation buttons, a Billing form, " +
    "20 invoice rows each with a Delete button); the mutations are applied in table order, " +
    "each one on top of the previous ones",
    "",
    "Method: each mutation is a click on its toolbar button; the page is read through AT-SPI " +
    "just before and just after (once the change shows and the read holds still). Ground " +
    "truth is the native identity of each element (AT-SPI bus name + object path). An element " +
    "is untouched when it is in both reads with the same identity, role and label. For every " +
    "element of the page that has a ref in a scheme, its ref from the read before is resolved " +
    "in the read after: it survived when it resolves to the same element, and it is a wrong " +
    "resolution when it resolves to another one (not found or ambiguous is an error, never " +
    "wrong). The peers are computed from the same two reads: sequential refs `@eN` number the " +
    "page's interactive elements in document order (Playwright-style agent tools); " +
    "desktop-cli's positional refs chain `role.N` from the web document down (`list.1/row.17/btn.1`). " +
    "Ours resolve with `resolveRef` (exact, else unique suffix) against the whole window's tree.",
    "",
    ...table(results),
    "",
    shortLine(results),
    "",
    ...(ex.length ? ["Wrong resolutions (examples):", "", ...ex, ""] : []),
    verdict(results),
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------
// The identity suite (--identity).

const IDENTITY_SECTION = "Identity: never the wrong element (mutation suite)";

/** `hit/refused/wrong` of one channel. */
function hrw(c: Record<"hit" | "refused" | "wrong" | "missed", number>): string {
  return `${c.hit} / ${c.refused} / ${c.wrong + c.missed}`;
}

/** The identity section's body. */
async function identityReport(
  runs: Array<
    {
      app: string;
      attempts: Attempt[];
      peers: Array<{ scenario: string; sequential: PeerScore; positional: PeerScore }>;
    }
  >,
): Promise<string> {
  const facts = await machineFacts();
  const lines: string[] = [];
  let wrong = 0, total = 0, falseRefusals = 0, peerWrong = { seq: 0, pos: 0, n: 0 };
  for (const run of runs) {
    for (const row of tableRows(run.attempts)) {
      const p = run.peers.find((x) => x.scenario === row.scenario);
      const peer = (s?: PeerScore) => s ? `${s.wrong}/${s.hit + s.none + s.wrong}` : "n/a";
      if (p) {
        peerWrong = {
          seq: peerWrong.seq + p.sequential.wrong,
          pos: peerWrong.pos + p.positional.wrong,
          n: peerWrong.n + p.sequential.hit + p.sequential.none + p.sequential.wrong,
        };
      }
      lines.push(
        `| ${run.app} | ${row.scenario} | ${row.kinds.join(", ")} | ${hrw(row.cli)} | ${
          hrw(row.mcp)
        } | ${row.codes.join(", ") || "-"} | ${peer(p?.sequential)} | ${peer(p?.positional)} |`,
      );
    }
    wrong += run.attempts.filter((a) => a.outcome === "wrong" || a.outcome === "missed").length;
    falseRefusals += run.attempts.filter((a) =>
      a.expected === "hit" && a.outcome === "refused"
    ).length;
    total += run.attempts.length;
  }
  const details = runs.flatMap((r) => r.attempts)
    .filter((a) => a.outcome === "wrong" || a.outcome === "missed")
    .map((a) =>
      `- ${a.scenario}, ${a.kind} \`${a.given}\`, ${a.channel}: ${a.outcome} (${
        a.witnessed ?? "nothing"
      })`
    );
  return [
    "Command: `deno run -A bench/ref_stability.ts --identity` (the same suite runs as the e2e tests " +
    "tests/e2e/mutation_identity_test.ts, tests/e2e/mutation_gtk_test.ts and " +
    "tests/e2e/mutation_live_test.ts)",
    "",
    `- date: ${facts.date}; ${facts.cpu}, ${facts.cores} cores; deno ${facts.deno}; ${facts.chromium}; at-spi2-core ${facts.atspi}`,
    "- apps: tests/fixtures/web/mutation_identity.html in Chromium (a list re-rendered in place, " +
    "a header-less table whose Open buttons are twins, a virtualised feed, a form), and " +
    "tests/fixtures/mutation_treeview.py, a GTK 3 TreeView whose cell objects are reused; " +
    "live content: tests/fixtures/web/live_content.html in Chromium (order statuses and totals " +
    "that tick every 300 ms, a rotating carousel, toggles that flip their labels, a menubar " +
    "whose menu is named like its item) and the same TreeView with its Status column ticking",
    "",
    "Live scenarios: the agents read once, then act on each element while the content changes " +
    "(700 ms between actions); every action is expected to hit, so a refusal there is a false " +
    "refusal.",
    "",
    "Method: for each scenario the app is reset; two agents read it (the CLI in a session of " +
    "its own, and an MCP connection); the app mutates; then each agent clicks the elements it " +
    "saw by every kind of target it can give (full ref, shortest unique suffix, twin ref `.N`, " +
    "id). The witness is the app's own log: each click writes the clicked item's uid (never " +
    "shown in a label) into the window title, read through pyatspi. A hit reaches the item the " +
    "agent saw; a refusal is an error code with no click; wrong counts clicks that reached " +
    "another item plus successes that reached nothing. The peers are scored on the same trees " +
    "(the agent's read and the read after the mutation): `@eN` numbers interactive elements " +
    "in document order, positional refs chain `role.N`; wrong/tried counts refs that resolve " +
    "to another item (Chromium only: the page gives each button its item's uid as description).",
    "",
    "| app | scenario | target kinds | CLI hit / refused / wrong | MCP hit / refused / wrong | refusal codes | `@eN` wrong | positional wrong |",
    "|---|---|---|---:|---:|---|---:|---:|",
    ...lines,
    "",
    `Result: ${wrong} wrong-element actions and ${falseRefusals} false refusals in ${total} ` +
    `clicks (CLI and MCP); the peers on the ` +
    `same trees: \`@eN\` ${peerWrong.seq} and positional ${peerWrong.pos} wrong of ${peerWrong.n} refs.`,
    ...(details.length ? ["", "Wrong or missed:", "", ...details] : []),
    "",
  ].join("\n");
}

if (import.meta.main && Deno.args.includes("--identity")) {
  const started = performance.now();
  const runs = [];
  {
    await using d = await startDesktop({ app: "chromium", url: IDENTITY_PAGE });
    runs.push({ app: "Chromium", ...(await runIdentitySuite(d, WEB_SUITE)) });
  }
  {
    await using d = await startDesktop({ app: "gtk3-script", url: TREEVIEW });
    runs.push({ app: "GTK 3", ...(await runIdentitySuite(d, GTK_SUITE)) });
  }
  {
    await using d = await startDesktop({ app: "chromium", url: LIVE_PAGE });
    runs.push({ app: "Chromium", attempts: await runLiveSuite(d, LIVE_WEB), peers: [] });
  }
  {
    await using d = await startDesktop({ app: "gtk3-script", url: TREEVIEW });
    runs.push({ app: "GTK 3", attempts: await runLiveSuite(d, LIVE_TREEVIEW), peers: [] });
  }
  await publishResults("identity.md", IDENTITY_SECTION, await identityReport(runs));
  console.log(`(run time ${((performance.now() - started) / 1000).toFixed(1)} s)`);
} else if (import.meta.main) {
  const started = performance.now();
  let results: MutationResult[];
  {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    results = await runSuite(d);
  }
  const body = await report(results);
  await publishResults("ref_stability.md", SECTION, body);
  console.log(`(run time ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
