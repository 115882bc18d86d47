/**
 * The wlroots-era protocols the wlroots input and capture speak, described
 * in memory for libwayland-client: the virtual keyboard
 * (`zwp_virtual_keyboard_manager_v1`), the virtual pointer
 * (`zwlr_virtual_pointer_manager_v1`) and screencopy
 * (`zwlr_screencopy_manager_v1`), with their opcodes.
 *
 * @module
 */

import { describeInterface } from "../../../ffi/wayland.ts";

/** Pointers to the core interfaces libwayland-client exports. */
export interface CoreInterfaces {
  /** `wl_seat`. */
  seat: Deno.PointerValue;
  /** `wl_output`. */
  output: Deno.PointerValue;
  /** `wl_buffer`. */
  buffer: Deno.PointerValue;
}

/** The described interfaces. */
export interface WlrootsInterfaces {
  /** `zwp_virtual_keyboard_manager_v1`. */
  keyboardManager: Deno.PointerValue;
  /** `zwp_virtual_keyboard_v1`. */
  keyboard: Deno.PointerValue;
  /** `zwlr_virtual_pointer_manager_v1`. */
  pointerManager: Deno.PointerValue;
  /** `zwlr_virtual_pointer_v1`. */
  pointer: Deno.PointerValue;
  /** `zwlr_screencopy_manager_v1`. */
  screencopyManager: Deno.PointerValue;
  /** `zwlr_screencopy_frame_v1`. */
  frame: Deno.PointerValue;
}

/** Request opcodes. */
export const OP = {
  keyboardManager: { create: 0 },
  keyboard: { keymap: 0, key: 1, modifiers: 2, destroy: 3 },
  pointerManager: { create: 0 },
  pointer: {
    motion: 0,
    motionAbsolute: 1,
    button: 2,
    axis: 3,
    frame: 4,
    axisSource: 5,
    axisStop: 6,
    axisDiscrete: 7,
  },
  screencopyManager: { captureOutput: 0 },
  frame: { copy: 0, destroy: 1 },
} as const;

/** Event opcodes of a screencopy frame. */
export const FRAME_EVENT = { buffer: 0, flags: 1, ready: 2, failed: 3 } as const;

let described: WlrootsInterfaces | undefined;

/**
 * Describes the protocols once per process.
 *
 * @param core the core interfaces they refer to
 * @returns their interface pointers
 */
export function wlrootsInterfaces(core: CoreInterfaces): WlrootsInterfaces {
  if (described) return described;
  const keyboard = describeInterface({
    name: "zwp_virtual_keyboard_v1",
    version: 1,
    requests: [
      { name: "keymap", signature: "uhu" },
      { name: "key", signature: "uuu" },
      { name: "modifiers", signature: "uuuuu" },
      { name: "destroy", signature: "" },
    ],
    events: [],
  });
  const keyboardManager = describeInterface({
    name: "zwp_virtual_keyboard_manager_v1",
    version: 1,
    requests: [{ name: "create_virtual_keyboard", signature: "on", types: [core.seat, keyboard] }],
    events: [],
  });
  const pointer = describeInterface({
    name: "zwlr_virtual_pointer_v1",
    version: 2,
    requests: [
      { name: "motion", signature: "uff" },
      { name: "motion_absolute", signature: "uuuuu" },
      { name: "button", signature: "uuu" },
      { name: "axis", signature: "uuf" },
      { name: "frame", signature: "" },
      { name: "axis_source", signature: "u" },
      { name: "axis_stop", signature: "uu" },
      { name: "axis_discrete", signature: "uufi" },
      { name: "destroy", signature: "" },
    ],
    events: [],
  });
  const pointerManager = describeInterface({
    name: "zwlr_virtual_pointer_manager_v1",
    version: 2,
    requests: [
      { name: "create_virtual_pointer", signature: "?on", types: [core.seat, pointer] },
      { name: "destroy", signature: "" },
      {
        name: "create_virtual_pointer_with_output",
        signature: "2?o?on",
        types: [core.seat, core.output, pointer],
      },
    ],
    events: [],
  });
  const frame = describeInterface({
    name: "zwlr_screencopy_frame_v1",
    version: 1,
    requests: [
      { name: "copy", signature: "o", types: [core.buffer] },
      { name: "destroy", signature: "" },
    ],
    events: [
      { name: "buffer", signature: "uuuu" },
      { name: "flags", signature: "u" },
      { name: "ready", signature: "uuu" },
      { name: "failed", signature: "" },
    ],
  });
  const screencopyManager = describeInterface({
    name: "zwlr_screencopy_manager_v1",
    version: 1,
    requests: [
      { name: "capture_output", signature: "nio", types: [frame, null, core.output] },
      { name: "capture_output_region", signature: "nioiiii", types: [frame, null, core.output] },
      { name: "destroy", signature: "" },
    ],
    events: [],
  });
  described = { keyboardManager, keyboard, pointerManager, pointer, screencopyManager, frame };
  return described;
}
