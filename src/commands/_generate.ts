/**
 * Commander commands generated from the table of operations (src/ops): one
 * option per parameter (`scope_ref` → `--scope-ref`), positional parameters
 * as arguments, the examples and notes as help, and an action that
 * validates, runs the operation through the library and prints its text.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "commander";
import { DEFAULT_TIMEOUT_MS, type Desktop } from "../desktop.ts";
import { DesktopError } from "../errors.ts";
import { MAX_INPUT_BYTES, readInputText, sizeText } from "../io/bounded_read.ts";
import {
  type AnyOp,
  type Args,
  defaultOn,
  invoke,
  nameOn,
  type OpContext,
  paramsOn,
  type ParamSpec,
  parseCliValue,
  validateArgs,
} from "../ops/mod.ts";
import { openDesktopFromOptions, runCommand } from "./_shared.ts";
import { writeAllSync } from "../io/write_all.ts";

const writeOut = (text: string) => writeAllSync(Deno.stdout, text);

/** commander's attribute name of an option: `scope_ref` → `scopeRef`. */
function attr(name: string): string {
  return name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The help line of a parameter, with its default and choices. */
function helpOf(p: ParamSpec): string {
  const d = defaultOn(p, "cli");
  const choices = p.type === "enum" && !p.doc.includes(p.choices![0])
    ? ` (${p.choices!.join(", ")})`
    : "";
  return `${p.doc}${choices}${d !== undefined && p.type !== "boolean" ? ` (default: ${d})` : ""}`;
}

function addParam(cmd: CommandUnknownOpts, p: ParamSpec): void {
  const flag = `--${p.name.replaceAll("_", "-")}`;
  if (p.positional === "or-flag") {
    // Required-ness is checked after parsing: either form may carry the value.
    cmd.argument(`[${p.name}]`, `${p.doc} (or ${flag})`);
  } else if (p.positional) {
    cmd.argument(p.required ? `<${p.name}>` : `[${p.name}]`, p.doc);
    return;
  }
  if (p.type === "boolean") {
    const no = `--no-${p.name.replaceAll("_", "-")}`;
    if (p.negatable) {
      // Both given: commander leaves the value unset unless one of them is passed.
      cmd.option(flag, p.doc);
      cmd.option(no, `not ${flag}`);
    } // A default-true flag is turned off with --no-...: `--no-prune`.
    else if (defaultOn(p, "cli") === true) cmd.option(no, p.doc);
    else cmd.option(flag, p.doc);
    return;
  }
  if (p.type === "list") {
    // Repeated: `--field a=1 --field b=2`.
    cmd.option(
      `${flag} <value>`,
      `${helpOf(p)} (repeat)`,
      (raw: string, prev: string[] = []) => [...prev, raw],
    );
    return;
  }
  const placeholder = p.type === "int" || p.type === "number"
    ? "n"
    : p.type === "json"
    ? "json"
    : "value";
  cmd.option(`${flag} <${placeholder}>`, helpOf(p), (raw: string) => parseCliValue(p, raw));
}

/**
 * Aborts `ctrl` on Ctrl+C (and SIGTERM), so a stream still ends with its `done` event.
 *
 * @returns a function that removes the handlers
 */
function abortOnSignals(ctrl: AbortController): () => void {
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const onSignal = () => ctrl.abort();
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  return () => {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  };
}

/**
 * The arguments of an operation from what commander parsed.
 *
 * @param op the operation
 * @param positionals the command's arguments, in order
 * @param opts the parsed options
 * @returns the raw (typed, not yet validated) arguments
 */
export function argsFromCommander(
  op: AnyOp,
  positionals: unknown[],
  opts: Record<string, unknown>,
): Args {
  const args: Args = {};
  let next = 0;
  for (const p of paramsOn(op, "cli")) {
    const value = p.positional === "or-flag"
      ? eitherForm(p, positionals[next++], opts[attr(p.name)])
      : p.positional
      ? positionals[next++]
      : opts[attr(p.name)];
    if (value === undefined) continue;
    // A default-true boolean is on unless --no-... was given (commander sets it then).
    if (p.type === "boolean" && defaultOn(p, "cli") === true && value === true) continue;
    args[p.name] = value;
  }
  return args;
}

/** The value of a parameter given as an argument or as its flag; both is INVALID_ARGS. */
function eitherForm(p: ParamSpec, positional: unknown, flag: unknown): unknown {
  if (positional !== undefined && flag !== undefined && positional !== flag) {
    const name = `--${p.name.replaceAll("_", "-")}`;
    throw new DesktopError("INVALID_ARGS", `${p.name} given twice: as an argument and as ${name}`, {
      suggestion: `Give it once, e.g. as ${name} "..."`,
    });
  }
  return positional ?? flag;
}

/**
 * Runs an operation for the CLI: validates, opens the session on first use,
 * streams events as JSON lines, prints the rendered result.
 *
 * @param op the operation
 * @param raw its arguments
 */
export async function runCli(op: AnyOp, raw: Args): Promise<void> {
  for (const p of paramsOn(op, "cli")) {
    // `clipboard set -`: a value larger than the system allows in one argument comes on stdin,
    // read through the bounded reader (a size cap, and the command's deadline).
    if (p.stdin && raw[p.name] === "-") {
      const timeout = typeof raw.timeout === "number" ? raw.timeout : DEFAULT_TIMEOUT_MS;
      raw[p.name] = await readInputText("-", {
        what: `${p.name} value`,
        code: "INVALID_ARGS",
        suggestion: `Pipe the ${p.name} on standard input (at most ${sizeText(MAX_INPUT_BYTES)})`,
        stdin: true,
        deadline: performance.timeOrigin + timeout,
      });
    }
  }
  const args = validateArgs(op, raw, "cli");
  const ctrl = new AbortController();
  const streams = op.name === "observe";
  const removeHandlers = streams ? abortOnSignals(ctrl) : () => {};
  let desktop: Desktop | undefined;
  const ctx: OpContext = {
    face: "cli",
    signal: ctrl.signal,
    async desktop() {
      // --timeout is the whole command's deadline, from the process's start; a run
      // file's steps each get their own, and a stream's reads too (it runs until stopped).
      const timeout = (args.timeout as number | undefined) ?? DEFAULT_TIMEOUT_MS;
      desktop ??= await openDesktopFromOptions(
        {
          from: args.from as string | undefined,
          timeout,
          session: args.session as string | undefined,
        },
        undefined,
        op.name === "run" || streams ? undefined : performance.timeOrigin + timeout,
      );
      return desktop;
    },
    emit(event) {
      // `observe ... | head -3`: the reader closed the pipe; stop quietly.
      if (!writeOut(JSON.stringify(event) + "\n")) ctrl.abort();
    },
  };
  try {
    const result = await invoke(op, args, ctx);
    if (op.raw) {
      writeOut(op.render(result, args));
      return;
    }
    const text = op.render(result, args).replace(/\n$/, "");
    if (text !== "") writeOut(text + "\n");
    const failed = op.failure?.(result);
    if (failed) throw failed;
  } finally {
    removeHandlers();
    desktop?.close();
  }
}

/**
 * The commander command of an operation.
 *
 * @param op the operation
 * @returns the command
 * @throws DesktopError INTERNAL when the table declares a parameter twice
 */
export function commandFor(op: AnyOp): CommandUnknownOpts {
  const name = nameOn(op, "cli").split(" ").at(-1)!;
  const cmd = new Command(name).description(op.doc) as unknown as CommandUnknownOpts;
  const seen = new Set<string>();
  for (const p of paramsOn(op, "cli")) {
    if (seen.has(p.name)) {
      throw new DesktopError("INTERNAL", `${op.name} declares ${p.name} twice`);
    }
    seen.add(p.name);
    addParam(cmd, p);
  }
  const help = [
    op.notes ?? "",
    op.examples?.length ? `Examples:\n${op.examples.map((e) => `  $ ${e}`).join("\n")}` : "",
  ].filter(Boolean).join("\n\n");
  if (help) cmd.addHelpText("after", `\n${help}`);
  cmd.action(runCommand(async (...all: unknown[]) => {
    // commander passes the arguments, then the options, then the command.
    const opts = all.at(-2) as Record<string, unknown>;
    await runCli(op, argsFromCommander(op, all.slice(0, -2), opts));
  }));
  return cmd;
}

/**
 * Adds every operation's command to a program; a two-word CLI name
 * (`clipboard get`) becomes a subcommand of its first word.
 *
 * @param program the program
 * @param ops the operations
 */
export function addOpCommands(program: CommandUnknownOpts, ops: readonly AnyOp[]): void {
  const parents = new Map<string, CommandUnknownOpts>();
  for (const op of ops) {
    const words = nameOn(op, "cli").split(" ");
    if (words.length === 1) {
      program.addCommand(commandFor(op));
      continue;
    }
    let parent = parents.get(words[0]);
    if (!parent) {
      parent = new Command(words[0]) as unknown as CommandUnknownOpts;
      parents.set(words[0], parent);
      program.addCommand(parent);
    }
    parent.addCommand(commandFor(op));
    parent.description(
      `${parent.commands.map((c) => c.name()).join(", ")}: see \`desktop ${
        words[0]
      } <sub> --help\``,
    );
  }
}
