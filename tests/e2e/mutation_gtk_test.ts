/**
 * Never the wrong element, in a GTK 3 app whose TreeView reuses its cells'
 * accessible objects when the model changes under them: the identity
 * mutation suite (tests/e2e/mutation_suites.ts) on
 * tests/fixtures/mutation_treeview.py, through the CLI and MCP, including an
 * app restart.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, startDesktop } from "../harness/desktop.ts";
import { runSuite } from "./mutation_scenarios.ts";
import { assertNoWrongElement, GTK_SUITE, TREEVIEW } from "./mutation_suites.ts";

Deno.test({
  name: "mutation suite (GTK TreeView): no action ever reaches another row, CLI and MCP",
  ignore: !hasDesktopTools(),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using d = await startDesktop({ app: "gtk3-script", url: TREEVIEW });
    const { attempts } = await runSuite(d, GTK_SUITE);
    assertNoWrongElement(attempts);
    assert.ok(attempts.length >= 40, `${attempts.length} attempts`);
  },
});
