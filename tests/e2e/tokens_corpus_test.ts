/**
 * The web corpus read from Chromium: on every page every interactive element
 * is addressable by a ref copied from the agent output, every text the page
 * shows is in that output, and the ref rules hold (no label twins, no cell
 * value in a ref, no toolkit class name). Token ratios against Playwright are
 * measured by bench/tokens.ts, not asserted here.
 */

import assert from "node:assert/strict";
import type { Element } from "../../src/model/element.ts";
import { addressable, CORPUS, elements, readPage } from "../../bench/tokens.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop } from "../harness/desktop.ts";
import { classNameRefs, labelTwins, valueRefs } from "./tokens_rules.ts";

/** The texts of a page (static text elements), each as the agent format escapes it. */
function pageTexts(web: Element): string[] {
  const out: string[] = [];
  for (const el of elements(web)) {
    if (el.r !== "txt") continue;
    const text = (el.t ?? el.v ?? "").trim();
    // Punctuation alone (a list bullet, a separator dot) says nothing and gets no line.
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    // Whole: a read prints visible text in full (a paragraph, a search result's snippet).
    out.push(JSON.stringify(text).slice(1, -1));
  }
  return out;
}

Deno.test({
  name: "web corpus: every interactive element addressable, every text kept, ref rules hold",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    for (const page of CORPUS.filter((p) => p.file.includes("/corpus/"))) {
      await t.step(page.file.split("/").pop()!, async () => {
        await using d = await startDesktop({ app: "chromium", url: `${REPO_ROOT}${page.file}` });
        const read = await readPage(d, page.title);
        const reach = addressable(read);
        assert.ok(reach.total > 0, "the page has interactive elements");
        assert.deepEqual(reach.missing, [], `${reach.ok}/${reach.total} addressable`);
        const missing = pageTexts(read.web).filter((s) => !read.text.includes(s));
        assert.deepEqual(missing, [], "every text of the page is in the agent output");
        assert.deepEqual(labelTwins(read.web), []);
        assert.deepEqual(valueRefs(read.web), []);
        assert.deepEqual(classNameRefs(read.web), []);
      });
    }
  },
});
