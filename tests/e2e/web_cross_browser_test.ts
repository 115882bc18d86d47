/**
 * The same page gives the same refs in Chromium and in Firefox ESR: every
 * interactive element of the page's main landmark, read from each browser
 * (whose accessibility trees differ: Firefox names list items by their whole
 * content, lists an iframe and its document apart, keeps a paragraph's text
 * on the paragraph), has one ref, and it is the same in both. An agent's
 * refs do not depend on the browser.
 */

import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { INTERACTIVE_ROLES } from "../../src/model/roles.ts";
import { type DesktopApp, hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { runCli } from "../harness/cli.ts";
import { eventually } from "../harness/tree.ts";

const PAGES = ["iframes.html", "settings.html", "mail.html"];

/**
 * The refs of the interactive elements below the page's main landmark. Roles
 * are not compared: each browser's own can differ (Firefox sometimes exposes
 * an aria-pressed button as a plain push button, as pyatspi sees too).
 */
async function interactiveRefs(
  app: DesktopApp,
  page: string,
): Promise<{ refs: string[]; levels: string[] }> {
  const url = `${REPO_ROOT}tests/fixtures/web/corpus/${page}`;
  await using d = await startDesktop({ app, url });
  // The page is read until two reads a second apart agree (a browser builds its tree as the
  // page loads).
  let last = "";
  return await eventually(`${page} in ${app}, settled`, async () => {
    const res = await runCli(d, [
      "read",
      "--app",
      d.appName,
      "--scope-ref",
      "main",
      "--format",
      "json",
    ]);
    if (res.code !== 0) return undefined;
    const out: string[] = [];
    const walk = (e: Element) => {
      if (INTERACTIVE_ROLES.has(e.r)) out.push(e.ref!);
      e.c?.forEach(walk);
    };
    walk(JSON.parse(res.stdout).root as Element);
    const key = JSON.stringify(out.sort());
    const settled = out.length > 0 && key === last;
    last = key;
    if (!settled) await new Promise((r) => setTimeout(r, 1000));
    if (!settled) return undefined;
    // A level belongs to headings only (Firefox gives its tabs and some list items one too).
    const whole = await runCli(d, ["read", "--app", d.appName, "--format", "json"]);
    const levels: string[] = [];
    const each = (e: Element) => {
      if (e.lv !== undefined && e.r !== "heading") levels.push(`${e.ref} ${e.r} lv=${e.lv}`);
      e.c?.forEach(each);
    };
    each(JSON.parse(whole.stdout).root as Element);
    return { refs: out, levels };
  }, 60_000);
}

for (const page of PAGES) {
  Deno.test({
    name: `cross-browser refs: ${page} has the same interactive refs in Chromium and Firefox`,
    ignore: !hasDesktopTools(),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const chromium = await interactiveRefs("chromium", page);
      const firefox = await interactiveRefs("firefox-esr", page);
      assert.deepEqual(firefox.refs, chromium.refs);
      assert.deepEqual([...firefox.levels, ...chromium.levels], []);
    },
  });
}
