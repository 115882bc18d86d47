/**
 * One connection to the X server (libX11 through Deno.dlopen) and the small
 * helpers the screen, window and clipboard code shares: atoms, properties,
 * the window tree, and X errors turned into values instead of Xlib's default
 * handler, which exits the process.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";
import { cstr } from "../../ffi/cstring.ts";
import {
  ALL_PLANES,
  ANY_PROPERTY_TYPE,
  MAP_STATE,
  PROP_MODE_REPLACE,
  WINDOW_ATTRIBUTES,
  X11_LIBRARY,
  X11_SYMBOLS,
  type X11Symbols,
  XIMAGE,
  Z_PIXMAP,
} from "../../ffi/x11.ts";
import type { RgbaImage } from "../../output/image.ts";
import type { Bounds } from "../../model/element.ts";

let lib: Deno.DynamicLibrary<typeof X11_SYMBOLS> | null = null;
let errorHandler:
  | Deno.UnsafeCallback<{ parameters: ["pointer", "pointer"]; result: "i32" }>
  | null = null;
/** The code of the last X error (0: none since the last {@link X11.takeError}). */
let lastError = 0;

function symbols(): X11Symbols {
  if (!lib) {
    try {
      lib = Deno.dlopen(X11_LIBRARY, X11_SYMBOLS);
    } catch (e) {
      throw new DesktopError("PLATFORM_NOT_SUPPORTED", `cannot load ${X11_LIBRARY}`, {
        suggestion: "Install libx11-6 (X11); Wayland-only sessions are not supported yet",
        cause: e,
      });
    }
    // Xlib's default error handler exits the process: record the error instead.
    errorHandler = new Deno.UnsafeCallback(
      { parameters: ["pointer", "pointer"], result: "i32" } as const,
      (_dpy, ev) => {
        lastError = ev ? new Deno.UnsafePointerView(ev).getUint8(32) || 1 : 1;
        return 0;
      },
    );
    lib.symbols.XSetErrorHandler(errorHandler.pointer);
  }
  return lib.symbols;
}

/** A property's raw contents. */
export interface Property {
  /** The property's type atom. */
  type: bigint;
  /** 8, 16 or 32. */
  format: number;
  /** Items (bytes for format 8; longs, as 8 bytes each, for format 32). */
  items: number;
  /** The data as Xlib returns it (format 32 items are C longs). */
  bytes: Uint8Array;
}

/** An open display. Dispose it to close the connection. */
export class X11 implements Disposable {
  /** The bound functions. */
  readonly x: X11Symbols;
  /** The Display pointer (never leaves src/platform/linux). */
  readonly dpy: Deno.PointerObject;
  /** The root window. */
  readonly root: bigint;
  /** The default screen's number. */
  readonly screen: number;
  #atoms = new Map<string, bigint>();
  #open = true;

  private constructor(x: X11Symbols, dpy: Deno.PointerObject) {
    this.x = x;
    this.dpy = dpy;
    this.root = x.XDefaultRootWindow(dpy);
    this.screen = x.XDefaultScreen(dpy);
  }

