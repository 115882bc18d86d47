/**
 * Maps libatspi / D-Bus failures to DesktopError codes. Pure: the native
 * layer hands over the GError text, this decides what it means.
 *
 * @module
 */

import { DesktopError, type ErrorCode } from "../../errors.ts";

/** Fragments of D-Bus error names/messages meaning "the app did not answer in time". */
const UNRESPONSIVE = [
  "NoReply",
  "Did not receive a reply",
  "Timeout",
  "timed out",
  "Message recipient disconnected while waiting",
];

/** Fragments meaning "the app itself is gone". */
const APP_GONE = ["application no longer exists", "exited while it was being read"];

/** Fragments meaning "the object or its app is gone". */
const GONE = [
  "ServiceUnknown",
  "UnknownObject",
  "Unknown object",
  "UnknownMethod",
  "was not provided by any .service",
  "The name is not activatable",
  "Disconnected",
  "does not exist",
];

/**
 * Classifies a native error message into an error code.
 *
 * @param message the GError / D-Bus error text
 * @param fallback code to use when the message is not recognised
 * @returns the code
 * @example
 * ```ts
 * import { classifyNativeError } from "./errors.ts";
 * console.log(classifyNativeError("org.freedesktop.DBus.Error.NoReply: Did not receive a reply", "INTERNAL"));
 * // "APP_UNRESPONSIVE"
 * ```
 */
export function classifyNativeError(message: string, fallback: ErrorCode): ErrorCode {
  const lower = message.toLowerCase();
  if (UNRESPONSIVE.some((f) => lower.includes(f.toLowerCase()))) return "APP_UNRESPONSIVE";
  if (APP_GONE.some((f) => lower.includes(f))) return "APP_NOT_FOUND";
  if (GONE.some((f) => lower.includes(f.toLowerCase()))) return "STALE_REF";
  return fallback;
}

/**
 * Builds the DesktopError for a native failure during `op`.
 *
 * @param op what was being done (`read name`, `click`...)
 * @param message the native error text
 * @param fallback code when the message is not recognised
 * @returns the error, with a suggestion matching its code
 */
export function nativeError(op: string, message: string, fallback: ErrorCode): DesktopError {
  const code = classifyNativeError(message, fallback);
  return new DesktopError(code, `${op} failed: ${message}`, { suggestion: suggestionFor(code) });
}

/**
 * The suggestion text for codes the Linux backend raises.
 *
 * @param code the error code
 * @returns what the agent should do next
 */
export function suggestionFor(code: ErrorCode): string {
  switch (code) {
    case "APP_UNRESPONSIVE":
      return "The app did not answer in time (busy, stopped or hung). Wait and retry, or raise --timeout";
    case "STALE_REF":
      return "The element or its app is gone; run read again and use a current ref";
    case "APP_NOT_FOUND":
      return "Run `desktop list` to see running apps, then pass --app with one of their names";
    case "TIMEOUT":
      return "The operation ran past its deadline; retry, narrow the scope (--window, --depth), or raise --timeout";
    case "ACTION_NOT_SUPPORTED":
      return "Use one of the element's listed actions, or a different action kind";
    default:
      return "Run read again to see the element's current state, then retry";
  }
}

/** The error for a missing or unreachable accessibility bus. */
export function noBusError(detail: string): DesktopError {
  return new DesktopError(
    "PERMISSION_DENIED",
    `the AT-SPI accessibility bus is not reachable: ${detail}`,
    {
      suggestion:
        "Run inside a desktop session with a D-Bus session bus (DBUS_SESSION_BUS_ADDRESS set: " +
        "in that session `echo $DBUS_SESSION_BUS_ADDRESS`, usually unix:path=/run/user/$UID/bus; " +
        "headless: `dbus-run-session -- sh`), start `/usr/libexec/at-spi-bus-launcher --launch-immediately`, " +
        "and enable accessibility in apps (GTK: unset NO_AT_BRIDGE; Chromium: ACCESSIBILITY_ENABLED=1 " +
        "and --force-renderer-accessibility)",
    },
  );
}
