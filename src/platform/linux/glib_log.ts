/**
 * Keeps libatspi's GLib warnings off stderr, where only the command's JSON
 * error belongs. libatspi logs under the GLib domain `dbind`; the one seen
 * beside our errors is `AT-SPI: Error in GetItems, sender=..., error=...`
 * (atspi-misc.c, handle_get_items): the reply handler of the `GetItems` call
 * libatspi sends every app it learns of (atspi_get_desktop does so for every
 * registered app). libatspi 2.46 warns on any error reply but ServiceUnknown,
 * so a stopped or killed app's NoReply or disconnect is printed at the next
 * main-context iteration, while a command runs on another app. The failure
 * itself reaches us as a GError or a timeout where it matters.
 *
 * @module
 */

import { ATSPI_LIBRARY } from "../../ffi/atspi.ts";
import { cstr } from "../../ffi/cstring.ts";

/** `g_log_set_handler`, resolved through libatspi, which links GLib. */
const LOG_SYMBOLS = {
  g_log_set_handler: { parameters: ["buffer", "i32", "function", "pointer"], result: "u32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** `GLogFunc (domain, level, message, user_data)`. */
const LOG_FUNC = {
  parameters: ["pointer", "i32", "pointer", "pointer"],
  result: "void",
} as const satisfies Deno.UnsafeCallbackDefinition;

/**
 * G_LOG_LEVEL_CRITICAL | WARNING | MESSAGE | INFO | DEBUG (never ERROR, which
 * aborts, nor the fatal flags).
 */
const QUIET_LEVELS = (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7);

/** The handler, kept for the life of the process: GLib holds its pointer. */
let handler: Deno.UnsafeCallback<typeof LOG_FUNC> | null = null;

/**
 * Routes libatspi's `dbind` log domain to a handler that drops it. Call
 * once libatspi is loaded, before its first call; later calls do nothing.
 * GLib calls the handler on this thread, inside our synchronous libatspi
 * calls and main-context iterations.
 *
 * @returns true when the handler is in place
 */
export function quietLibatspiLog(): boolean {
  if (handler) return true;
  try {
    const lib = Deno.dlopen(ATSPI_LIBRARY, LOG_SYMBOLS);
    const cb = new Deno.UnsafeCallback(LOG_FUNC, () => {});
    lib.symbols.g_log_set_handler(cstr("dbind"), QUIET_LEVELS, cb.pointer, null);
    handler = cb;
    return true;
  } catch {
    return false; // no libatspi: nothing would print either
  }
}
