/**
 * Checking JSON text before it is parsed: its syntax and how deeply it nests,
 * in one pass with no recursion. A problem is described by its place (line,
 * column, offset) and its kind, never by the text at that place: the file
 * may not be the one the user meant (a symlink to a private file), and an
 * error message must not show what it holds.
 *
 * @module
 */

/** A problem found in JSON text. */
export interface JsonProblem {
  /** What is wrong, in words that quote nothing from the text. */
  kind: string;
  /** True when the text ends before the JSON does (a truncated file). */
  truncated: boolean;
  /** Offset of the problem in the text (UTF-16 code units from the start). */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column (code units from the line's start). */
  column: number;
}

const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d;
const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const LBRACE = 0x7b, RBRACE = 0x7d, LBRACKET = 0x5b, RBRACKET = 0x5d;
const MINUS = 0x2d, PLUS = 0x2b, DOT = 0x2e, ZERO = 0x30, NINE = 0x39;

/** Where an offset is, as line and column. */
function placeOf(text: string, offset: number): { line: number; column: number } {
  let line = 1, start = 0;
  for (let k = text.indexOf("\n"); k !== -1 && k < offset; k = text.indexOf("\n", k + 1)) {
    line++;
    start = k + 1;
  }
  return { line, column: offset - start + 1 };
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/**
 * Checks that `text` is one JSON value nested at most `maxDepth` arrays and
 * objects deep. Runs in one pass over the text with a constant amount of
 * memory besides the nesting stack (itself bounded by `maxDepth`).
 *
 * @param text the text
 * @param maxDepth deepest nesting of arrays and objects accepted
 * @returns null when the text is such a value, else the first problem
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkJson } from "./json_check.ts";
 * assert.equal(checkJson('{"a": [1, 2]}', 8), null);
 * const p = checkJson('{\n  "a": nope}', 8)!;
 * assert.deepEqual([p.line, p.column, p.kind], [2, 8, "unexpected character where a value was expected"]);
 * assert.equal(checkJson("[[[1]]]", 2)!.kind, "nested deeper than 2 levels");
 * assert.equal(checkJson('{"a": 1', 8)!.truncated, true);
 * ```
 */
export function checkJson(text: string, maxDepth: number): JsonProblem | null {
  const n = text.length;
  // The open containers: true for an object, false for an array.
  const stack: boolean[] = [];
  let i = 0;
  const problem = (kind: string, at = i, truncated = false): JsonProblem => ({
    kind,
    truncated,
    offset: at,
    ...placeOf(text, at),
  });
  const end = (inside: string) => problem(`the text ends inside ${inside}`, n, true);
  const skipSpace = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== SPACE && c !== LF && c !== CR && c !== TAB) break;
    }
  };
  /** Skips a string starting at i (a quote); returns a problem or null. */
  const skipString = (): JsonProblem | null => {
    i++;
    for (;;) {
      if (i >= n) return end("a string");
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        return null;
      }
      if (c === BACKSLASH) {
        if (i + 1 >= n) return end("a string");
        const e = text.charCodeAt(i + 1);
        if (e === 0x75 /* u */) {
          for (let k = 2; k < 6; k++) {
            if (i + k >= n) return end("a string");
            if (!isHex(text.charCodeAt(i + k))) {
              return problem("bad \\u escape in a string", i);
            }
          }
          i += 6;
          continue;
        }
        // " \ / b f n r t
        if (![QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(e)) {
          return problem("bad escape in a string", i);
        }
        i += 2;
        continue;
      }
      if (c < SPACE) return problem("control character in a string", i);
      i++;
    }
  };
  const skipNumber = (): JsonProblem | null => {
    if (text.charCodeAt(i) === MINUS) i++;
    if (i >= n) return end("a number");
    const first = text.charCodeAt(i);
    if (first === ZERO) i++;
    else if (isDigit(first)) { while (i < n && isDigit(text.charCodeAt(i))) i++; }
    else return problem("bad number");
    if (text.charCodeAt(i) === DOT) {
      i++;
      if (i >= n) return end("a number");
      if (!isDigit(text.charCodeAt(i))) return problem("bad number: no digit after the point");
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      if (i >= n) return end("a number");
      if (!isDigit(text.charCodeAt(i))) return problem("bad number: no digit in the exponent");
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    return null;
  };
  const skipWord = (word: string): boolean => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return true;
    }
    return false;
  };

  // "value": a value is due; "key": a key is due; "after": a value just ended.
  let mode: "value" | "key" | "after" = "value";
  for (;;) {
    skipSpace();
    if (mode === "after") {
      if (stack.length === 0) {
        return i < n ? problem("more text after the JSON value") : null;
      }
      if (i >= n) return end(stack.at(-1) ? "an object" : "an array");
      const c = text.charCodeAt(i);
      const inObject = stack.at(-1)!;
      if (c === COMMA) {
        i++;
        mode = inObject ? "key" : "value";
      } else if (c === (inObject ? RBRACE : RBRACKET)) {
        i++;
        stack.pop();
      } else {
        return problem(inObject ? "expected ',' or '}'" : "expected ',' or ']'");
      }
      continue;
    }
    if (mode === "key") {
      if (i >= n) return end("an object");
      if (text.charCodeAt(i) !== QUOTE) return problem("expected a quoted key");
      const bad = skipString();
      if (bad) return bad;
      skipSpace();
      if (i >= n) return end("an object");
      if (text.charCodeAt(i) !== COLON) return problem("expected ':' after a key");
      i++;
      mode = "value";
      continue;
    }
    if (i >= n) {
      return stack.length ? end(stack.at(-1) ? "an object" : "an array") : problem("no JSON value");
    }
    const c = text.charCodeAt(i);
    if (c === LBRACE || c === LBRACKET) {
      if (stack.length >= maxDepth) return problem(`nested deeper than ${maxDepth} levels`);
      i++;
      skipSpace();
      if (text.charCodeAt(i) === (c === LBRACE ? RBRACE : RBRACKET)) {
        i++;
        mode = "after";
      } else {
        stack.push(c === LBRACE);
        mode = c === LBRACE ? "key" : "value";
      }
      continue;
    }
    let bad: JsonProblem | null = null;
    if (c === QUOTE) bad = skipString();
    else if (c === MINUS || isDigit(c)) bad = skipNumber();
    else if (!skipWord("true") && !skipWord("false") && !skipWord("null")) {
      return problem("unexpected character where a value was expected");
    }
    if (bad) return bad;
    mode = "after";
  }
}

/**
 * A problem in words: its kind and its place, quoting nothing of the text.
 *
 * @param p the problem
 * @returns e.g. "not JSON: expected ',' or '}' at line 3, column 7 (offset 41)"
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkJson, describeJsonProblem } from "./json_check.ts";
 * assert.equal(
 *   describeJsonProblem(checkJson("root:x:0", 8)!),
 *   "not JSON: unexpected character where a value was expected at line 1, column 1 (offset 0)",
 * );
 * ```
 */
export function describeJsonProblem(p: JsonProblem): string {
  const where = `at line ${p.line}, column ${p.column} (offset ${p.offset})`;
  if (p.truncated) return `the JSON ends too early (the file looks truncated): ${p.kind} ${where}`;
  if (p.kind.startsWith("nested deeper")) return `the JSON is ${p.kind} ${where}`;
  return `not JSON: ${p.kind} ${where}`;
}
