/**
 * The table of operations: every verb of the CLI, the MCP server and the
 * library, with its parameters, hints, handler and rendering.
 *
 * @module
 */

import { DEFAULT_TIMEOUT_MS, type Target } from "../desktop.ts";
import { diffTrees } from "../diff/diff.ts";
import { DesktopError } from "../errors.ts";
import { MAX_KEY_REPEAT, MAX_SCROLL_STEPS } from "../act/policy.ts";
import type { AppInfo, Element, Point, WindowInfo } from "../model/element.ts";
import { assignIds, windowBoundsOf, withoutChildren } from "../model/tree.ts";
import { appMatches } from "../model/scope.ts";
import type { ObserveEvent } from "../observe/events.ts";
import { observe } from "../observe/observe.ts";
import { foldLabels } from "../model/semantics.ts";
import { DEFAULT_MCP_BUDGET, fitBudget, o200kCounter } from "../output/budget.ts";
import { READ_MAX_TEXT } from "../output/agent_line.ts";
import { type Format, renderChanges, renderElements } from "../output/render.ts";
import { toYaml } from "../output/yaml.ts";
import type { Action, MouseButton, ScrollDirection } from "../platform/provider.ts";
import { assignRefs } from "../refs/generate.ts";
import {
  requireTarget,
  rolesFilter,
  SCOPE_PARAMS,
  type ScopeArgs,
  type TargetArgs,
  targetParams,
  toScope,
  toTarget,
} from "./params.ts";
import {
  type ActReport,
  actReport,
  actText,
  elementLine,
  type ElementSummary,
  formatApps,
  formatWindows,
  foundLines,
  summary,
  withChanges,
} from "./render.ts";
import type { RunReport } from "../run/run.ts";
import {
  type ClipboardGetArgs,
  type ClipboardGetResult,
  type ClipboardSetArgs,
  type ClipboardSetResult,
  type FillArgs,
  type FillResult,
  type LaunchArgs,
  type LaunchResult,
  type QuitArgs,
  type QuitResult,
  type RunArgs,
  type ScreenshotArgs,
  type ScreenshotResult,
  SYSTEM_OPS,
  type WindowArgs,
  type WindowOpResult,
} from "./system.ts";
import { defineOp, type Op, type OpContext, type OpHints, type ParamSpec } from "./types.ts";
import { spelling } from "./validate.ts";

const READ: OpHints = { readOnly: true, destructive: false, idempotent: true, openWorld: false };
/** Acting on an app: a click may press "Delete" or "Send". */
const ACT: OpHints = { readOnly: false, destructive: true, idempotent: false, openWorld: true };

/** `--from`: a saved snapshot instead of the live desktop (the MCP server takes it at start). */
const FROM: ParamSpec = {
  name: "from",
  type: "string",
  face: "cli",
  doc: "read a saved snapshot instead of the live desktop (read-only)",
};

/** Whether an action reports the changes it caused: MCP by default, the CLI with --diff. */
const DIFF: ParamSpec = {
  name: "diff",
  type: "boolean",
  default: false,
  faceDefault: { mcp: true },
  doc: "report the changes it caused",
};

/** Whether an action's changes list moves and resizes (a scroll's boxes are noise otherwise). */
const BOUNDS_CHANGES: ParamSpec = {
  name: "bounds",
  type: "boolean",
  doc: "list moves/resizes among the changes",
};

/** The CLI's output format of actions (MCP returns both text and data). */
const ACT_FORMAT: ParamSpec = {
  name: "format",
  type: "enum",
  choices: ["agent", "json"],
  default: "agent",
  face: "cli",
  doc: "output: agent (one line) or json",
};

/** `--session`: whose ids (the MCP server has one per connection, or its own --session). */
const SESSION: ParamSpec = {
  name: "session",
  type: "string",
  face: "cli",
  doc: "ids of this session's reads (default: $DESKTOP_SESSION, else the shared default)",
};

const LIVE: readonly ParamSpec[] = [...SCOPE_PARAMS, FROM, SESSION];

// Output schemas: the top-level keys only, loose, so a richer result stays valid (and the
// tool list stays small).
const OBJ = { type: "object" } as const;
const ARR = { type: "array" } as const;
const LIST_OUT = { type: "object", properties: { apps: ARR, windows: ARR } };
const FIND_OUT = { type: "object", properties: { elements: ARR } };
const ACT_OUT = {
  type: "object",
  properties: { ok: { type: "boolean" }, element: OBJ, via: { type: "string" }, changes: ARR },
};
const WAIT_OUT = { type: "object", properties: { ok: { type: "boolean" }, element: OBJ } };
const OBSERVE_OUT = {
  type: "object",
  properties: { events: ARR, cursor: { type: "string" } },
};
const DIFF_OUT = { type: "object", properties: { changes: ARR } };

// ---------------------------------------------------------------- list

