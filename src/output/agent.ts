/**
 * The `agent` text format: one line per element, as few tokens as possible,
 * every interactive element addressable and every visible text kept.
 *
 * A line reads `[id|ref] role "label" val="..." (x,y,w,h) flags`:
 * - the role word is left out for static text (`[5|welcome] "Welcome"`);
 * - flags are `focused disabled checked|unchecked|mixed expanded|collapsed
 *   selected required secure readonly`, then `lv=N`, `range=MIN..MAX`,
 *   `desc="..."`, `ph="..."` and `actions=...` when they add something;
 * - anonymous containers (an unlabeled group, scroll area, web area, a text
 *   with no text of its own...) that carry nothing are not printed: their
 *   children take their place;
 * - a leaf text or image that only repeats its parent's label is not printed
 *   (a button's caption, a link's text);
 * - a row whose cells are all simple is printed on one line:
 *   `[7|list/invoice-17] row: "Invoice 17" | "$30" | [9|list/invoice-17/delete] btn "Delete"`;
 * - labels and values are escaped (`\"`, `\n`...) and capped with `…` and
 *   the full length.
 *
 * A secure element's value is never printed, even if one was set by mistake
 * (`val=***` only says that it has one).
 *
 * @module
 */

import type { Element, FlatElement } from "../model/element.ts";

/** Options of the agent format. */
export interface AgentOptions {
  /** Print bounds `(x,y,w,h)` (default true). */
  bounds?: boolean;
  /** Longest label or value printed, in characters (default 120). */
  maxText?: number;
  /** Indent children (tree); false prints a flat list (default true). */
  tree?: boolean;
}

/** Longest one-line row, in characters; longer rows are printed as a tree. */
const MAX_ROW_LINE = 240;

/** Containers that are not printed when they carry nothing. */
const ANONYMOUS_CONTAINERS: ReadonlySet<string> = new Set([
  "group",
  "other",
  "scroll",
  "web",
  "tabpanel",
  "separator",
  "img",
]);

/** Roles whose text a one-line row shows as a bare quoted string. */
const INLINE_TEXT_ROLES: ReadonlySet<string> = new Set(["cell", "txt", "colheader", "heading"]);

/** Action names (squashed) that every element of their kind has: printing them says nothing. */
const UNINFORMATIVE_ACTIONS: ReadonlySet<string> = new Set([
  "click",
  "press",
  "activate",
  "default",
  "dodefault",
  "jump",
  "toggle",
  "check",
  "uncheck",
  "select",
  "switch",
  "open",
  "showmenu",
  "showcontextmenu",
  "contextmenu",
  "menu",
  "raise",
  "confirm",
  "cancel",
  "pick",
  "focus",
  "increment",
  "decrement",
]);

/**
 * Prefixes of actions implied by the role or a printed state: scrolling
 * (`scrollUp`, `scrollToVisible`...), expanding and collapsing (the
 * expanded/collapsed flag says it), and activation described in words.
 */
const UNINFORMATIVE_PREFIXES: readonly string[] = [
  "scroll",
  "expand",
  "collapse",
  "activates",
];

/** Squashes an action name: `AXShowMenu`, `show menu`, `showMenu` agree. */
function squashAction(name: string): string {
  return name.replace(/^AX/, "").toLowerCase().replace(/[^a-z]/g, "");
}

/**
 * The actions worth printing: those not implied by the element's role or state.
 *
 * @param el the element
 * @returns informative action names, in the element's order
 */
export function informativeActions(el: Pick<Element, "a">): string[] {
  return (el.a ?? []).filter((a) => {
    const s = squashAction(a);
    return s !== "" && !UNINFORMATIVE_ACTIONS.has(s) &&
      !UNINFORMATIVE_PREFIXES.some((p) => s.startsWith(p));
  });
}

/**
 * Escapes text for a double-quoted agent string and caps its length.
 *
 * @param text raw text
 * @param max longest text kept, in code points
 * @returns `"escaped"`, or `"head…"(N chars)` when cut
 * @example
 * ```ts
 * import { quote } from "./agent.ts";
 * console.log(quote('Say "hi"\nnow', 120)); // "Say \"hi\"\nnow" (escaped)
 * ```
 */
