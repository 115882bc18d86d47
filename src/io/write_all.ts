/**
 * Writing a command's output: all of it, and quietly when the reader went away.
 *
 * @module
 */

/**
 * Writes all of `text` to `file`; a reader that went away (`desktop read | head`)
 * is not an error.
 *
 * @param file stdout or stderr
 * @param text the text
 * @returns false when the reader closed the pipe
 * @example
 * ```ts
 * import { writeAllSync } from "./write_all.ts";
 * console.log(writeAllSync(Deno.stdout, "")); // true
 * ```
 */
export function writeAllSync(file: typeof Deno.stdout, text: string): boolean {
  const bytes = new TextEncoder().encode(text);
  try {
    for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.BrokenPipe) return false;
    throw err;
  }
}
