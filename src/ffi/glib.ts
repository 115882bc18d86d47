/**
 * GLib / GObject symbols that libatspi depends on. libatspi.so.0 links GLib,
 * so opening it with this table resolves them too (see atspi.ts). Plain data:
 * no logic lives here.
 *
 * @module
 */

/** GLib and GObject functions the Linux backend calls. */
export const GLIB_SYMBOLS = {
  g_free: { parameters: ["pointer"], result: "void" },
  g_object_ref: { parameters: ["pointer"], result: "pointer" },
  g_object_unref: { parameters: ["pointer"], result: "void" },
  g_error_free: { parameters: ["pointer"], result: "void" },
  g_array_unref: { parameters: ["pointer"], result: "void" },
  g_boxed_free: { parameters: ["usize", "pointer"], result: "void" },
  g_hash_table_lookup: { parameters: ["pointer", "buffer"], result: "pointer" },
  g_hash_table_unref: { parameters: ["pointer"], result: "void" },
  g_main_context_iteration: { parameters: ["pointer", "i32"], result: "i32" },
  g_main_context_pending: { parameters: ["pointer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;
