import assert from "node:assert/strict";
import YAML from "yaml";
import { toYaml } from "../../src/output/yaml.ts";
import { rng } from "../harness/rng.ts";

/** Strings that YAML likes to misread: keywords, numbers, indicators, quotes, Unicode, blanks. */
const TRICKY = [
  "Email",
  "form/email",
  "true",
  "No",
  "null",
  "~",
  "123",
  "1e5",
  "0x1F",
  "-",
  "- item",
  "a: b",
  "x #y",
  "#top",
  "[1]",
  "{a}",
  "'single'",
  '"double"',
  "back\\slash",
  "line\nbreak",
  "tab\there",
  " lead",
  "trail ",
  "",
  "€280.00",
  "東京 Ñandú",
  "@home",
  "*star",
  "&anchor",
  "!tag",
  "%pct",
  "|pipe",
  ">fold",
  "?q",
  "`tick`",
  "2026-11-22T08:00:00.000Z",
  "\u2028sep",
];

function value(r: () => number, depth: number): unknown {
  const pick = r();
  if (depth > 3 || pick < 0.45) {
    const k = r();
    if (k < 0.5) return TRICKY[Math.floor(r() * TRICKY.length)];
    if (k < 0.7) return Math.floor(r() * 2000) - 1000;
    if (k < 0.8) return r() < 0.5;
    if (k < 0.85) return null;
    return Math.round(r() * 1e4) / 100;
  }
  if (pick < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  const out: Record<string, unknown> = {};
  for (let k = Math.floor(r() * 5); k > 0; k--) {
    out[TRICKY[Math.floor(r() * TRICKY.length)] || "k"] = value(r, depth + 1);
  }
  return out;
}

Deno.test("toYaml: 500 generated documents read back equal with a YAML parser", () => {
  for (let seed = 1; seed <= 500; seed++) {
    const doc = { root: value(rng(seed), 0), list: [value(rng(seed * 7), 1)] };
    const text = toYaml(doc);
    assert.deepEqual(YAML.parse(text), doc, `seed ${seed}:\n${text}`);
  }
});

Deno.test("toYaml: element trees are compact: plain refs, bounds in flow style", () => {
  const text = toYaml({
    root: { i: 1, ref: "form/email", r: "input", t: "Email", b: [160, 210, 320, 28], c: [] },
  });
  assert.equal(
    text,
    "root:\n  i: 1\n  ref: form/email\n  r: input\n  t: Email\n  b: [160, 210, 320, 28]\n  c: []\n",
  );
});
