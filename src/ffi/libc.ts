/**
 * The few C library functions the input lock uses (open, flock, close), for
 * Linux and macOS. Plain data: no logic lives here. `open` is called without
 * `O_CREAT`, so its variadic mode argument is never passed.
 *
 * @module
 */

/** The C library's name on this platform. */
export const LIBC_LIBRARY: string = Deno.build.os === "darwin"
  ? "/usr/lib/libSystem.B.dylib"
  : "libc.so.6";

/** libc functions. */
export const LIBC_SYMBOLS = {
  open: { parameters: ["buffer", "i32"], result: "i32" },
  flock: { parameters: ["i32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** `O_RDWR`. */
export const O_RDWR = 2;

/** `O_CLOEXEC`: a child process (an app launched meanwhile) does not inherit the lock. */
export const O_CLOEXEC: number = Deno.build.os === "darwin" ? 0x1000000 : 0o2000000;

/** `flock` operations. */
export const LOCK = { EX: 2, NB: 4, UN: 8 } as const;
