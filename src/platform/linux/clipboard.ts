/**
 * The X11 CLIPBOARD selection. Reading asks the owner to convert it to
 * UTF8_STRING and waits for the answer. Writing needs an owner that stays:
 * X11 has no clipboard store, the owning client hands the text to whoever
 * asks. So, as xclip and xsel do, a detached child process (this module run
 * as a script) takes ownership and serves requests until another client
 * takes the selection over, then exits. Text larger than one chunk goes in
 * pieces (the ICCCM's INCR protocol), both ways, since one X request cannot
 * carry more than the server's request size.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { CURRENT_TIME, PROP_MODE_REPLACE, X_EVENT, X_MASK, XEVENT_SIZE } from "../../ffi/x11.ts";
import { X11 } from "./x11.ts";

/** Targets the owner serves as text. */
const TEXT_TARGETS = ["UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT", "text/plain"];

/** `XA_ATOM`, the type of a TARGETS answer. */
const XA_ATOM = 4n;

/**
 * Most bytes sent in one property: larger text goes by INCR in pieces of
 * this size (well below the 256 KiB core request limit).
 */
export const INCR_CHUNK = 64 * 1024;

/** `PropertyNewValue` and `PropertyDelete`, the states of a PropertyNotify event. */
const PROPERTY_NEW_VALUE = 0;
const PROPERTY_DELETE = 1;

/** A hidden window to own the selection or receive its contents. */
function helperWindow(x: X11): bigint {
  return x.x.XCreateSimpleWindow(x.dpy, x.root, -10, -10, 1, 1, 0, 0n, 0n);
}

/**
 * Reads the clipboard's text.
 *
 * @param timeoutMs how long to wait for the owner's answer
 * @returns the text ("" when the clipboard is empty)
 * @throws DesktopError APP_UNRESPONSIVE when the owner does not answer, ACTION_NOT_SUPPORTED
 *   when it holds no text
 */
export async function clipboardGet(timeoutMs: number): Promise<string> {
  using x = X11.open();
  const clipboard = x.atom("CLIPBOARD");
  if (x.x.XGetSelectionOwner(x.dpy, clipboard) === 0n) return "";
  const win = helperWindow(x);
  // An INCR transfer is driven by property changes on this window.
  x.x.XSelectInput(x.dpy, win, X_MASK.PropertyChange);
  try {
    const property = x.atom("DESKTOP_CLIPBOARD");
    for (const target of ["UTF8_STRING", "STRING"]) {
      x.x.XConvertSelection(x.dpy, clipboard, x.atom(target), property, win, CURRENT_TIME);
      x.flush();
      const got = await awaitNotify(x, win, timeoutMs);
      if (got === 0n) continue; // refused: try the next target
      let p: { type: bigint; bytes: Uint8Array } | null = x.property(win, "DESKTOP_CLIPBOARD");
      if (p?.type === x.atom("INCR")) p = await readIncrementally(x, win, property, timeoutMs);
      else x.x.XDeleteProperty(x.dpy, win, property);
      if (!p) return "";
      return p.type === x.atom("STRING") ? latin1Text(p.bytes) : new TextDecoder().decode(p.bytes);
    }
    throw new DesktopError("ACTION_NOT_SUPPORTED", "the clipboard holds no text", {
      suggestion: "It holds something else (an image or files); copy text first",
    });
  } finally {
    x.x.XDestroyWindow(x.dpy, win);
  }
}

