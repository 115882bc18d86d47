/**
 * libX11 symbol table and the protocol constants the Linux screen, window and
 * clipboard code uses. Plain data: no logic lives here.
 *
 * Every `Window`, `Atom` and `Time` is a C `unsigned long` (u64 on the 64-bit
 * platforms Deno runs on). `XGetImage` and `XGetWindowProperty` results are
 * owned by the caller (`XDestroyImage`, `XFree`).
 *
 * @module
 */

/** The library's soname. */
export const X11_LIBRARY = "libX11.so.6";

/** libX11 functions. */
export const X11_SYMBOLS = {
  XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
  XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  XDefaultRootWindow: { parameters: ["pointer"], result: "u64" },
  XDefaultScreen: { parameters: ["pointer"], result: "i32" },
  XDisplayWidth: { parameters: ["pointer", "i32"], result: "i32" },
  XDisplayHeight: { parameters: ["pointer", "i32"], result: "i32" },
  XGetImage: {
    parameters: ["pointer", "u64", "i32", "i32", "u32", "u32", "u64", "i32"],
    result: "pointer",
  },
  XDestroyImage: { parameters: ["pointer"], result: "i32" },
  XInternAtom: { parameters: ["pointer", "buffer", "i32"], result: "u64" },
  XGetWindowProperty: {
    // display, window, property, offset, length, delete, req_type,
    // &actual_type, &actual_format, &nitems, &bytes_after, &prop
    parameters: [
      "pointer",
      "u64",
      "u64",
      "i64",
      "i64",
      "i32",
      "u64",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
    ],
    result: "i32",
  },
  XChangeProperty: {
    // display, window, property, type, format, mode, data, nelements
    parameters: ["pointer", "u64", "u64", "u64", "i32", "i32", "buffer", "i32"],
    result: "i32",
  },
  XDeleteProperty: { parameters: ["pointer", "u64", "u64"], result: "i32" },
  XFree: { parameters: ["pointer"], result: "i32" },
  XQueryTree: {
    // display, window, &root, &parent, &children, &nchildren
    parameters: ["pointer", "u64", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  XGetWindowAttributes: { parameters: ["pointer", "u64", "buffer"], result: "i32" },
  XTranslateCoordinates: {
    // display, src, dest, src_x, src_y, &dest_x, &dest_y, &child
    parameters: ["pointer", "u64", "u64", "i32", "i32", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  XGetWMNormalHints: { parameters: ["pointer", "u64", "buffer", "buffer"], result: "i32" },
  XMoveResizeWindow: { parameters: ["pointer", "u64", "i32", "i32", "u32", "u32"], result: "i32" },
  XMoveWindow: { parameters: ["pointer", "u64", "i32", "i32"], result: "i32" },
  XResizeWindow: { parameters: ["pointer", "u64", "u32", "u32"], result: "i32" },
  XRaiseWindow: { parameters: ["pointer", "u64"], result: "i32" },
  XMapRaised: { parameters: ["pointer", "u64"], result: "i32" },
  XUnmapWindow: { parameters: ["pointer", "u64"], result: "i32" },
  XIconifyWindow: { parameters: ["pointer", "u64", "i32"], result: "i32" },
  XSetInputFocus: { parameters: ["pointer", "u64", "i32", "u64"], result: "i32" },
  // display, &focus, &revert_to
  XGetInputFocus: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  XSendEvent: { parameters: ["pointer", "u64", "i32", "i64", "buffer"], result: "i32" },
  XCreateSimpleWindow: {
    parameters: ["pointer", "u64", "i32", "i32", "u32", "u32", "u32", "u64", "u64"],
    result: "u64",
  },
  XDestroyWindow: { parameters: ["pointer", "u64"], result: "i32" },
  XSelectInput: { parameters: ["pointer", "u64", "i64"], result: "i32" },
  XSetSelectionOwner: { parameters: ["pointer", "u64", "u64", "u64"], result: "i32" },
  XGetSelectionOwner: { parameters: ["pointer", "u64"], result: "u64" },
  XConvertSelection: {
    parameters: ["pointer", "u64", "u64", "u64", "u64", "u64"],
    result: "i32",
  },
  XPending: { parameters: ["pointer"], result: "i32" },
  XNextEvent: { parameters: ["pointer", "buffer"], result: "i32" },
  XFlush: { parameters: ["pointer"], result: "i32" },
  XSync: { parameters: ["pointer", "i32"], result: "i32" },
  XSetErrorHandler: { parameters: ["pointer"], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound libX11 functions. */
export type X11Symbols = Deno.DynamicLibrary<typeof X11_SYMBOLS>["symbols"];

/** `ZPixmap` image format for XGetImage. */
export const Z_PIXMAP = 2;

/** `AllPlanes`: every bit of the plane mask. */
export const ALL_PLANES = 0xffff_ffff_ffff_ffffn;

/** Event type numbers. */
export const X_EVENT = {
  ClientMessage: 33,
  PropertyNotify: 28,
  SelectionClear: 29,
  SelectionRequest: 30,
  SelectionNotify: 31,
} as const;

/** Event masks for XSelectInput / XSendEvent. */
export const X_MASK = {
  PropertyChange: 1n << 22n,
  SubstructureNotify: 1n << 19n,
  SubstructureRedirect: 1n << 20n,
} as const;

/** `PropModeReplace` for XChangeProperty. */
export const PROP_MODE_REPLACE = 0;

/** `AnyPropertyType` for XGetWindowProperty. */
export const ANY_PROPERTY_TYPE = 0n;

/** `CurrentTime`. */
export const CURRENT_TIME = 0n;

/** `RevertToParent` for XSetInputFocus. */
export const REVERT_TO_PARENT = 2;

/** `map_state` values of XWindowAttributes. */
export const MAP_STATE = { Unmapped: 0, Unviewable: 1, Viewable: 2 } as const;

/** Byte offsets in the 64-bit `XWindowAttributes` struct (136 bytes). */
export const WINDOW_ATTRIBUTES = {
  size: 136,
  x: 0,
  y: 4,
  width: 8,
  height: 12,
  mapState: 92,
} as const;

/** Byte offsets in the 64-bit `XImage` struct. */
export const XIMAGE = {
  width: 0,
  height: 4,
  data: 16,
  byteOrder: 24,
  bytesPerLine: 44,
  bitsPerPixel: 48,
  redMask: 56,
  greenMask: 64,
  blueMask: 72,
} as const;

/** `XSizeHints` (80 bytes): flags and the min/max sizes. */
export const SIZE_HINTS = {
  size: 80,
  flags: 0,
  minWidth: 24,
  minHeight: 28,
  maxWidth: 32,
  maxHeight: 36,
  /** `PMinSize` and `PMaxSize` flag bits. */
  PMinSize: 1 << 4,
  PMaxSize: 1 << 5,
} as const;

/** The size of the `XEvent` union (24 longs). */
export const XEVENT_SIZE = 192;
