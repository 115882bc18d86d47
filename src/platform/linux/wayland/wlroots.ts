/**
 * Keys, pointer and screenshots on wlroots compositors (sway, Hyprland,
 * river, labwc...) through their own protocols, spoken by FFI over
 * libwayland-client: the virtual keyboard (`zwp_virtual_keyboard_manager_v1`,
 * with an uploaded xkb keymap holding one key per keysym pressed), the
 * virtual pointer (`zwlr_virtual_pointer_manager_v1`, absolute motion over
 * the whole output layout) and screencopy (`zwlr_screencopy_manager_v1`,
 * into a shared-memory buffer). Nothing is shelled out.
 *
 * Points are global layout pixels (sway's IPC gives each window's place:
 * see sway_ipc.ts). One connection per process, opened on first use and
 * again after it broke.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import type { InputDelegate } from "../../../act/delegates.ts";
import { badCombo, type KeyChord, type Modifier } from "../../../act/keys.ts";
import type { Bounds, Point } from "../../../model/element.ts";
import type { RgbaImage } from "../../../output/image.ts";
import type { MouseButton, ScreenCapture, ScrollDirection } from "../../provider.ts";
import { WAYLAND_CLIENT_LIBRARY, WAYLAND_SYMBOLS } from "../../../ffi/wayland.ts";
import { keysymFor } from "../keys.ts";
import { WaylandClient } from "./wlroots_client.ts";
import { shm } from "./wlroots_client.ts";
import { buildKeymap, typedKeysym, XKB_MODIFIER_MASKS } from "./wlroots_keymap.ts";
import { FRAME_EVENT, OP, type WlrootsInterfaces, wlrootsInterfaces } from "./wlroots_protocols.ts";

/** How long one input or capture call may take at most. */
const CALL_MS = 5_000;

/** How long a new keymap is given to reach the focused app before keys that use it. */
const KEYMAP_SETTLE_MS = 100;

/** How long the pointer's arrival is given to reach the app before wheel notches. */
const POINTER_SETTLE_MS = 50;

/** Linux evdev button codes. */
const BUTTONS: Readonly<Record<MouseButton, number>> = { left: 0x110, right: 0x111, middle: 0x112 };

/** One output's place in the layout. */
interface OutputPlace {
  proxy: Deno.PointerValue;
  x: number;
  y: number;
  /** Current mode in buffer pixels. */
  width: number;
  height: number;
  scale: number;
}

/** One connection with what it bound. */
class Session {
  readonly client: WaylandClient;
  readonly ifaces: WlrootsInterfaces;
  readonly seat: Deno.PointerValue;
  readonly outputs: OutputPlace[] = [];
  readonly keyboardManager: Deno.PointerValue;
  readonly pointerManager: Deno.PointerValue;
  readonly screencopy: Deno.PointerValue;
  keyboard: Deno.PointerValue = null;
  pointer: Deno.PointerValue = null;
  keymapSyms: number[] = [];
  keymapCodes: ReadonlyMap<number, number> = new Map();

  constructor(deadline: number) {
    this.client = WaylandClient.connect(deadline);
    const core = Deno.dlopen(WAYLAND_CLIENT_LIBRARY, WAYLAND_SYMBOLS).symbols;
    this.ifaces = wlrootsInterfaces({
      seat: core.wl_seat_interface,
      output: core.wl_output_interface,
      buffer: core.wl_buffer_interface,
    });
    this.seat = this.client.bind("wl_seat", core.wl_seat_interface, 1);
    for (const proxy of this.client.bindAll("wl_output", core.wl_output_interface, 2)) {
      const place: OutputPlace = { proxy, x: 0, y: 0, width: 0, height: 0, scale: 1 };
      this.client.listen(proxy, (op, args) => {
        if (op === 0) {
          place.x = args.getInt32(0);
          place.y = args.getInt32(8);
        } else if (op === 1 && (args.getUint32(0) & 1) !== 0) {
          place.width = args.getInt32(8);
          place.height = args.getInt32(16);
        } else if (op === 3) place.scale = Math.max(1, args.getInt32(0));
      });
      this.outputs.push(place);
    }
    this.keyboardManager = this.client.bind(
      "zwp_virtual_keyboard_manager_v1",
      this.ifaces.keyboardManager,
      1,
    );
    this.pointerManager = this.client.bind(
      "zwlr_virtual_pointer_manager_v1",
      this.ifaces.pointerManager,
      1,
    );
    this.screencopy = this.client.bind(
      "zwlr_screencopy_manager_v1",
      this.ifaces.screencopyManager,
      1,
    );
    this.client.roundtrip(deadline);
  }

