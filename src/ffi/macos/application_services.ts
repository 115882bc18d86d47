/**
 * ApplicationServices (HIServices) AX symbol table, plus the AX constants the
 * macOS backend needs. Plain data: src/platform/macos does all the calling.
 *
 * Ownership (Create/Copy rule): every `AXUIElementCreate*`, `AXUIElementCopy*`,
 * `AXValueCreate` and `AXObserverCreate` result belongs to the caller and is
 * `CFRelease`d once; `AXObserverGetRunLoopSource` follows the Get rule.
 * Out-parameters (`CFTypeRef *`, `pid_t *`, `Boolean *`) are 8-byte buffers.
 *
 * @module
 */

/** Where ApplicationServices lives on macOS. */
export const APPLICATION_SERVICES_PATH =
  "/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices";

/** AX functions (AXUIElement.h, AXValue.h, AXObserver.h) and statics. */
export const AX_SYMBOLS = {
  AXUIElementCreateApplication: { parameters: ["i32"], result: "pointer" },
  AXUIElementCreateSystemWide: { parameters: [], result: "pointer" },
  AXUIElementCopyAttributeValue: { parameters: ["pointer", "pointer", "buffer"], result: "i32" },
  AXUIElementCopyMultipleAttributeValues: {
    parameters: ["pointer", "pointer", "u32", "buffer"],
    result: "i32",
  },
  AXUIElementCopyAttributeNames: { parameters: ["pointer", "buffer"], result: "i32" },
  AXUIElementCopyActionNames: { parameters: ["pointer", "buffer"], result: "i32" },
  AXUIElementPerformAction: { parameters: ["pointer", "pointer"], result: "i32" },
  AXUIElementSetAttributeValue: { parameters: ["pointer", "pointer", "pointer"], result: "i32" },
  AXUIElementIsAttributeSettable: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
  },
  AXUIElementSetMessagingTimeout: { parameters: ["pointer", "f32"], result: "i32" },
  AXUIElementGetPid: { parameters: ["pointer", "buffer"], result: "i32" },
  AXUIElementGetTypeID: { parameters: [], result: "usize" },
  AXIsProcessTrusted: { parameters: [], result: "u8" },
  AXIsProcessTrustedWithOptions: { parameters: ["pointer"], result: "u8" },
  AXValueCreate: { parameters: ["u32", "buffer"], result: "pointer" },
  AXValueGetType: { parameters: ["pointer"], result: "u32" },
  AXValueGetValue: { parameters: ["pointer", "u32", "buffer"], result: "u8" },
  AXValueGetTypeID: { parameters: [], result: "usize" },
  AXObserverCreate: { parameters: ["i32", "function", "buffer"], result: "i32" },
  AXObserverAddNotification: {
    parameters: ["pointer", "pointer", "pointer", "pointer"],
    result: "i32",
  },
  AXObserverRemoveNotification: { parameters: ["pointer", "pointer", "pointer"], result: "i32" },
  AXObserverGetRunLoopSource: { parameters: ["pointer"], result: "pointer" },
  /** `CFStringRef` variable: read the pointer stored at this address. */
  kAXTrustedCheckOptionPrompt: { type: "pointer" },
  // Pasteboard Manager (HIServices): the general clipboard. Optional, so that a system
  // without it only loses the clipboard. PasteboardItemID is a pointer-sized id.
  PasteboardCreate: { parameters: ["pointer", "buffer"], result: "i32", optional: true },
  PasteboardClear: { parameters: ["pointer"], result: "i32", optional: true },
  PasteboardSynchronize: { parameters: ["pointer"], result: "u32", optional: true },
  PasteboardPutItemFlavor: {
    parameters: ["pointer", "usize", "pointer", "pointer", "u32"],
    result: "i32",
    optional: true,
  },
  PasteboardGetItemCount: { parameters: ["pointer", "buffer"], result: "i32", optional: true },
  PasteboardGetItemIdentifier: {
    parameters: ["pointer", "isize", "buffer"],
    result: "i32",
    optional: true,
  },
  PasteboardCopyItemFlavorData: {
    parameters: ["pointer", "usize", "pointer", "buffer"],
    result: "i32",
    optional: true,
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** The AXObserverCallback signature: (observer, element, notification, refcon). */
export const AX_OBSERVER_CALLBACK = {
  parameters: ["pointer", "pointer", "pointer", "pointer"],
  result: "void",
} as const satisfies Deno.UnsafeCallbackDefinition;

/** AXValueType values (AXValue.h). */
export const AX_VALUE_TYPE = {
  CGPoint: 1,
  CGSize: 2,
  CGRect: 3,
  CFRange: 4,
  AXError: 5,
} as const;

/** `kAXCopyMultipleAttributeOptionStopOnError`; 0 asks for per-slot error placeholders. */
export const AX_COPY_MULTIPLE_STOP_ON_ERROR = 1;