  /**
   * Opens the display `DISPLAY` names.
   *
   * @returns the connection
   * @throws DesktopError PLATFORM_NOT_SUPPORTED without a reachable X display
   */
  static open(): X11 {
    const x = symbols();
    const name = displayName();
    const dpy = x.XOpenDisplay(cstr(name));
    if (dpy === null) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        name ? `cannot open the X display ${name}` : "no X display (DISPLAY is not set)",
        { suggestion: "Run inside an X11 session (or Xvfb) with DISPLAY set" },
      );
    }
    return new X11(x, dpy);
  }

  /**
   * The display this process keeps open, for queries a long-lived process
   * (the background process, the MCP server) makes on every read: opening a
   * display costs a connection and its atoms each time. Reopened when DISPLAY
   * changed; disposing it does nothing.
   *
   * @returns the shared display
   * @throws DesktopError PLATFORM_NOT_SUPPORTED without an X display
   */
  static shared(): X11 {
    const name = displayName();
    if (!sharedDisplay || sharedDisplay.name !== name) {
      const x = X11.open();
      x.#keep = true;
      sharedDisplay = { name, x };
    }
    return sharedDisplay.x;
  }

  /** Set on the shared display, which stays open. */
  #keep = false;

  /** The screen's size in pixels. */
  get size(): { width: number; height: number } {
    return {
      width: this.x.XDisplayWidth(this.dpy, this.screen),
      height: this.x.XDisplayHeight(this.dpy, this.screen),
    };
  }

  /** Returns the code of the X error raised since the last call (0: none), after a round trip. */
  takeError(): number {
    this.x.XSync(this.dpy, 0);
    const e = lastError;
    lastError = 0;
    return e;
  }

  /** The atom for a name (created when missing). */
  atom(name: string): bigint {
    let a = this.#atoms.get(name);
    if (a === undefined) {
      a = this.x.XInternAtom(this.dpy, cstr(name), 0);
      this.#atoms.set(name, a);
    }
    return a;
  }

  /**
   * Reads a window property whole.
   *
   * @param win the window
   * @param name the property's atom name
   * @returns its contents, or null when the window has no such property (or is gone)
   */
  property(win: bigint, name: string): Property | null {
    const type = new BigUint64Array(1);
    const format = new Int32Array(1);
    const nitems = new BigUint64Array(1);
    const after = new BigUint64Array(1);
    const data = new BigUint64Array(1);
    const rc = this.x.XGetWindowProperty(
      this.dpy,
      win,
      this.atom(name),
      0n,
      1n << 24n,
      0,
      ANY_PROPERTY_TYPE,
      u8(type),
      u8(format),
      u8(nitems),
      u8(after),
      u8(data),
    );
    const ptr = Deno.UnsafePointer.create(data[0]);
    if (rc !== 0 || type[0] === 0n) {
      if (ptr) this.x.XFree(ptr);
      return null;
    }
    const items = Number(nitems[0]);
    const unit = format[0] === 8 ? 1 : format[0] === 16 ? 2 : 8;
    const bytes = ptr
      ? new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(ptr, items * unit).slice(0))
      : new Uint8Array();
    if (ptr) this.x.XFree(ptr);
    return { type: type[0], format: format[0], items, bytes };
  }

  /** A format-32 property as numbers (atoms, windows, cardinals). */
  longs(win: bigint, name: string): bigint[] {
    const p = this.property(win, name);
    if (!p || p.format !== 32) return [];
    const view = new BigUint64Array(p.bytes.buffer, p.bytes.byteOffset, p.items);
    return [...view];
  }

  /** A text property (UTF8_STRING or Latin-1 STRING) as a string; "" when absent. */
  text(win: bigint, name: string): string {
    const p = this.property(win, name);
    if (!p || p.format !== 8) return "";
    return p.type === this.atom("STRING")
      ? String.fromCharCode(...p.bytes)
      : new TextDecoder().decode(p.bytes);
  }

  /** Replaces a format-32 property. */
  setLongs(win: bigint, name: string, type: string, values: readonly bigint[]): void {
    const data = new BigUint64Array(values);
    this.x.XChangeProperty(
      this.dpy,
      win,
      this.atom(name),
      this.atom(type),
      32,
      PROP_MODE_REPLACE,
      u8(data),
      values.length,
    );
  }

  /** The parent of a window; 0 for the root or a window that is gone. */
  parent(win: bigint): bigint {
    const root = new BigUint64Array(1);
    const parent = new BigUint64Array(1);
    const list = new BigUint64Array(1);
    const count = new Uint32Array(1);
    if (!this.x.XQueryTree(this.dpy, win, u8(root), u8(parent), u8(list), u8(count))) return 0n;
    const ptr = Deno.UnsafePointer.create(list[0]);
    if (ptr) this.x.XFree(ptr);
    return parent[0] === root[0] && win === root[0] ? 0n : parent[0];
  }

  /** The window that has the keyboard focus; 0 (None) or 1 (PointerRoot) when none does. */
  inputFocus(): bigint {
    const focus = new BigUint64Array(1);
    const revert = new Int32Array(1);
    this.x.XGetInputFocus(this.dpy, u8(focus), u8(revert));
    return focus[0];
  }

  /** The children of a window, bottom to top; [] when it is gone. */
  children(win: bigint): bigint[] {
    const root = new BigUint64Array(1);
    const parent = new BigUint64Array(1);
    const list = new BigUint64Array(1);
    const count = new Uint32Array(1);
    if (!this.x.XQueryTree(this.dpy, win, u8(root), u8(parent), u8(list), u8(count))) return [];
    const ptr = Deno.UnsafePointer.create(list[0]);
    if (!ptr) return [];
    const out = [
      ...new BigUint64Array(
        Deno.UnsafePointerView.getArrayBuffer(ptr, count[0] * 8).slice(0),
      ),
    ];
    this.x.XFree(ptr);
    return out;
  }

  /** A window's box in root coordinates and whether it is mapped, or null when it is gone. */
  geometry(win: bigint): { b: Bounds; viewable: boolean } | null {
    const attrs = new Uint8Array(WINDOW_ATTRIBUTES.size);
    if (!this.x.XGetWindowAttributes(this.dpy, win, attrs)) return null;
    const view = new DataView(attrs.buffer);
    const w = view.getInt32(WINDOW_ATTRIBUTES.width, true);
    const h = view.getInt32(WINDOW_ATTRIBUTES.height, true);
    const mapState = view.getInt32(WINDOW_ATTRIBUTES.mapState, true);
    const x = new Int32Array(1);
    const y = new Int32Array(1);
    const child = new BigUint64Array(1);
    this.x.XTranslateCoordinates(this.dpy, win, this.root, 0, 0, u8(x), u8(y), u8(child));
    return { b: [x[0], y[0], w, h], viewable: mapState === MAP_STATE.Viewable };
  }

  /**
   * The pixels of a rectangle of the screen (clipped to it).
   *
   * @param rect global pixels; the whole screen when absent
   * @returns the image and the rectangle it really covers
   * @throws DesktopError INVALID_ARGS when the rectangle is off screen, ACTION_FAILED
   *   when the server refuses
   */
  capture(rect?: Bounds): { image: RgbaImage; region: Bounds } {
    const { width, height } = this.size;
    const [rx, ry, rw, rh] = rect ?? [0, 0, width, height];
    const x0 = Math.max(0, Math.round(rx));
    const y0 = Math.max(0, Math.round(ry));
    const x1 = Math.min(width, Math.round(rx + rw));
    const y1 = Math.min(height, Math.round(ry + rh));
    if (x1 <= x0 || y1 <= y0) {
      throw new DesktopError("INVALID_ARGS", `the area ${rect} is not on the screen`, {
        suggestion: `The screen is ${width}x${height}; bring the window or element into view first`,
      });
    }
    const img = this.x.XGetImage(
      this.dpy,
      this.root,
      x0,
      y0,
      x1 - x0,
      y1 - y0,
      ALL_PLANES,
      Z_PIXMAP,
    );
    if (img === null) {
      this.takeError();
      throw new DesktopError(
        "ACTION_FAILED",
        "the X server refused to hand out the screen's pixels",
        {
          suggestion: "Check that DISPLAY names a running X server",
        },
      );
    }
    try {
      return { image: toRgba(new Deno.UnsafePointerView(img)), region: [x0, y0, x1 - x0, y1 - y0] };
    } finally {
      this.x.XDestroyImage(img);
    }
  }

  /** Flushes requests to the server. */
  flush(): void {
    this.x.XFlush(this.dpy);
  }

  /** Closes the connection. */
  [Symbol.dispose](): void {
    if (!this.#open || this.#keep) return;
    this.#open = false;
    this.x.XCloseDisplay(this.dpy);
  }
}

