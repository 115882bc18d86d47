/**
 * Prints the apps registered on the accessibility bus of the current
 * environment as JSON (used by the test desktop to wait for its app).
 *
 * @module
 */

import { createLinuxProvider } from "../../src/platform/linux/mod.ts";

const provider = await createLinuxProvider({ timeoutMs: 3000 });
try {
  console.log(JSON.stringify(await provider.listApps()));
} finally {
  provider.close();
}
