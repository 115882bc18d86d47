/**
 * The system clipboard through a backend's primitives, with the error every
 * backend without one gives.
 *
 * @module
 */

import { DesktopError } from "../errors.ts";
import type { Provider } from "../platform/provider.ts";

/** Clipboard access. */
export interface Clipboard {
  /** The clipboard's text ("" when empty). */
  get(): Promise<string>;
  /** Puts text on the clipboard. */
  set(text: string): Promise<void>;
}

/**
 * The clipboard of a backend.
 *
 * @param provider the backend
 * @returns get and set; both throw PLATFORM_NOT_SUPPORTED where the backend has no clipboard
 */
export function clipboard(provider: Provider): Clipboard {
  const none = () =>
    new DesktopError(
      "PLATFORM_NOT_SUPPORTED",
      `the ${provider.platform} backend has no clipboard`,
      {
        suggestion: "Use the clipboard of a live Linux (X11) or macOS desktop",
      },
    );
  return {
    get: () => provider.clipboardGet ? provider.clipboardGet() : Promise.reject(none()),
    set: (text) => provider.clipboardSet ? provider.clipboardSet(text) : Promise.reject(none()),
  };
}
