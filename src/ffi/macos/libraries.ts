/**
 * Opens ApplicationServices, CoreFoundation and CoreGraphics (or, when
 * `DESKTOP_AX_SHIM` names a shared library, all three tables from it: the
 * Linux test shim) and reads the static variables once.
 *
 * @module
 */

import { APPLICATION_SERVICES_PATH, AX_SYMBOLS } from "./application_services.ts";
import { CF_SYMBOLS, CORE_FOUNDATION_PATH } from "./core_foundation.ts";
import { CG_SYMBOLS, CORE_GRAPHICS_PATH } from "./core_graphics.ts";

/** The environment variable that redirects all three frameworks to one shim library. */
export const SHIM_ENV = "DESKTOP_AX_SHIM";

/** Bound AX functions. */
export type AxSymbols = Deno.DynamicLibrary<typeof AX_SYMBOLS>["symbols"];
/** Bound CoreFoundation functions. */
export type CfSymbols = Deno.DynamicLibrary<typeof CF_SYMBOLS>["symbols"];
/** Bound CoreGraphics functions. */
export type CgSymbols = Deno.DynamicLibrary<typeof CG_SYMBOLS>["symbols"];

/** Values of the framework's exported variables (CF objects and struct addresses). */
export interface MacosStatics {
  /** `kCFBooleanTrue` (a CFBooleanRef). */
  cfTrue: Deno.PointerObject;
  /** `kCFBooleanFalse`. */
  cfFalse: Deno.PointerObject;
  /** `kCFRunLoopDefaultMode` (a CFStringRef). */
  runLoopDefaultMode: Deno.PointerObject;
  /** `&kCFTypeArrayCallBacks`. */
  arrayCallBacks: Deno.PointerObject;
  /** `&kCFTypeDictionaryKeyCallBacks`. */
  dictKeyCallBacks: Deno.PointerObject;
  /** `&kCFTypeDictionaryValueCallBacks`. */
  dictValueCallBacks: Deno.PointerObject;
  /** `kAXTrustedCheckOptionPrompt` (a CFStringRef). */
  trustedCheckOptionPrompt: Deno.PointerObject;
  /** Window-list dictionary keys (CFStringRefs). */
  window: {
    ownerPid: Deno.PointerObject;
    ownerName: Deno.PointerObject;
    name: Deno.PointerObject;
    bounds: Deno.PointerObject;
    layer: Deno.PointerObject;
    number: Deno.PointerObject;
  };
}

/** The three opened libraries. Close once when the provider closes. */
export interface MacosLibraries {
  /** AX functions. */
  ax: AxSymbols;
  /** CoreFoundation functions. */
  cf: CfSymbols;
  /** CoreGraphics functions. */
  cg: CgSymbols;
  /** Values of the exported variables. */
  statics: MacosStatics;
  /** The shim path when running against the test shim, else undefined. */
  shim?: string;
  /** Closes every library handle. */
  close(): void;
}

/** Where each framework is loaded from. */
export interface LibraryPaths {
  /** ApplicationServices (AX). */
  ax: string;
  /** CoreFoundation. */
  cf: string;
  /** CoreGraphics. */
  cg: string;
  /** Set when all three are the shim. */
  shim?: string;
}

/**
 * Decides where to load the frameworks from: the shim when `shimPath` is set,
 * else the system frameworks.
 *
 * @param shimPath value of DESKTOP_AX_SHIM, if any
 * @returns the three paths
 * @example
 * ```ts
 * import { libraryPaths } from "./libraries.ts";
 * console.log(libraryPaths("/tmp/libaxshim.so").cf); // "/tmp/libaxshim.so"
 * ```
 */
export function libraryPaths(shimPath?: string): LibraryPaths {
  if (shimPath) return { ax: shimPath, cf: shimPath, cg: shimPath, shim: shimPath };
  return { ax: APPLICATION_SERVICES_PATH, cf: CORE_FOUNDATION_PATH, cg: CORE_GRAPHICS_PATH };
}

/** Reads the pointer stored in an exported pointer variable (its address is what Deno gives). */
function deref(address: Deno.PointerValue, name: string): Deno.PointerObject {
  if (address === null) throw new Error(`${name} is missing`);
  const value = new Deno.UnsafePointerView(address).getPointer();
  if (value === null) throw new Error(`${name} is NULL`);
  return value;
}

function address(p: Deno.PointerValue, name: string): Deno.PointerObject {
  if (p === null) throw new Error(`${name} is missing`);
  return p;
}

/**
 * Opens the three libraries. Throws whatever `Deno.dlopen` throws (the caller
 * turns it into a DesktopError).
 *
 * @param paths from {@link libraryPaths}
 * @returns bound symbols and statics
 */
export function openMacosLibraries(paths: LibraryPaths): MacosLibraries {
  const ax = Deno.dlopen(paths.ax, AX_SYMBOLS);
  let cf: Deno.DynamicLibrary<typeof CF_SYMBOLS> | undefined;
  let cg: Deno.DynamicLibrary<typeof CG_SYMBOLS> | undefined;
  try {
    cf = Deno.dlopen(paths.cf, CF_SYMBOLS);
    cg = Deno.dlopen(paths.cg, CG_SYMBOLS);
    const c = cf.symbols;
    const g = cg.symbols;
    const statics: MacosStatics = {
      cfTrue: deref(c.kCFBooleanTrue, "kCFBooleanTrue"),
      cfFalse: deref(c.kCFBooleanFalse, "kCFBooleanFalse"),
      runLoopDefaultMode: deref(c.kCFRunLoopDefaultMode, "kCFRunLoopDefaultMode"),
      arrayCallBacks: address(c.kCFTypeArrayCallBacks, "kCFTypeArrayCallBacks"),
      dictKeyCallBacks: address(c.kCFTypeDictionaryKeyCallBacks, "kCFTypeDictionaryKeyCallBacks"),
      dictValueCallBacks: address(
        c.kCFTypeDictionaryValueCallBacks,
        "kCFTypeDictionaryValueCallBacks",
      ),
      trustedCheckOptionPrompt: deref(
        ax.symbols.kAXTrustedCheckOptionPrompt,
        "kAXTrustedCheckOptionPrompt",
      ),
      window: {
        ownerPid: deref(g.kCGWindowOwnerPID, "kCGWindowOwnerPID"),
        ownerName: deref(g.kCGWindowOwnerName, "kCGWindowOwnerName"),
        name: deref(g.kCGWindowName, "kCGWindowName"),
        bounds: deref(g.kCGWindowBounds, "kCGWindowBounds"),
        layer: deref(g.kCGWindowLayer, "kCGWindowLayer"),
        number: deref(g.kCGWindowNumber, "kCGWindowNumber"),
      },
    };
    const libs = [ax, cf, cg];
    return {
      ax: ax.symbols,
      cf: cf.symbols,
      cg: cg.symbols,
      statics,
      shim: paths.shim,
      close() {
        for (const lib of libs.splice(0)) lib.close();
      },
    };
  } catch (err) {
    cg?.close();
    cf?.close();
    ax.close();
    throw err;
  }
}
