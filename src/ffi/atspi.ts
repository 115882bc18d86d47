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
  atspi_text_get_caret_offset: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_text_get_n_selections: { parameters: ["pointer", "buffer"], result: "i32" },
  atspi_text_get_selection: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  atspi_editable_text_set_text_contents: {
    parameters: ["pointer", "buffer", "buffer"],
    result: "i32",
  },
  atspi_value_get_current_value: { parameters: ["pointer", "buffer"], result: "f64" },
  atspi_value_get_minimum_value: { parameters: ["pointer", "buffer"], result: "f64" },
  atspi_value_get_maximum_value: { parameters: ["pointer", "buffer"], result: "f64" },
  atspi_value_get_minimum_increment: { parameters: ["pointer", "buffer"], result: "f64" },
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

/**
 * The AtspiRole enum: every role name to its numeric code (AT-SPI 2.46
 * order, plus `SWITCH` = 130, which later versions added where 2.46 had
 * LAST_DEFINED). The one place a role number is written: code elsewhere
 * names the role (`ATSPI_ROLE.MENU`), never the number. A unit test checks it
 * against the model's name list.
 */
export const ATSPI_ROLE = {
  INVALID: 0,
  ACCELERATOR_LABEL: 1,
  ALERT: 2,
  ANIMATION: 3,
  ARROW: 4,
  CALENDAR: 5,
  CANVAS: 6,
  CHECK_BOX: 7,
  CHECK_MENU_ITEM: 8,
  COLOR_CHOOSER: 9,
  COLUMN_HEADER: 10,
  COMBO_BOX: 11,
  DATE_EDITOR: 12,
  DESKTOP_ICON: 13,
  DESKTOP_FRAME: 14,
  DIAL: 15,
  DIALOG: 16,
  DIRECTORY_PANE: 17,
  DRAWING_AREA: 18,
  FILE_CHOOSER: 19,
  FILLER: 20,
  FOCUS_TRAVERSABLE: 21,
  FONT_CHOOSER: 22,
  FRAME: 23,
  GLASS_PANE: 24,
  HTML_CONTAINER: 25,
  ICON: 26,
  IMAGE: 27,
  INTERNAL_FRAME: 28,
  LABEL: 29,
  LAYERED_PANE: 30,
  LIST: 31,
  LIST_ITEM: 32,
  MENU: 33,
  MENU_BAR: 34,
  MENU_ITEM: 35,
  OPTION_PANE: 36,
  PAGE_TAB: 37,
  PAGE_TAB_LIST: 38,
  PANEL: 39,
  PASSWORD_TEXT: 40,
  POPUP_MENU: 41,
  PROGRESS_BAR: 42,
  PUSH_BUTTON: 43,
  RADIO_BUTTON: 44,
  RADIO_MENU_ITEM: 45,
  ROOT_PANE: 46,
  ROW_HEADER: 47,
  SCROLL_BAR: 48,
  SCROLL_PANE: 49,
  SEPARATOR: 50,
  SLIDER: 51,
  SPIN_BUTTON: 52,
  SPLIT_PANE: 53,
  STATUS_BAR: 54,
  TABLE: 55,
  TABLE_CELL: 56,
  TABLE_COLUMN_HEADER: 57,
  TABLE_ROW_HEADER: 58,
  TEAROFF_MENU_ITEM: 59,
  TERMINAL: 60,
  TEXT: 61,
  TOGGLE_BUTTON: 62,
  TOOL_BAR: 63,
  TOOL_TIP: 64,
  TREE: 65,
  TREE_TABLE: 66,
  UNKNOWN: 67,
  VIEWPORT: 68,
  WINDOW: 69,
  EXTENDED: 70,
  HEADER: 71,
  FOOTER: 72,
  PARAGRAPH: 73,
  RULER: 74,
  APPLICATION: 75,
  AUTOCOMPLETE: 76,
  EDITBAR: 77,
  EMBEDDED: 78,
  ENTRY: 79,
  CHART: 80,
  CAPTION: 81,
  DOCUMENT_FRAME: 82,
  HEADING: 83,
  PAGE: 84,
  SECTION: 85,
  REDUNDANT_OBJECT: 86,
  FORM: 87,
  LINK: 88,
  INPUT_METHOD_WINDOW: 89,
  TABLE_ROW: 90,
  TREE_ITEM: 91,
  DOCUMENT_SPREADSHEET: 92,
  DOCUMENT_PRESENTATION: 93,
  DOCUMENT_TEXT: 94,
  DOCUMENT_WEB: 95,
  DOCUMENT_EMAIL: 96,
  COMMENT: 97,
  LIST_BOX: 98,
  GROUPING: 99,
  IMAGE_MAP: 100,
  NOTIFICATION: 101,
  INFO_BAR: 102,
  LEVEL_BAR: 103,
  TITLE_BAR: 104,
  BLOCK_QUOTE: 105,
  AUDIO: 106,
  VIDEO: 107,
  DEFINITION: 108,
  ARTICLE: 109,
  LANDMARK: 110,
  LOG: 111,
  MARQUEE: 112,
  MATH: 113,
  RATING: 114,
  TIMER: 115,
  STATIC: 116,
  MATH_FRACTION: 117,
  MATH_ROOT: 118,
  SUBSCRIPT: 119,
  SUPERSCRIPT: 120,
  DESCRIPTION_LIST: 121,
  DESCRIPTION_TERM: 122,
  DESCRIPTION_VALUE: 123,
  FOOTNOTE: 124,
  CONTENT_DELETION: 125,
  CONTENT_INSERTION: 126,
  MARK: 127,
  SUGGESTION: 128,
  PUSH_BUTTON_MENU: 129,
  SWITCH: 130,
} as const;

/** A numeric AtspiRole code. */
export type AtspiRoleCode = (typeof ATSPI_ROLE)[keyof typeof ATSPI_ROLE];

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
  HORIZONTAL: 14,
  MODAL: 16,
  MULTI_LINE: 17,
  PRESSED: 20,
  SELECTABLE: 22,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  VERTICAL: 29,
  VISIBLE: 30,
  INDETERMINATE: 32,
  REQUIRED: 33,
  INVALID_ENTRY: 36,
  CHECKABLE: 41,
  READ_ONLY: 43,
} as const;