  /** The output layout's box in logical pixels. */
  layout(): Bounds {
    const placed = this.outputs.filter((o) => o.width > 0);
    if (placed.length === 0) {
      throw new DesktopError(
        "PLATFORM_NOT_SUPPORTED",
        `the Wayland compositor at ${this.client.socket} has no output`,
        {
          suggestion: "enable an output (a headless compositor needs one created)",
        },
      );
    }
    const x0 = Math.min(...placed.map((o) => o.x));
    const y0 = Math.min(...placed.map((o) => o.y));
    const x1 = Math.max(...placed.map((o) => o.x + o.width / o.scale));
    const y1 = Math.max(...placed.map((o) => o.y + o.height / o.scale));
    return [x0, y0, x1 - x0, y1 - y0];
  }

  lacks(protocol: string, what: string, wayRound: string): DesktopError {
    return new DesktopError(
      "PLATFORM_NOT_SUPPORTED",
      `the Wayland compositor at ${this.client.socket} does not offer ${protocol}: ${what}`,
      { suggestion: wayRound },
    );
  }
}

/**
 * The wlroots input delegate, which also presses a key by its X keysym (as
 * src/platform/linux/input.ts asks of a compositor's input).
 */
export interface WlrootsInput extends InputDelegate {
  /** Presses one keysym once with modifiers held around it. */
  pressKeysym(mods: Modifier[], keysym: number): void;
}

let session: Session | undefined;

function open(deadline: number): Session {
  if (session?.client.broken) closeWlroots();
  session ??= new Session(deadline);
  return session;
}

/** Closes this process's connection (the next call opens a new one). Safe to call twice. */
export function closeWlroots(): void {
  session?.client.close();
  session = undefined;
}

function now32(): number {
  return Date.now() % 0x100000000;
}

function keyboardOf(s: Session): Deno.PointerValue {
  if (s.keyboard) return s.keyboard;
  if (!s.keyboardManager || !s.seat) {
    throw s.lacks(
      "the virtual keyboard protocol (zwp_virtual_keyboard_manager_v1)",
      "keys and typed text cannot be sent",
      "use a compositor that enables it (sway, Hyprland, river, labwc do), or routes that need no keys: set-value, click by the element's own action",
    );
  }
  s.keyboard = s.client.request(
    s.keyboardManager,
    OP.keyboardManager.create,
    [s.seat, null],
    s.ifaces.keyboard,
    1,
  );
  return s.keyboard;
}

function pointerOf(s: Session): Deno.PointerValue {
  if (s.pointer) return s.pointer;
  if (!s.pointerManager) {
    throw s.lacks(
      "the virtual pointer protocol (zwlr_virtual_pointer_manager_v1)",
      "the pointer cannot be moved or clicked",
      "use a compositor that enables it (sway, Hyprland, river, labwc do), or routes that need no pointer: click by the element's own action, set-value, keys",
    );
  }
  s.pointer = s.client.request(
    s.pointerManager,
    OP.pointerManager.create,
    [s.seat, null],
    s.ifaces.pointer,
    1,
  );
  return s.pointer;
}

