/**
 * Screenshots on GNOME's compositor (mutter) through its ScreenCast D-Bus
 * API (`org.gnome.Mutter.ScreenCast`): a session records the primary
 * monitor, mutter announces the stream's PipeWire node, and one frame is
 * taken from PipeWire (libpipewire by FFI, src/ffi/pipewire.ts). What it
 * needs: mutter's ScreenCast on the session bus (mutter offers it to every
 * client of the session bus; gnome-shell too) and a running PipeWire daemon
 * with a session manager (WirePlumber) to link the stream, as every GNOME
 * session has.
 *
 * @module
 */

import { sleepSync } from "../../sleep_sync.ts";
import { DesktopError } from "../../../errors.ts";
import type { Bounds } from "../../../model/element.ts";
import type { ScreenCapture } from "../../provider.ts";
import {
  PIPEWIRE_LIBRARY,
  PIPEWIRE_SYMBOLS,
  PW_DIRECTION_INPUT,
  PW_LAYOUT,
  PW_STREAM_FLAGS_CONNECT_MAPPED,
  PW_STREAM_STATE_ERROR,
  videoFormatPod,
} from "../../../ffi/pipewire.ts";
import { printedStrings, SyncBus } from "../dbus/gio_sync.ts";
import { cstr } from "../../../ffi/cstring.ts";

/** Mutter's ScreenCast bus name (also its interface prefix). */
export const MUTTER_SCREEN_CAST = "org.gnome.Mutter.ScreenCast";
const SC_PATH = "/org/gnome/Mutter/ScreenCast";

type PipeWire = Deno.DynamicLibrary<typeof PIPEWIRE_SYMBOLS>["symbols"];
let pipewire: PipeWire | undefined;

function lacking(what: string, suggestion: string): DesktopError {
  return new DesktopError(
    "PLATFORM_NOT_SUPPORTED",
    `no screenshot on GNOME's mutter (Wayland): ${what}`,
    { suggestion, details: { compositor: "mutter" } },
  );
}

function loadPipeWire(): PipeWire {
  if (pipewire) return pipewire;
  try {
    pipewire = Deno.dlopen(PIPEWIRE_LIBRARY, PIPEWIRE_SYMBOLS).symbols;
  } catch (e) {
    throw lacking(
      `cannot load ${PIPEWIRE_LIBRARY} (${(e as Error).message})`,
      "Install PipeWire's client library (Debian: libpipewire-0.3-0)",
    );
  }
  pipewire.pw_init(null, null);
  return pipewire;
}

/**
 * The (x, y, width, height) of a stream's `Parameters` property as mutter
 * prints it (`{'position': <(0, 0)>, 'size': <(1280, 1024)>}`).
 *
 * @param printed the property's value in GVariant text
 * @returns the monitor's place and size, or undefined when the size is missing
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamArea } from "./mutter_screencast.ts";
 * assert.deepEqual(streamArea("(<{'position': <(1280, 0)>, 'size': <(800, 600)>}>,)"), [1280, 0, 800, 600]);
 * assert.deepEqual(streamArea("(<{'size': <(800, 600)>}>,)"), [0, 0, 800, 600]);
 * assert.equal(streamArea("(<@a{sv} {}>,)"), undefined);
 * ```
 */
export function streamArea(printed: string): Bounds | undefined {
  const pair = (key: string) => {
    const m = printed.match(new RegExp(`'${key}': <\\((-?\\d+), (-?\\d+)\\)>`));
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  };
  const size = pair("size");
  if (!size) return undefined;
  const [x, y] = pair("position") ?? [0, 0];
  return [x, y, size[0], size[1]];
}

/** One frame: BGRx or BGRA rows as PipeWire mapped them. */
interface Frame {
  width: number;
  height: number;
  /** RGBA, opaque. */
  data: Uint8Array;
}

/**
 * Takes one frame of a PipeWire video node: connects a stream to it on
 * PipeWire's own thread and polls for a filled buffer under the loop's lock.
 */
