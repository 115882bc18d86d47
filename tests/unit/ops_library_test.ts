import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { connect, DesktopError } from "../../mod.ts";
import { allOps, nameOn } from "../../src/ops/mod.ts";

const FORM = fileURLToPath(new URL("../fixtures/browser_form.json", import.meta.url));

Deno.test("ops: connect() exposes every operation as a typed method with the MCP names", async () => {
  const desktop = await connect({ from: FORM });
  try {
    assert.deepEqual(
      Object.keys(desktop.ops).sort(),
      allOps().map((op) => nameOn(op, "lib")).sort(),
    );
    const { elements } = await desktop.ops.find({ text: "Delete", roles: "btn", all: true });
    assert.equal(elements.length, 12);
    const found = await desktop.ops.find({ ref: "form/email" });
    assert.equal(found.elements[0].t, "Email");
    // txt plus interactive is the union, as on the CLI and MCP.
    const read = await desktop.ops.read({ roles: "txt", interactive: true, flat: true });
    assert.match(read.text, /\] btn "Submit"/);
    const cut = await desktop.ops.read({ max_elements: 3 });
    assert.ok(cut.truncated! > 0);
    assert.match(cut.text, /more elements not shown/);
    await assert.rejects(
      () => desktop.ops.setValue({ ref: "form/email", value: "x" }),
      (e) => e instanceof DesktopError && e.code === "PLATFORM_NOT_SUPPORTED",
    );
    await assert.rejects(
      // @ts-expect-error: not a parameter of read
      () => desktop.ops.read({ bogus: 1 }),
      (e) => e instanceof DesktopError && e.code === "INVALID_ARGS",
    );
  } finally {
    desktop.close();
  }
});