/**
 * Keysyms every uploaded keymap holds: printable ASCII, the named keys and
 * F1-F24. A keymap change just before a chord loses its modifiers in apps
 * (GTK 3 took a ctrl+a sent right after the new keymap as a plain key), so
 * chords of these keys never change the keymap.
 */
const BASE_KEYSYMS: readonly number[] = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  0xff0d,
  0xff09,
  0xff1b,
  0xff08,
  0xffff,
  0xff63,
  0xff50,
  0xff57,
  0xff51,
  0xff52,
  0xff53,
  0xff54,
  0xff55,
  0xff56,
  0xff67,
  0xff61,
  0xff13,
  0xffe5,
  ...Array.from({ length: 24 }, (_, i) => 0xffbe + i),
];

/** The most keys one keymap gets (keycodes stay below 256). */
const MAX_KEYS = 240;

/** Makes sure the uploaded keymap holds every keysym; returns keysym to evdev code. */
function ensureKeymap(
  s: Session,
  kbd: Deno.PointerValue,
  keysyms: number[],
): ReadonlyMap<number, number> {
  if (s.keymapCodes.size > 0 && keysyms.every((k) => s.keymapCodes.has(k))) return s.keymapCodes;
  let all = [...new Set([...BASE_KEYSYMS, ...s.keymapSyms, ...keysyms])];
  if (all.length > MAX_KEYS) all = [...new Set([...BASE_KEYSYMS, ...keysyms])];
  if (all.length > MAX_KEYS) {
    throw new DesktopError(
      "INVALID_ARGS",
      `the text holds ${all.length - BASE_KEYSYMS.length} different uncommon characters`,
      {
        suggestion: `type it in parts of fewer than ${
          MAX_KEYS - BASE_KEYSYMS.length
        } different non-ASCII characters, or set the field's text with set-value`,
      },
    );
  }
  const km = buildKeymap(all);
  const bytes = new TextEncoder().encode(`${km.text}\0`);
  const fd = shm.create(bytes.length, bytes);
  try {
    s.client.request(kbd, OP.keyboard.keymap, [1, fd, bytes.length]);
    // a modifiers request makes this keyboard the seat's, so the app takes the keymap in now
    s.client.request(kbd, OP.keyboard.modifiers, [0, 0, 0, 0]);
    s.client.roundtrip(Date.now() + CALL_MS);
    s.client.settle(KEYMAP_SETTLE_MS);
  } finally {
    shm.close(fd);
  }
  s.keymapSyms = [...km.codes.keys()];
  s.keymapCodes = km.codes;
  return km.codes;
}

function pressKey(s: Session, kbd: Deno.PointerValue, code: number, mods: number): void {
  if (mods) s.client.request(kbd, OP.keyboard.modifiers, [mods, 0, 0, 0]);
  s.client.request(kbd, OP.keyboard.key, [now32(), code, 1]);
  s.client.request(kbd, OP.keyboard.key, [now32(), code, 0]);
  if (mods) s.client.request(kbd, OP.keyboard.modifiers, [0, 0, 0, 0]);
}

function maskOf(mods: readonly Modifier[], key: string): number {
  let mask = 0;
  for (const m of mods) {
    if (m === "fn") throw badCombo(`fn+${key}`, "fn is a macOS modifier with no Linux key");
    mask |= XKB_MODIFIER_MASKS[m];
  }
  return mask;
}

function chordOf(chord: KeyChord): { mask: number; keysym: number } {
  const mask = maskOf(chord.mods, chord.key);
  const keysym = keysymFor(chord.key);
  if (keysym === undefined) throw badCombo(chord.key, "no such key");
  return { mask, keysym };
}

