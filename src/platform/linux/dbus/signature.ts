/**
 * D-Bus type signatures: parsing a signature string into a type tree, and the
 * alignment of each type in the wire format.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";

/** Codes of the basic (non-container) D-Bus types. */
export type BasicCode =
  | "y"
  | "b"
  | "n"
  | "q"
  | "i"
  | "u"
  | "x"
  | "t"
  | "d"
  | "h"
  | "s"
  | "o"
  | "g"
  | "v";

/** One parsed D-Bus type. */
export type DType =
  | { readonly code: BasicCode }
  | { readonly code: "a"; readonly elem: DType }
  | { readonly code: "("; readonly fields: readonly DType[] }
  | { readonly code: "{"; readonly key: DType; readonly value: DType };

const ALIGN: Record<string, number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  h: 4,
  s: 4,
  o: 4,
  g: 1,
  v: 1,
  a: 4,
  "(": 8,
  "{": 8,
};

const BASIC = new Set("ybnqiuxtdhsog");

/**
 * The wire alignment of a type, in bytes.
 *
 * @param t a parsed type
 * @returns 1, 2, 4 or 8
 */
export function alignOf(t: DType): number {
  return ALIGN[t.code];
}

function bad(sig: string, why: string): DesktopError {
  return new DesktopError("INTERNAL", `invalid D-Bus signature "${sig}": ${why}`, {
    suggestion: "The app sent a malformed message; read it again or restart the app",
  });
}

const cache = new Map<string, DType[]>();

/**
 * Parses a signature (a sequence of complete types) into type trees. Results
 * are memoised because the same few signatures are parsed thousands of times.
 *
 * @param sig signature such as `a(so)` or `ia{sv}`
 * @returns one type per complete type in the signature
 * @throws DesktopError INTERNAL for a malformed signature
 * @example
 * ```ts
 * import { parseSignature } from "./signature.ts";
 * parseSignature("a{sv}")[0].code; // "a"
 * ```
 */
export function parseSignature(sig: string): DType[] {
  const hit = cache.get(sig);
  if (hit) return hit;
  if (sig.length > 255) throw bad(sig, "longer than 255 characters");
  const out: DType[] = [];
  let pos = 0;
  // Nesting depth limits from the specification: 32 arrays, 32 structs.
  const one = (arrays: number, structs: number): DType => {
    const c = sig[pos++];
    if (c === undefined) throw bad(sig, "ends inside a container");
    if (BASIC.has(c) || c === "v") return { code: c as BasicCode };
    if (c === "a") {
      if (arrays >= 32) throw bad(sig, "arrays nested too deeply");
      if (sig[pos] === "{") {
        pos++;
        const key = one(arrays + 1, structs);
        if (!BASIC.has(key.code)) throw bad(sig, "dict key must be a basic type");
        const value = one(arrays + 1, structs);
        if (sig[pos++] !== "}") throw bad(sig, "dict entry must have exactly two types");
        return { code: "a", elem: { code: "{", key, value } };
      }
      return { code: "a", elem: one(arrays + 1, structs) };
    }
    if (c === "(") {
      if (structs >= 32) throw bad(sig, "structs nested too deeply");
      const fields: DType[] = [];
      while (sig[pos] !== ")") {
        if (pos >= sig.length) throw bad(sig, "unclosed struct");
        fields.push(one(arrays, structs + 1));
      }
      pos++;
      if (fields.length === 0) throw bad(sig, "empty struct");
      return { code: "(", fields };
    }
    throw bad(sig, `unexpected "${c}" at ${pos - 1}`);
  };
  while (pos < sig.length) out.push(one(0, 0));
  cache.set(sig, out);
  return out;
}

/**
 * Writes a type tree back as a signature string.
 *
 * @param t a parsed type
 * @returns its signature
 */
export function signatureOf(t: DType): string {
  switch (t.code) {
    case "a":
      return "a" + signatureOf(t.elem);
    case "(":
      return "(" + t.fields.map(signatureOf).join("") + ")";
    case "{":
      return "{" + signatureOf(t.key) + signatureOf(t.value) + "}";
    default:
      return t.code;
  }
}
