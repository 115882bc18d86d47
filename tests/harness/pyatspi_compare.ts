/**
 * Read conformance against pyatspi: runs the reference walker
 * (tests/harness/pyatspi_tree.py) on a test desktop's app and compares what
 * it finds with a `desktop` read of the same app: node coverage, names, child
 * order and text content. Used by tests/e2e/corpus_read_test.ts (where any
 * difference fails) and bench/corpus.ts (which reports the figures).
 *
 * @module
 */

import { isIconThemeName, looksLikeGtk4ClassName } from "../../src/platform/linux/convert.ts";
import { type Box, gridOrder } from "../../src/platform/linux/reading_order.ts";

/** AT-SPI's panel role (GtkGrid, GtkTable). */
const PANEL_ROLE = 39;
import type { Element } from "../../src/model/element.ts";
import { roleFromAtspiCode } from "../../src/model/roles.ts";
import type { TestDesktop } from "./desktop.ts";

/** One node as the pyatspi walker reports it. */
export interface RefNode {
  /** Object path. */
  path: string;
  /** Parent's object path ("" for the app). */
  parent: string;
  /** AtspiRole value. */
  role: number;
  /** Accessible name. */
  name: string;
  /** AtspiStateType values. */
  states: number[];
  /** Text content, when read (capped like the reader's). */
  text?: string;
  /** The node manages its descendants. */
  md?: boolean;
  /** Screen box (x, y, width, height), when it has one. */
  ext?: Box;
  /** Its children were not read (more than the walker reads of such a node). */
  skipped?: boolean;
}

/**
 * Walks the desktop's app with pyatspi.
 *
 * @param desktop the test desktop
 * @param pid the app's process id (default: the desktop's app)
 * @returns nodes in pre-order
 */