/** Arguments of `list`. */
export interface ListArgs extends ScopeArgs {
  /** List windows instead of apps. */
  windows?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `list`. */
export interface ListResult {
  /** Apps (without `windows`). */
  apps?: AppInfo[];
  /** Windows (with `windows`). */
  windows?: WindowInfo[];
}

/**
 * The apps `app`/`pid` name (all when neither is given).
 *
 * @param apps running apps
 * @param args the scope arguments
 * @returns the matching apps
 * @throws DesktopError APP_NOT_FOUND, with the running apps as candidates, when none matches
 */
export function filterApps(apps: AppInfo[], args: ScopeArgs): AppInfo[] {
  if (args.app === undefined && args.pid === undefined) return apps;
  const hits = apps.filter((a) => appMatches(a, args));
  if (hits.length) return hits;
  throw new DesktopError("APP_NOT_FOUND", "no running app matches app/pid", {
    suggestion: "Run list and pass one of the names",
    candidates: apps.map((a) => ({ name: a.name, pid: a.pid })),
  });
}

const list: Op<ListArgs, ListResult> = defineOp<ListArgs, ListResult>({
  name: "list",
  doc: "List apps with an accessible UI (and apps showing windows off the accessibility bus, " +
    "with what turns it on), or (windows) their windows with ids.",
  examples: ["desktop list", "desktop list --windows --app Chromium"],
  hints: READ,
  params: [
    ...LIVE,
    { name: "windows", type: "boolean", doc: "list windows instead of apps" },
    { ...ACT_FORMAT, doc: "output: agent (one line each) or json" },
  ],
  output: LIST_OUT,
  async run(ctx, args) {
    const desktop = await ctx.desktop();
    if (args.windows) return { windows: await desktop.listWindows(toScope(args)) };
    return { apps: filterApps(await desktop.listApps(), args) };
  },
  render(r, args) {
    if (args.format === "json") return JSON.stringify(r.windows ?? r.apps);
    return r.windows ? formatWindows(r.windows) : formatApps(r.apps ?? []);
  },
});

// ---------------------------------------------------------------- read

/** Arguments of `read`. */
export interface ReadArgs extends ScopeArgs {
  /** Roles list. */
  roles?: string;
  /** Only elements an agent can act on (added to `roles`). */
  interactive?: boolean;
  /** Text filter. */
  text?: string;
  /** Depth limit. */
  depth?: number;
  /** Focused element and its ancestors. */
  focused?: boolean;
  /** Subtree of this ref. */
  scope_ref?: string;
  /** Element cap. */
  max_elements?: number;
  /** Drop unlabeled containers. */
  prune?: boolean;
  /** A flat list with landmark paths. */
  flat?: boolean;
  /** Include screen bounds (default true). */
  bounds?: boolean;
  /** Output format. */
  format?: Format;
  /** CLI: also write the snapshot to this file. */
  save?: string;
  /** CLI: read this snapshot file. */
  from?: string;
  /** Agent format: a token budget (0 or absent: none). */
  budget?: number;
  /** Agent format: whole refs. */
  full_refs?: boolean;
  /** Agent format: longest text printed per element (0: no cap). */
  max_text?: number;
}

/** Result of `read`: the rendered tree and how much of it was kept. */
export interface ReadOpResult {
  /** The tree in the requested format. */
  text: string;
  /** Elements read. */
  total: number;
  /** Elements kept by the filters. */
  kept: number;
  /** Elements left out by max_elements. */
  truncated?: number;
}

/** Writes `save`; a path that cannot be written is the caller's argument error. */
async function saveSnapshot(path: string, text: string): Promise<void> {
  // Private to the user (0600) and replaced whole: see src/io/private_write.ts.
  const { writePrivateFile } = await import("../io/private_write.ts");
  await writePrivateFile(path, text, "--save");
}

const read: Op<ReadArgs, ReadOpResult> = defineOp<ReadArgs, ReadOpResult>({
  name: "read",
  doc: "Read an app's UI as a tree; each element line has a stable ref (form/email) to act on.",
  examples: [
    "desktop read --app Chromium --interactive",
    "desktop read --app Chromium --scope-ref form --format yaml",
    "desktop read --app Chromium --save before.json",
    "desktop read --app Chromium --prune                    # leanest tree for a prompt",
    "desktop read --app Chromium --bounds                   # with screen boxes (x,y,w,h)",
    "desktop read --from before.json --flat --roles btn",
  ],
  hints: READ,
  params: [
    ...LIVE,
    { name: "flat", type: "boolean", doc: "flat list, not a tree" },
    { name: "roles", type: "string", doc: "keep roles: btn,input,..." },
    { name: "interactive", type: "boolean", doc: "keep what can be acted on (adds to roles)" },
    { name: "text", type: "string", doc: "keep elements with this text" },
    { name: "depth", type: "int", min: 0, doc: "maximum depth" },
    { name: "focused", type: "boolean", doc: "only the focused element and ancestors" },
    { name: "scope_ref", type: "string", doc: "only this ref's subtree" },
    { name: "max_elements", type: "int", min: 1, doc: "stop after this many" },
    { name: "prune", type: "boolean", doc: "drop unlabeled containers" },
    {
      name: "bounds",
      type: "boolean",
      negatable: true,
      doc: "screen boxes (default: in json and yaml, not in the agent format)",
    },
    {
      name: "format",
      type: "enum",
      choices: ["agent", "yaml", "json"],
      default: "agent",
      doc: "output format",
    },
    {
      name: "save",
      type: "string",
      face: "cli",
      doc: "also write the full snapshot (JSON) to this file for --from and diff",
    },
    {
      name: "budget",
      type: "int",
      min: 1,
      faceDefault: { mcp: DEFAULT_MCP_BUDGET },
      doc: "agent format: about this many tokens at most; big repeated regions collapse",
    },
    { name: "full_refs", type: "boolean", doc: "agent format: whole refs, not shortest suffixes" },
    {
      name: "max_text",
      type: "int",
      min: 0,
      doc: `agent format: longest text per element (default ${READ_MAX_TEXT}; 0: no cap)`,
    },
  ],
  async run(ctx, args) {
    const desktop = await ctx.desktop();
    const { snapshot, view } = await desktop.read(toScope(args), {
      roles: rolesFilter(args.roles, args.interactive),
      text: args.text,
      depth: args.depth,
      focused: args.focused,
      scopeRef: args.scope_ref,
      maxElements: args.max_elements,
      prune: args.prune,
    });
    if (args.save !== undefined) {
      const { snapshotToText } = await import("../platform/replay/snapshot_file.ts");
      await saveSnapshot(args.save, snapshotToText(snapshot));
    }
    const format = args.format ?? "agent";
    // Boxes are for programs and pointer work: an agent acts by ref, and every box costs
    // about ten tokens, so the agent format leaves them out unless asked.
    const bounds = args.bounds ?? format !== "agent";
    // Without bounds, no box anywhere: not the window's either.
    const window = snapshot.window && !bounds
      ? (({ b: _b, ...w }) => w)(snapshot.window)
      : snapshot.window;
    const meta = {
      app: snapshot.app,
      ...(window ? { window } : {}),
      readAt: snapshot.readAt,
      total: view.total,
      kept: view.kept,
      ...(view.truncated ? { truncated: view.truncated } : {}),
    };
    const counts = {
      total: view.total,
      kept: view.kept,
      ...(view.truncated ? { truncated: view.truncated } : {}),
    };
    if (!view.root) {
      // Not an error: say so in the requested format.
      const text = format === "agent"
        ? `(no element matched the filters; ${view.total} elements read)`
        : format === "json"
        ? JSON.stringify({ ...meta, root: null })
        : toYaml({ ...meta, root: null }).replace(/\n$/, "");
      return { text, ...counts };
    }
    let text = renderElements(view.root, {
      format,
      flat: args.flat,
      meta,
      bounds,
      viewport: windowBoundsOf(snapshot.root, view.root.i),
      refsFrom: snapshot.root,
      shortRefs: !args.full_refs,
      ...(args.max_text !== undefined ? { maxText: args.max_text } : {}),
    });
    if (args.budget && format === "agent") {
      text = fitBudget(text, args.budget, await o200kCounter());
    }
    text = text.replace(/\n$/, "");
    if (view.truncated && format === "agent") {
      // yaml/json carry `truncated`; agent text says it in words.
      const [max, scopeRef, roles] = ["max_elements", "scope_ref", "roles"].map((n) =>
        spelling(n, ctx.face)
      );
      text += `\n... ${view.truncated} more elements not shown (raise ${max}, or narrow ` +
        `with ${scopeRef}/${roles})`;
    }
    return { text, ...counts };
  },
  render: (r) => r.text,
});

// ---------------------------------------------------------------- find

/** Arguments of `find`. */
export interface FindArgs extends ScopeArgs, TargetArgs {
  /** List every text/roles match instead of requiring one. */
  all?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `find`. */
export interface FindResult {
  /** The elements found (without children). */
  elements: Element[];
}

const find: Op<FindArgs, FindResult> = defineOp<FindArgs, FindResult>({
  name: "find",
  doc: "Resolve a target to one element as an action would, or (all) list every text/roles " +
    "match; returns refs.",
  examples: [
    "desktop find --app Chromium --ref submit",
    "desktop find --app Chromium --text Email --roles input",
    "desktop find --app Chromium --text delete --all",
  ],
  hints: READ,
  params: [
    ...LIVE,
    ...targetParams(),
    { name: "all", type: "boolean", doc: "every text/roles match" },
    { ...ACT_FORMAT, doc: "output: agent (one line per element) or json" },
  ],
  output: FIND_OUT,
  async run(ctx, args) {
    const target = toTarget(args);
    const desktop = await ctx.desktop();
    if (args.all) {
      if (target.ref !== undefined || target.id !== undefined || target.point) {
        throw new DesktopError("INVALID_ARGS", "all lists text/roles matches only", {
          suggestion: "Use all with text and/or roles",
        });
      }
      if (target.text === undefined && !target.roles) {
        throw new DesktopError("INVALID_ARGS", "all needs text, roles or both", {
          suggestion: 'Pass text (e.g. "Save") and/or roles (e.g. "btn")',
        });
      }
      // Not a read: the ids printed are the last read's, and it stays the last read.
      const hits = await desktop.find(toScope(args), {
        text: target.text,
        exact: target.exact,
        roles: target.roles,
      });
      if (hits.length === 0) {
        throw new DesktopError("ELEMENT_NOT_FOUND", "no element matches", {
          suggestion: "Loosen text or roles, or read to see the tree",
        });
      }
      return { elements: hits.map(withoutChildren) };
    }
    requireTarget("find", target);
    return { elements: [withoutChildren(await desktop.resolve(toScope(args), target))] };
  },
  render(r, args) {
    return args.format === "json"
      ? JSON.stringify(r.elements.map(summary))
      : foundLines(r.elements);
  },
  data: (r) => ({ elements: r.elements.map(summary) }),
});

// ---------------------------------------------------------------- actions

/** Carries out an action and reports it. */
async function act(
  ctx: OpContext,
  verb: string,
  args: ScopeArgs & { bounds?: boolean },
  target: Target,
  action: Action,
): Promise<ActReport> {
  const desktop = await ctx.desktop();
  const opts = args.bounds ? { bounds: true } : {};
  return actReport(verb, await desktop.act(toScope(args), target, action, opts));
}

function renderAct(r: ActReport, args: { format?: string; diff?: boolean }): string {
  const show = args.diff === true;
  return args.format === "json" ? JSON.stringify(withChanges(r, show)) : actText(r, show);
}

function actData(r: ActReport, args: { diff?: boolean }): Record<string, unknown> {
  return withChanges(r, args.diff !== false);
}

/** What every action takes besides its target. */
export interface ActArgs {
  /** Report the changes the action caused (MCP: default true). */
  diff?: boolean;
  /** List moves and resizes among the changes (default false). */
  bounds?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Arguments of `click`. */
export interface ClickArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Mouse button. */
  button?: MouseButton;
  /** Double-click. */
  double?: boolean;
  /** CLI output format. */
  format?: "agent" | "json";
}

const click: Op<ClickArgs, ActReport> = defineOp<ClickArgs, ActReport>({
  name: "click",
  doc: "Click an element (its press action, else a real click) or a point.",
  examples: [
    "desktop click --app Chromium --ref form/submit",
    "desktop click --app Chromium --ref submit              # unique suffix",
    'desktop click --app Chromium --text "Delete" --roles btn --exact',
    "desktop click --app Chromium --id 42                   # id from the last read",
    "desktop click --x 640 --y 400 --button right",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    {
      name: "button",
      type: "enum",
      choices: ["left", "right", "middle"],
      default: "left",
      doc: "button",
    },
    { name: "double", type: "boolean", doc: "double-click" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("click", target);
    return act(ctx, "click", args, target, {
      kind: "click",
      button: args.button ?? "left",
      count: args.double ? 2 : 1,
    });
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `type`. */
export interface TypeArgs extends ScopeArgs, Omit<TargetArgs, "text">, ActArgs {
  /** The text to type. */
  text?: string;
  /** CLI: a file (or `-`, standard input) holding the text, kept out of the command line. */
  text_file?: string;
  /** A key combo to press instead. */
  key?: string;
  /** Clear the field before typing. */
  replace?: boolean;
  /** The element whose label/value/description has this (text targeting). */
  target?: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

const type: Op<TypeArgs, ActReport> = defineOp<TypeArgs, ActReport>({
  name: "type",
  doc: "Type text (or press key) into an element, default the focused one.",
  examples: [
    'desktop type --app Chromium --ref form/email --text "ada@example.com"',
    'desktop type --app Chromium --target "Full Name" --text "Ada Lovelace"',
    'desktop type --app Chromium --ref toolbar/address --replace "chrome://settings"',
    'desktop type --app mousepad --ref text "Dear Ada,"',
    "desktop type --app Chromium --ref form/email --key ctrl+a",
    "desktop type --app Chromium --ref form/password --text-file - < secret.txt",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams("target"),
    { name: "text", type: "string", positional: "or-flag", doc: "the text to type" },
    {
      name: "text_file",
      type: "string",
      face: "cli",
      doc: "read the text from this file (- for stdin), not the command line (one final " +
        "newline dropped)",
    },
    { name: "key", type: "string", doc: "key combo instead (ctrl+a)" },
    {
      name: "replace",
      type: "boolean",
      doc: "clear the field first (default: type at the end of its text)",
    },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  async run(ctx, args) {
    const given = [args.text, args.text_file, args.key].filter((x) => x !== undefined);
    if (given.length !== 1) {
      const text = ctx.face === "cli" ? "text, --text-file" : "text";
      throw new DesktopError("INVALID_ARGS", `type takes exactly one of ${text} and key`, {
        suggestion: 'Pass text "words" or key Return' +
          (ctx.face === "cli" ? " (or --text-file FILE for text kept off the command line)" : ""),
      });
    }
    const target = toTarget(args as TargetArgs, "target");
    let text = args.text;
    if (args.text_file !== undefined) {
      // Loaded on demand: reading files is a platform concern.
      const { readTextArgument } = await import("../io/bounded_read.ts");
      text = await readTextArgument(args.text_file, "--text-file");
    }
    return await act(
      ctx,
      "type",
      args,
      target,
      args.key !== undefined
        ? { kind: "key", combo: args.key }
        : { kind: "type", text: text!, ...(args.replace ? { replace: true } : {}) },
    );
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `key`. */
export interface KeyArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Keys joined with +. */
  combo: string;
  /** How many times to press it (1..100). */
  repeat?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

const key: Op<KeyArgs, ActReport> = defineOp<KeyArgs, ActReport>({
  name: "key",
  doc: "Press a key combo (Return, ctrl+s) in the focused element or a target.",
  examples: [
    "desktop key Return --app Chromium",
    "desktop key ctrl+a --app Chromium --ref form/email",
    "desktop key Right --repeat 7 --app Chromium --ref volume",
  ],
  hints: ACT,
  params: [
    { name: "combo", type: "string", required: true, positional: true, doc: "keys joined with +" },
    {
      name: "repeat",
      type: "int",
      min: 1,
      max: MAX_KEY_REPEAT,
      default: 1,
      doc: "press it this many times, each once",
    },
    ...LIVE,
    ...targetParams(),
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    if (!/^[^\s+]+(\+[^\s+]+)*$/.test(args.combo)) {
      throw new DesktopError("INVALID_ARGS", `"${args.combo}" is not a key combo`, {
        suggestion: "Join keys with +, e.g. ctrl+s, shift+Tab, Return",
      });
    }
    const repeat = args.repeat ?? 1;
    return act(ctx, "key", args, toTarget(args), {
      kind: "key",
      combo: args.combo,
      ...(repeat !== 1 ? { repeat } : {}),
    });
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `action`. */
export interface ActionArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** The action's name. */
  name: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

const action: Op<ActionArgs, ActReport> = defineOp<ActionArgs, ActReport>({
  name: "action",
  doc: "Perform a named action the element lists (press, expand...).",
  examples: ["desktop action --app Chromium --ref toolbar/back --name press"],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    { name: "name", type: "string", required: true, doc: "the action name" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("action", target, true);
    return act(ctx, "action", args, target, { kind: "action", name: args.name });
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `set_value`. */
export interface SetValueArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** The new value. */
  value: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

const setValue: Op<SetValueArgs, ActReport> = defineOp<SetValueArgs, ActReport>({
  name: "set_value",
  doc: "Set an element's value: text, number (slider), true/false (check box).",
  examples: [
    'desktop set-value --app Chromium --ref form/email --value "ada@example.com"',
    "desktop set-value --app Chromium --ref form/subscribe true",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    {
      name: "value",
      type: "string",
      required: true,
      positional: "or-flag",
      doc: "the new value",
    },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("set-value", target, true);
    return act(ctx, "set-value", args, target, { kind: "set-value", value: args.value });
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `scroll`. */
export interface ScrollArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Direction. */
  direction?: ScrollDirection;
  /** Steps. */
  amount?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

const scroll: Op<ScrollArgs, ActReport> = defineOp<ScrollArgs, ActReport>({
  name: "scroll",
  doc: "Scroll amount steps in a direction, or without one scroll the element into view.",
  examples: [
    "desktop scroll --app Chromium --ref invoices/invoice-2024-01/delete   # into view",
    "desktop scroll --app Chromium --ref invoices --direction down --amount 5",
  ],
  hints: { ...ACT, destructive: false },
  params: [
    ...LIVE,
    ...targetParams(),
    {
      name: "direction",
      type: "enum",
      choices: ["up", "down", "left", "right"],
      doc: "direction",
    },
    { name: "amount", type: "int", min: 1, max: MAX_SCROLL_STEPS, doc: "steps (default 3)" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("scroll", target);
    if (args.amount !== undefined && args.direction === undefined) {
      throw new DesktopError("INVALID_ARGS", "amount needs direction", {
        suggestion: "Pass direction up|down|left|right",
      });
    }
    if (args.direction === undefined && target.point) {
      throw new DesktopError("INVALID_ARGS", "scrolling a point needs a direction", {
        suggestion: "Pass direction (and amount), or target an element to scroll it into view",
      });
    }
    return act(ctx, "scroll", args, target, {
      kind: "scroll",
      ...(args.direction !== undefined ? { direction: args.direction } : {}),
      ...(args.direction !== undefined ? { amount: args.amount ?? 3 } : {}),
    });
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `drag`. */
export interface DragArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** Destination element ref. */
  to_ref?: string;
  /** Destination element id. */
  to_id?: number;
  /** Destination x. */
  to_x?: number;
  /** Destination y. */
  to_y?: number;
  /** CLI output format. */
  format?: "agent" | "json";
}

/**
 * The centre of an element's bounds.
 *
 * @param el the element
 * @returns the point
 * @throws DesktopError ACTION_FAILED when the element has no bounds
 */
export function centreOf(el: Element): Point {
  if (!el.b) {
    throw new DesktopError("ACTION_FAILED", `${el.ref ?? el.r} has no bounds to drag to`, {
      suggestion: "Drag to a point with to_x/to_y",
    });
  }
  return { x: Math.round(el.b[0] + el.b[2] / 2), y: Math.round(el.b[1] + el.b[3] / 2) };
}

const drag: Op<DragArgs, ActReport> = defineOp<DragArgs, ActReport>({
  name: "drag",
  doc: "Drag from an element or point (the target) to to_ref, to_id or to_x/to_y.",
  examples: [
    "desktop drag --app Files --ref files/report-pdf --to-ref sidebar/trash",
    "desktop drag --app Files --id 12 --to-x 900 --to-y 300",
  ],
  hints: ACT,
  params: [
    ...LIVE,
    ...targetParams(),
    { name: "to_ref", type: "string", doc: "destination ref" },
    { name: "to_id", type: "int", min: 0, doc: "destination id" },
    { name: "to_x", type: "int", min: -1e9, doc: "destination x" },
    { name: "to_y", type: "int", min: -1e9, doc: "destination y" },
    DIFF,
    BOUNDS_CHANGES,
    ACT_FORMAT,
  ],
  output: ACT_OUT,
  async run(ctx, args) {
    const source = toTarget(args);
    requireTarget("drag", source);
    const dests = [
      args.to_ref !== undefined,
      args.to_id !== undefined,
      args.to_x !== undefined || args.to_y !== undefined,
    ].filter(Boolean).length;
    if (dests !== 1 || (args.to_x === undefined) !== (args.to_y === undefined)) {
      throw new DesktopError("INVALID_ARGS", "drag needs exactly one destination", {
        suggestion: "Pass to_ref, to_id, or both to_x and to_y",
      });
    }
    const desktop = await ctx.desktop();
    const to: Point = args.to_x !== undefined && args.to_y !== undefined
      ? { x: args.to_x, y: args.to_y }
      : centreOf(
        await desktop.resolve(
          toScope(args),
          args.to_ref !== undefined ? { ref: args.to_ref } : { id: args.to_id },
        ),
      );
    return actReport("drag", await desktop.act(toScope(args), source, { kind: "drag", to }));
  },
  render: renderAct,
  data: actData,
});

/** Arguments of `focus`. */
export interface FocusArgs extends ScopeArgs, TargetArgs, ActArgs {
  /** CLI output format. */
  format?: "agent" | "json";
}

const focus: Op<FocusArgs, ActReport> = defineOp<FocusArgs, ActReport>({
  name: "focus",
  doc: "Give an element keyboard focus and raise its window.",
  examples: ["desktop focus --app Chromium --ref form/email"],
  hints: { ...ACT, destructive: false, idempotent: true },
  params: [...LIVE, ...targetParams(), DIFF, BOUNDS_CHANGES, ACT_FORMAT],
  output: ACT_OUT,
  run(ctx, args) {
    const target = toTarget(args);
    requireTarget("focus", target);
    return act(ctx, "focus", args, target, { kind: "focus" });
  },
  render: renderAct,
  data: actData,
});

// ---------------------------------------------------------------- wait

/** Arguments of `wait`. */
export interface WaitArgs extends ScopeArgs {
  /** Wait for an element with this text. */
  for_text?: string;
  /** Wait until no element has this text. */
  gone?: string;
  /** Wait for an element with this ref. */
  for_ref?: string;
  /** Restrict for_text/gone to roles. */
  roles?: string;
  /** CLI output format. */
  format?: "agent" | "json";
}

/** Result of `wait`. */
export interface WaitResult {
  /** Always true: a timeout is an error. */
  ok: true;
  /** The element that appeared (not for gone). */
  element?: ElementSummary;
  /** The text that is gone. */
  gone?: string;
}

const wait: Op<WaitArgs, WaitResult> = defineOp<WaitArgs, WaitResult>({
  name: "wait",
  doc: "Wait until for_text appears, gone text is gone, or for_ref exists; else TIMEOUT.",
  examples: [
    'desktop wait --app Chromium --for-text "Payment received" --timeout 30000',
    'desktop wait --app Chromium --gone "Loading"',
  ],
  hints: READ,
  params: [
    ...LIVE,
    { name: "for_text", type: "string", doc: "text to appear" },
    { name: "gone", type: "string", doc: "text to disappear" },
    { name: "for_ref", type: "string", doc: "ref to appear" },
    { name: "roles", type: "string", doc: "roles for the text" },
    ACT_FORMAT,
  ],
  output: WAIT_OUT,
  deadlineMs: (_args, timeoutMs) => timeoutMs * 2,
  async run(ctx, args) {
    const given = [args.for_text, args.gone, args.for_ref].filter((x) => x !== undefined);
    if (given.length !== 1) {
      throw new DesktopError("INVALID_ARGS", "wait takes exactly one condition", {
        suggestion: `Pass one of ${
          ["for_text", "gone", "for_ref"].map((n) => spelling(n, ctx.face)).join(", ")
        }`,
      });
    }
    const roles = rolesFilter(args.roles);
    const desktop = await ctx.desktop();
    const el = await desktop.wait(toScope(args), {
      ...(args.for_text !== undefined ? { text: args.for_text } : {}),
      ...(args.gone !== undefined ? { gone: args.gone } : {}),
      ...(args.for_ref !== undefined ? { ref: args.for_ref } : {}),
      ...(roles ? { roles } : {}),
    }, args.timeout ?? DEFAULT_TIMEOUT_MS);
    return el ? { ok: true, element: summary(el) } : { ok: true, gone: args.gone };
  },
  render(r, args) {
    if (args.format === "json") {
      return JSON.stringify({ ok: true, ...(r.element ? { element: r.element } : {}) });
    }
    return r.element ? `ok wait ${elementLine(r.element)}` : `ok wait gone "${r.gone}"`;
  },
});

// ---------------------------------------------------------------- observe

/** Arguments of `observe`. */
export interface ObserveArgs extends ScopeArgs {
  /** Seconds to observe (0: until interrupted). */
  duration?: number;
  /** ms between reads without notifications. */
  interval?: number;
  /** Roles list. */
  roles?: string;
  /** Depth limit. */
  depth?: number;
  /** Only this ref's subtree. */
  scope_ref?: string;
  /** Report moves and resizes (default: left out). */
  bounds?: boolean;
  /** Ignore moves and resizes (the default; kept for existing scripts). */
  ignore_bounds?: boolean;
  /** Ignore focus changes. */
  ignore_focus?: boolean;
  /** MCP: the cursor of a previous call, to get the events since. */
  cursor?: string;
}

/** Result of `observe`. */
export interface ObserveResult {
  /** The events, in order. */
  events: ObserveEvent[];
  /** MCP: pass it back to get the events after these. */
  cursor?: string;
}

const observeOp: Op<ObserveArgs, ObserveResult> = defineOp<ObserveArgs, ObserveResult>({
  name: "observe",
  mcpName: "observe_changes",
  doc: "Watch an app; report only changes by ref (snapshot, added, removed, changed, done). " +
    "Pass back cursor for the events since.",
  examples: [
    "desktop observe --app Chromium --duration 10",
    "desktop observe --app Chromium --roles btn,lnk | jq 'select(.type==\"added\")'",
    "desktop observe --app Chromium --bounds                # moves and resizes too",
  ],
  notes: `Output is always JSONL (--format does not apply): one event per line, e.g.
  {"type":"snapshot","ts":1767261600000,"count":42}
  {"type":"added","ts":...,"el":{"i":43,"ref":"form/submit","r":"btn","t":"Submit"},"p":"form","ref":"form/submit"}
  (a new subtree, e.g. a dialog, is one added event with its descendants in el.c)
  {"type":"removed","ts":...,"ref":"dialog/loading","i":15,"r":"txt","t":"Loading..."}
  {"type":"changed","ts":...,"ref":"form/email","i":5,"changes":{"v":["old","new"]}}
  {"type":"error","ts":...,"code":"APP_UNRESPONSIVE","error":"..."}
  {"type":"done","ts":...,"elapsed":"10.0s","events":3}
ts is milliseconds since the epoch. Ctrl+C ends the stream with its done event.
Events are keyed by ref; i is the element's position in the stream's own read,
not an --id target: act on what you see by its ref.`,
  hints: READ,
  params: [
    ...SCOPE_PARAMS.map((p) => p.name === "timeout" ? { ...p, doc: "deadline per read in ms" } : p),
    {
      name: "duration",
      type: "number",
      min: 0,
      max: 86_400,
      default: 0,
      faceDefault: { mcp: 3 },
      doc: "seconds (CLI: 0 = until Ctrl+C)",
    },
    {
      name: "interval",
      type: "int",
      min: 1,
      default: 1000,
      doc: "poll ms if no notifications",
    },
    { name: "roles", type: "string", doc: "only these roles" },
    { name: "depth", type: "int", min: 0, doc: "maximum depth" },
    { name: "scope_ref", type: "string", doc: "only this ref's subtree" },
    { name: "bounds", type: "boolean", doc: "report moves/resizes too" },
    { name: "ignore_bounds", type: "boolean", doc: "ignore moves/resizes (the default)" },
    { name: "ignore_focus", type: "boolean", doc: "ignore focus" },
    {
      name: "cursor",
      type: "string",
      face: "mcp",
      doc: "from the last call",
    },
  ],
  output: OBSERVE_OUT,
  deadlineMs: (args, timeoutMs) => (args.duration ?? 0) * 1000 + timeoutMs,
  async run(ctx, args) {
    const scope = toScope(args);
    if (Object.keys(scope).length === 0) {
      throw new DesktopError(
        "INVALID_ARGS",
        "observe needs a scope: app, pid, window or window_id",
        {
          suggestion: 'Run list to see apps, then e.g. observe with app "gedit"',
        },
      );
    }
    const roles = rolesFilter(args.roles);
    const stream = observe(await ctx.desktop(), scope, {
      duration: args.duration ?? 0,
      interval: args.interval,
      ...(roles ? { roles } : {}),
      ...(args.depth !== undefined ? { depth: args.depth } : {}),
      ...(args.scope_ref !== undefined ? { scopeRef: args.scope_ref } : {}),
      // Boxes move with every scroll and resize: they are noise unless asked for.
      ...(args.bounds && !args.ignore_bounds ? {} : { ignoreBounds: true }),
      ...(args.ignore_focus ? { ignoreFocus: true } : {}),
      signal: ctx.signal,
    });
    const events: ObserveEvent[] = [];
    for await (const ev of stream) {
      ctx.emit(ev);
      // The CLI prints as they come; keeping them all would grow without end.
      if (ctx.face !== "cli") events.push(ev);
    }
    return { events };
  },
  render: (r) =>
    [...r.events, ...(r.cursor ? [{ cursor: r.cursor }] : [])].map((e) => JSON.stringify(e))
      .join("\n"),
});

// ---------------------------------------------------------------- diff

/** Arguments of `diff`. */
export interface DiffArgs {
  /** The earlier snapshot file. */
  before: string;
  /** The later snapshot file. */
  after: string;
  /** Ignore moves and resizes. */
  ignore_bounds?: boolean;
  /** Ignore focus changes. */
  ignore_focus?: boolean;
  /** agent or jsonl. */
  format?: "agent" | "jsonl";
}

/** Result of `diff`: one object per change, secrets left out. */
export interface DiffResult {
  /** The changes, matched by ref. */
  changes: Record<string, unknown>[];
  /** The agent rendering. */
  agent: string;
}

/**
 * Loads a snapshot file and numbers it, so a saved file diffs exactly like
 * a live read (files written by any version diff on today's refs).
 *
 * @param path snapshot file path
 * @returns the snapshot's root with ids and refs
 * @throws DesktopError SNAPSHOT_INVALID for a missing or bad file
 */
export async function loadSnapshotTree(path: string): Promise<Element> {
  // Loaded on demand: reading files is a platform concern.
  const { readSnapshotFile } = await import("../platform/replay/snapshot_file.ts");
  const { root } = await readSnapshotFile(path);
  foldLabels(root);
  assignIds(root);
  assignRefs(root);
  return root;
}

const diff: Op<DiffArgs, DiffResult> = defineOp<DiffArgs, DiffResult>({
  name: "diff",
  doc: "Compare two snapshot files (read --save): added, removed, changed, by ref.",
  examples: [
    "desktop read --app Chromium --save before.json",
    "desktop click --app Chromium --ref submit",
    "desktop read --app Chromium --save after.json",
    "desktop diff before.json after.json --ignore-bounds",
  ],
  hints: READ,
  params: [
    { name: "before", type: "string", required: true, positional: true, doc: "earlier file" },
    { name: "after", type: "string", required: true, positional: true, doc: "later file" },
    { name: "ignore_bounds", type: "boolean", doc: "ignore moves/resizes" },
    { name: "ignore_focus", type: "boolean", doc: "ignore focus" },
    {
      name: "format",
      type: "enum",
      choices: ["agent", "jsonl"],
      default: "agent",
      doc: "output format",
    },
  ],
  output: DIFF_OUT,
  async run(_ctx, args) {
    const [before, after] = await Promise.all([
      loadSnapshotTree(args.before),
      loadSnapshotTree(args.after),
    ]);
    const changes = diffTrees(before, after, {
      ignoreBounds: args.ignore_bounds,
      ignoreFocus: args.ignore_focus,
    });
    const jsonl = renderChanges(changes, "jsonl");
    return {
      changes: jsonl.split("\n").filter(Boolean).map((l) => JSON.parse(l)),
      agent: renderChanges(changes, "agent").replace(/\n$/, ""),
    };
  },
  render(r, args) {
    return args.format === "jsonl" ? r.changes.map((c) => JSON.stringify(c)).join("\n") : r.agent;
  },
  data: (r) => ({ changes: r.changes }),
});

/** The table's type: each operation with its argument and result types. */
export interface Ops {
  /** `list` */
  list: Op<ListArgs, ListResult>;
  /** `read` */
  read: Op<ReadArgs, ReadOpResult>;
  /** `find` */
  find: Op<FindArgs, FindResult>;
  /** `click` */
  click: Op<ClickArgs, ActReport>;
  /** `type` */
  type: Op<TypeArgs, ActReport>;
  /** `key` */
  key: Op<KeyArgs, ActReport>;
  /** `action` */
  action: Op<ActionArgs, ActReport>;
  /** `set_value` */
  set_value: Op<SetValueArgs, ActReport>;
  /** `scroll` */
  scroll: Op<ScrollArgs, ActReport>;
  /** `drag` */
  drag: Op<DragArgs, ActReport>;
  /** `focus` */
  focus: Op<FocusArgs, ActReport>;
  /** `wait` */
  wait: Op<WaitArgs, WaitResult>;
  /** `observe` (MCP: `observe_changes`) */
  observe: Op<ObserveArgs, ObserveResult>;
  /** `diff` */
  diff: Op<DiffArgs, DiffResult>;
  /** `screenshot` */
  screenshot: Op<ScreenshotArgs, ScreenshotResult>;
  /** `launch` */
  launch: Op<LaunchArgs, LaunchResult>;
  /** `quit` */
  quit: Op<QuitArgs, QuitResult>;
  /** `window` */
  window: Op<WindowArgs, WindowOpResult>;
  /** `clipboard_get` (CLI: `clipboard get`) */
  clipboard_get: Op<ClipboardGetArgs, ClipboardGetResult>;
  /** `clipboard_set` (CLI: `clipboard set`) */
  clipboard_set: Op<ClipboardSetArgs, ClipboardSetResult>;
  /** `fill` */
  fill: Op<FillArgs, FillResult>;
  /** `run` */
  run: Op<RunArgs, RunReport>;
}

/**
 * Every operation, in the order the CLI help lists them.
 */
export const OPS: Ops = {
  list,
  read,
  find,
  click,
  type,
  key,
  action,
  set_value: setValue,
  scroll,
  drag,
  focus,
  wait,
  observe: observeOp,
  diff,
  ...SYSTEM_OPS,
};
