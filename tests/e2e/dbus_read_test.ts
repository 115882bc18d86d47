import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { AtspiBus, type BusApp } from "../../src/platform/linux/dbus/atspi_bus.ts";
import type { AtspiRawNode } from "../../src/platform/linux/raw.ts";
import { DesktopError } from "../../src/errors.ts";

const FORM = `${REPO_ROOT}tests/fixtures/web/form.html`;

function all(n: AtspiRawNode, out: AtspiRawNode[] = []): AtspiRawNode[] {
  out.push(n);
  for (const c of n.children) all(c, out);
  return out;
}

/** Points this process's D-Bus environment at the test desktop; returns a restore function. */
function useDesktopEnv(d: TestDesktop): () => void {
  const saved = new Map<string, string | undefined>();
  for (const [k, v] of Object.entries(d.env)) {
    saved.set(k, Deno.env.get(k));
    Deno.env.set(k, v);
  }
  return () => {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  };
}

async function findApp(bus: AtspiBus, d: TestDesktop): Promise<BusApp> {
  for (let i = 0; i < 100; i++) {
    const app = (await bus.listApps()).find((a) => a.name === d.appName);
    if (app) return app;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${d.appName} not on the bus`);
}

Deno.test({
  name: "dbus read: gtk3-widget-factory is read whole, with bounds and actions",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using d = await startDesktop({ app: "gtk3-widget-factory" });
    const restore = useDesktopEnv(d);
    const bus = await AtspiBus.connect(5000);
    try {
      const app = await findApp(bus, d);

      await t.step("listApps names the app with its pid", () => {
        assert.equal(app.root, "/org/a11y/atspi/accessible/root");
        assert.ok(app.bus.startsWith(":"));
        assert.ok(app.pid > 0);
      });

      const root = await bus.readTree(app.bus, app.root, {
        bounds: true,
        deadline: Date.now() + 10000,
      });
      const nodes = all(root);

      await t.step("the tree starts at the application and reaches its widgets", () => {
        assert.equal(root.role, 75); // application
        assert.equal(root.name, "gtk3-widget-factory");
        assert.equal(root.children[0].role, 23); // frame
        assert.ok(nodes.length > 100, `only ${nodes.length} nodes`);
        // Every node is one of the app's objects, or a row the reader made to
        // group a tree view's cells (no object behind it: empty path).
        assert.ok(
          nodes.every((n) =>
            n.bus === app.bus &&
            (n.path.startsWith("/org/a11y") || (n.path === "" && n.role === 90))
          ),
        );
      });

      await t.step("components have screen extents and buttons name their actions", () => {
        const frame = root.children[0];
        assert.ok(frame.extents && frame.extents[2] > 100 && frame.extents[3] > 100);
        const buttons = nodes.filter((n) => n.role === 43 && n.actions);
        assert.ok(buttons.length > 0);
        assert.ok(buttons.some((b) => b.actions!.includes("click")));
      });

      await t.step("table rows, which stay out of the app's cache, are read", () => {
        const tables = nodes.filter((n) => n.role === 55 || n.role === 65);
        assert.ok(tables.some((tb) => tb.children.length > 0));
      });

      await t.step("the per-object walk reads the same tree as the bulk cache", async () => {
        const walked = await bus.readTree(app.bus, app.root, {
          bounds: true,
          bulk: false,
          deadline: Date.now() + 10000,
        });
        assert.equal(bus.lastProfile?.bulk, false);
        const shape = (n: AtspiRawNode) => `${n.path} ${n.role} ${n.name} ${n.actions ?? "-"}`;
        assert.deepEqual(all(walked).map(shape), nodes.map(shape));
      });

      await t.step("depth limits the levels read", async () => {
        const shallow = await bus.readTree(app.bus, app.root, {
          depth: 1,
          bounds: false,
          deadline: Date.now() + 5000,
        });
        assert.ok(shallow.children.length > 0);
        assert.ok(shallow.children.every((c) => c.children.length === 0));
        assert.equal(shallow.children[0].extents, undefined);
      });

      await t.step("a stopped app fails with APP_UNRESPONSIVE within the deadline", async () => {
        d.signalApp("SIGSTOP");
        try {
          await assert.rejects(
            bus.readTree(app.bus, app.root, { bounds: true, deadline: Date.now() + 500 }),
            (e) => e instanceof DesktopError && e.code === "APP_UNRESPONSIVE",
          );
        } finally {
          d.signalApp("SIGCONT");
        }
      });

      await t.step("a missing root object is an error with a code", async () => {
        await assert.rejects(
          bus.readTree(app.bus, "/org/a11y/atspi/accessible/does_not_exist", {
            bounds: false,
            deadline: Date.now() + 3000,
          }),
          (e) => e instanceof DesktopError && typeof e.code === "string",
        );
      });
    } finally {
      bus.close();
      restore();
    }
  },
});

Deno.test({
  name: "dbus read: Chromium's page comes from the bulk cache, password text stays unread",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "chromium", url: FORM });
    const restore = useDesktopEnv(d);
    const bus = await AtspiBus.connect(5000);
    try {
      const app = await findApp(bus, d);
      let nodes: AtspiRawNode[] = [];
      for (let i = 0; i < 100; i++) {
        const root = await bus.readTree(app.bus, app.root, {
          bounds: true,
          deadline: Date.now() + 10000,
        });
        nodes = all(root);
        if (nodes.some((n) => n.name === "Item 300")) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(bus.lastProfile?.bulk, true);
      const email = nodes.find((n) => n.role === 79 && n.name === "Email");
      assert.ok(email, "the email entry");
      assert.equal(email.text, "");
      assert.ok(email.extents && email.extents[2] > 0);
      const password = nodes.find((n) => n.role === 40);
      assert.ok(password, "the password field");
      assert.equal(password.text, undefined);
      const deletes = nodes.filter((n) => n.role === 43 && n.name === "Delete");
      assert.equal(deletes.length, 300);
      assert.ok(deletes.every((b) => b.actions && b.actions.length > 0));
    } finally {
      bus.close();
      restore();
    }
  },
});
