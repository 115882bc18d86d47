import assert from "node:assert/strict";
import { formatApps } from "../../src/ops/render.ts";

Deno.test("list: an app off the accessibility bus says so, with what turns it on", () => {
  const text = formatApps([
    { name: "gedit", pid: 10, windows: 1, focused: true },
    { name: "stopped", pid: 11, unresponsive: true },
    {
      name: "hexchat",
      pid: 12,
      offBus: {
        toolkit: "GTK 2",
        remedy: "GTK 2 loads its accessibility bridge only with GTK_MODULES=gail:atk-bridge",
      },
    },
  ]);
  assert.deepEqual(text.split("\n"), [
    '"gedit" pid=10 windows=1 focused',
    '"stopped" pid=11 unresponsive',
    '"hexchat" pid=12 not on the accessibility bus (GTK 2): GTK 2 loads its accessibility ' +
    "bridge only with GTK_MODULES=gail:atk-bridge",
  ]);
});
