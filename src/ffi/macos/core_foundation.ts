/**
 * CoreFoundation symbol table and constants. Plain data.
 *
 * Ownership (Create/Copy rule): `CF*Create*` and `*Copy*` results are owned
 * by the caller and released once with `CFRelease`; `CF*Get*` results
 * (`CFArrayGetValueAtIndex`, `CFDictionaryGetValue`, `CFRunLoopGetCurrent`)
 * are borrowed.
 *
 * @module
 */

/** Where CoreFoundation lives on macOS. */
export const CORE_FOUNDATION_PATH =
  "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation";

/** CoreFoundation functions and statics. */
export const CF_SYMBOLS = {
  CFRelease: { parameters: ["pointer"], result: "void" },
  CFRetain: { parameters: ["pointer"], result: "pointer" },
  CFGetRetainCount: { parameters: ["pointer"], result: "isize" },
  CFGetTypeID: { parameters: ["pointer"], result: "usize" },
  CFDataCreate: { parameters: ["pointer", "buffer", "isize"], result: "pointer", optional: true },
  CFDataGetLength: { parameters: ["pointer"], result: "isize", optional: true },
  CFDataGetBytePtr: { parameters: ["pointer"], result: "pointer", optional: true },
  CFEqual: { parameters: ["pointer", "pointer"], result: "u8" },
  CFHash: { parameters: ["pointer"], result: "usize" },
  CFStringCreateWithCString: { parameters: ["pointer", "buffer", "u32"], result: "pointer" },
  CFStringCreateWithBytes: {
    parameters: ["pointer", "buffer", "isize", "u32", "u8"],
    result: "pointer",
  },
  CFStringGetCString: { parameters: ["pointer", "buffer", "isize", "u32"], result: "u8" },
  CFStringGetLength: { parameters: ["pointer"], result: "isize" },
  CFStringGetMaximumSizeForEncoding: { parameters: ["isize", "u32"], result: "isize" },
  CFStringGetTypeID: { parameters: [], result: "usize" },
  /** `CFRange` by value: `{ CFIndex location; CFIndex length }`. */
  CFStringCreateWithSubstring: {
    parameters: ["pointer", "pointer", { struct: ["isize", "isize"] }],
    result: "pointer",
  },
  CFArrayCreate: { parameters: ["pointer", "buffer", "isize", "pointer"], result: "pointer" },
  CFArrayGetCount: { parameters: ["pointer"], result: "isize" },
  CFArrayGetValueAtIndex: { parameters: ["pointer", "isize"], result: "pointer" },
  CFArrayGetTypeID: { parameters: [], result: "usize" },
  CFNumberCreate: { parameters: ["pointer", "isize", "buffer"], result: "pointer" },
  CFNumberGetValue: { parameters: ["pointer", "isize", "buffer"], result: "u8" },
  CFNumberGetTypeID: { parameters: [], result: "usize" },
  CFBooleanGetValue: { parameters: ["pointer"], result: "u8" },
  CFBooleanGetTypeID: { parameters: [], result: "usize" },
  CFNullGetTypeID: { parameters: [], result: "usize" },
  CFDictionaryCreate: {
    parameters: ["pointer", "buffer", "buffer", "isize", "pointer", "pointer"],
    result: "pointer",
  },
  CFDictionaryGetValue: { parameters: ["pointer", "pointer"], result: "pointer" },
  CFDictionaryGetTypeID: { parameters: [], result: "usize" },
  CFRunLoopGetCurrent: { parameters: [], result: "pointer" },
  CFRunLoopAddSource: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
  CFRunLoopRemoveSource: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
  CFRunLoopRunInMode: { parameters: ["pointer", "f64", "u8"], result: "i32" },
  /** `CFBooleanRef` variable: read the pointer stored at this address. */
  kCFBooleanTrue: { type: "pointer" },
  /** `CFBooleanRef` variable: read the pointer stored at this address. */
  kCFBooleanFalse: { type: "pointer" },
  /** `CFStringRef` variable: read the pointer stored at this address. */
  kCFRunLoopDefaultMode: { type: "pointer" },
  /** A struct: its address is what `CFArrayCreate` takes. */
  kCFTypeArrayCallBacks: { type: "pointer" },
  /** A struct: its address is what `CFDictionaryCreate` takes. */
  kCFTypeDictionaryKeyCallBacks: { type: "pointer" },
  /** A struct: its address is what `CFDictionaryCreate` takes. */
  kCFTypeDictionaryValueCallBacks: { type: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** `kCFStringEncodingUTF8`. */
export const CF_STRING_ENCODING_UTF8 = 0x08000100;

/** CFNumberType values used here. */
export const CF_NUMBER_TYPE = {
  SInt32: 3,
  SInt64: 4,
  Float64: 6,
} as const;

/** CFRunLoopRunInMode results. */
export const CF_RUN_LOOP_RESULT = {
  Finished: 1,
  Stopped: 2,
  TimedOut: 3,
  HandledSource: 4,
} as const;
