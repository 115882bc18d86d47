/**
 * Turning D-Bus error replies and connection failures into DesktopErrors.
 *
 * @module
 */

import { DesktopError, type ErrorCode } from "../../../errors.ts";

const BY_NAME: Record<string, [ErrorCode, string]> = {
  "org.freedesktop.DBus.Error.ServiceUnknown": [
    "APP_NOT_FOUND",
    "The app has quit; run `desktop list` to see running apps",
  ],
  "org.freedesktop.DBus.Error.NameHasNoOwner": [
    "APP_NOT_FOUND",
    "The app has quit; run `desktop list` to see running apps",
  ],
  "org.freedesktop.DBus.Error.NoReply": [
    "APP_UNRESPONSIVE",
    "The app is busy or stopped; wait and retry, or raise --timeout",
  ],
  "org.freedesktop.DBus.Error.Timeout": [
    "APP_UNRESPONSIVE",
    "The app is busy or stopped; wait and retry, or raise --timeout",
  ],
  "org.freedesktop.DBus.Error.UnknownObject": [
    "STALE_REF",
    "The element is gone; read the app again",
  ],
  "org.freedesktop.DBus.Error.UnknownMethod": [
    "ACTION_NOT_SUPPORTED",
    "The element does not support this request",
  ],
  "org.freedesktop.DBus.Error.UnknownInterface": [
    "ACTION_NOT_SUPPORTED",
    "The element does not support this request",
  ],
  "org.freedesktop.DBus.Error.UnknownProperty": [
    "ACTION_NOT_SUPPORTED",
    "The element does not support this request",
  ],
  "org.freedesktop.DBus.Error.AccessDenied": [
    "PERMISSION_DENIED",
    "Run as the user that owns the desktop session",
  ],
};

/**
 * Builds the DesktopError for a D-Bus error reply. The D-Bus error name is
 * kept in `details.dbusError` so callers can tell, e.g., a missing method.
 *
 * @param name the reply's error name
 * @param message the reply's first string argument, if any
 * @param call what was called, for the message (`org.a11y.atspi.Cache.GetItems`)
 * @returns the error
 * @example
 * ```ts
 * import { errorFromReply } from "./errors.ts";
 * errorFromReply("org.freedesktop.DBus.Error.ServiceUnknown", "gone", "X.Y").code;
 * // "APP_NOT_FOUND"
 * ```
 */
export function errorFromReply(name: string, message: string, call: string): DesktopError {
  const [code, suggestion] = BY_NAME[name] ??
    ["INTERNAL", "The app reported an error; read it again or restart the app"];
  return new DesktopError(code, `${call} failed: ${name}${message ? `: ${message}` : ""}`, {
    suggestion,
    details: { dbusError: name },
  });
}

/**
 * The D-Bus error name carried by a DesktopError from {@link errorFromReply}.
 *
 * @param e anything thrown
 * @returns the D-Bus error name, or undefined
 */
export function dbusErrorName(e: unknown): string | undefined {
  if (!(e instanceof DesktopError)) return undefined;
  const name = e.details?.dbusError;
  return typeof name === "string" ? name : undefined;
}

/**
 * The error for a call that got no reply before its deadline.
 *
 * @param call what was called
 * @param destination the bus name called
 * @returns an APP_UNRESPONSIVE error
 */
export function noReplyError(call: string, destination: string): DesktopError {
  return new DesktopError(
    "APP_UNRESPONSIVE",
    `${destination} did not answer ${call} in time`,
    {
      suggestion: "The app is busy or stopped; wait and retry, or raise --timeout",
      details: { bus: destination },
    },
  );
}

/**
 * The error for a lost or unusable connection.
 *
 * @param why what happened
 * @param cause the underlying error
 * @returns an INTERNAL error
 */
export function connectionError(why: string, cause?: unknown): DesktopError {
  return new DesktopError("INTERNAL", `D-Bus connection: ${why}`, {
    suggestion: "Check that the desktop session's accessibility bus is running, then retry",
    cause,
  });
}
