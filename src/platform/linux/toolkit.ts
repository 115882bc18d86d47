/**
 * Which toolkit an app is built with, and the toolkit behaviours the Linux
 * backend must allow for: one place for the rules, asked by the reader and
 * the actor alike.
 *
 * @module
 */

import type { Native, Ptr } from "./native.ts";
import { optional } from "./walk.ts";

/** An app's toolkit as its Application interface names it. */
export interface Toolkit {
  /** "GTK", "gtk", "GAIL", "Qt", "Chromium"... ("" when the app does not say). */
  name: string;
  /** "4.8.3", "5.15.8"... ("" when the app does not say). */
  version: string;
}

/**
 * Reads the toolkit of the app that holds `acc`. Asked of the application
 * object: Qt answers the Application interface there only.
 *
 * @param n the native library
 * @param acc any accessible of the app
 * @returns its toolkit, with empty fields where the app does not answer
 */
export function readToolkit(n: Native, acc: Ptr): Toolkit {
  using app = n.own(n.sym.atspi_accessible_get_application(acc, n.err.buf));
  optional(() => n.check("read application"));
  const holder = app?.ptr ?? acc;
  const read = (
    fn: "atspi_accessible_get_toolkit_name" | "atspi_accessible_get_toolkit_version",
  ) => optional(() => n.str(n.sym[fn](holder, n.err.buf), "read toolkit"))?.trim() ?? "";
  return {
    name: read("atspi_accessible_get_toolkit_name"),
    version: read("atspi_accessible_get_toolkit_version"),
  };
}

/** GTK of any version (toolkit name "gtk", "GTK" or, through the ATK bridge, "GAIL"). */
export function isGtk(tk: Toolkit): boolean {
  return /^(gtk|gail)$/i.test(tk.name);
}

/** GTK 2 or 3, through the ATK bridge. */
export function isGtkAtk(tk: Toolkit): boolean {
  return isGtk(tk) && !/^4\./.test(tk.version);
}

/** Qt 5 or 6. */
export function isQt(tk: Toolkit): boolean {
  return /^qt$/i.test(tk.name);
}

/**
 * Whether the app runs an accessible action's handler inside its handling of
 * the D-Bus request: GTK 2 and 3, where a handler that opens a modal dialog
 * with gtk_dialog_run keeps the request on the stack until the dialog closes
 * and the next synthesized key event deadlocks the app; and Qt 5 and 6, whose
 * DoAction answers only when the dialog's exec() returns (the app stays
 * responsive, but the action times out though it worked: qterminal's Help >
 * About). GTK 4, Chromium and Firefox answer first and run the handler later.
 *
 * @example
 * ```ts
 * import { actionsRunInDispatch } from "./toolkit.ts";
 * console.log(actionsRunInDispatch({ name: "Qt", version: "5.15.8" })); // true
 * console.log(actionsRunInDispatch({ name: "GTK", version: "4.8.3" })); // false
 * ```
 */
export function actionsRunInDispatch(tk: Toolkit): boolean {
  return isQt(tk) || isGtkAtk(tk);
}

/**
 * Whether the app reads the first key of its life without the Shift the
 * synthesizer locks around it: Qt 5 and 6 set up their keyboard state on the
 * first key event they see, after reading that key (KWrite typed "Low" as
 * "low"; every later capital arrived). A lone Shift press first lets the
 * capital through.
 *
 * @example
 * ```ts
 * import { missesFirstShift } from "./toolkit.ts";
 * console.log(missesFirstShift({ name: "Qt", version: "5.15.8" })); // true
 * console.log(missesFirstShift({ name: "GTK", version: "3.24.38" })); // false
 * ```
 */
export function missesFirstShift(tk: Toolkit): boolean {
  return isQt(tk);
}

/**
 * Whether the app reports boxes relative to its window instead of the screen:
 * GTK 4 on X11 (its windows' boxes start at 0,0 wherever they are).
 *
 * @example
 * ```ts
 * import { boxesRelativeToWindow } from "./toolkit.ts";
 * console.log(boxesRelativeToWindow({ name: "GTK", version: "4.8.3" })); // true
 * ```
 */
export function boxesRelativeToWindow(tk: Toolkit): boolean {
  return /^gtk$/i.test(tk.name) && /^4\./.test(tk.version);
}

/**
 * Toolkits seen to answer `Properties.GetAll` of the Accessible interface
 * without harm (GTK 3 and LibreOffice through the ATK bridge, GTK 4,
 * Chromium). Firefox is not one: it aborts (libdbus "end_dict_entry was
 * written", building `a{sv}`) on a GetAll of a progress bar's Value. Nor is
 * any app for the Value interface: Chromium aborts the same way on an empty
 * number field's, so Value is always read one property at a time
 * (dbus/details.ts).
 */
const GET_ALL_TOOLKITS = /^(gtk|gail|chromium|vcl)$/i;

/**
 * Whether one `Properties.GetAll` may replace a `Get` per property. Qt 5's
 * bridge crashes the app on GetAll (it reads a second argument that GetAll
 * does not have) and so does Firefox, so only toolkits seen to answer it get
 * it; any other app gets one Get per property.
 *
 * @param toolkitName the app's toolkit name ("" when unknown)
 * @example
 * ```ts
 * import { answersGetAll } from "./toolkit.ts";
 * console.log(answersGetAll("Chromium"), answersGetAll("Gecko"), answersGetAll("Qt")); // true false false
 * ```
 */
export function answersGetAll(toolkitName: string): boolean {
  return GET_ALL_TOOLKITS.test(toolkitName.trim());
}

/**
 * Whether the app's answer to a whole text asked as (0, -1) can be trusted
 * when it is "": every toolkit seen but GTK 4, whose 4.8 answers "" for an
 * end of -1. An app that names no toolkit is not trusted.
 *
 * @param tk the app's toolkit
 * @example
 * ```ts
 * import { knownWholeTextAnswer } from "./toolkit.ts";
 * console.log(knownWholeTextAnswer({ name: "Chromium", version: "" })); // true
 * console.log(knownWholeTextAnswer({ name: "GTK", version: "4.8.3" })); // false
 * console.log(knownWholeTextAnswer({ name: "gtk", version: "3.24.38" })); // true
 * ```
 */
export function knownWholeTextAnswer(tk: Toolkit): boolean {
  if (isGtk(tk)) return /^[23]\./.test(tk.version) || /^gail$/i.test(tk.name);
  return answersGetAll(tk.name);
}
