/**
 * The last read a long-lived session answered, kept so that the same read
 * of a tree that has not changed gets the same answer without the work
 * after the app's tree is fetched (labels folded, ids, refs, filters, the
 * ref store's records, the rendered text). The tree is compared whole, as
 * the backend returned it, so a memo can never print what a fresh read
 * would not: any change in any field of any element is a new read. A
 * backend that keeps the app's tree names each read with a version (see
 * `Provider.unchangedSince`): when it says that version is still the app's,
 * the answer is used again without fetching the tree at all.
 *
 * @module
 */

import type { Snapshot } from "../model/element.ts";

/**
 * What a read returned, as the backend returned it, without the moment of
 * the read: two reads of an unchanged tree print the same.
 *
 * @param snapshot the backend's read, before ids and refs
 * @returns a string equal for equal trees
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { treePrint } from "./read_memo.ts";
 * const a = { app: { name: "Calc", pid: 7 }, readAt: "1", root: { i: 0, r: "app" as const, t: "Calc" } };
 * assert.equal(treePrint(a), treePrint({ ...a, readAt: "2" }));
 * assert.notEqual(treePrint(a), treePrint({ ...a, root: { ...a.root, t: "Calc 2" } }));
 * ```
 */
export function treePrint(snapshot: Snapshot): string {
  const { readAt: _readAt, ...rest } = snapshot;
  return JSON.stringify(rest);
}

/**
 * One kept answer: the last question asked, the tree it was asked of, and
 * its answer. A different question or tree replaces it (one answer is
 * what a loop of reads needs, and bounds the memory to one read).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ReadMemo } from "./read_memo.ts";
 * const memo = new ReadMemo<string>();
 * memo.set("read app=Calc", "tree 1", "answer");
 * assert.equal(memo.get("read app=Calc", "tree 1"), "answer");
 * assert.equal(memo.get("read app=Calc", "tree 2"), undefined);
 * assert.equal(memo.get("read app=Other", "tree 1"), undefined);
 * ```
 */
export class ReadMemo<T> {
  #last: { question: string; tree: string; answer: T; version?: string } | null = null;

  /**
   * The answer kept for this question of this tree, if any.
   *
   * @param question the read's scope and options, as a string
   * @param tree {@link treePrint} of the backend's read
   * @returns the kept answer, or undefined
   */
  get(question: string, tree: string): T | undefined {
    const last = this.#last;
    return last && last.question === question && last.tree === tree ? last.answer : undefined;
  }

  /**
   * The answer kept for this question, with the version of the backend's
   * read it was made of, if the backend gave one.
   *
   * @param question the read's scope and options, as a string
   * @returns the version and answer, or undefined
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ReadMemo } from "./read_memo.ts";
   * const memo = new ReadMemo<string>();
   * memo.set("read app=Calc", "tree 1", "answer", "v7");
   * assert.deepEqual(memo.versioned("read app=Calc"), { version: "v7", answer: "answer" });
   * memo.set("read app=Calc", "tree 2", "answer 2");
   * assert.equal(memo.versioned("read app=Calc"), undefined);
   * ```
   */
  versioned(question: string): { version: string; answer: T } | undefined {
    const last = this.#last;
    return last?.question === question && last.version !== undefined
      ? { version: last.version, answer: last.answer }
      : undefined;
  }

  /**
   * Keeps an answer, in place of the one kept before.
   *
   * @param question the read's scope and options, as a string
   * @param tree {@link treePrint} of the backend's read
   * @param answer what the read returned
   * @param version the backend's version of its read, when it gave one
   */
  set(question: string, tree: string, answer: T, version?: string): void {
    this.#last = { question, tree, answer, ...(version !== undefined ? { version } : {}) };
  }
}
