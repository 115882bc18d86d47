/**
 * Base64 for binary data (images in MCP results). Pure: needs no permission.
 *
 * @module
 */

/**
 * Encodes bytes as standard base64.
 *
 * @param bytes the data
 * @returns the base64 text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeBase64 } from "./base64.ts";
 * assert.equal(encodeBase64(new TextEncoder().encode("hi!")), "aGkh");
 * ```
 */
export function encodeBase64(bytes: Uint8Array): string {
  let bin = "";
  // Chunks keep String.fromCharCode's argument list small.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}
