/**
 * The general pasteboard (the clipboard) through the Pasteboard Manager:
 * plain text as the `public.utf8-plain-text` flavor. The pasteboard server
 * keeps what was put there after this process exits.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import type { AxSession } from "./session.ts";

/** `kPasteboardClipboard`. */
const CLIPBOARD = "com.apple.pasteboard.clipboard";
/** The UTF-8 plain text flavor (UTI). */
const UTF8_TEXT = "public.utf8-plain-text";
/** The item id text is put under (any non-zero id the caller picks). */
const ITEM_ID = 1n;

function unsupported(): DesktopError {
  return new DesktopError("PLATFORM_NOT_SUPPORTED", "this macOS has no Pasteboard Manager", {
    suggestion: "Use pbcopy / pbpaste",
  });
}

function failed(what: string, status: number): DesktopError {
  return new DesktopError(
    "ACTION_FAILED",
    `the pasteboard refused to ${what} (OSStatus ${status})`,
    {
      suggestion: "Try again; another app may be writing to the clipboard",
      details: { status },
    },
  );
}

/** Runs `fn` with the clipboard pasteboard open, releasing it afterwards. */
function withPasteboard<T>(s: AxSession, fn: (pb: Deno.PointerObject) => T): T {
  const ax = s.libs.ax;
  if (!ax.PasteboardCreate) throw unsupported();
  using name = s.cf.string(CLIPBOARD);
  const out = new BigUint64Array(1);
  const status = ax.PasteboardCreate(name.ptr, new Uint8Array(out.buffer));
  const ptr = Deno.UnsafePointer.create(out[0]);
  if (status !== 0 || ptr === null) throw failed("open", status);
  using pb = s.cf.own(ptr, "pasteboard");
  return fn(pb.ptr);
}

/**
 * The clipboard's text.
 *
 * @param s the session
 * @returns the text ("" when it holds no text)
 */
export function macClipboardGet(s: AxSession): string {
  const ax = s.libs.ax;
  const cf = s.libs.cf;
  if (
    !ax.PasteboardSynchronize || !ax.PasteboardGetItemCount || !ax.PasteboardGetItemIdentifier ||
    !ax.PasteboardCopyItemFlavorData || !cf.CFDataGetBytePtr || !cf.CFDataGetLength
  ) throw unsupported();
  return withPasteboard(s, (pb) => {
    ax.PasteboardSynchronize!(pb);
    const count = new BigUint64Array(1);
    const st = ax.PasteboardGetItemCount!(pb, new Uint8Array(count.buffer));
    if (st !== 0) throw failed("count its items", st);
    using flavor = s.cf.string(UTF8_TEXT);
    for (let i = 1; i <= Number(count[0]); i++) {
      const id = new BigUint64Array(1);
      if (ax.PasteboardGetItemIdentifier!(pb, BigInt(i), new Uint8Array(id.buffer)) !== 0) continue;
      const out = new BigUint64Array(1);
      const e = ax.PasteboardCopyItemFlavorData!(pb, id[0], flavor.ptr, new Uint8Array(out.buffer));
      const data = Deno.UnsafePointer.create(out[0]);
      if (e !== 0 || data === null) continue; // no text in this item
      using owned = s.cf.own(data, "clipboard data");
      const len = Number(cf.CFDataGetLength!(owned.ptr));
      const bytes = cf.CFDataGetBytePtr!(owned.ptr);
      if (!bytes || len === 0) return "";
      return new TextDecoder().decode(
        new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(bytes, len)).slice(),
      );
    }
    return "";
  });
}

/**
 * Puts text on the clipboard (replacing what it held).
 *
 * @param s the session
 * @param text the text
 */
export function macClipboardSet(s: AxSession, text: string): void {
  const ax = s.libs.ax;
  const cf = s.libs.cf;
  if (!ax.PasteboardClear || !ax.PasteboardPutItemFlavor || !cf.CFDataCreate) throw unsupported();
  withPasteboard(s, (pb) => {
    const st = ax.PasteboardClear!(pb);
    if (st !== 0) throw failed("clear", st);
    const bytes = new TextEncoder().encode(text);
    using data = s.cf.own(cf.CFDataCreate!(null, bytes, BigInt(bytes.length)), "CFData");
    using flavor = s.cf.string(UTF8_TEXT);
    const e = ax.PasteboardPutItemFlavor!(pb, ITEM_ID, flavor.ptr, data.ptr, 0);
    if (e !== 0) throw failed("take the text", e);
  });
}
