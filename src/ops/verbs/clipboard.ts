/**
 * The `clipboard_get` and `clipboard_set` verbs: read and set the clipboard.
 *
 * @module
 */

import { defineOp, type Op } from "../types.ts";
import { READ, TIMEOUT } from "./_shared.ts";

/** Arguments of `clipboard_get`. */
export interface ClipboardGetArgs {
  /** Deadline in ms. */
  timeout?: number;
}

/** Result of `clipboard_get`. */
export interface ClipboardGetResult {
  /** The clipboard's text ("" when empty). */
  text: string;
}

/** Arguments of `clipboard_set`. */
export interface ClipboardSetArgs {
  /** The text to put on the clipboard. */
  text: string;
  /** Deadline in ms. */
  timeout?: number;
}

/** Result of `clipboard_set`. */
export interface ClipboardSetResult {
  /** Always true. */
  ok: true;
  /** Characters put on the clipboard. */
  characters: number;
}

/** The `clipboardGet` operation. */
export const clipboardGet: Op<ClipboardGetArgs, ClipboardGetResult> = defineOp<
  ClipboardGetArgs,
  ClipboardGetResult
>({
  name: "clipboard_get",
  cliName: "clipboard get",
  doc: "Read the system clipboard's text.",
  examples: ["desktop clipboard get"],
  hints: READ,
  params: [...TIMEOUT],
  output: { type: "object", properties: { text: { type: "string" } } },
  raw: true,
  async run(ctx) {
    return { text: await (await ctx.desktop()).clipboardGet() };
  },
  render: (r) => r.text,
});

/** The `clipboardSet` operation. */
export const clipboardSet: Op<ClipboardSetArgs, ClipboardSetResult> = defineOp<
  ClipboardSetArgs,
  ClipboardSetResult
>({
  name: "clipboard_set",
  cliName: "clipboard set",
  doc: "Put text on the clipboard (paste it with key ctrl+v).",
  examples: ['desktop clipboard set "ada@example.com"', "desktop clipboard set - < notes.txt"],
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  params: [
    {
      name: "text",
      type: "string",
      required: true,
      positional: true,
      stdin: true,
      doc: "the text (- reads it from standard input)",
    },
    ...TIMEOUT,
  ],
  output: { type: "object", properties: { characters: { type: "integer" } } },
  async run(ctx, args) {
    await (await ctx.desktop()).clipboardSet(args.text);
    return { ok: true, characters: [...args.text].length };
  },
  render: (r) => `ok clipboard set (${r.characters} characters)`,
});