function moveTo(s: Session, ptr: Deno.PointerValue, p: Point): void {
  const [x0, y0, w, h] = s.layout();
  const x = Math.round(p.x - x0);
  const y = Math.round(p.y - y0);
  if (x < 0 || y < 0 || x >= w || y >= h) {
    throw new DesktopError(
      "INVALID_ARGS",
      `point ${p.x},${p.y} is off the screen (${w}x${h} at ${x0},${y0})`,
      {
        suggestion: "give a point inside the outputs' layout",
      },
    );
  }
  s.client.request(ptr, OP.pointer.motionAbsolute, [now32(), x, y, w, h]);
  s.client.request(ptr, OP.pointer.frame, []);
}

/**
 * Moves the pointer to `p` and lets the app take its arrival (enter, then motion) before what
 * follows: GTK 3 dropped wheel notches, and GTK 4 a click, sent in the same batch as the motion
 * that brought the pointer in.
 */
function arriveAt(s: Session, ptr: Deno.PointerValue, p: Point): void {
  moveTo(s, ptr, p);
  s.client.roundtrip(Date.now() + CALL_MS);
  s.client.settle(POINTER_SETTLE_MS);
}

function button(s: Session, ptr: Deno.PointerValue, code: number, pressed: boolean): void {
  s.client.request(ptr, OP.pointer.button, [now32(), code, pressed ? 1 : 0]);
  s.client.request(ptr, OP.pointer.frame, []);
}

/**
 * Input through a wlroots compositor's virtual keyboard and pointer.
 * Connects at once (to `WAYLAND_DISPLAY`); a method whose protocol the
 * compositor lacks throws PLATFORM_NOT_SUPPORTED naming it and the way
 * round.
 *
 * @returns the delegate (`name` is `wlroots`)
 * @throws DesktopError PLATFORM_NOT_SUPPORTED with no compositor to reach, or one offering neither protocol
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wlrootsInput } from "./wlroots.ts";
 * const saved = Deno.env.get("WAYLAND_DISPLAY");
 * Deno.env.delete("WAYLAND_DISPLAY");
 * assert.throws(() => wlrootsInput(), /WAYLAND_DISPLAY is not set/);
 * if (saved !== undefined) Deno.env.set("WAYLAND_DISPLAY", saved);
 * ```
 */
export function wlrootsInput(): WlrootsInput {
  const s = open(Date.now() + CALL_MS);
  if (!s.keyboardManager && !s.pointerManager) {
    throw s.lacks(
      "the virtual keyboard or pointer protocols",
      "no key or pointer input can be sent",
      "use a compositor that enables them (sway, Hyprland, river, labwc do), or routes that need no input: click by the element's own action, set-value",
    );
  }
  const done = () => s.client.roundtrip(Date.now() + CALL_MS);
  return {
    name: "wlroots",
    click(p, btn, count) {
      const ptr = pointerOf(s);
      arriveAt(s, ptr, p);
      for (let i = 0; i < count; i++) {
        button(s, ptr, BUTTONS[btn], true);
        button(s, ptr, BUTTONS[btn], false);
      }
      done();
    },
    move(p) {
      moveTo(s, pointerOf(s), p);
      done();
    },
    wheel(p, direction: ScrollDirection, steps) {
      const ptr = pointerOf(s);
      arriveAt(s, ptr, p);
      const axis = direction === "up" || direction === "down" ? 0 : 1;
      const sign = direction === "up" || direction === "left" ? -1 : 1;
      for (let i = 0; i < steps; i++) {
        s.client.request(ptr, OP.pointer.axisSource, [0]);
        s.client.request(ptr, OP.pointer.axisDiscrete, [now32(), axis, sign * 15 * 256, sign]);
        s.client.request(ptr, OP.pointer.frame, []);
      }
      done();
    },
    drag(from, to) {
      const ptr = pointerOf(s);
      moveTo(s, ptr, from);
      button(s, ptr, BUTTONS.left, true);
      done();
      const n = 10;
      for (let i = 1; i <= n; i++) {
        moveTo(s, ptr, {
          x: from.x + ((to.x - from.x) * i) / n,
          y: from.y + ((to.y - from.y) * i) / n,
        });
        done();
      }
      button(s, ptr, BUTTONS.left, false);
      done();
    },
    key(chord, repeat) {
      const { mask, keysym } = chordOf(chord);
      if (repeat <= 0) return;
      const kbd = keyboardOf(s);
      const code = ensureKeymap(s, kbd, [keysym]).get(keysym)!;
      for (let i = 0; i < repeat; i++) pressKey(s, kbd, code, mask);
      done();
    },
    pressKeysym(mods, keysym) {
      const mask = maskOf(mods, `0x${keysym.toString(16)}`);
      const kbd = keyboardOf(s);
      pressKey(s, kbd, ensureKeymap(s, kbd, [keysym]).get(keysym)!, mask);
      done();
    },
    type(text) {
      const syms = [...text].map(typedKeysym);
      if (syms.length === 0) return;
      const kbd = keyboardOf(s);
      const codes = ensureKeymap(s, kbd, syms);
      syms.forEach((k, i) => {
        pressKey(s, kbd, codes.get(k)!, 0);
        if (i % 32 === 31) done();
      });
      done();
    },
    park() {
      const [x, y, w, h] = s.layout();
      moveTo(s, pointerOf(s), { x: x + w - 1, y: y + h - 1 });
      done();
    },
  };
}

