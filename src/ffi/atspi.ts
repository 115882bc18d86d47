/**
 * libatspi.so.0 symbol table (at-spi2-core 2.46 ABI) plus the GLib symbols it
 * resolves, and the numeric constants of its enums. Plain data: the Linux
 * provider (src/platform/linux) does all the calling.
 *
 * Ownership (libatspi's annotations): returned strings are `g_free`d by the
 * caller, returned objects (children, interfaces, state sets, relations) are
 * `g_object_unref`ed, `AtspiRect` is `g_free`d, arrays are `g_array_unref`ed.
 *
 * @module
 */

import { GLIB_SYMBOLS } from "./glib.ts";

/** The shared-object name of libatspi. */
export const ATSPI_LIBRARY = "libatspi.so.0";

/** libatspi functions used by the Linux backend. `GError**` parameters are 8-byte buffers. */
export const ATSPI_SYMBOLS = {
  ...GLIB_SYMBOLS,
  atspi_init: { parameters: [], result: "i32" },
  atspi_set_timeout: { parameters: ["i32", "i32"], result: "void" },
  atspi_get_desktop: { parameters: ["i32"], result: "pointer" },
  atspi_accessible_set_cache_mask: { parameters: ["pointer", "i32"], result: "void" },
  atspi_accessible_clear_cache: { parameters: ["pointer"], result: "void" },
  atspi_accessible_get_child_count: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_accessible_get_child_at_index: {
    parameters: ["pointer", "i32", "buffer"],
    result: "pointer",
  },
  atspi_accessible_get_parent: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_name: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_description: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_role: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_accessible_get_state_set: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_process_id: { parameters: ["pointer", "buffer"], result: "u32" },
  atspi_accessible_get_application: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_toolkit_name: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_toolkit_version: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_interfaces: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_attributes: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_relation_set: { parameters: ["pointer", "buffer"], result: "pointer" },
  atspi_accessible_get_action_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_component_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_text_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_editable_text_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_value_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_hyperlink: { parameters: ["pointer"], result: "pointer" },
  atspi_hyperlink_get_start_index: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_hyperlink_get_end_index: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_accessible_get_selection_iface: { parameters: ["pointer"], result: "pointer" },
  atspi_accessible_get_index_in_parent: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_state_set_contains: { parameters: ["pointer", "i32"], result: "i32" },
  atspi_relation_get_relation_type: { parameters: ["pointer"], result: "i32" },
  atspi_relation_get_n_targets: { parameters: ["pointer"], result: "i32" },
  atspi_relation_get_target: { parameters: ["pointer", "i32"], result: "pointer" },
  atspi_component_get_extents: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  atspi_component_grab_focus: { parameters: ["pointer", "buffer"], result: "i32" },
  // component, x, y, coord type, error
  atspi_component_get_accessible_at_point: {
    parameters: ["pointer", "i32", "i32", "i32", "buffer"],
    result: "pointer",
  },
  atspi_component_scroll_to: { parameters: ["pointer", "i32", "buffer"], result: "i32" },
  atspi_action_get_n_actions: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_action_get_action_name: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  atspi_action_do_action: { parameters: ["pointer", "i32", "buffer"], result: "i32" },
  atspi_text_get_character_count: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_text_get_text: { parameters: ["pointer", "i32", "i32", "buffer"], result: "pointer" },
  atspi_editable_text_set_text_contents: {
    parameters: ["pointer", "buffer", "buffer"],
    result: "i32",
  },
  atspi_value_get_current_value: { parameters: ["pointer", "buffer"], result: "f64" },
  atspi_value_get_minimum_value: { parameters: ["pointer", "buffer"], result: "f64" },
  atspi_value_get_maximum_value: { parameters: ["pointer", "buffer"], result: "f64" },
  atspi_value_set_current_value: { parameters: ["pointer", "f64", "buffer"], result: "i32" },
  atspi_selection_select_child: { parameters: ["pointer", "i32", "buffer"], result: "i32" },
  atspi_generate_mouse_event: { parameters: ["i64", "i64", "buffer", "buffer"], result: "i32" },
  atspi_generate_keyboard_event: {
    parameters: ["i64", "buffer", "i32", "buffer"],
    result: "i32",
  },
  /** Exported but private: a new reference to the object `path` of app `bus`. */
  _atspi_ref_accessible: { parameters: ["buffer", "buffer"], result: "pointer" },
  atspi_event_get_type: { parameters: [], result: "usize" },
  atspi_event_listener_new: {
    parameters: ["function", "pointer", "pointer"],
    result: "pointer",
  },
  atspi_event_listener_register: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  atspi_event_listener_deregister: {
    parameters: ["pointer", "buffer", "buffer"],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** The callback type of `atspi_event_listener_new`: `void (*)(AtspiEvent*, void*)`. */
export const ATSPI_EVENT_CALLBACK = {
  parameters: ["pointer", "pointer"],
  result: "void",
} as const satisfies Deno.UnsafeCallbackDefinition;

/** AtspiCache bits: cache everything the app sends. */
export const ATSPI_CACHE_ALL = 0x3fffffff;

/** AtspiCache bit for child lists. */
export const ATSPI_CACHE_CHILDREN = 0x2;

/** AtspiCoordType: global screen coordinates. */
export const ATSPI_COORD_TYPE_SCREEN = 0;

/** AtspiScrollType: scroll the least needed to show the object. */
export const ATSPI_SCROLL_ANYWHERE = 6;

/** AtspiRelationType values used by the backend. */
export const ATSPI_RELATION = { LABEL_FOR: 1, LABELLED_BY: 2 } as const;

/** AtspiKeySynthType values for `atspi_generate_keyboard_event`. */
export const ATSPI_KEY = {
  PRESS: 0,
  RELEASE: 1,
  PRESSRELEASE: 2,
  SYM: 3,
  STRING: 4,
  LOCKMODIFIERS: 5,
  UNLOCKMODIFIERS: 6,
} as const;

/** AtspiRole values the backend treats specially. */
export const ATSPI_ROLE = {
  APPLICATION: 75,
  FRAME: 23,
  DIALOG: 16,
  WINDOW: 69,
  PASSWORD_TEXT: 40,
  HEADING: 83,
  MENU: 33,
  LIST: 31,
} as const;

/** AtspiStateType bit numbers (index into the 64-bit state set). */
export const ATSPI_STATE = {
  ACTIVE: 1,
  CHECKED: 4,
  DEFUNCT: 6,
  EDITABLE: 7,
  ENABLED: 8,
  EXPANDABLE: 9,
  EXPANDED: 10,
  FOCUSABLE: 11,
  FOCUSED: 12,
  MODAL: 16,
  PRESSED: 20,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  VISIBLE: 30,
  INDETERMINATE: 32,
  REQUIRED: 33,
  CHECKABLE: 41,
  READ_ONLY: 43,
} as const;
