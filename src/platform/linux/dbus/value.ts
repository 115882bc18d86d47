/**
 * How D-Bus values are represented in TypeScript, for both directions.
 *
 * - y n q i u h d → number; x t → bigint; b → boolean; s o g → string
 * - array → JS array; dict `a{kv}` → array of `[key, value]` pairs
 * - struct → JS array of its fields; variant → {@link Variant}
 *
 * @module
 */

/** A variant: a value together with its own signature. */
export interface Variant {
  /** Signature of the single complete type inside. */
  readonly signature: string;
  /** The value. */
  readonly value: DBusValue;
}

/** Any D-Bus value. */
export type DBusValue =
  | number
  | bigint
  | boolean
  | string
  | Variant
  | DBusValue[];

/**
 * Builds a variant.
 *
 * @param signature the signature of the value
 * @param value the value
 * @returns the variant
 * @example
 * ```ts
 * import { variant } from "./value.ts";
 * variant("s", "hello").signature; // "s"
 * ```
 */
export function variant(signature: string, value: DBusValue): Variant {
  return { signature, value };
}

/**
 * True when a value is a {@link Variant}.
 *
 * @param v any value
 * @returns whether it is a variant object
 */
export function isVariant(v: unknown): v is Variant {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "signature" in v;
}
