/**
 * libpipewire's symbol table and the few structures a video consumer reads,
 * for frames a compositor sends over PipeWire (GNOME's ScreenCast). The
 * library runs its own thread (`pw_thread_loop`); the caller takes frames by
 * polling `pw_stream_dequeue_buffer` under the loop's lock, so no callback
 * crosses threads.
 *
 * ABI (PipeWire 0.3, 64-bit): `pw_buffer { struct spa_buffer *buffer; ... }`;
 * `spa_buffer { uint32_t n_metas; uint32_t n_datas; struct spa_meta *metas;
 * struct spa_data *datas; }` (datas at 16); `spa_data { uint32_t type;
 * uint32_t flags; int64_t fd; uint32_t mapoffset; uint32_t maxsize; void
 * *data; struct spa_chunk *chunk; }` (40 bytes: data at 24, chunk at 32);
 * `spa_chunk { uint32_t offset; uint32_t size; int32_t stride; int32_t
 * flags; }`.
 *
 * @module
 */

/** The library's soname (GNOME's mutter links it, so it is there wherever mutter is). */
export const PIPEWIRE_LIBRARY = "libpipewire-0.3.so.0";

/** libpipewire functions a frame consumer calls. */
export const PIPEWIRE_SYMBOLS = {
  pw_init: { parameters: ["pointer", "pointer"], result: "void" },
  pw_thread_loop_new: { parameters: ["buffer", "pointer"], result: "pointer" },
  pw_thread_loop_get_loop: { parameters: ["pointer"], result: "pointer" },
  pw_thread_loop_start: { parameters: ["pointer"], result: "i32" },
  pw_thread_loop_stop: { parameters: ["pointer"], result: "void" },
  pw_thread_loop_lock: { parameters: ["pointer"], result: "void" },
  pw_thread_loop_unlock: { parameters: ["pointer"], result: "void" },
  pw_thread_loop_destroy: { parameters: ["pointer"], result: "void" },
  pw_context_new: { parameters: ["pointer", "pointer", "usize"], result: "pointer" },
  pw_context_connect: { parameters: ["pointer", "pointer", "usize"], result: "pointer" },
  pw_context_destroy: { parameters: ["pointer"], result: "void" },
  pw_core_disconnect: { parameters: ["pointer"], result: "i32" },
  pw_properties_new_string: { parameters: ["buffer"], result: "pointer" },
  pw_stream_new: { parameters: ["pointer", "buffer", "pointer"], result: "pointer" },
  // stream, direction, target node id, flags, const struct spa_pod **params, n_params
  pw_stream_connect: {
    parameters: ["pointer", "u32", "u32", "u32", "buffer", "u32"],
    result: "i32",
  },
  pw_stream_get_state: { parameters: ["pointer", "pointer"], result: "i32" },
  pw_stream_dequeue_buffer: { parameters: ["pointer"], result: "pointer" },
  pw_stream_queue_buffer: { parameters: ["pointer", "pointer"], result: "i32" },
  pw_stream_destroy: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** `PW_DIRECTION_INPUT`: this end takes frames. */
export const PW_DIRECTION_INPUT = 0;
/** `PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS`. */
export const PW_STREAM_FLAGS_CONNECT_MAPPED = 1 | 4;
/** `PW_STREAM_STATE_ERROR`. */
export const PW_STREAM_STATE_ERROR = -1;

/** Byte offsets of the structures above. */
export const PW_LAYOUT = {
  spaBufferDatas: 16,
  spaDataData: 24,
  spaDataChunk: 32,
  spaChunkOffset: 0,
  spaChunkSize: 4,
  spaChunkStride: 8,
} as const;

/** `SPA_VIDEO_FORMAT_BGRx` and `SPA_VIDEO_FORMAT_BGRA`: one byte order, so either reads the same. */
const BGRX = 8;
const BGRA = 12;

/**
 * The one format parameter a screenshot offers (an `EnumFormat` object
 * pod): raw video, BGRx or BGRA in memory (no DMA-BUF modifiers, so the
 * compositor sends shared memory the library maps).
 *
 * Pod layout (little-endian u32 words, each pod padded to 8 bytes):
 * `[size, Object=15] [Format=0x40003, EnumFormat=3]`, then properties
 * `[key, flags, size, type, value, pad]`: mediaType=video(2),
 * mediaSubtype=raw(1), and the format as a Choice(Enum) of Ids.
 *
 * @returns the pod's bytes
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { videoFormatPod } from "./pipewire.ts";
 * const pod = videoFormatPod();
 * const w = new Uint32Array(pod.buffer);
 * assert.equal(pod.length, 112);
 * assert.deepEqual([w[0], w[1], w[2], w[3]], [104, 15, 0x40003, 3]);
 * ```
 */
export function videoFormatPod(): Uint8Array<ArrayBuffer> {
  const words = [
    // object header: body size, type Object; body: object type, param id
    104,
    15,
    0x40003,
    3,
    // mediaType: key, flags, pod(size 4, Id) = video, padding
    1,
    0,
    4,
    3,
    2,
    0,
    // mediaSubtype: raw
    2,
    0,
    4,
    3,
    1,
    0,
    // VIDEO_format: Choice pod (size 28): Enum, flags, child (size 4, Id), default and 2 options
    0x20001,
    0,
    28,
    19,
    3,
    0,
    4,
    3,
    BGRX,
    BGRX,
    BGRA,
    0,
  ];
  return new Uint8Array(new Uint32Array(words).buffer);
}