export function quote(text: string, max: number): string {
  // UTF-16 length bounds the code point count: short text needs no splitting.
  if (text.length <= max) return `"${escape(text)}"`;
  const chars = Array.from(text);
  if (chars.length <= max) return `"${escape(text)}"`;
  return `"${escape(chars.slice(0, Math.max(1, max - 1)).join(""))}…"(${chars.length} chars)`;
}

/** JSON-style escaping of backslash, quote and control characters. */
function escape(s: string): string {
  return s.replace(/[\\"\p{Cc}\u2028\u2029]/gu, (ch) => {
    switch (ch) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
    }
  });
}

/** Whether an element has any state worth a flag. */
function hasState(el: Element | FlatElement): boolean {
  return !!(el.f || el.e === false || el.s || el.chk !== undefined || el.exp !== undefined ||
    el.req || el.sec || el.ro);
}

/** Folded label for comparisons. */
function fold(s: string | undefined): string {
  return (s ?? "").trim().toLowerCase();
}

/** The text a line shows in the label position: label, else (for text) the value. */
function labelOf(el: Element | FlatElement): string {
  const t = el.t?.trim();
  if (t) return t;
  if (el.r === "txt" && el.v && !el.sec) return el.v.trim();
  return "";
}

/**
 * Whether an element carries nothing and is not printed (its children are).
 *
 * @param el the element
 * @returns true for unlabeled, stateless, valueless containers
 */
export function isAnonymous(el: Element): boolean {
  // A text with no text of its own (a web <label> wrapping text, an empty run) carries nothing.
  const container = ANONYMOUS_CONTAINERS.has(el.r) || el.r === "txt";
  return container && !el.t?.trim() && !el.d?.trim() && !el.v && !el.ph && !hasState(el) &&
    informativeActions(el).length === 0;
}

/** Whether a leaf only repeats the label of the element it belongs to. */
function isEcho(el: Element, ownerLabel: string): boolean {
  if (el.c?.length || !ownerLabel) return false;
  if (!["txt", "img", "other", "heading"].includes(el.r)) return false;
  if (hasState(el) || informativeActions(el).length) return false;
  if (el.v && fold(el.v) !== fold(ownerLabel)) return false;
  const label = labelOf(el);
  return label !== "" && fold(label) === fold(ownerLabel);
}

/**
 * One element's line, without indentation or children.
 *
 * @param el the element (children are ignored)
 * @param opts bounds and text cap
 * @returns e.g. `[42|toolbar/search] input "Search" (200,50,800,30) focused`
 * @example
 * ```ts
 * import { elementLine } from "./agent.ts";
 * console.log(elementLine({ i: 42, ref: "toolbar/search", r: "input", t: "Search", b: [200, 50, 800, 30] }));
 * // [42|toolbar/search] input "Search" (200,50,800,30)
 * ```
 */
export function elementLine(el: Element | FlatElement, opts: AgentOptions = {}): string {
  const max = opts.maxText ?? 120;
  // Id 0: not in the last read, so no id that `--id` would accept: print "-".
  const parts: string[] = [`[${el.i || "-"}|${el.ref ?? ""}]`];
  if (el.r !== "txt") parts.push(el.r);
  const label = labelOf(el);
  if (label) parts.push(quote(label, max));
  else if (el.r === "txt") parts.push('""');
  if (el.v) {
    if (el.sec) parts.push("val=***");
    else if (fold(el.v) !== fold(label)) parts.push(`val=${quote(el.v, max)}`);
  }
  if ((opts.bounds ?? true) && el.b) parts.push(`(${el.b.join(",")})`);
  parts.push(...flags(el, max));
  return parts.join(" ");
}

