/**
 * CoreGraphics symbol table (window list and synthesized input) and its
 * constants. Plain data.
 *
 * `CGEventCreateScrollWheelEvent` is variadic, which Deno FFI cannot call
 * portably; `CGEventCreateScrollWheelEvent2` (macOS 10.13+) takes all three
 * wheel deltas as fixed arguments. Every `CGEventCreate*` result and
 * `CGWindowListCopyWindowInfo` is owned and `CFRelease`d.
 *
 * @module
 */

/** Where CoreGraphics lives on macOS. */
export const CORE_GRAPHICS_PATH = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics";

/** `CGPoint` passed by value: two doubles. */
export const CG_POINT = { struct: ["f64", "f64"] } as const satisfies Deno.NativeStructType;

/** `CGRect` passed or returned by value: origin x, y, then width, height (doubles). */
export const CG_RECT = {
  struct: ["f64", "f64", "f64", "f64"],
} as const satisfies Deno.NativeStructType;

/** CGWindowListOption / CGWindowImageOption values for screenshots. */
export const CG_WINDOW_IMAGE = {
  /** Everything on screen in the rectangle. */
  OnScreenOnly: 1,
  /** `kCGNullWindowID`. */
  NullWindow: 0,
  /** `kCGWindowImageDefault`. */
  Default: 0,
} as const;

/** CGBitmapInfo fields: the alpha kind (low 5 bits) and the 32-bit byte order. */
export const CG_BITMAP = {
  AlphaInfoMask: 0x1f,
  ByteOrderMask: 0x7000,
  ByteOrder32Little: 2 << 12,
  /** Alpha kinds whose alpha (or padding) byte comes first: PremultipliedFirst, First, NoneSkipFirst. */
  AlphaFirst: [2, 4, 6] as readonly number[],
} as const;

/** CoreGraphics functions and statics. */
export const CG_SYMBOLS = {
  CGWindowListCopyWindowInfo: { parameters: ["u32", "u32"], result: "pointer" },
  CGRectMakeWithDictionaryRepresentation: { parameters: ["pointer", "buffer"], result: "u8" },
  CGEventCreateMouseEvent: {
    parameters: ["pointer", "u32", CG_POINT, "u32"],
    result: "pointer",
  },
  CGEventCreateKeyboardEvent: { parameters: ["pointer", "u16", "bool"], result: "pointer" },
  CGEventKeyboardSetUnicodeString: { parameters: ["pointer", "usize", "buffer"], result: "void" },
  CGEventSetFlags: { parameters: ["pointer", "u64"], result: "void" },
  CGEventSetIntegerValueField: { parameters: ["pointer", "u32", "i64"], result: "void" },
  CGEventCreateScrollWheelEvent2: {
    parameters: ["pointer", "u32", "u32", "i32", "i32", "i32"],
    result: "pointer",
  },
  CGEventPost: { parameters: ["u32", "pointer"], result: "void" },
  // Screenshots. Optional: CGWindowListCreateImage is gone from the newest SDKs; a missing
  // symbol must not stop the rest of the backend from loading.
  CGWindowListCreateImage: {
    parameters: [CG_RECT, "u32", "u32", "u32"],
    result: "pointer",
    optional: true,
  },
  CGMainDisplayID: { parameters: [], result: "u32", optional: true },
  CGDisplayBounds: { parameters: ["u32"], result: CG_RECT, optional: true },
  CGImageGetWidth: { parameters: ["pointer"], result: "usize", optional: true },
  CGImageGetHeight: { parameters: ["pointer"], result: "usize", optional: true },
  CGImageGetBytesPerRow: { parameters: ["pointer"], result: "usize", optional: true },
  CGImageGetBitsPerPixel: { parameters: ["pointer"], result: "usize", optional: true },
  CGImageGetBitmapInfo: { parameters: ["pointer"], result: "u32", optional: true },
  CGImageGetDataProvider: { parameters: ["pointer"], result: "pointer", optional: true },
  CGDataProviderCopyData: { parameters: ["pointer"], result: "pointer", optional: true },
  /** `CFStringRef` dictionary keys of the window list: read the pointer at each address. */
  kCGWindowOwnerPID: { type: "pointer" },
  kCGWindowOwnerName: { type: "pointer" },
  kCGWindowName: { type: "pointer" },
  kCGWindowBounds: { type: "pointer" },
  kCGWindowLayer: { type: "pointer" },
  kCGWindowNumber: { type: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** CGWindowListOption bits. */
export const CG_WINDOW_LIST = {
  OnScreenOnly: 1 << 0,
  ExcludeDesktopElements: 1 << 4,
} as const;

/** CGEventType values. */
export const CG_EVENT = {
  LeftMouseDown: 1,
  LeftMouseUp: 2,
  RightMouseDown: 3,
  RightMouseUp: 4,
  MouseMoved: 5,
  LeftMouseDragged: 6,
  RightMouseDragged: 7,
  KeyDown: 10,
  KeyUp: 11,
  ScrollWheel: 22,
  OtherMouseDown: 25,
  OtherMouseUp: 26,
  OtherMouseDragged: 27,
} as const;

/** CGMouseButton values. */
export const CG_MOUSE_BUTTON = { Left: 0, Right: 1, Center: 2 } as const;

/** CGEventFlags modifier masks. */
export const CG_FLAG = {
  Shift: 0x20000,
  Control: 0x40000,
  Alternate: 0x80000,
  Command: 0x100000,
  SecondaryFn: 0x800000,
} as const;

/** `kCGMouseEventClickState`, the CGEventField for double clicks. */
export const CG_FIELD_MOUSE_CLICK_STATE = 1;

/** `kCGHIDEventTap`: post where hardware events enter. */
export const CG_HID_EVENT_TAP = 0;

/** CGScrollEventUnit values. */
export const CG_SCROLL_UNIT = { Pixel: 0, Line: 1 } as const;
