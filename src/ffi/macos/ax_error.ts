/**
 * AXError codes and their mapping onto DesktopError codes.
 *
 * @module
 */

import { DesktopError, type ErrorCode } from "../../errors.ts";

/** AXError values (AXError.h). */
export const AX_ERROR = {
  Success: 0,
  Failure: -25200,
  IllegalArgument: -25201,
  InvalidUIElement: -25202,
  InvalidUIElementObserver: -25203,
  CannotComplete: -25204,
  AttributeUnsupported: -25205,
  ActionUnsupported: -25206,
  NotificationUnsupported: -25207,
  NotImplemented: -25208,
  NotificationAlreadyRegistered: -25209,
  NotificationNotRegistered: -25210,
  APIDisabled: -25211,
  NoValue: -25212,
  ParameterizedAttributeUnsupported: -25213,
  NotEnoughPrecision: -25214,
} as const;

const NAMES = new Map<number, string>(
  Object.entries(AX_ERROR).map(([name, code]) => [code, `kAXError${name}`]),
);

/**
 * The symbolic name of an AXError.
 *
 * @param code the AXError
 * @returns e.g. `kAXErrorCannotComplete (-25204)`
 * @example
 * ```ts
 * import { axErrorName } from "./ax_error.ts";
 * console.log(axErrorName(-25211)); // "kAXErrorAPIDisabled (-25211)"
 * ```
 */
export function axErrorName(code: number): string {
  return `${NAMES.get(code) ?? "AXError"} (${code})`;
}

/** What the failing call was doing, for the message and the code choice. */
export interface AxErrorContext {
  /** What was attempted, e.g. `read AXChildren` or `perform AXPress`. */
  op: string;
  /** True when carrying out an action: unsupported attributes/actions then mean ACTION_NOT_SUPPORTED. */
  acting?: boolean;
  /** App name, for messages. */
  app?: string;
}

/**
 * Picks the DesktopError code for an AXError.
 *
 * @param code the AXError
 * @param acting whether an action was being carried out
 * @returns the error code
 */
export function axErrorCode(code: number, acting = false): ErrorCode {
  switch (code) {
    case AX_ERROR.APIDisabled:
      return "PERMISSION_DENIED";
    case AX_ERROR.CannotComplete:
      return "APP_UNRESPONSIVE";
    case AX_ERROR.InvalidUIElement:
      return "STALE_REF";
    case AX_ERROR.AttributeUnsupported:
    case AX_ERROR.ActionUnsupported:
      return acting ? "ACTION_NOT_SUPPORTED" : "INTERNAL";
    case AX_ERROR.IllegalArgument:
    case AX_ERROR.Failure:
    case AX_ERROR.NoValue:
    case AX_ERROR.NotEnoughPrecision:
      return acting ? "ACTION_FAILED" : "INTERNAL";
    default:
      return acting ? "ACTION_FAILED" : "INTERNAL";
  }
}

const SUGGESTIONS: Partial<Record<ErrorCode, string>> = {
  PERMISSION_DENIED:
    "Allow the terminal app that runs deno in System Settings > Privacy & Security > Accessibility, then restart it",
  APP_UNRESPONSIVE: "The app is busy or hung; wait and retry, or raise --timeout",
  STALE_REF: "The element is gone; read the app again and use a fresh ref",
  ACTION_NOT_SUPPORTED: "Read the element's actions (`a`) and pick one it supports",
  ACTION_FAILED: "Read the app again to check its state, then retry",
  INTERNAL: "This is a bug in desktop; please report it with the command you ran",
};

/**
 * Builds the DesktopError for a failed AX call.
 *
 * @param code the AXError
 * @param ctx what was being done
 * @returns the error to throw
 */
export function axError(code: number, ctx: AxErrorContext): DesktopError {
  const desk = axErrorCode(code, ctx.acting);
  const where = ctx.app ? ` in ${ctx.app}` : "";
  return new DesktopError(desk, `${ctx.op}${where} failed: ${axErrorName(code)}`, {
    suggestion: SUGGESTIONS[desk],
    details: { axError: code },
  });
}
