/**
 * The live half of `deno task demo`: a private headless desktop (Xvfb, D-Bus,
 * the AT-SPI bus) running Chromium on tests/fixtures/web/form.html, driven
 * through the real `desktop` CLI: list, read, type and click by ref, wait,
 * re-read, a ref that outlives a removed row, and an observe stream.
 *
 * @module
 */

import { missingDesktopTools, REPO_ROOT, startDesktop } from "./harness/desktop.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/form.html`;

/** How the tour prints: command lines, headings, and the CLI's own output. */
export interface TourPrinter {
  /** Prints a section heading. */
  heading(text: string): void;
  /** Prints a dimmed note. */
  note(text: string): void;
  /** Runs `desktop <args>` with `env` (and nothing else) and prints what it printed. */
  show(args: string[], env: Record<string, string>, maxLines?: number): Promise<void>;
}

/**
 * Whether the live tour can run here: Linux with the test desktop's tools and
 * Chromium installed (`scripts/run demo` installs them).
 *
 * @returns the missing tools, empty when the tour can run
 */
export function liveDemoMissing(): string[] {
  if (Deno.build.os !== "linux") return [`Linux (this is ${Deno.build.os})`];
  return missingDesktopTools("chromium");
}

/**
 * Starts the headless desktop with Chromium and runs the tour, then tears
 * the desktop down (also when a step fails).
 *
 * @param out where the tour prints
 * @param stateDir a private ref store directory for the CLI runs
 */
export async function runLiveDemo(out: TourPrinter, stateDir: string): Promise<void> {
  out.note("starting a private headless desktop: Xvfb, D-Bus, the AT-SPI bus, and Chromium");
  out.note(`on ${PAGE.slice(REPO_ROOT.length)} (a sign-up form and a 300-row list)\n`);
  await using d = await startDesktop({ app: "chromium", url: PAGE });
  const env = { ...d.env, DESKTOP_STATE_DIR: stateDir };
  const app = d.appName;

  out.heading("1. Which apps have an accessible UI; wait until the page is in the tree");
  await out.show(["list"], env);
  await out.show(["wait", "--app", app, "--for-ref", "list/item-300/delete"], env);

  out.heading("2. Read the app once: every element gets an id and a stable landmark ref");
  await out.show(["read", "--app", app, "--max-elements", "50"], env, 50);
  out.note(
    "(under `rows:`, `[40]` is element 40, ref list/item-1/delete: the row's ref + the suffix)\n",
  );

  out.heading("3. Act by ref: type an email, then press Submit");
  await out.show(["type", "--app", app, "--ref", "form/email", "--text", "ada@example.com"], env);
  await out.show(["click", "--app", app, "--ref", "submit"], env);
  out.note("(`submit` is a unique suffix of form/submit)\n");

  out.heading("4. Wait for the page to answer, instead of sleeping");
  await out.show(["wait", "--app", app, "--for-text", "Submitted: ada@example.com"], env);

  out.heading("5. Re-read: the value is there, the refs have not moved");
  await out.show(["read", "--app", app, "--scope-ref", "form", "--interactive"], env);
  await out.show(["read", "--app", app, "--roles", "statusbar,txt", "--text", "Submitted"], env);

  out.heading("6. Refs are keyed by content: remove a row, the others keep theirs");
  await out.show(["read", "--app", app, "--scope-ref", "list", "--max-elements", "10"], env);
  await out.show(["click", "--app", app, "--ref", "list/item-2/delete"], env);
  await out.show(["find", "--app", app, "--ref", "list/item-3/delete"], env);
  out.note("(same ref and same id as in the read above, though the row moved up)\n");
  await out.show(["find", "--app", app, "--ref", "list/item-2/delete"], env);

  out.heading("7. Observe: only what changed, as JSONL, while another command acts");
  const observing = out.show(
    ["observe", "--app", app, "--duration", "4", "--ignore-bounds"],
    env,
  );
  await new Promise((r) => setTimeout(r, 2000));
  await out.show(["click", "--app", app, "--ref", "list/item-1/delete"], env);
  await observing;
}
