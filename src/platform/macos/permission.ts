/**
 * The Accessibility permission: which app the user must allow, and the
 * PERMISSION_DENIED error that says so.
 *
 * @module
 */

import { DesktopError } from "../../errors.ts";

/** Where the grant lives in System Settings. */
export const ACCESSIBILITY_SETTINGS = "System Settings > Privacy & Security > Accessibility";

const TERMINALS: Readonly<Record<string, string>> = {
  Apple_Terminal: "Terminal",
  "iTerm.app": "iTerm",
  vscode: "Visual Studio Code",
  WezTerm: "WezTerm",
  ghostty: "Ghostty",
  WarpTerminal: "Warp",
  Hyper: "Hyper",
  Tabby: "Tabby",
  alacritty: "Alacritty",
  kitty: "kitty",
};

/**
 * Names the app that holds the Accessibility grant for this process: the
 * terminal (or editor) that runs deno.
 *
 * @param env environment lookup (TERM_PROGRAM, __CFBundleIdentifier)
 * @returns a human-readable app name
 * @example
 * ```ts
 * import { grantHolder } from "./permission.ts";
 * console.log(grantHolder((k) => ({ TERM_PROGRAM: "iTerm.app" })[k])); // "iTerm"
 * ```
 */
export function grantHolder(env: (key: string) => string | undefined): string {
  const program = env("TERM_PROGRAM");
  if (program && TERMINALS[program]) return TERMINALS[program];
  const bundle = env("__CFBundleIdentifier");
  if (bundle) return `the app with bundle id ${bundle}`;
  if (program) return program;
  return "the terminal app that runs deno";
}

/**
 * The error for a refused Accessibility call.
 *
 * @param holder from {@link grantHolder}
 * @param why what showed the refusal
 * @returns a PERMISSION_DENIED DesktopError
 */
export function permissionDenied(holder: string, why: string): DesktopError {
  return new DesktopError(
    "PERMISSION_DENIED",
    `macOS refused Accessibility access (${why}); allow ${holder} in ${ACCESSIBILITY_SETTINGS}`,
    {
      suggestion:
        `Open ${ACCESSIBILITY_SETTINGS}, turn on ${holder} (remove and re-add it if it is already on), then restart it`,
      details: { app: holder },
    },
  );
}

/** Reads an environment variable without throwing when env access was not granted. */
export function safeEnv(key: string): string | undefined {
  try {
    return Deno.env.get(key);
  } catch {
    return undefined;
  }
}
