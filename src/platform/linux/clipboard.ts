/**
 * The X11 CLIPBOARD selection. Reading asks the owner to convert it to
 * UTF8_STRING and waits for the answer. Writing needs an owner that stays:
 * X11 has no clipboard store, the owning client hands the text to whoever
 * asks. So, as xclip and xsel do, a detached child process (this module run
 * as a script) takes ownership and serves requests until another client
 * takes the selection over, then exits.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { CURRENT_TIME, PROP_MODE_REPLACE, X_EVENT, XEVENT_SIZE } from "../../ffi/x11.ts";
import { X11 } from "./x11.ts";

/** Targets the owner serves as text. */
const TEXT_TARGETS = ["UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT", "text/plain"];

/** `XA_ATOM`, the type of a TARGETS answer. */
const XA_ATOM = 4n;

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
  try {
    const property = x.atom("DESKTOP_CLIPBOARD");
    for (const target of ["UTF8_STRING", "STRING"]) {
      x.x.XConvertSelection(x.dpy, clipboard, x.atom(target), property, win, CURRENT_TIME);
      x.flush();
      const got = await awaitNotify(x, win, timeoutMs);
      if (got === 0n) continue; // refused: try the next target
      const p = x.property(win, "DESKTOP_CLIPBOARD");
      x.x.XDeleteProperty(x.dpy, win, property);
      if (!p) return "";
      if (p.type === x.atom("INCR")) {
        throw new DesktopError(
          "ACTION_NOT_SUPPORTED",
          "the clipboard holds too much text to read",
          {
            suggestion: "Copy less text (incremental transfers are not supported)",
          },
        );
      }
      return p.type === x.atom("STRING")
        ? String.fromCharCode(...p.bytes)
        : new TextDecoder().decode(p.bytes);
    }
    throw new DesktopError("ACTION_NOT_SUPPORTED", "the clipboard holds no text", {
      suggestion: "It holds something else (an image or files); copy text first",
    });
  } finally {
    x.x.XDestroyWindow(x.dpy, win);
  }
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

/** Answers one SelectionRequest as the owner of `text`. */
function answer(x: X11, req: DataView, text: Uint8Array, latin1: Uint8Array): void {
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
  for (;;) {
    x.x.XNextEvent(x.dpy, ev); // blocks: this process does nothing else
    const type = v.getInt32(0, true);
    if (type === X_EVENT.SelectionClear) break;
    if (type === X_EVENT.SelectionRequest) answer(x, v, text, latin1);
  }
  x.x.XDestroyWindow(x.dpy, win);
  x[Symbol.dispose]();
}

if (import.meta.main) await serveOwner();
