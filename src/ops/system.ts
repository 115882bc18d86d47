/**
 * Operations beyond the accessibility tree: screenshots, and apps and
 * windows as wholes (launch, quit, window). Entries of the table like the
 * others (see ./mod.ts).
 *
 * @module
 */

import type { Launched, WindowResult } from "../apps/apps.ts";
import { DesktopError } from "../errors.ts";
import { type FilledField, type FillField, readFieldsFile } from "../fill/fill.ts";
import { loadRunFile, type RunReport } from "../run/run.ts";
import { saveScreenshot } from "../screenshot/screenshot.ts";
import { checkOutputPath } from "../io/private_write.ts";
import type { WindowInfo } from "../model/element.ts";
import { encodeBase64 } from "../output/base64.ts";
import type { Mark } from "../output/marks.ts";
import type { WindowOp } from "../platform/provider.ts";
import {
  SCOPE_PARAMS,
  type ScopeArgs,
  type TargetArgs,
  targetParams,
  toScope,
  toTarget,
} from "./params.ts";
import { elementLine, type ElementSummary, formatWindows, summary } from "./render.ts";
import { defineOp, type Op, type OpHints, type ParamSpec } from "./types.ts";

const READ: OpHints = { readOnly: true, destructive: false, idempotent: true, openWorld: false };

/** The CLI-only parameters every live operation takes (see table.ts). */
const CLI_ONLY: readonly ParamSpec[] = [
  {
    name: "from",
    type: "string",
    face: "cli",
    doc: "read a saved snapshot instead of the live desktop (read-only)",
  },
  {
    name: "session",
    type: "string",
    face: "cli",
    doc: "ids of this session's reads (default: $DESKTOP_SESSION, else the shared default)",
  },
];

const FORMAT: ParamSpec = {
  name: "format",
  type: "enum",
  choices: ["agent", "json"],
  default: "agent",
  face: "cli",
  doc: "output: agent (one line) or json",
};

// ---------------------------------------------------------------- screenshot

