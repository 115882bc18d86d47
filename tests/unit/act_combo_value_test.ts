import assert from "node:assert/strict";
import { foldLabels } from "../../src/model/semantics.ts";
import { rawToElement } from "../../src/platform/linux/convert.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";

const VISIBLE = 1 << 30;
const SHOWING = 1 << 25;
const SELECTED = 1 << 23;

function node(role: number, name: string, states: number, children: AtspiRawNode[] = []) {
  return {
    bus: ":1.9",
    path: `/o/${name || role}`,
    role,
    name,
    description: "",
    states: [states, 0] as [number, number],
    interfaces: [],
    children,
  } satisfies AtspiRawNode;
}

Deno.test("linux: a combo box without text shows its chosen option as its value (Firefox <select>)", () => {
  // combo box (11) > menu (33) > menu items (35), the chosen one SELECTED.
  const select = node(11, "Size", VISIBLE | SHOWING, [
    node(33, "", VISIBLE | SHOWING, [
      node(35, "Small", VISIBLE),
      node(35, "Medium", VISIBLE | SHOWING | SELECTED),
      node(35, "Large", VISIBLE),
    ]),
  ]);
  const el = rawToElement(select);
  assert.equal(el.r, "combo");
  assert.equal(el.v, "Medium");
  // A combo named after its chosen option (GTK 3) has it as its value: semantics then takes
  // the name away, so the ref does not follow the choice.
  const gtk = node(11, "Medium", VISIBLE | SHOWING, [
    node(33, "", VISIBLE, [node(35, "Medium", VISIBLE | SELECTED)]),
  ]);
  const chosen = rawToElement(gtk);
  assert.equal(chosen.v, "Medium");
  foldLabels(chosen);
  assert.equal(chosen.t, undefined);
  // Closed, its items are not read: the app's cache names them (choices).
  const closed = { ...node(11, "Windows", VISIBLE | SHOWING, []), choices: ["Unix", "Windows"] };
  assert.equal(rawToElement(closed).v, "Windows");
});
