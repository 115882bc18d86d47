/**
 * AXValue marshalling: CGPoint, CGSize, CGRect, CFRange and the AXError
 * placeholders `AXUIElementCopyMultipleAttributeValues` puts in the slots of
 * attributes it could not read.
 *
 * @module
 */

import { AX_VALUE_TYPE } from "./application_services.ts";
import type { AxSymbols } from "./libraries.ts";

/** A decoded AXValue. */
export type AxValue =
  | { type: "point"; x: number; y: number }
  | { type: "size"; w: number; h: number }
  | { type: "rect"; x: number; y: number; w: number; h: number }
  | { type: "range"; location: number; length: number }
  | { type: "error"; code: number };

/**
 * Decodes an AXValue (borrowed).
 *
 * @param ax AX symbols
 * @param ptr the AXValueRef
 * @returns the value, or undefined for an unknown type
 */
export function readAxValue(ax: AxSymbols, ptr: Deno.PointerObject): AxValue | undefined {
  const type = ax.AXValueGetType(ptr);
  const buf = new Uint8Array(32);
  if (!ax.AXValueGetValue(ptr, type, buf)) return undefined;
  const v = new DataView(buf.buffer);
  switch (type) {
    case AX_VALUE_TYPE.CGPoint:
      return { type: "point", x: v.getFloat64(0, true), y: v.getFloat64(8, true) };
    case AX_VALUE_TYPE.CGSize:
      return { type: "size", w: v.getFloat64(0, true), h: v.getFloat64(8, true) };
    case AX_VALUE_TYPE.CGRect:
      return {
        type: "rect",
        x: v.getFloat64(0, true),
        y: v.getFloat64(8, true),
        w: v.getFloat64(16, true),
        h: v.getFloat64(24, true),
      };
    case AX_VALUE_TYPE.CFRange:
      return {
        type: "range",
        location: Number(v.getBigInt64(0, true)),
        length: Number(v.getBigInt64(8, true)),
      };
    case AX_VALUE_TYPE.AXError:
      return { type: "error", code: v.getInt32(0, true) };
    default:
      return undefined;
  }
}

/**
 * Encodes the bytes of an AXValue for `AXValueCreate`.
 *
 * @param value what to encode
 * @returns the AXValueType and its bytes
 * @example
 * ```ts
 * import { encodeAxValue } from "./ax_value.ts";
 * const { type, bytes } = encodeAxValue({ type: "point", x: 1, y: 2 });
 * console.log(type, bytes.length); // 1 16
 * ```
 */
export function encodeAxValue(value: AxValue): { type: number; bytes: Uint8Array<ArrayBuffer> } {
  const buf = new Uint8Array(value.type === "rect" ? 32 : value.type === "error" ? 4 : 16);
  const v = new DataView(buf.buffer);
  switch (value.type) {
    case "point":
      v.setFloat64(0, value.x, true);
      v.setFloat64(8, value.y, true);
      return { type: AX_VALUE_TYPE.CGPoint, bytes: buf };
    case "size":
      v.setFloat64(0, value.w, true);
      v.setFloat64(8, value.h, true);
      return { type: AX_VALUE_TYPE.CGSize, bytes: buf };
    case "rect":
      v.setFloat64(0, value.x, true);
      v.setFloat64(8, value.y, true);
      v.setFloat64(16, value.w, true);
      v.setFloat64(24, value.h, true);
      return { type: AX_VALUE_TYPE.CGRect, bytes: buf };
    case "range":
      v.setBigInt64(0, BigInt(value.location), true);
      v.setBigInt64(8, BigInt(value.length), true);
      return { type: AX_VALUE_TYPE.CFRange, bytes: buf };
    case "error":
      v.setInt32(0, value.code, true);
      return { type: AX_VALUE_TYPE.AXError, bytes: buf };
  }
}

/**
 * Creates an AXValue (owned: the caller releases it).
 *
 * @param ax AX symbols
 * @param value what to create
 * @returns the AXValueRef, or null on failure
 */
export function createAxValue(ax: AxSymbols, value: AxValue): Deno.PointerValue {
  const { type, bytes } = encodeAxValue(value);
  return ax.AXValueCreate(type, bytes);
}
