import assert from "node:assert/strict";
import { createDesktop } from "../../src/desktop.ts";
import { createMacosProvider } from "../../src/platform/macos/mod.ts";
import { assertClean, rejectsWith, SAFARI, shim } from "./macos_shim_helpers.ts";

async function withDesktop(fn: (d: ReturnType<typeof createDesktop>) => Promise<void>) {
  shim.reset("browser");
  const d = createDesktop(await createMacosProvider({ timeoutMs: 4000 }));
  try {
    await fn(d);
  } finally {
    d.close();
  }
  assertClean();
}

Deno.test("macos session: act by ref through the library session", async () => {
  await withDesktop(async (d) => {
    const { view } = await d.read({ app: "Safari" });
    assert.ok(view.root);
    await d.act({ app: "Safari" }, { ref: "form/email" }, { kind: "type", text: "me@x.io" });
    await d.act({ app: "Safari" }, { ref: "form/submit" }, { kind: "click" });
    assert.equal((await d.resolve({ app: "Safari" }, { ref: "form/email" })).v, "me@x.io");
    assert.equal(shim.attr(SAFARI, "status", "AXValue"), "Submitted");
    const row = await d.resolve({ app: "Safari" }, { ref: "invoices/invoice-2024-19/delete" });
    assert.equal(row.r, "btn");
  });
});

Deno.test("macos session: deleting a row keeps the other rows' refs", async () => {
  await withDesktop(async (d) => {
    await d.act({ app: "Safari" }, { ref: "invoices/invoice-2024-17/delete" }, { kind: "click" });
    const other = await d.resolve({ app: "Safari" }, { ref: "invoices/invoice-2024-19/delete" });
    assert.equal(other.t, "Delete");
    await rejectsWith(
      d.resolve({ app: "Safari" }, { ref: "invoices/invoice-2024-17/delete" }),
      "ELEMENT_NOT_FOUND",
    );
  });
});

Deno.test("macos session: wait sees text the app shows later", async () => {
  await withDesktop(async (d) => {
    const timer = setTimeout(() => shim.setAttr(SAFARI, "status", "AXValue", "Payment done"), 150);
    try {
      const el = await d.wait({ app: "Safari" }, { text: "Payment done" }, 3000);
      assert.equal(el?.t, "Payment done");
    } finally {
      clearTimeout(timer);
    }
  });
});
