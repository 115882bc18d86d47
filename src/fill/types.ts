/**
 * The types of fill's fields and results, apart from the code so that the
 * session's interface names them without importing the feature.
 *
 * @module
 */

import type { Element } from "../model/element.ts";
import type { Target } from "../identity/resolve.ts";

/** One field to fill. */
export interface FillField {
  /** The element. */
  target: Target;
  /** Its new value: text, a number, `true`/`false` for check boxes, an option's label. */
  value: string;
}

/** What one field became. */
export interface FilledField {
  /** The field as it was named (its ref, `#id` or text). */
  field: string;
  /** True when the value was set and reads back as asked. */
  ok: boolean;
  /** The element (after filling), without children. */
  element?: Element;
  /** How it was set (`accessible` or `input`). */
  via?: string;
  /** Why it failed: the error's code and message. */
  error?: { code: string; message: string; suggestion?: string };
}