/** Converts one shm buffer's rows to RGBA. */
function toRgba(
  bytes: Uint8Array,
  format: number,
  width: number,
  height: number,
  stride: number,
  yInvert: boolean,
): RgbaImage {
  // wl_shm formats: ARGB8888 0, XRGB8888 1 (bytes B G R A); ABGR8888, XBGR8888 (bytes R G B A)
  const bgr = format === 0 || format === 1;
  const rgb = format === 0x34324241 || format === 0x34324258;
  if (!bgr && !rgb) {
    throw new DesktopError(
      "ACTION_FAILED",
      `screencopy offered pixel format 0x${format.toString(16)}, which is not read here`,
      {
        suggestion: "a compositor offering 32-bit RGB formats is needed for screenshots",
      },
    );
  }
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const src = (yInvert ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const i = src + 4 * x;
      const o = 4 * (y * width + x);
      data[o] = bgr ? bytes[i + 2] : bytes[i];
      data[o + 1] = bytes[i + 1];
      data[o + 2] = bgr ? bytes[i] : bytes[i + 2];
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Captures one output into RGBA. */
function captureOutput(s: Session, out: OutputPlace, deadline: number): RgbaImage {
  const frame = s.client.request(
    s.screencopy,
    OP.screencopyManager.captureOutput,
    [null, 0, out.proxy],
    s.ifaces.frame,
    1,
  );
  let info: { format: number; width: number; height: number; stride: number } | undefined;
  let state = "wait" as "wait" | "ready" | "failed";
  let yInvert = false;
  s.client.listen(frame, (op, args) => {
    if (op === FRAME_EVENT.buffer && !info) {
      info = {
        format: args.getUint32(0),
        width: args.getUint32(8),
        height: args.getUint32(16),
        stride: args.getUint32(24),
      };
    } else if (op === FRAME_EVENT.flags) yInvert = (args.getUint32(0) & 1) !== 0;
    else if (op === FRAME_EVENT.ready) state = "ready";
    else if (op === FRAME_EVENT.failed) state = "failed";
  });
  let fd = -1;
  let pool: Deno.PointerValue = null;
  let buffer: Deno.PointerValue = null;
  try {
    s.client.pump(() => info !== undefined || state === "failed", deadline);
    if (!info) {
      throw new DesktopError("ACTION_FAILED", "the compositor refused to capture the output");
    }
    const size = info.stride * info.height;
    fd = shm.create(size);
    const core = Deno.dlopen(WAYLAND_CLIENT_LIBRARY, WAYLAND_SYMBOLS).symbols;
    const shmGlobal = s.client.bind("wl_shm", core.wl_shm_interface, 1);
    if (!shmGlobal) {
      throw s.lacks(
        "wl_shm",
        "no shared-memory buffer for a screenshot",
        "use a compositor offering wl_shm",
      );
    }
    pool = s.client.request(shmGlobal, 0, [null, fd, size], core.wl_shm_pool_interface, 1);
    buffer = s.client.request(
      pool,
      0,
      [null, 0, info.width, info.height, info.stride, info.format],
      core.wl_buffer_interface,
      1,
    );
    s.client.request(frame, OP.frame.copy, [buffer]);
    s.client.pump(() => state !== "wait", deadline);
    if (state === "failed") {
      throw new DesktopError("ACTION_FAILED", "the compositor failed to copy the output", {
        suggestion: "retry; an output being reconfigured cannot be copied",
      });
    }
    return toRgba(shm.read(fd, size), info.format, info.width, info.height, info.stride, yInvert);
  } finally {
    s.client.request(frame, OP.frame.destroy, [], null, 1, 1);
    if (buffer) s.client.request(buffer, 0, [], null, 1, 1);
    if (pool) s.client.request(pool, 1, [], null, 1, 1);
    if (fd >= 0) shm.close(fd);
  }
}

/**
 * A screenshot through wlroots' screencopy protocol: every output copied
 * into one image of the layout, cut to `rect` when given.
 *
 * @param rect global layout pixels; absent for the whole layout
 * @param timeoutMs how long the capture may take
 * @returns the pixels, the region they cover and the outputs' scale
 * @throws DesktopError PLATFORM_NOT_SUPPORTED when the compositor lacks screencopy, INVALID_ARGS off screen
 */
export function wlrootsCapture(rect?: Bounds, timeoutMs = CALL_MS): ScreenCapture {
  const deadline = Date.now() + timeoutMs;
  const s = open(deadline);
  if (!s.screencopy) {
    throw s.lacks(
      "the screencopy protocol (zwlr_screencopy_manager_v1)",
      "the screen cannot be captured",
      "use a compositor that enables it (sway, Hyprland, river, labwc do); reading the tree needs no screenshot",
    );
  }
  const [lx, ly, lw, lh] = s.layout();
  const scale = Math.max(...s.outputs.map((o) => o.scale));
  const want: Bounds = rect ?? [lx, ly, lw, lh];
  const x0 = Math.max(want[0], lx);
  const y0 = Math.max(want[1], ly);
  const x1 = Math.min(want[0] + want[2], lx + lw);
  const y1 = Math.min(want[1] + want[3], ly + lh);
  if (x1 <= x0 || y1 <= y0) {
    throw new DesktopError(
      "INVALID_ARGS",
      `region ${want.join(",")} is off the screen (${lw}x${lh} at ${lx},${ly})`,
      {
        suggestion: "give a region inside the screen",
      },
    );
  }
  const width = Math.round((x1 - x0) * scale);
  const height = Math.round((y1 - y0) * scale);
  const data = new Uint8Array(width * height * 4);
  for (const out of s.outputs.filter((o) => o.width > 0)) {
    const img = captureOutput(s, out, deadline);
    const f = scale / out.scale;
    for (let y = 0; y < height; y++) {
      const sy = Math.floor((y / scale + y0 - out.y) * out.scale);
      if (sy < 0 || sy >= img.height) continue;
      for (let x = 0; x < width; x++) {
        const sx = Math.floor((x / scale + x0 - out.x) * out.scale);
        if (sx < 0 || sx >= img.width || f <= 0) continue;
        data.set(
          img.data.subarray(4 * (sy * img.width + sx), 4 * (sy * img.width + sx) + 4),
          4 * (y * width + x),
        );
      }
    }
  }
  return { image: { width, height, data }, region: [x0, y0, x1 - x0, y1 - y0], scale };
}
