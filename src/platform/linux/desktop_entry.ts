/**
 * Desktop entries (`.desktop` files): parsing the `[Desktop Entry]` group and
 * turning its `Exec` line into an argument vector. Pure string work; reading
 * the files is the caller's.
 *
 * @module
 */

/** What launching needs from a desktop entry. */
export interface DesktopEntry {
  /** Desktop file id (`org.gnome.Calculator.desktop`). */
  id: string;
  /** `Name`. */
  name: string;
  /** `Exec`, unparsed. */
  exec: string;
  /** `NoDisplay` or `Hidden`: not meant for menus, still launchable by id. */
  hidden: boolean;
}

/**
 * Parses the `[Desktop Entry]` group of a desktop file.
 *
 * @param id the desktop file id
 * @param text the file's contents
 * @returns the entry, or null when it is not an application with an Exec line
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDesktopEntry } from "./desktop_entry.ts";
 * const e = parseDesktopEntry("x.desktop", "[Desktop Entry]\nType=Application\nName=X\nExec=x %U\n");
 * assert.equal(e?.exec, "x %U");
 * ```
 */
export function parseDesktopEntry(id: string, text: string): DesktopEntry | null {
  let inMain = false;
  const kv = new Map<string, string>();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inMain = line === "[Desktop Entry]";
      continue;
    }
    if (!inMain || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq > 0) kv.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  const exec = kv.get("Exec");
  if (!exec || (kv.get("Type") ?? "Application") !== "Application") return null;
  return {
    id,
    name: kv.get("Name") ?? id.replace(/\.desktop$/, ""),
    exec,
    hidden: kv.get("NoDisplay") === "true" || kv.get("Hidden") === "true",
  };
}

/**
 * Splits a command line into arguments: whitespace separates, double and
 * single quotes group, backslash escapes (the Exec key's quoting, which is a
 * subset of the shell's).
 *
 * @param line the command line
 * @returns the arguments
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitCommand } from "./desktop_entry.ts";
 * assert.deepEqual(splitCommand(`zenity --info --text "a b"`), ["zenity", "--info", "--text", "a b"]);
 * ```
 */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

/**
 * The argument vector of an Exec line, with its field codes removed (`%f`,
 * `%U`... stand for files and URLs, of which a launch passes none) and `%%`
 * turned into `%`.
 *
 * @param exec the Exec value
 * @returns the arguments
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { execArgv } from "./desktop_entry.ts";
 * assert.deepEqual(execArgv("gnome-calculator %U"), ["gnome-calculator"]);
 * assert.deepEqual(execArgv("app --title=100%% %f"), ["app", "--title=100%"]);
 * ```
 */
export function execArgv(exec: string): string[] {
  return splitCommand(exec)
    .filter((a) => !/^%[fFuUdDnNickvm]$/.test(a))
    .map((a) => a.replace(/%[fFuUdDnNickvm]/g, "").replace(/%%/g, "%"))
    .filter((a) => a !== "");
}