/** Arguments of `screenshot`. */
export interface ScreenshotArgs extends ScopeArgs, TargetArgs {
  /** Write the PNG here. */
  out?: string;
  /** Shrink by this factor. */
  scale?: number;
  /** Outline interactive elements with id and ref. */
  marks?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `screenshot`. */
export interface ScreenshotResult {
  /** Always true. */
  ok: true;
  /** Where the PNG was written (the CLI always writes one). */
  path?: string;
  /** Image width. */
  width: number;
  /** Image height. */
  height: number;
  /** The screen region shown. */
  region: [number, number, number, number];
  /** Image pixels per screen pixel. */
  scale: number;
  /** What was captured. */
  of: "screen" | "window" | "element";
  /** The window captured. */
  window?: WindowInfo;
  /** The element captured. */
  element?: ElementSummary;
  /** The marks drawn (id, ref, role, label, box). */
  marks: Mark[];
  /** The PNG, base64. */
  png: string;
}

/**
 * The lines the CLI prints: the file, what it shows, and one line per mark.
 *
 * @param r the result
 * @returns the text
 */
export function screenshotLines(r: ScreenshotResult): string {
  const [x, y, w, h] = r.region;
  const what = r.window
    ? `window ${JSON.stringify(r.window.title)}`
    : r.element
    ? `element ${elementLine(r.element)}`
    : "screen";
  const scale = r.scale === 1 ? "" : `, ${Math.round(r.scale * 1000) / 1000} px per screen px`;
  const lines = [
    `${r.path ?? "(not saved)"} ${r.width}x${r.height} png: ${what} at ${x},${y} ${w}x${h}${scale}`,
  ];
  if (r.marks.length) {
    lines.push("marks (each label is the id and ref: act with --id N or --ref R):");
    for (const m of r.marks) {
      lines.push(`  [${m.i}|${m.ref ?? ""}] ${m.r}${m.t ? ` ${JSON.stringify(m.t)}` : ""}`);
    }
  }
  return lines.join("\n");
}

const screenshot: Op<ScreenshotArgs, ScreenshotResult> = defineOp<
  ScreenshotArgs,
  ScreenshotResult
>({
  name: "screenshot",
  doc: "PNG of a window, an element or the screen; marks labels elements with id and ref.",
  examples: [
    "desktop screenshot --app Chromium --marks --scale 0.5",
    "desktop screenshot --app Chromium --ref form/email --out email.png",
    "desktop screenshot --out screen.png",
  ],
  hints: READ,
  params: [
    ...SCOPE_PARAMS,
    ...CLI_ONLY,
    ...targetParams().filter((p) => p.name !== "x" && p.name !== "y"),
    { name: "out", type: "string", doc: "also write the PNG here" },
    { name: "scale", type: "number", min: 0.01, max: 1, doc: "shrink factor, e.g. 0.5" },
    { name: "marks", type: "boolean", doc: "label interactive elements" },
    FORMAT,
  ],
  output: {
    type: "object",
    properties: {
      width: { type: "integer" },
      height: { type: "integer" },
      marks: { type: "array" },
    },
  },
  async run(ctx, args) {
    const target = toTarget(args);
    const named = target.ref !== undefined || target.id !== undefined ||
      target.text !== undefined;
    if (args.out !== undefined) await checkOutputPath(args.out, "--out");
    const desktop = await ctx.desktop();
    const shot = await desktop.screenshot(toScope(args), {
      ...(named ? { target } : {}),
      ...(args.scale !== undefined ? { scale: args.scale } : {}),
      ...(args.marks ? { marks: true } : {}),
    });
    // The CLI cannot print an image: it always writes a file and prints its path.
    const path = args.out ??
      (ctx.face === "cli"
        ? await Deno.makeTempFile({ prefix: "desktop-screenshot-", suffix: ".png" })
        : undefined);
    if (path !== undefined) await saveScreenshot(path, shot.png);
    return {
      ok: true,
      ...(path !== undefined ? { path } : {}),
      width: shot.width,
      height: shot.height,
      region: shot.region,
      scale: shot.scale,
      of: shot.of,
      ...(shot.window ? { window: shot.window } : {}),
      ...(shot.element ? { element: summary(shot.element) } : {}),
      marks: shot.marks,
      png: encodeBase64(shot.png),
    };
  },
  render(r, args) {
    const { png: _png, ...rest } = r;
    return args.format === "json" ? JSON.stringify(rest) : screenshotLines(r);
  },
  data: ({ png: _png, ...rest }) => rest,
  images: (r) => [{ data: r.png, mimeType: "image/png" }],
});

// ---------------------------------------------------------------- launch

/** Arguments of `launch`. */
export interface LaunchArgs {
  /** App name, desktop file id, or a command line. */
  app: string;
  /** ms to wait for its window. */
  timeout?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `launch`. */
export interface LaunchResult extends Launched {
  /** Always true. */
  ok: true;
}

const launch: Op<LaunchArgs, LaunchResult> = defineOp<LaunchArgs, LaunchResult>({
  name: "launch",
  doc:
    "Start an app (name, desktop file id, macOS bundle id or .app, or a command) and wait for its window.",
  examples: [
    "desktop launch mousepad",
    "desktop launch org.gnome.Calculator",
    'desktop launch "zenity --info --text Hello"',
  ],
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  params: [
    {
      name: "app",
      type: "string",
      required: true,
      positional: true,
      doc: "name, desktop file id, or command",
    },
    { name: "timeout", type: "int", min: 1, default: 30_000, doc: "ms to wait for its window" },
    FORMAT,
  ],
  output: { type: "object", properties: { app: { type: "object" }, windows: { type: "array" } } },
  deadlineMs: (args, timeoutMs) => (args.timeout ?? timeoutMs) + 5000,
  async run(ctx, args) {
    const desktop = await ctx.desktop();
    return { ok: true, ...await desktop.launch(args.app, { timeoutMs: args.timeout ?? 30_000 }) };
  },
  render(r, args) {
    if (args.format === "json") return JSON.stringify(r);
    return [`ok launch ${JSON.stringify(r.app.name)} pid=${r.app.pid}`, formatWindows(r.windows)]
      .filter(Boolean).join("\n");
  },
});

// ---------------------------------------------------------------- quit

/** Arguments of `quit`. */
export interface QuitArgs extends ScopeArgs {
  /** End the process instead of asking. */
  force?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `quit`. */
export interface QuitResult {
  /** Always true. */
  ok: true;
  /** The app's name. */
  app: string;
  /** Its pid. */
  pid: number;
  /** `windows` (asked to close) or `signal` (ended). */
  via: string;
}

const quit: Op<QuitArgs, QuitResult> = defineOp<QuitArgs, QuitResult>({
  name: "quit",
  doc:
    "Quit an app as a user does (Linux: close its windows; macOS: its Quit menu item); it may ask to save. --force ends it.",
  examples: ["desktop quit --app mousepad", "desktop quit --pid 4242 --force"],
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  params: [
    ...SCOPE_PARAMS.filter((p) => ["app", "pid", "timeout"].includes(p.name)),
    CLI_ONLY[1],
    { name: "force", type: "boolean", doc: "end the process (TERM, then KILL)" },
    FORMAT,
  ],
  output: { type: "object", properties: { app: { type: "string" }, pid: { type: "integer" } } },
  async run(ctx, args) {
    if (args.app === undefined && args.pid === undefined) {
      throw new DesktopError("INVALID_ARGS", "quit needs app or pid", {
        suggestion: "Name the app to quit: app NAME or pid N",
      });
    }
    const desktop = await ctx.desktop();
    const res = await desktop.quit(toScope(args), {
      ...(args.force ? { force: true } : {}),
      ...(args.timeout !== undefined ? { timeoutMs: args.timeout } : {}),
    });
    return { ok: true, app: res.app.name, pid: res.app.pid, via: res.via };
  },
  render(r, args) {
    return args.format === "json"
      ? JSON.stringify(r)
      : `ok quit ${JSON.stringify(r.app)} pid=${r.pid} via ${r.via}`;
  },
});

// ---------------------------------------------------------------- window

/** Arguments of `window`. */
export interface WindowArgs extends ScopeArgs {
  /** New top-left corner, `x,y`. */
  move?: string;
  /** New size, `w,h`. */
  resize?: string;
  /** Bring to the front. */
  raise?: boolean;
  /** Minimize. */
  minimize?: boolean;
  /** Maximize. */
  maximize?: boolean;
  /** Undo minimize or maximize. */
  restore?: boolean;
  /** Ask it to close. */
  close?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `window`. */
export interface WindowOpResult extends WindowResult {
  /** Always true. */
  ok: true;
  /** The operations applied, in order. */
  ops: string[];
}

/**
 * Parses `x,y` (or `WxH`).
 *
 * @param name the parameter, for messages
 * @param value its text
 * @param min smallest value of each number
 * @returns the pair
 * @throws DesktopError INVALID_ARGS
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePair } from "./system.ts";
 * assert.deepEqual(parsePair("move", "30,40", -1e5), [30, 40]);
 * assert.throws(() => parsePair("resize", "big", 1));
 * ```
 */
export function parsePair(name: string, value: string, min: number): [number, number] {
  const m = /^\s*(-?\d+)\s*[,x]\s*(-?\d+)\s*$/.exec(value);
  const pair = m ? [Number(m[1]), Number(m[2])] as [number, number] : null;
  if (!pair || pair[0] < min || pair[1] < min) {
    throw new DesktopError(
      "INVALID_ARGS",
      `${name} takes two integers like 100,200, got "${value}"`,
      {
        suggestion: `Pass e.g. ${name} ${Math.max(min, 100)},${Math.max(min, 100)}`,
      },
    );
  }
  return pair;
}

const windowOp: Op<WindowArgs, WindowOpResult> = defineOp<WindowArgs, WindowOpResult>({
  name: "window",
  doc: "Move, resize, raise, minimize, maximize, restore or close a window.",
  examples: [
    "desktop window --app mousepad --move 0,0 --resize 800,600",
    'desktop window --app mousepad --window "Untitled" --maximize',
  ],
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  params: [
    ...SCOPE_PARAMS,
    CLI_ONLY[1],
    { name: "move", type: "string", doc: "new top-left corner: x,y" },
    { name: "resize", type: "string", doc: "new size: w,h" },
    { name: "raise", type: "boolean", doc: "to the front, focused" },
    { name: "minimize", type: "boolean", doc: "minimize" },
    { name: "maximize", type: "boolean", doc: "maximize" },
    { name: "restore", type: "boolean", doc: "unminimize/unmaximize" },
    { name: "close", type: "boolean", doc: "ask it to close" },
    FORMAT,
  ],
  output: { type: "object", properties: { window: { type: "object" }, state: { type: "object" } } },
  async run(ctx, args) {
    const scope = toScope(args);
    if (Object.keys(scope).length === 0) {
      throw new DesktopError("INVALID_ARGS", "window needs app, pid, window or window_id", {
        suggestion: "Name the window: e.g. app mousepad",
      });
    }
    const ops: WindowOp[] = [];
    if (args.restore) ops.push({ kind: "restore" });
    if (args.maximize) ops.push({ kind: "maximize" });
    if (args.move !== undefined) {
      const [x, y] = parsePair("move", args.move, -100_000);
      ops.push({ kind: "move", x, y });
    }
    if (args.resize !== undefined) {
      const [w, h] = parsePair("resize", args.resize, 1);
      ops.push({ kind: "resize", w, h });
    }
    if (args.minimize) ops.push({ kind: "minimize" });
    if (args.raise) ops.push({ kind: "raise" });
    if (args.close) ops.push({ kind: "close" });
    const desktop = await ctx.desktop();
    const res = await desktop.window(scope, ops);
    return { ok: true, ...res, ops: ops.map((o) => o.kind) };
  },
  render(r, args) {
    if (args.format === "json") {
      return JSON.stringify({ ok: true, window: r.window, state: r.state });
    }
    const s = r.state;
    const flags = [
      s.b ? `(${s.b.join(",")})` : "",
      s.minimized ? "minimized" : "",
      s.maximized ? "maximized" : "",
      s.exists === false ? "closed" : "",
    ].filter(Boolean).join(" ");
    return `ok window [${r.window.id}] ${JSON.stringify(r.window.title)} ${r.ops.join(",")}` +
      (flags ? ` -> ${flags}` : "");
  },
});

// ---------------------------------------------------------------- clipboard

/** Arguments of `clipboard_get`. */
export interface ClipboardGetArgs {
  /** Deadline in ms. */
  timeout?: number;
}

/** Result of `clipboard_get`. */
export interface ClipboardGetResult {
  /** The clipboard's text ("" when empty). */
  text: string;
}

/** Arguments of `clipboard_set`. */
export interface ClipboardSetArgs {
  /** The text to put on the clipboard. */
  text: string;
  /** Deadline in ms. */
  timeout?: number;
}

/** Result of `clipboard_set`. */
export interface ClipboardSetResult {
  /** Always true. */
  ok: true;
  /** Characters put on the clipboard. */
  characters: number;
}

const TIMEOUT = SCOPE_PARAMS.filter((p) => p.name === "timeout");

const clipboardGet: Op<ClipboardGetArgs, ClipboardGetResult> = defineOp<
  ClipboardGetArgs,
  ClipboardGetResult
>({
  name: "clipboard_get",
  cliName: "clipboard get",
  doc: "Read the system clipboard's text.",
  examples: ["desktop clipboard get"],
  hints: READ,
  params: [...TIMEOUT],
  output: { type: "object", properties: { text: { type: "string" } } },
  raw: true,
  async run(ctx) {
    return { text: await (await ctx.desktop()).clipboardGet() };
  },
  render: (r) => r.text,
});

const clipboardSet: Op<ClipboardSetArgs, ClipboardSetResult> = defineOp<
  ClipboardSetArgs,
  ClipboardSetResult
>({
  name: "clipboard_set",
  cliName: "clipboard set",
  doc: "Put text on the clipboard (paste it with key ctrl+v).",
  examples: ['desktop clipboard set "ada@example.com"', "desktop clipboard set - < notes.txt"],
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  params: [
    {
      name: "text",
      type: "string",
      required: true,
      positional: true,
      stdin: true,
      doc: "the text (- reads it from standard input)",
    },
    ...TIMEOUT,
  ],
  output: { type: "object", properties: { characters: { type: "integer" } } },
  async run(ctx, args) {
    await (await ctx.desktop()).clipboardSet(args.text);
    return { ok: true, characters: [...args.text].length };
  },
  render: (r) => `ok clipboard set (${r.characters} characters)`,
});

// ---------------------------------------------------------------- fill and run

/** Arguments of `fill`. */
export interface FillArgs extends ScopeArgs {
  /** `REF=VALUE` (or `#ID=VALUE`), one per field. */
  field?: string[];
  /** CLI: a file (or `-`) of `REF=VALUE` lines, kept off the command line. */
  fields_file?: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `fill`. */
export interface FillResult {
  /** Every field was set. */
  ok: boolean;
  /** What each field holds now. */
  fields: FilledField[];
}

/**
 * Parses one `REF=VALUE` (`#12=VALUE` names an element by id).
 *
 * @param value the text
 * @returns the field
 * @throws DesktopError INVALID_ARGS without `=`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseField } from "./system.ts";
 * assert.deepEqual(parseField("form/email=a=b"), { target: { ref: "form/email" }, value: "a=b" });
 * assert.deepEqual(parseField("#12=x"), { target: { id: 12 }, value: "x" });
 * ```
 */
export function parseField(value: string): FillField {
  const eq = value.indexOf("=");
  if (eq <= 0) {
    throw new DesktopError("INVALID_ARGS", `field takes REF=VALUE, got "${value}"`, {
      suggestion: "Pass e.g. form/email=ada@example.com (or #12=value for an id)",
    });
  }
  const name = value.slice(0, eq).trim();
  const target = /^#\d+$/.test(name) ? { id: Number(name.slice(1)) } : { ref: name };
  return { target, value: value.slice(eq + 1) };
}

/**
 * The lines fill prints: one per field with what it holds now.
 *
 * @param fields the report
 * @returns the text
 */
export function fillLines(fields: FilledField[]): string {
  const done = fields.filter((f) => f.ok).length;
  const lines = [
    `${done === fields.length ? "ok" : "failed"} fill ${done}/${fields.length} fields`,
  ];
  for (const f of fields) {
    const el = f.element;
    const now = !el
      ? ""
      : el.sec
      ? " (secret set)"
      : el.chk !== undefined
      ? ` ${el.chk === true ? "checked" : el.chk === false ? "unchecked" : "mixed"}`
      : ` = ${JSON.stringify(el.v ?? "")}`;
    const what = el ? elementLine(el) : f.field;
    lines.push(
      `  ${f.ok ? "ok" : "FAILED"} ${what}${now}${
        f.error ? `: ${f.error.code} ${f.error.message}` : ""
      }`,
    );
  }
  return lines.join("\n");
}

const fill: Op<FillArgs, FillResult> = defineOp<FillArgs, FillResult>({
  name: "fill",
  doc: "Set many fields from one read (field: REF=VALUE each; all resolved first); reports " +
    "what each holds after.",
  examples: [
    "desktop fill --app Chromium --field form/email=ada@example.com --field form/subscribe=true",
  ],
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  params: [
    ...SCOPE_PARAMS,
    ...CLI_ONLY,
    { name: "field", type: "list", doc: "REF=VALUE (#12=VALUE for an id)" },
    {
      name: "fields_file",
      type: "string",
      face: "cli",
      doc: "more fields from this file (- for stdin), REF=VALUE per line, off the command line",
    },
    FORMAT,
  ],
  output: { type: "object", properties: { ok: { type: "boolean" }, fields: { type: "array" } } },
  async run(ctx, args) {
    const fromFile = args.fields_file !== undefined ? await readFieldsFile(args.fields_file) : [];
    const fields = [...(args.field ?? []), ...fromFile].map(parseField);
    const res = await (await ctx.desktop()).fill(toScope(args), fields);
    return { ok: res.every((f) => f.ok), fields: res };
  },
  render: (r, args) => args.format === "json" ? JSON.stringify(r) : fillLines(r.fields),
  failure(r) {
    const bad = r.fields.filter((f) => !f.ok);
    if (!bad.length) return undefined;
    return new DesktopError(
      (bad[0].error?.code ?? "ACTION_FAILED") as DesktopError["code"],
      `${bad.length} of ${r.fields.length} fields failed (first: ${bad[0].field})`,
      { suggestion: bad[0].error?.suggestion ?? "See the report" },
    );
  },
});

/** Arguments of `run`. */
export interface RunArgs extends ScopeArgs {
  /** A JSON or YAML file of steps. */
  file?: string;
  /** The steps themselves. */
  steps?: unknown;
  /** Resolve every target, act on nothing. */
  dry_run?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/**
 * The lines run prints: one per step.
 *
 * @param report the run's report
 * @returns the text
 */
export function runLines(report: RunReport): string {
  const lines = report.steps.map((s) => {
    const el = s.element ? ` ${elementLine({ i: s.element.i ?? 0, ...s.element } as never)}` : "";
    const tail = s.error ? `: ${s.error.code} ${s.error.message}` : s.detail ? ` ${s.detail}` : "";
    return `${s.ok ? "ok" : "FAILED"} ${s.step} ${s.verb}${el}${tail}`;
  });
  const verdict = report.ok
    ? `${
      report.dryRun ? "dry run: every target resolves" : "ok: every step done"
    } (${report.steps.length} steps)`
    : `${
      report.dryRun ? "dry run: some targets do not resolve" : "stopped at the first failing step"
    }`;
  return [...lines, verdict].join("\n");
}

const runOp: Op<RunArgs, RunReport> = defineOp<RunArgs, RunReport>({
  name: "run",
  doc: "Run steps by refs (a file, or steps: [{click: REF}, {fill: {fields: {...}}}, {wait: " +
    '{text: "Saved"}}, {expect: {...}}]); stops at the first failing step. dry_run resolves only.',
  examples: ["desktop run checkout.yaml --dry-run", "desktop run checkout.yaml --app Chromium"],
  notes: `A steps file (YAML):
  app: zenity
  steps:
    - fill: { fields: { forms-dialog/name: Ada, forms-dialog/city: London } }
    - click: forms-dialog/ok
    - wait: { gone: "Forms dialog" }`,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  params: [
    { name: "file", type: "string", positional: true, doc: "the steps file (.json, or YAML)" },
    ...SCOPE_PARAMS,
    ...CLI_ONLY,
    { name: "steps", type: "json", doc: "the steps, instead of a file" },
    { name: "dry_run", type: "boolean", doc: "resolve every target, act on nothing" },
    FORMAT,
  ],
  output: { type: "object", properties: { ok: { type: "boolean" }, steps: { type: "array" } } },
  deadlineMs: () => 600_000,
  async run(ctx, args) {
    if ((args.steps === undefined) === (args.file === undefined)) {
      throw new DesktopError("INVALID_ARGS", "run takes a steps file or steps", {
        suggestion: "Pass the path of a steps file, or the steps inline",
      });
    }
    const doc = args.steps ?? await loadRunFile(args.file!);
    return await (await ctx.desktop()).run(doc, {
      scope: toScope(args),
      ...(args.dry_run ? { dryRun: true } : {}),
    });
  },
  render: (r, args) => args.format === "json" ? JSON.stringify(r) : runLines(r),
  data: (r) => r as unknown as Record<string, unknown>,
  failure(report) {
    const bad = report.steps.find((s) => !s.ok);
    if (!bad) return undefined;
    return new DesktopError(
      (bad.error?.code ?? "ACTION_FAILED") as DesktopError["code"],
      `step ${bad.step} (${bad.verb}) failed: ${bad.error?.message ?? ""}`,
      { suggestion: bad.error?.suggestion, details: { step: bad.step, verb: bad.verb } },
    );
  },
});

/** The operations of this module, for the table. */
export const SYSTEM_OPS: {
  screenshot: Op<ScreenshotArgs, ScreenshotResult>;
  launch: Op<LaunchArgs, LaunchResult>;
  quit: Op<QuitArgs, QuitResult>;
  window: Op<WindowArgs, WindowOpResult>;
  clipboard_get: Op<ClipboardGetArgs, ClipboardGetResult>;
  clipboard_set: Op<ClipboardSetArgs, ClipboardSetResult>;
  fill: Op<FillArgs, FillResult>;
  run: Op<RunArgs, RunReport>;
} = {
  screenshot,
  launch,
  quit,
  window: windowOp,
  clipboard_get: clipboardGet,
  clipboard_set: clipboardSet,
  fill,
  run: runOp,
};
