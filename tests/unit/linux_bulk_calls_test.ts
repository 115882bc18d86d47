/**
 * Which toolkits get one Properties.GetAll instead of a Get per property,
 * and the detail fetcher's use of it: fewer calls per object for the app to
 * answer, never a call that crashes an app (Qt and Firefox on GetAll).
 */

import assert from "node:assert/strict";
import { answersGetAll, knownWholeTextAnswer } from "../../src/platform/linux/toolkit.ts";
import { DetailFetcher } from "../../src/platform/linux/dbus/details.ts";
import type { AppCall } from "../../src/platform/linux/dbus/atspi_bus.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";
import type { DBusValue } from "../../src/platform/linux/dbus/value.ts";

Deno.test("bulk calls: GetAll for toolkits seen to answer it, never Qt, Firefox or an unnamed one", () => {
  for (const tk of ["GAIL", "gtk", "GTK", "Chromium", "VCL"]) {
    assert.ok(answersGetAll(tk), tk);
  }
  for (const tk of ["Qt", "Gecko", "", "SomethingNew"]) assert.ok(!answersGetAll(tk), tk);
});

function slider(): AtspiRawNode {
  return {
    bus: ":1.9",
    path: "/slider",
    role: 51,
    name: "Volume",
    description: "",
    states: [0, 0],
    interfaces: ["org.a11y.atspi.Value"],
    children: [],
  };
}

/** A fake app answering the Value calls, recording each member asked. */
function fakeApp(asked: string[]): AppCall {
  const props: Record<string, number | string> = {
    CurrentValue: 6,
    MinimumValue: 0,
    MaximumValue: 10,
    Text: "",
  };
  return ((_path: string, _iface: string, member: string, _sig?: string, body?: DBusValue[]) => {
    asked.push(member);
    if (member === "GetAll") {
      return Promise.resolve([
        Object.entries(props).map(([k, v]) => [k, { signature: "d", value: v }]),
      ]);
    }
    if (member === "Get") {
      return Promise.resolve([{ signature: "d", value: props[String(body?.[1])] }]);
    }
    return Promise.reject(new Error(`unexpected ${member}`));
  }) as unknown as AppCall;
}

Deno.test("details: a value is one Get per property, also where the toolkit answers GetAll", async () => {
  // Chromium aborts on a GetAll of an empty number field's Value (its reply's a{sv} is left
  // unfinished): no toolkit gets one for Value.
  for (const getAll of [true, false]) {
    const asked: string[] = [];
    const el = slider();
    const f = new DetailFetcher(null, fakeApp(asked), false, 64, {
      getAll,
      emptyWholeTextMayLie: false,
    });
    f.add(el, true);
    await f.finish();
    assert.deepEqual(el.value, { current: 6, min: 0, max: 10 });
    // A slider's attributes (its value text) are one more call, whatever the Value calls are.
    assert.deepEqual(asked.filter((m) => m !== "GetAttributes"), ["Get", "Get", "Get", "Get"]);
  }
});

Deno.test("toolkit traits: an empty whole text is checked against the count only where it may lie", () => {
  assert.ok(knownWholeTextAnswer({ name: "Chromium", version: "156.0" }));
  assert.ok(knownWholeTextAnswer({ name: "gtk", version: "3.24.38" }));
  assert.ok(!knownWholeTextAnswer({ name: "GTK", version: "4.8.3" }), 'GTK 4.8 answers "" for -1');
  assert.ok(!knownWholeTextAnswer({ name: "gtk", version: "" }), "a GTK of unknown version");
  assert.ok(!knownWholeTextAnswer({ name: "", version: "" }));
  assert.ok(!knownWholeTextAnswer({ name: "Qt", version: "5.15.8" }));
});