/** The display {@link X11.shared} holds, with the DISPLAY it was opened for. */
let sharedDisplay: { name: string; x: X11 } | undefined;

/** DISPLAY ("" when unset or unreadable: Xlib reads it itself). */
function displayName(): string {
  try {
    return Deno.env.get("DISPLAY") ?? "";
  } catch {
    return ""; // no --allow-env
  }
}

/** A typed array's bytes, for a `"buffer"` parameter. */
function u8(a: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }) {
  return new Uint8Array(a.buffer as ArrayBuffer, a.byteOffset, a.byteLength);
}

/** Converts a ZPixmap XImage of 24/32 bits per pixel to RGBA using its channel masks. */
function toRgba(v: Deno.UnsafePointerView): RgbaImage {
  const width = v.getInt32(XIMAGE.width);
  const height = v.getInt32(XIMAGE.height);
  const bpl = v.getInt32(XIMAGE.bytesPerLine);
  const bpp = v.getInt32(XIMAGE.bitsPerPixel);
  const msbFirst = v.getInt32(XIMAGE.byteOrder) === 1;
  const masks = [XIMAGE.redMask, XIMAGE.greenMask, XIMAGE.blueMask].map((o) =>
    Number(v.getBigUint64(o))
  );
  if (bpp !== 32 && bpp !== 24) {
    throw new DesktopError("ACTION_FAILED", `unsupported screen depth (${bpp} bits per pixel)`, {
      suggestion: "Run the X server at 24-bit colour (Xvfb -screen 0 1280x1024x24)",
    });
  }
  const data = v.getPointer(XIMAGE.data);
  if (!data) throw new DesktopError("ACTION_FAILED", "the screen image has no pixels");
  const src = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(data, bpl * height));
  const shifts = masks.map((m) => (m === 0 ? 0 : 31 - Math.clz32(m & -m)));
  const out = new Uint8Array(width * height * 4);
  const step = bpp / 8;
  for (let y = 0; y < height; y++) {
    let i = y * bpl;
    let o = y * width * 4;
    for (let x = 0; x < width; x++, i += step, o += 4) {
      const p = msbFirst
        ? step === 4
          ? ((src[i] << 24) | (src[i + 1] << 16) | (src[i + 2] << 8) | src[i + 3]) >>> 0
          : (src[i] << 16) | (src[i + 1] << 8) | src[i + 2]
        : step === 4
        ? ((src[i + 3] << 24) | (src[i + 2] << 16) | (src[i + 1] << 8) | src[i]) >>> 0
        : (src[i + 2] << 16) | (src[i + 1] << 8) | src[i];
      out[o] = ((p & masks[0]) >>> shifts[0]) & 0xff;
      out[o + 1] = ((p & masks[1]) >>> shifts[1]) & 0xff;
      out[o + 2] = ((p & masks[2]) >>> shifts[2]) & 0xff;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}