/** Latin-1 bytes as text (large texts too: no spreading into one call's arguments). */
function latin1Text(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

/**
 * Receives an INCR transfer: deleting the INCR property asks for the first
 * piece; each new value of the property is the next piece, deleted to ask
 * for more, until an empty one ends it.
 */
async function readIncrementally(
  x: X11,
  win: bigint,
  property: bigint,
  timeoutMs: number,
): Promise<{ type: bigint; bytes: Uint8Array }> {
  x.x.XDeleteProperty(x.dpy, win, property);
  x.flush();
  const pieces: Uint8Array[] = [];
  let type = 0n;
  const ev = new Uint8Array(XEVENT_SIZE);
  const v = new DataView(ev.buffer);
  let deadline = Date.now() + timeoutMs;
  for (;;) {
    let piece: { type: bigint; bytes: Uint8Array } | null | undefined;
    while (piece === undefined && x.x.XPending(x.dpy) > 0) {
      x.x.XNextEvent(x.dpy, ev);
      const newValue = v.getInt32(0, true) === X_EVENT.PropertyNotify &&
        v.getBigUint64(32, true) === win && v.getBigUint64(40, true) === property &&
        v.getInt32(56, true) === PROPERTY_NEW_VALUE;
      if (newValue) piece = x.property(win, "DESKTOP_CLIPBOARD");
    }
    if (piece !== undefined) {
      x.x.XDeleteProperty(x.dpy, win, property);
      x.flush();
      if (!piece || piece.bytes.length === 0) break;
      type = piece.type;
      pieces.push(piece.bytes);
      deadline = Date.now() + timeoutMs; // each piece may take the whole timeout
      continue;
    }
    if (Date.now() >= deadline) {
      throw new DesktopError("APP_UNRESPONSIVE", "the clipboard's owner stopped sending", {
        suggestion: "The app that copied may be hung; copy again or set the clipboard",
      });
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const bytes = new Uint8Array(pieces.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of pieces) {
    bytes.set(b, at);
    at += b.length;
  }
  return { type, bytes };
}

/** Waits for SelectionNotify on `win`; returns its property atom (0: refused). */
async function awaitNotify(x: X11, win: bigint, timeoutMs: number): Promise<bigint> {
  const ev = new Uint8Array(XEVENT_SIZE);
  const v = new DataView(ev.buffer);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    while (x.x.XPending(x.dpy) > 0) {
      x.x.XNextEvent(x.dpy, ev);
      if (v.getInt32(0, true) === X_EVENT.SelectionNotify && v.getBigUint64(32, true) === win) {
        return v.getBigUint64(56, true);
      }
    }
    if (Date.now() >= deadline) {
      throw new DesktopError("APP_UNRESPONSIVE", "the clipboard's owner did not answer", {
        suggestion: "The app that copied may be hung; copy again or set the clipboard",
      });
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Puts text on the clipboard: starts the owner process and returns once it
 * owns the selection. The text stays available after this process exits.
 *
 * @param text what to copy
 * @param timeoutMs how long the owner may take to start
 * @throws DesktopError ACTION_FAILED when the owner could not take the selection
 */
export async function clipboardSet(text: string, timeoutMs: number): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      "--no-lock",
      "--quiet",
      "--allow-ffi",
      "--allow-env",
      new URL(import.meta.url).href,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let line = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((
    r,
  ) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
  try {
    while (!line.includes("\n")) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout" || next.done) break;
      line += next.value;
    }
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
  if (line.trim() === "ok") {
    child.unref();
    return;
  }
  try {
    child.kill("SIGKILL");
  } catch {
    // already gone
  }
  await child.status;
  throw new DesktopError("ACTION_FAILED", "could not take the clipboard", {
    suggestion: "Check that DISPLAY names a running X server",
    details: { reason: line.trim().slice(0, 300) || "the clipboard owner did not start" },
  });
}

/** An INCR transfer in progress: the rest of the text goes to this requestor's property. */
interface Transfer {
  requestor: bigint;
  property: bigint;
  type: bigint;
  bytes: Uint8Array;
  /** Bytes sent so far; past the end once the closing empty piece went. */
  sent: number;
}

/**
 * Sends the next piece of an INCR transfer after the requestor deleted the
 * last one; returns false once the transfer is over.
 */
function sendNextPiece(x: X11, t: Transfer): boolean {
  if (t.sent > t.bytes.length) return false;
  const piece = t.bytes.subarray(t.sent, t.sent + INCR_CHUNK);
  x.x.XChangeProperty(
    x.dpy,
    t.requestor,
    t.property,
    t.type,
    8,
    PROP_MODE_REPLACE,
    piece as Uint8Array<ArrayBuffer>,
    piece.length,
  );
  x.flush();
  // An empty piece closes the transfer.
  t.sent = piece.length === 0 ? t.bytes.length + 1 : t.sent + piece.length;
  return true;
}

/**
 * Answers one SelectionRequest as the owner of `text`; returns the INCR
 * transfer it started, if the text is too large for one property.
 */
function answer(
  x: X11,
  req: DataView,
  text: Uint8Array,
  latin1: Uint8Array,
): Transfer | undefined {
  let transfer: Transfer | undefined;
  const requestor = req.getBigUint64(40, true);
  const selection = req.getBigUint64(48, true);
  const target = req.getBigUint64(56, true);
  let property = req.getBigUint64(64, true);
  if (property === 0n) property = target; // obsolete clients
  const names = new Map(TEXT_TARGETS.map((n) => [x.atom(n), n]));
  if (target === x.atom("TARGETS")) {
    const atoms = [x.atom("TARGETS"), ...names.keys()];
    const data = new BigUint64Array(atoms);
    x.x.XChangeProperty(
      x.dpy,
      requestor,
      property,
      XA_ATOM,
      32,
      PROP_MODE_REPLACE,
      new Uint8Array(data.buffer),
      atoms.length,
    );
  } else if (names.has(target)) {
    const isString = names.get(target) === "STRING";
    const bytes = isString ? latin1 : text;
    const type = isString ? x.atom("STRING") : x.atom("UTF8_STRING");
    if (bytes.length > INCR_CHUNK) {
      // Too large for one property: announce INCR (with a lower bound of the size), then send
      // a piece each time the requestor deletes the last one.
      x.x.XSelectInput(x.dpy, requestor, X_MASK.PropertyChange);
      const size = new BigUint64Array([BigInt(bytes.length)]);
      x.x.XChangeProperty(
        x.dpy,
        requestor,
        property,
        x.atom("INCR"),
        32,
        PROP_MODE_REPLACE,
        new Uint8Array(size.buffer),
        1,
      );
      transfer = { requestor, property, type, bytes, sent: 0 };
    } else {
      x.x.XChangeProperty(
        x.dpy,
        requestor,
        property,
        type,
        8,
        PROP_MODE_REPLACE,
        bytes as Uint8Array<ArrayBuffer>,
        bytes.length,
      );
    }
  } else {
    property = 0n; // refuse what we do not hold
  }
  const ev = new Uint8Array(XEVENT_SIZE);
  const v = new DataView(ev.buffer);
  v.setInt32(0, X_EVENT.SelectionNotify, true);
  v.setInt32(16, 1, true);
  v.setBigUint64(32, requestor, true);
  v.setBigUint64(40, selection, true);
  v.setBigUint64(48, target, true);
  v.setBigUint64(56, property, true);
  v.setBigUint64(64, req.getBigUint64(72, true), true);
  x.x.XSendEvent(x.dpy, requestor, 0, 0n, ev);
  x.flush();
  return transfer;
}

/** The owner process: takes CLIPBOARD, says "ok", serves it until another client takes it. */
async function serveOwner(): Promise<void> {
  const text = new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
  const decoded = new TextDecoder().decode(text);
  const latin1 = Uint8Array.from(decoded, (c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 63));
  let x: X11;
  try {
    x = X11.open();
  } catch (e) {
    console.log((e as Error).message);
    Deno.exit(1);
  }
  const clipboard = x.atom("CLIPBOARD");
  const win = helperWindow(x);
  x.x.XSetSelectionOwner(x.dpy, clipboard, win, CURRENT_TIME);
  if (x.x.XGetSelectionOwner(x.dpy, clipboard) !== win) {
    console.log("the X server did not give us the selection");
    Deno.exit(1);
  }
  console.log("ok");
  // Stdout is done: close it so the parent's read ends, and it can exit.
  Deno.stdout.close();
  const ev = new Uint8Array(XEVENT_SIZE);
  const v = new DataView(ev.buffer);
  const transfers: Transfer[] = [];
  for (;;) {
    x.x.XNextEvent(x.dpy, ev); // blocks: this process does nothing else
    const type = v.getInt32(0, true);
    if (type === X_EVENT.SelectionClear) break;
    if (type === X_EVENT.SelectionRequest) {
      const t = answer(x, v, text, latin1);
      if (t) transfers.push(t);
    } else if (type === X_EVENT.PropertyNotify && v.getInt32(56, true) === PROPERTY_DELETE) {
      const win = v.getBigUint64(32, true);
      const atom = v.getBigUint64(40, true);
      const k = transfers.findIndex((t) => t.requestor === win && t.property === atom);
      if (k >= 0 && !sendNextPiece(x, transfers[k])) transfers.splice(k, 1);
    }
  }
  x.x.XDestroyWindow(x.dpy, win);
  x[Symbol.dispose]();
}

if (import.meta.main) await serveOwner();