/** The flags after the bounds. */
function flags(el: Element | FlatElement, max: number): string[] {
  const out: string[] = [];
  if (el.f) out.push("focused");
  if (el.e === false) out.push("disabled");
  if (el.chk === true) out.push("checked");
  else if (el.chk === false) out.push("unchecked");
  else if (el.chk === "mixed") out.push("mixed");
  if (el.exp === true) out.push("expanded");
  else if (el.exp === false) out.push("collapsed");
  if (el.s) out.push("selected");
  if (el.req) out.push("required");
  if (el.sec) out.push("secure");
  if (el.ro) out.push("readonly");
  if (el.lv !== undefined) out.push(`lv=${el.lv}`);
  if (el.min !== undefined && el.max !== undefined) out.push(`range=${el.min}..${el.max}`);
  const d = el.d?.trim();
  if (d && fold(d) !== fold(el.t)) out.push(`desc=${quote(d, max)}`);
  const ph = el.ph?.trim();
  if (ph && fold(ph) !== fold(el.t)) out.push(`ph=${quote(ph, max)}`);
  const acts = informativeActions(el);
  if (acts.length) out.push(`actions=${acts.join(",")}`);
  return out;
}

/** The children worth showing inside `el`: anonymous wrappers opened, echoes dropped. */
function shownChildren(el: Element, ownerLabel: string): Element[] {
  const out: Element[] = [];
  const stack = [...(el.c ?? [])].reverse();
  while (stack.length) {
    const kid = stack.pop()!;
    if (isAnonymous(kid)) {
      const grand = kid.c ?? [];
      for (let k = grand.length - 1; k >= 0; k--) stack.push(grand[k]);
      continue;
    }
    if (isEcho(kid, ownerLabel)) continue;
    out.push(kid);
  }
  return out;
}

/** One cell of a one-line row, or null when the child is not simple enough. */
function inlinePart(kid: Element, opts: AgentOptions): string | null {
  const max = opts.maxText ?? 120;
  const label = labelOf(kid);
  const inner = shownChildren(kid, label);
  const plain = INLINE_TEXT_ROLES.has(kid.r) && !hasState(kid) &&
    informativeActions(kid).length === 0 && !kid.d && (!kid.v || fold(kid.v) === fold(label));
  if (plain && inner.length === 0) return quote(label, max);
  // An unlabeled cell that only wraps one simple element shows that element.
  if (kid.r === "cell" && !label && !hasState(kid) && inner.length === 1) {
    return inlinePart(inner[0], opts);
  }
  if (inner.length === 0) return elementLine(kid, opts);
  return null;
}

/** A row on one line, or null when it does not fit or is not simple. */
function inlineRow(row: Element, opts: AgentOptions): string | null {
  if (row.r !== "row") return null;
  const kids = shownChildren(row, labelOf(row));
  if (kids.length === 0) return null;
  const parts: string[] = [];
  for (const kid of kids) {
    const part = inlinePart(kid, opts);
    if (part === null) return null;
    parts.push(part);
  }
  const line = `${elementLine(row, opts)}: ${parts.join(" | ")}`;
  return line.length <= MAX_ROW_LINE ? line : null;
}

/**
 * Renders a tree in the agent format.
 *
 * @param root the tree (ids and refs assigned)
 * @param opts bounds, text cap, tree or flat
 * @returns the text, one element per line, ending with a newline
 * @example
 * ```ts
 * import { renderAgent } from "./agent.ts";
 * const text = renderAgent({ i: 1, ref: "app", r: "app", t: "App", c: [
 *   { i: 2, ref: "ok", r: "btn", t: "OK", c: [{ i: 3, ref: "ok/txt", r: "txt", t: "OK" }] },
 * ] });
 * console.log(text); // [1|app] app "App"\n  [2|ok] btn "OK"\n
 * ```
 */
export function renderAgent(root: Element, opts: AgentOptions = {}): string {
  const tree = opts.tree ?? true;
  const lines: string[] = [];
  const stack: Array<{ el: Element; depth: number }> = [{ el: root, depth: 0 }];
  while (stack.length) {
    const { el, depth } = stack.pop()!;
    const indent = tree ? "  ".repeat(depth) : "";
    const row = inlineRow(el, opts);
    if (row !== null) {
      lines.push(indent + row);
      continue;
    }
    lines.push(indent + elementLine(el, opts));
    const kids = shownChildren(el, labelOf(el));
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ el: kids[k], depth: depth + 1 });
  }
  return lines.length ? lines.join("\n") + "\n" : "";
}