function takeFrame(node: number, width: number, height: number, deadline: number): Frame {
  const pw = loadPipeWire();
  const loop = pw.pw_thread_loop_new(cstr("desktop-screenshot"), null);
  if (!loop) throw new Error("pw_thread_loop_new failed");
  const context = pw.pw_context_new(pw.pw_thread_loop_get_loop(loop), null, 0n);
  if (!context) {
    pw.pw_thread_loop_destroy(loop);
    throw new Error("pw_context_new failed");
  }
  let core: Deno.PointerValue = null;
  let stream: Deno.PointerValue = null;
  pw.pw_thread_loop_start(loop);
  const pod = videoFormatPod();
  const params = new BigUint64Array([BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(pod)))]);
  try {
    pw.pw_thread_loop_lock(loop);
    try {
      core = pw.pw_context_connect(context, null, 0n);
      if (!core) {
        throw lacking(
          "PipeWire is not running in this session (its socket did not answer)",
          "Start PipeWire and WirePlumber in the session (GNOME starts them itself)",
        );
      }
      const props = pw.pw_properties_new_string(
        cstr("media.type=Video media.category=Capture media.role=Screen"),
      );
      stream = pw.pw_stream_new(core, cstr("desktop-screenshot"), props);
      if (!stream) throw new Error("pw_stream_new failed");
      const rc = pw.pw_stream_connect(
        stream,
        PW_DIRECTION_INPUT,
        node,
        PW_STREAM_FLAGS_CONNECT_MAPPED,
        new Uint8Array(params.buffer),
        1,
      );
      if (rc < 0) throw new Error(`pw_stream_connect failed (${rc})`);
    } finally {
      pw.pw_thread_loop_unlock(loop);
    }
    while (Date.now() < deadline) {
      pw.pw_thread_loop_lock(loop);
      let frame: Frame | undefined;
      let failed = false;
      try {
        const st = pw.pw_stream_get_state(stream, null);
        failed = st === PW_STREAM_STATE_ERROR;
        const buffer = pw.pw_stream_dequeue_buffer(stream);
        if (buffer) {
          frame = readFrame(buffer, width, height);
          pw.pw_stream_queue_buffer(stream, buffer);
        }
      } finally {
        pw.pw_thread_loop_unlock(loop);
      }
      if (frame) return frame;
      if (failed) throw new Error("PipeWire refused the stream");
      sleepSync(5);
    }
    throw new DesktopError("TIMEOUT", "mutter sent no frame of the screen in time", {
      suggestion: "Check that PipeWire and WirePlumber run in the session, or raise --timeout",
      details: { compositor: "mutter" },
    });
  } finally {
    pw.pw_thread_loop_lock(loop);
    if (stream) pw.pw_stream_destroy(stream);
    if (core) pw.pw_core_disconnect(core);
    pw.pw_thread_loop_unlock(loop);
    pw.pw_thread_loop_stop(loop);
    pw.pw_context_destroy(context);
    pw.pw_thread_loop_destroy(loop);
    void pod;
  }
}