export async function pyatspiTree(desktop: TestDesktop, pid = desktop.pid): Promise<RefNode[]> {
  const script = new URL("./pyatspi_tree.py", import.meta.url).pathname;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: [script, String(pid)],
    env: desktop.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (out.code !== 0) {
    throw new Error(
      `pyatspi walker failed (${out.code}): ${text}\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as RefNode);
}

/** One of our elements with its object path and its parent's (rows made by the reader skipped). */
interface OurNode {
  path: string;
  parent: string;
  el: Element;
}

/** Our elements that stand for an app object, in pre-order, keyed by object path. */
function ourNodes(root: Element): OurNode[] {
  const out: OurNode[] = [];
  const visit = (el: Element, parent: string) => {
    const path = el.nid ? el.nid.slice(el.nid.indexOf("/")) : "";
    if (path) out.push({ path, parent, el });
    for (const kid of el.c ?? []) visit(kid, path || parent);
  };
  visit(root, "");
  return out;
}

/** What differs between a read and the pyatspi reference. */
export interface Conformance {
  /** Nodes pyatspi found. */
  refNodes: number;
  /** Nodes of ours that stand for an app object. */
  ourNodes: number;
  /** Nodes found by both. */
  common: number;
  /** Found by pyatspi only (path, role, name). */
  missing: string[];
  /** Found by us only, outside containers pyatspi did not enter. */
  extra: string[];
  /** Nodes below containers with MANAGES_DESCENDANTS that pyatspi did not enter. */
  showing: OurNode["el"][];
  /** Names that differ. */
  names: string[];
  /** Parents whose common children come in another order. */
  order: string[];
  /** Texts that differ. */
  texts: string[];
}

const EDIT_ROLES = new Set(["input", "spin"]);

/**
 * Compares a read (the provider's element tree, with nids) with the reference.
 *
 * @param root our tree (the app's root element)
 * @param ref the reference nodes
 * @returns the differences
 */
export function compareWithReference(root: Element, walked: readonly RefNode[]): Conformance {
  const ours = ourNodes(root);
  const ourBy = new Map(ours.map((n) => [n.path, n]));
  const ref = renewedAs(walked, ours, ourBy);
  const refBy = new Map(ref.map((n) => [n.path, n]));
  const skipped = new Set(ref.filter((n) => n.skipped).map((n) => n.path));
  const describe = (n: RefNode) => `${n.path} role=${n.role} "${n.name}"`;
  const out: Conformance = {
    refNodes: ref.length,
    ourNodes: ours.length,
    common: 0,
    missing: [],
    extra: [],
    showing: [],
    names: [],
    order: [],
    texts: [],
  };
  for (const n of ref) {
    const mine = ourBy.get(n.path);
    if (!mine) {
      out.missing.push(describe(n));
      continue;
    }
    out.common++;
    const name = n.name.trim();
    // GTK 4's class-name fallback ("AdwGizmo") is deliberately not read as a label (a button
    // takes the text inside it instead).
    // So is an image named after its theme icon ("edit-find-symbolic").
    const classFallback = looksLikeGtk4ClassName(n.path, name) ||
      isIconThemeName(mine.el.r, name);
    // A combo box's current choice is its value, and a tab list named after its current tab
    // has no label: both are deliberate (the ref must not follow the choice).
    const choice = (mine.el.r === "combo" && mine.el.v?.trim() === name) ||
      (mine.el.r === "tablist" && mine.el.t === undefined &&
        (mine.el.c ?? []).some((k) => k.r === "tab" && k.t === name));
    // GTK 3's default "Menu" on a menu button with a tooltip gives way to the tooltip.
    const menuButton = name === "Menu" && mine.el.r === "toggle" && mine.el.d === undefined;
    if (name && (mine.el.t ?? "") !== name && !classFallback && !choice && !menuButton) {
      out.names.push(`${n.path}: pyatspi "${name}", ours "${mine.el.t ?? ""}"`);
    }
    if (n.text !== undefined) {
      const want = n.text.replaceAll("\uFFFC", "");
      const got = mine.el.v ?? "";
      const echo = !EDIT_ROLES.has(mine.el.r) && want.trim() === (mine.el.t ?? "");
      // Text runs between embedded children are read as text children in place (Firefox).
      // Compared without spaces: a run between two children ("(" before ")") joins either way.
      const words = (x: string) => x.replace(/\s+/g, "");
      const runs = (mine.el.c ?? []).filter((k) => k.r === "txt" && !k.nid).map((k) => k.t ?? "");
      const inPlace = got === "" && runs.length > 0 && words(runs.join(" ")) === words(want);
      // A combo box with no text of its own shows its chosen option (Chromium's <select>),
      // an empty spin its number (Chromium's date parts): both deliberate.
      const shown = want === "" &&
        (mine.el.r === "combo" || (mine.el.r === "spin" && /^-?[\d.]+$/.test(got)));
      if (
        got !== want && !inPlace && !shown && !(echo && got === "") && !(mine.el.sec && got === "")
      ) {
        out.texts.push(`${n.path}: pyatspi ${JSON.stringify(want)}, ours ${JSON.stringify(got)}`);
      }
    }
  }
  for (const n of ours) {
    if (refBy.has(n.path)) continue;
    // Below a container pyatspi did not enter: what the reader showed of it.
    let p: string | undefined = n.parent;
    let under = false;
    while (p) {
      if (skipped.has(p)) {
        under = true;
        break;
      }
      p = ourBy.get(p)?.parent;
    }
    if (under) out.showing.push(n.el);
    else out.extra.push(`${n.path} ${n.el.r} "${n.el.t ?? ""}"`);
  }
  // Child order: the common children of each parent, in each side's order.
  const kidsOf = (list: ReadonlyArray<{ path: string; parent: string }>) => {
    const m = new Map<string, string[]>();
    for (const n of list) {
      if (!ourBy.has(n.path) || !refBy.has(n.path)) continue;
      const k = m.get(n.parent) ?? [];
      k.push(n.path);
      m.set(n.parent, k);
    }
    return m;
  };
  const refKids = kidsOf(ref);
  const ourKids = kidsOf(ours);
  for (const [parent, kids] of refKids) {
    const mine = ourKids.get(parent) ?? [];
    // A GTK grid's children are deliberately read in screen order (see reading_order.ts).
    const grid = refBy.get(parent)?.role === PANEL_ROLE
      ? gridOrder(kids.map((k) => refBy.get(k)?.ext))?.map((i) => kids[i])
      : undefined;
    if (kids.join(" ") !== mine.join(" ") && grid?.join(" ") !== mine.join(" ")) {
      out.order.push(`${parent}: pyatspi [${kids.join(" ")}], ours [${mine.join(" ")}]`);
    }
  }
  return out;
}

/**
 * The reference with each renewed object under the path our read found it at.
 * Qt renews a tree view's cells on every walk (new object paths each time:
 * two pyatspi walks differ too), so such a node is matched by its parent,
 * role and name, in order, when its path is not in our read.
 */
function renewedAs(
  ref: readonly RefNode[],
  ours: readonly OurNode[],
  ourBy: ReadonlyMap<string, OurNode>,
): RefNode[] {
  const refPaths = new Set(ref.map((n) => n.path));
  const unmatched = new Map<string, OurNode[]>();
  for (const n of ours) {
    if (refPaths.has(n.path)) continue;
    const key = `${n.parent}\u0000${n.el.t ?? ""}`;
    unmatched.set(key, [...(unmatched.get(key) ?? []), n]);
  }
  return ref.map((n) => {
    if (ourBy.has(n.path)) return n;
    const queue = unmatched.get(`${n.parent}\u0000${n.name.trim()}`);
    const k = queue?.findIndex((o) => o.el.r === roleFromAtspiCode(n.role)) ?? -1;
    if (k < 0) return n;
    const [mine] = queue!.splice(k, 1);
    return { ...n, path: mine.path };
  });
}

/**
 * Coverage as a percentage of the reference's nodes that we also found.
 *
 * @param c a comparison
 * @returns 0..100
 */
export function coverage(c: Conformance): number {
  return c.refNodes === 0 ? 100 : (100 * c.common) / c.refNodes;
}
