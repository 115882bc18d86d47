/**
 * What an action's report says of its element afterwards: its checked,
 * expanded and selected state and its value, in the words `read` uses, so
 * the agent sees the result of a click, a typed text or a set value without
 * reading again. Pure.
 *
 * @module
 */

import type { Element } from "../model/element.ts";

/** The longest value an ok line quotes whole (longer ones are cut, saying their length). */
const MAX_STATE_VALUE = 120;

/**
 * The element's state and value as words: `checked` or `unchecked` (a
 * toggle), `expanded` or `collapsed`, `selected`, `focused`, `val="..."`
 * (`val=***` for a secret), `valtext="..."`. Empty when it shows none.
 *
 * @param el the element as read after the action
 * @returns the words, in that order
 * @example
 * ```ts
 * import { stateWords } from "./state.ts";
 * console.log(stateWords({ i: 1, r: "chk", t: "All condiments", chk: true })); // ["checked"]
 * console.log(stateWords({ i: 2, r: "input", t: "City:", v: "Lyon" })); // ['val="Lyon"']
 * ```
 */
export function stateWords(el: Element): string[] {
  const out: string[] = [];
  if (el.chk === true) out.push("checked");
  else if (el.chk === false) out.push("unchecked");
  else if (el.chk === "mixed") out.push("mixed");
  if (el.exp === true) out.push("expanded");
  else if (el.exp === false) out.push("collapsed");
  if (el.s) out.push("selected");
  if (el.f) out.push("focused");
  if (el.sec) {
    if (el.v !== undefined && el.v !== "") out.push("val=***");
  } else if (el.v !== undefined && (TEXT_VALUED.has(el.r) || String(el.v) !== "")) {
    out.push(`val=${quoted(String(el.v))}`);
  }
  if (el.vt && !el.sec) out.push(`valtext=${quoted(el.vt)}`);
  return out;
}

/** Roles whose empty value is news (a cleared field says `val=""`). */
const TEXT_VALUED: ReadonlySet<string> = new Set(["input", "combo", "spin", "slider"]);

/** A value quoted as JSON, cut past {@link MAX_STATE_VALUE} characters. */
function quoted(v: string): string {
  const chars = [...v];
  if (chars.length <= MAX_STATE_VALUE) return JSON.stringify(v);
  return `${
    JSON.stringify(chars.slice(0, MAX_STATE_VALUE).join("") + "…")
  } (${chars.length} chars)`;
}