/** The pixels of one dequeued `pw_buffer`, or undefined for a buffer with no frame in it. */
function readFrame(buffer: Deno.PointerObject, width: number, height: number): Frame | undefined {
  const spaBuffer = new Deno.UnsafePointerView(buffer).getPointer(0);
  if (!spaBuffer) return undefined;
  const sb = new Deno.UnsafePointerView(spaBuffer);
  if (sb.getUint32(4) < 1) return undefined;
  const datas = sb.getPointer(PW_LAYOUT.spaBufferDatas);
  if (!datas) return undefined;
  const d = new Deno.UnsafePointerView(datas);
  const mem = d.getPointer(PW_LAYOUT.spaDataData);
  const chunkPtr = d.getPointer(PW_LAYOUT.spaDataChunk);
  if (!mem || !chunkPtr) return undefined;
  const chunk = new Deno.UnsafePointerView(chunkPtr);
  const offset = chunk.getUint32(PW_LAYOUT.spaChunkOffset);
  const size = chunk.getUint32(PW_LAYOUT.spaChunkSize);
  const stride = chunk.getInt32(PW_LAYOUT.spaChunkStride);
  // A buffer that only moves the cursor, or is smaller than the monitor, holds no whole frame.
  if (size === 0 || stride < width * 4 || size < stride * (height - 1) + width * 4) {
    return undefined;
  }
  const src = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(mem, offset + size), offset);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    for (let x = 0; x < width; x++) {
      const s = row + x * 4;
      const o = (y * width + x) * 4;
      data[o] = src[s + 2];
      data[o + 1] = src[s + 1];
      data[o + 2] = src[s];
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/**
 * Captures the primary monitor, or a rectangle of it, on GNOME's mutter.
 *
 * @param rect global pixels; absent for the whole monitor
 * @param timeoutMs how long it may take
 * @returns the pixels, the region they cover and scale 1
 * @throws DesktopError PLATFORM_NOT_SUPPORTED naming what the session lacks (ScreenCast,
 *   PipeWire), INVALID_ARGS for a region off the monitor, TIMEOUT when no frame came
 */
export function mutterCapture(rect?: Bounds, timeoutMs = 5_000): ScreenCapture {
  const deadline = Date.now() + timeoutMs;
  using bus = SyncBus.open();
  if (!bus.hasOwner(MUTTER_SCREEN_CAST)) {
    throw lacking(
      `${MUTTER_SCREEN_CAST} is not on the session bus`,
      "Run inside a GNOME session (mutter or gnome-shell offers it)",
    );
  }
  const left = () => Math.max(1, deadline - Date.now());
  let session: string | undefined;
  try {
    session = printedStrings(
      bus.call(
        MUTTER_SCREEN_CAST,
        SC_PATH,
        MUTTER_SCREEN_CAST,
        "CreateSession",
        "(@a{sv} {},)",
        left(),
      ),
    )[0];
  } catch (e) {
    throw refused(e as Error);
  }
  if (!session) throw refused(new Error("CreateSession answered no session"));
  const sessionIface = `${MUTTER_SCREEN_CAST}.Session`;
  try {
    const stream = printedStrings(
      bus.call(
        MUTTER_SCREEN_CAST,
        session,
        sessionIface,
        "RecordMonitor",
        "('', {'cursor-mode': <uint32 0>})",
        left(),
      ),
    )[0];
    const area = streamArea(
      bus.call(
        MUTTER_SCREEN_CAST,
        stream,
        "org.freedesktop.DBus.Properties",
        "Get",
        `('${MUTTER_SCREEN_CAST}.Stream', 'Parameters')`,
        left(),
      ),
    );
    if (!area) throw new Error("the monitor stream has no size");
    const region = clip(rect, area);
    const added = bus.awaitSignal(
      {
        sender: MUTTER_SCREEN_CAST,
        iface: `${MUTTER_SCREEN_CAST}.Stream`,
        member: "PipeWireStreamAdded",
        path: stream,
      },
      () => bus.call(MUTTER_SCREEN_CAST, session, sessionIface, "Start", "", left()),
      left(),
    );
    const node = added?.match(/^\((?:uint32 )?(\d+),\)$/)?.[1];
    if (node === undefined) {
      throw new DesktopError(
        "TIMEOUT",
        "mutter did not say which PipeWire node streams the screen",
        {
          suggestion: "Check that PipeWire runs in the session, or raise --timeout",
          details: { compositor: "mutter" },
        },
      );
    }
    const frame = takeFrame(Number(node), area[2], area[3], deadline);
    return {
      image: crop(frame, region[0] - area[0], region[1] - area[1], region[2], region[3]),
      region,
      scale: 1,
    };
  } catch (e) {
    if (e instanceof DesktopError) throw e;
    if (/AccessDenied|Permission denied/i.test((e as Error).message)) throw refused(e as Error);
    throw lacking(
      `mutter's ScreenCast failed: ${(e as Error).message}`,
      "Check that PipeWire and WirePlumber run in the session (GNOME starts them)",
    );
  } finally {
    try {
      bus.call(MUTTER_SCREEN_CAST, session, sessionIface, "Stop", "", 1000);
    } catch {
      // the session ended with the stream, or ends with this connection
    }
  }
}

/** The compositor would not open a screen cast session for this client. */
function refused(e: Error): DesktopError {
  return new DesktopError(
    "PERMISSION_DENIED",
    `GNOME's mutter refused a screen cast session: ${e.message}`,
    {
      suggestion: "Allow screen casting in this GNOME session (org.gnome.Mutter.ScreenCast on " +
        "the session bus), or read the tree instead of looking at pixels",
      details: { compositor: "mutter" },
    },
  );
}

/** The part of `want` inside the monitor, or INVALID_ARGS when none is. */
function clip(want: Bounds | undefined, area: Bounds): Bounds {
  if (!want) return area;
  const x0 = Math.max(want[0], area[0]);
  const y0 = Math.max(want[1], area[1]);
  const x1 = Math.min(want[0] + want[2], area[0] + area[2]);
  const y1 = Math.min(want[1] + want[3], area[1] + area[3]);
  if (x1 <= x0 || y1 <= y0) {
    throw new DesktopError(
      "INVALID_ARGS",
      `region ${want.join(",")} is off the screen (${area[2]}x${area[3]} at ${area[0]},${area[1]})`,
      { suggestion: "give a region inside the screen" },
    );
  }
  return [x0, y0, x1 - x0, y1 - y0];
}

function crop(f: Frame, x: number, y: number, w: number, h: number) {
  if (x === 0 && y === 0 && w === f.width && h === f.height) return f;
  const data = new Uint8Array(w * h * 4);
  for (let r = 0; r < h; r++) {
    data.set(
      f.data.subarray(((y + r) * f.width + x) * 4, ((y + r) * f.width + x + w) * 4),
      r * w * 4,
    );
  }
  return { width: w, height: h, data };
}
