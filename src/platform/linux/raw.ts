/**
 * The raw shape of one AT-SPI node, as either reader (libatspi walk or bulk
 * D-Bus) produces it, before conversion to the shared element model.
 *
 * @module
 */

/** One accessible object as AT-SPI describes it. */
export interface AtspiRawNode {
  /** Unique bus name of the owning app (`:1.42`). */
  bus: string;
  /** D-Bus object path (`/org/a11y/atspi/accessible/17`). */
  path: string;
  /** AtspiRole enum value. */
  role: number;
  /** Accessible name. */
  name: string;
  /** Accessible description. */
  description: string;
  /** AtspiStateSet bitfield as two 32-bit words (low, high). */
  states: [number, number];
  /** D-Bus interfaces the object implements (`org.a11y.atspi.Action`...). */
  interfaces: string[];
  /** Children in order. */
  children: AtspiRawNode[];
  /** Screen extents x, y, w, h (ATSPI_COORD_TYPE_SCREEN), when read. */
  extents?: [number, number, number, number];
  /** Action names, when the object implements Action. */
  actions?: string[];
  /** Text content, when the object implements Text (capped in length). */
  text?: string;
  /** Current/min/max value, when the object implements Value. */
  value?: { current: number; min: number; max: number; text?: string };
  /** Name of the object that labels this one (labelled-by relation), if any. */
  labelledBy?: string;
  /** Object attributes worth keeping (placeholder-text, level, tag...). */
  attributes?: Record<string, string>;
}
