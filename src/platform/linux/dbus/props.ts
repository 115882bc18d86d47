/**
 * Reading D-Bus properties of an accessible object: one `Properties.Get` per
 * property by default, or one `Properties.GetAll` for toolkits known to
 * answer it (see toolkit.ts `answersGetAll`). Qt 5's AT-SPI bridge reads a
 * second argument from every Properties call and crashes the app (SIGSEGV in
 * QVariant::toString) on GetAll, which has only one. Gets are pipelined, so
 * the extra calls cost no round trips, but each costs the app its handling.
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

/**
 * Reads every property of interface `iface` on object `path` in one
 * `Properties.GetAll`, keeping `names`. Send it only to toolkits known to
 * answer it (Qt 5 crashes on it).
 *
 * @param call the bound call function
 * @param path object path
 * @param iface interface that owns the properties
 * @param names property names to keep
 * @returns property name to value (missing ones left out)
 * @example
 * ```ts
 * import { getAllProperties } from "./props.ts";
 * const call = () =>
 *   Promise.resolve([[["Name", { signature: "s", value: "OK" }], ["Locale", { signature: "s", value: "C" }]]]);
 * const m = await getAllProperties(call, "/o", "org.a11y.atspi.Accessible", ["Name", "ChildCount"]);
 * if (m.get("Name") !== "OK" || m.size !== 1) throw new Error("expected Name only");
 * ```
 */
export async function getAllProperties(
  call: PropCall,
  path: string,
  iface: string,
  names: readonly string[],
): Promise<Map<string, DBusValue>> {
  const [dict] = await call(path, PROPS, "GetAll", "s", [iface]);
  const out = new Map<string, DBusValue>();
  for (const [k, v] of dict as Array<[string, Variant]>) {
    if (names.includes(k)) out.set(k, v.value);
  }
  return out;
}

/**
 * Reads `names` of interface `iface` on `path`: with one `Properties.GetAll`
 * when `all` (a toolkit known to answer it, see toolkit.ts `answersGetAll`),
 * else with one `Get` per property.
 *
 * @param call the bound call function
 * @param path object path
 * @param iface interface that owns the properties
 * @param names property names
 * @param all whether the app answers GetAll safely
 * @returns property name to value (missing ones left out)
 * @example
 * ```ts
 * import { readProperties } from "./props.ts";
 * const call = (_p: string, _i: string, m: string) =>
 *   Promise.resolve(m === "GetAll" ? [[["Name", { signature: "s", value: "OK" }]]] : [{ signature: "s", value: "OK" }]);
 * const m = await readProperties(call, "/o", "org.a11y.atspi.Accessible", ["Name"], true);
 * if (m.get("Name") !== "OK") throw new Error("expected the Name property");
 * ```
 */
export function readProperties(
  call: PropCall,
  path: string,
  iface: string,
  names: readonly string[],
  all: boolean,
): Promise<Map<string, DBusValue>> {
  return (all ? getAllProperties : getProperties)(call, path, iface, names);
}
