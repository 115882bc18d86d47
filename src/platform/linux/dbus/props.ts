/**
 * Reading D-Bus properties of an accessible object, one `Properties.Get` per
 * property. `Properties.GetAll` is never sent: Qt 5's AT-SPI bridge reads a
 * second argument from every Properties call and crashes the app (SIGSEGV in
 * QVariant::toString) on GetAll, which has only one. Gets are pipelined, so
 * the extra calls cost no round trips.
 *
 * @module
 */

import type { DBusValue, Variant } from "./value.ts";

/** The one call shape this module needs (an {@link AppCall} fits). */
export type PropCall = (
  path: string,
  iface: string,
  member: string,
  signature?: string,
  body?: DBusValue[],
) => Promise<DBusValue[]>;

const PROPS = "org.freedesktop.DBus.Properties";

/**
 * Reads `names` of interface `iface` on object `path`, all calls in flight at
 * once. A property the object does not have is left out of the map; an error
 * that concerns the app (no reply, gone) rejects.
 *
 * @param call the bound call function
 * @param path object path
 * @param iface interface that owns the properties
 * @param names property names
 * @returns property name to value
 * @example
 * ```ts
 * import { getProperties } from "./props.ts";
 * const call = (_p: string, _i: string, _m: string, _s?: string, body?: unknown[]) =>
 *   Promise.resolve([{ signature: "s", value: `v-${body?.[1]}` }]);
 * const m = await getProperties(call, "/o", "org.a11y.atspi.Accessible", ["Name"]);
 * if (m.get("Name") !== "v-Name") throw new Error("expected the Name property");
 * ```
 */
export async function getProperties(
  call: PropCall,
  path: string,
  iface: string,
  names: readonly string[],
): Promise<Map<string, DBusValue>> {
  const values = await Promise.all(
    names.map((n) =>
      call(path, PROPS, "Get", "ss", [iface, n]).then(
        ([v]) => (v as Variant).value,
        (e) => {
          if (isUnknownProperty(e)) return undefined;
          throw e;
        },
      )
    ),
  );
  const out = new Map<string, DBusValue>();
  names.forEach((n, i) => {
    const v = values[i];
    if (v !== undefined) out.set(n, v);
  });
  return out;
}

/** Whether an error says the property (or its interface) does not exist on the object. */
function isUnknownProperty(e: unknown): boolean {
  const text = String((e as { message?: string })?.message ?? e);
  return /UnknownProperty|UnknownMethod|InvalidArgs|UnknownInterface|No such property/i.test(text);
}
