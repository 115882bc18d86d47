/**
 * Small helpers for e2e assertions on element trees.
 *
 * @module
 */

import type { Element } from "../../src/model/element.ts";

/** Every element of a tree in document order. */
export function allElements(root: Element): Element[] {
  const out: Element[] = [];
  const visit = (el: Element) => {
    out.push(el);
    el.c?.forEach(visit);
  };
  visit(root);
  return out;
}

/** The element with this exact ref, or undefined. */
export function byRef(root: Element, ref: string): Element | undefined {
  return allElements(root).find((e) => e.ref === ref);
}

/**
 * Retries `fn` until it returns a value other than undefined (the UI applies
 * changes asynchronously), or throws with `what` after `ms`.
 */
export async function eventually<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  ms = 5000,
): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
}

/**
 * The text of a file once an app has written it (a save's witness), waiting up to `ms`.
 *
 * @param path the file
 * @param ms how long to wait
 * @returns its text
 */
export function savedFile(path: string, ms = 10000): Promise<string> {
  return eventually(`${path} written`, () => Deno.readTextFile(path).catch(() => undefined), ms);
}
